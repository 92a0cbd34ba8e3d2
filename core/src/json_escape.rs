//! Writing a hook's captured output into the result JSON. A result carries each hook's stdout
//! and stderr (up to `max_output_bytes`, 1 MiB by default), and serde_json escapes a string one
//! byte at a time: for a hook echoing a 1 MiB event that was a sixth of the whole fire (figure
//! 4b, issue 20). Here runs of bytes that need no escape are found by the vector scan of
//! `json::scan` and copied whole; the escapes themselves are serde_json's, byte for byte (a
//! test compares both on generated strings).

use serde::{Serialize, Serializer};
use serde_json::ser::Formatter;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::io;
use std::sync::OnceLock;

/// Below this a string goes through serde_json as usual: the detour would cost more than it
/// saves.
const LARGE: usize = 4096;

/// The text [`to_vec`] is writing on this thread. While it is set, a large output is escaped
/// straight into it by [`output`], so a 1 MiB stdout is scanned once and written once (before,
/// it went through its own string, a UTF-8 check, serde_json's raw-value parse and a copy).
struct Sink {
    buf: Vec<u8>,
    /// [`output`] has just written a string whose placeholder the formatter must drop.
    spliced: bool,
}

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// `value` as compact JSON, byte for byte what `serde_json::to_vec` writes, with large
/// captured outputs escaped straight into the text. `capacity` sizes the text up front.
///
/// This works because serde_json's serializer writes as it goes, in order: [`output`] appends
/// the escaped string right after the key serde_json has written, then hands serde_json a
/// raw-value placeholder that [`Splice`] writes as nothing. A type serialised here must not
/// buffer its fields (`#[serde(flatten)]`); a test compares the result's text with
/// serde_json's own on large outputs.
fn to_vec<T: Serialize>(value: &T, capacity: usize) -> serde_json::Result<Vec<u8>> {
    /// Puts back whatever sink was set before, even if serialising panicked, so a later
    /// serialisation on this thread never writes into a stale one.
    struct Restore(Option<Sink>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SINK.with_borrow_mut(|s| *s = previous);
        }
    }
    // A large text gets a kept buffer: the C ABI gives it back when the host frees the text.
    let fresh = Sink { buf: crate::buffer_pool::take(capacity), spliced: false };
    let restore = Restore(SINK.with_borrow_mut(|s| s.replace(fresh)));
    value.serialize(&mut serde_json::Serializer::with_formatter(SinkWriter, Splice))?;
    let written = SINK.with_borrow_mut(Option::take).map(|s| s.buf).unwrap_or_default();
    drop(restore);
    Ok(written)
}

/// [`to_vec`] as a `String`, without checking again that the text is UTF-8 (a 1 MiB pass):
/// serde_json writes UTF-8 only, and a spliced output is a `&str` with ASCII escapes added.
pub fn to_string<T: Serialize>(value: &T, capacity: usize) -> serde_json::Result<String> {
    let bytes = to_vec(value, capacity)?;
    // SAFETY: every byte came from serde_json's writer, which writes only UTF-8 (it is what
    // `serde_json::to_string` relies on too), or from `quote_into`, which copies whole runs of
    // a `&str` cut only before or after an ASCII byte and adds only ASCII.
    Ok(unsafe { String::from_utf8_unchecked(bytes) })
}

/// serde_json's writer in [`to_vec`]: appends to this thread's sink.
struct SinkWriter;

impl io::Write for SinkWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes).map(|()| bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        SINK.with_borrow_mut(|s| match s {
            Some(s) => {
                s.buf.extend_from_slice(bytes);
                Ok(())
            }
            None => Err(io::Error::other("the result text is not being written on this thread")),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// serde_json's compact format, except that the placeholder of a spliced output is dropped.
struct Splice;

impl Formatter for Splice {
    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let spliced = SINK.with_borrow_mut(|s| s.as_mut().is_some_and(|s| std::mem::take(&mut s.spliced)));
        if spliced { Ok(()) } else { writer.write_all(fragment.as_bytes()) }
    }
}

/// `#[serde(serialize_with)]` for captured output: the same JSON as serde_json writes.
pub fn output<S: Serializer>(text: &str, ser: S) -> Result<S::Ok, S::Error> {
    if text.len() < LARGE {
        return ser.serialize_str(text);
    }
    let spliced = SINK.with_borrow_mut(|s| match s {
        Some(s) => {
            quote_into(&mut s.buf, text);
            s.spliced = true;
            true
        }
        None => false,
    });
    if spliced {
        return placeholder().serialize(ser);
    }
    // Not inside `to_vec` (the CLI's pretty output, a binding's own serialiser): a raw value.
    match RawValue::from_string(quoted(text)) {
        Ok(raw) => raw.serialize(ser),
        // Cannot happen (the text is valid JSON by construction); serde_json's way still works.
        Err(_) => ser.serialize_str(text),
    }
}

/// The raw value [`Splice`] drops in place of a spliced output.
fn placeholder() -> &'static RawValue {
    static PLACEHOLDER: OnceLock<Box<RawValue>> = OnceLock::new();
    PLACEHOLDER.get_or_init(|| RawValue::from_string("null".to_owned()).expect("`null` is JSON"))
}

/// `text` as a JSON string literal, quotes included.
pub fn quoted(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 2 + text.len() / 64);
    quote_into(&mut out, text);
    // Only whole UTF-8 sequences were copied and only ASCII was added.
    String::from_utf8(out).unwrap_or_default()
}

/// Appends `text` as a JSON string literal, quotes included: each run of bytes that need no
/// escape is found by [`crate::json::scan::plain_run`] and copied whole.
fn quote_into(out: &mut Vec<u8>, text: &str) {
    let b = text.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut i = 0;
    loop {
        let run = crate::json::scan::plain_run(&b[i..]);
        out.extend_from_slice(&b[i..i + run]);
        i += run;
        let Some(&c) = b.get(i) else { break };
        // `plain_run` stops only at a byte that needs an escape.
        push_escape(out, c, escape(c).unwrap_or(b'u'));
        i += 1;
    }
    out.push(b'"');
}

/// serde_json's escape for a byte, if it needs one: the short forms, else `\u00XX`.
fn escape(c: u8) -> Option<u8> {
    match c {
        b'"' => Some(b'"'),
        b'\\' => Some(b'\\'),
        0x08 => Some(b'b'),
        0x0C => Some(b'f'),
        b'\n' => Some(b'n'),
        b'\r' => Some(b'r'),
        b'\t' => Some(b't'),
        0x00..=0x1F => Some(b'u'),
        _ => None,
    }
}

fn push_escape(out: &mut Vec<u8>, c: u8, esc: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'\\');
    out.push(esc);
    if esc == b'u' {
        out.extend_from_slice(&[b'0', b'0', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic pseudo-random strings mixing every escapable byte, quotes, backslashes,
    /// ASCII and multi-byte characters, at lengths around the 8-byte steps.
    fn generated(seed: u64, len: usize) -> String {
        let alphabet: Vec<char> = (0u8..0x20)
            .map(char::from)
            .chain(['"', '\\', 'a', 'z', ' ', '/', '\u{7f}', 'é', '€', '😀', '\u{2028}'])
            .collect();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Mostly plain letters, so long clean runs are exercised too.
                if x.is_multiple_of(4) { alphabet[(x >> 8) as usize % alphabet.len()] } else { 'q' }
            })
            .collect()
    }

    #[test]
    fn quoting_is_byte_for_byte_what_serde_json_writes() {
        for seed in 0..400 {
            let s = generated(seed, (seed as usize * 7) % 300);
            assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap(), "{s:?}");
        }
        for c in 0u8..=0x7f {
            let s = format!("abcdefg{}hijklmnop", char::from(c));
            assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap(), "{c:#x}");
        }
        // One escape at every place of a long clean run: across the scan's 64-, 16- and 8-byte steps.
        for at in 0..100 {
            for c in ['"', '\\', '\n', '\u{0}', '\u{1f}', 'é'] {
                let mut s: Vec<char> = "abcdefghijklmnopqrstuvwxyz".chars().cycle().take(100).collect();
                s[at] = c;
                let s: String = s.into_iter().collect();
                assert_eq!(quoted(&s), serde_json::to_string(&s).unwrap(), "{c:?} at {at}");
            }
        }
    }

    #[test]
    fn large_output_serialises_as_serde_json_would() {
        #[derive(serde::Serialize)]
        struct Outcome<'a> {
            #[serde(serialize_with = "output")]
            stdout: &'a str,
        }
        for seed in 0..8 {
            let s = generated(seed, LARGE * 3 + seed as usize);
            let ours = serde_json::to_string(&Outcome { stdout: &s }).unwrap();
            let theirs = serde_json::to_string(&serde_json::json!({ "stdout": s })).unwrap();
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn to_vec_writes_other_raw_values_and_small_outputs_as_serde_json_does() {
        #[derive(serde::Serialize)]
        struct Mixed<'a> {
            raw: Box<RawValue>,
            #[serde(serialize_with = "output")]
            big: &'a str,
            after: Box<RawValue>,
            #[serde(serialize_with = "output")]
            small: &'a str,
        }
        let big = generated(3, LARGE * 2);
        let m = Mixed {
            raw: RawValue::from_string("{\"a\": [1, 2]}".into()).unwrap(),
            big: &big,
            after: RawValue::from_string("null".into()).unwrap(),
            small: "tab\there",
        };
        assert_eq!(to_vec(&m, 0).unwrap(), serde_json::to_vec(&m).unwrap());
    }
}
