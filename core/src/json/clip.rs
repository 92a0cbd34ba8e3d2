//! Events nested past what the engine reads. The model writes a tool's arguments: `[[[…]]]`
//! 130 levels deep in one of them made serde_json refuse the whole event ("recursion limit
//! exceeded"), so no hook ran, and `hookwire bridge` exited 1, which most agents read as "run
//! the tool": a guard bypass any model could write. The engine never looks that deep (matchers
//! and `if` rules read the tool's name and its top-level arguments), so such an event is read
//! with each container that opens [`DEPTH`] levels deep replaced by the string [`MARKER`]:
//! the hooks run, hooks of the host's own dialect still get the bytes as sent, the result says
//! so, and a rewrite that would hand the marker back to the agent is refused
//! (`FireResult::refuse_unread_rewrites`).
//!
//! The scan is a loop over the bytes with the open containers on a heap stack: it validates the
//! whole text (the deep part included) without recursion, in time linear in its length.

use serde_json::Value;

/// Containers that open this many levels deep are not read (serde_json reads 128; the engine's
/// own walks stay well inside that).
pub const DEPTH: usize = 100;

/// What a container nested deeper than [`DEPTH`] reads as.
pub const MARKER: &str = "[hookwire: nested deeper than 100 levels, not read]";

/// How much of an event was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clip {
    /// Containers replaced by [`MARKER`].
    pub count: usize,
    /// The JSON pointer of the first one.
    pub first: String,
}

impl Clip {
    /// The result's warning for a fire of a clipped event, when a hook given the host's own
    /// text still gets it whole (`Dispatcher::fire_json`).
    pub fn warning(&self) -> String {
        format!(
            "{}: the engine read each as {MARKER:?} (a hook given the host's own text still gets it whole)",
            self.head()
        )
    }

    /// The warning when the hooks were given the event as read, markers included (the bridge
    /// and `hookwire fire`, which fire the parsed value).
    pub fn warning_as_read(&self) -> String {
        format!("{}: the engine and the hooks read each as {MARKER:?}", self.head())
    }

    fn head(&self) -> String {
        const SHOWN: usize = 120;
        let first = match self.first.char_indices().nth(SHOWN) {
            Some((at, _)) => format!("{}…", &self.first[..at]),
            None => self.first.clone(),
        };
        format!("the event nests deeper than {DEPTH} levels ({} place(s), the first at {first})", self.count)
    }
}

/// `text`, which serde_json refused for its depth, read with every container that opens
/// [`DEPTH`] levels deep replaced by [`MARKER`]. An error when the text is not JSON.
pub(crate) fn read(text: &str) -> serde_json::Result<(Value, Clip)> {
    let spans = deep_spans(text.as_bytes()).map_err(|(at, what)| {
        <serde_json::Error as serde::de::Error>::custom(format!("{what} at byte {at}"))
    })?;
    let marker = Value::String(MARKER.to_string()).to_string();
    let mut clipped = String::with_capacity(text.len());
    let mut last = 0;
    for &(start, end) in &spans {
        clipped.push_str(&text[last..start]);
        clipped.push_str(&marker);
        last = end;
    }
    clipped.push_str(&text[last..]);
    let value = super::value_from_str(&clipped)?;
    let first = pointer_to_marker(&value).unwrap_or_default();
    Ok((value, Clip { count: spans.len(), first }))
}

/// What the scan expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Value,
    ValueOrClose,
    Key,
    KeyOrClose,
    Colon,
    CommaOrClose,
}

/// The byte spans of the containers that open [`DEPTH`] deep, after checking that `b` is one
/// JSON value; else where and why it is not.
fn deep_spans(b: &[u8]) -> Result<Vec<(usize, usize)>, (usize, &'static str)> {
    let mut open: Vec<u8> = Vec::new();
    let mut spans = Vec::new();
    let mut deep_start = 0;
    let mut want = Want::Value;
    let mut i = 0;
    loop {
        i = skip_blanks(b, i);
        let Some(&c) = b.get(i) else {
            return Err((i, "unexpected end of the text"));
        };
        let closes = matches!(
            (want, c),
            (Want::ValueOrClose, b']') | (Want::KeyOrClose, b'}') | (Want::CommaOrClose, b']' | b'}')
        );
        if closes {
            let opener = if c == b']' { b'[' } else { b'{' };
            if open.pop() != Some(opener) {
                return Err((i, "mismatched closing bracket"));
            }
            if open.len() == DEPTH {
                spans.push((deep_start, i + 1));
            }
            (i, want) = (i + 1, Want::CommaOrClose);
        } else {
            match want {
                Want::Value | Want::ValueOrClose => match c {
                    b'[' | b'{' => {
                        if open.len() == DEPTH {
                            deep_start = i;
                        }
                        open.push(c);
                        let inside = if c == b'[' { Want::ValueOrClose } else { Want::KeyOrClose };
                        (i, want) = (i + 1, inside);
                    }
                    _ => {
                        i = match c {
                            b'"' => string_end(b, i)?,
                            b'-' | b'0'..=b'9' => number_end(b, i)?,
                            b't' => literal_end(b, i, b"true")?,
                            b'f' => literal_end(b, i, b"false")?,
                            b'n' => literal_end(b, i, b"null")?,
                            _ => return Err((i, "expected a value")),
                        };
                        want = Want::CommaOrClose;
                    }
                },
                Want::Key | Want::KeyOrClose if c == b'"' => (i, want) = (string_end(b, i)?, Want::Colon),
                Want::Key | Want::KeyOrClose => return Err((i, "expected a key")),
                Want::Colon if c == b':' => (i, want) = (i + 1, Want::Value),
                Want::Colon => return Err((i, "expected `:`")),
                Want::CommaOrClose if c == b',' => {
                    let next = if open.last() == Some(&b'[') { Want::Value } else { Want::Key };
                    (i, want) = (i + 1, next);
                }
                Want::CommaOrClose => return Err((i, "expected `,` or a closing bracket")),
            }
        }
        if want == Want::CommaOrClose && open.is_empty() {
            break;
        }
    }
    if skip_blanks(b, i) != b.len() {
        return Err((i, "trailing characters after the value"));
    }
    Ok(spans)
}

fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the string that starts at `i` (its `"`).
fn string_end(b: &[u8], i: usize) -> Result<usize, (usize, &'static str)> {
    let mut j = i + 1;
    loop {
        match b.get(j) {
            None => return Err((i, "unterminated string")),
            Some(b'"') => return Ok(j + 1),
            Some(b'\\') => match b.get(j + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => j += 2,
                Some(b'u') if b.get(j + 2..j + 6).is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) => {
                    j += 6
                }
                _ => return Err((j, "invalid escape")),
            },
            Some(&c) if c < 0x20 => return Err((j, "control character in a string")),
            Some(_) => j += 1,
        }
    }
}

/// The end of the number that starts at `i`, by RFC 8259's grammar.
fn number_end(b: &[u8], i: usize) -> Result<usize, (usize, &'static str)> {
    let digits = |mut j: usize| {
        let from = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        (j, j > from)
    };
    let mut j = i + usize::from(b[i] == b'-');
    match b.get(j) {
        Some(b'0') => j += 1,
        Some(b'1'..=b'9') => j = digits(j).0,
        _ => return Err((j, "invalid number")),
    }
    if b.get(j) == Some(&b'.') {
        let (end, any) = digits(j + 1);
        if !any {
            return Err((j, "invalid number"));
        }
        j = end;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        j += 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let (end, any) = digits(j);
        if !any {
            return Err((j, "invalid number"));
        }
        j = end;
    }
    Ok(j)
}

fn literal_end(b: &[u8], i: usize, word: &[u8]) -> Result<usize, (usize, &'static str)> {
    if b.get(i..i + word.len()) == Some(word) { Ok(i + word.len()) } else { Err((i, "expected a value")) }
}

/// The JSON pointer of the first [`MARKER`] in `v` (depth-first, in document order).
fn pointer_to_marker(v: &Value) -> Option<String> {
    let mut todo = vec![(v, String::new())];
    while let Some((v, at)) = todo.pop() {
        match v {
            Value::String(s) if s == MARKER => return Some(at),
            Value::Array(a) => todo.extend(a.iter().enumerate().rev().map(|(k, x)| (x, format!("{at}/{k}")))),
            Value::Object(m) => todo.extend(
                m.iter().rev().map(|(k, x)| (x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")))),
            ),
            _ => {}
        }
    }
    None
}

/// Whether `v` holds [`MARKER`] or a string cut from a payload too large to read whole
/// ([`super::cut`]) anywhere: asked of every rewrite a fire returns, so it walks without
/// building the pointers [`pointer_to_marker`] does.
pub fn holds_marker(v: &Value) -> bool {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::String(s) if s == MARKER || super::cut::is_cut(s) => return true,
            Value::Array(a) => todo.extend(a),
            Value::Object(m) => todo.extend(m.values()),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(levels: usize) -> String {
        "[".repeat(levels) + "1" + &"]".repeat(levels)
    }

    #[test]
    fn containers_past_the_depth_read_as_the_marker_and_the_rest_is_kept() {
        let text = format!(
            r#"{{"tool_input": {{"command": "rm -rf /", "x": {}}}, "n": [1, -2.5e3, true, null]}}"#,
            nested(5000)
        );
        let (v, clip) = read(&text).unwrap();
        assert_eq!(v["tool_input"]["command"], "rm -rf /");
        assert_eq!(v["n"], json!([1, -2500.0, true, null]));
        assert_eq!(clip.count, 1);
        let pointer = format!("/tool_input/x{}", "/0".repeat(DEPTH - 2));
        assert_eq!(clip.first, pointer);
        assert_eq!(v.pointer(&pointer), Some(&json!(MARKER)));
        assert_eq!(super::super::depth(&v), DEPTH + 1);
    }

    #[test]
    fn every_deep_container_is_counted_and_shallow_siblings_stay() {
        let deep = nested(DEPTH + 10);
        let text = format!(r#"{{"a": [{deep}, {deep}, "s"], "b": {{"c": {deep}}}}}"#);
        let (v, clip) = read(&text).unwrap();
        assert_eq!(clip.count, 3);
        assert_eq!(v["a"][2], "s");
        assert!(clip.first.starts_with("/a/0/"), "{}", clip.first);
    }

    #[test]
    fn text_that_is_not_json_stays_an_error_however_deep_the_fault() {
        for bad in [
            nested(200).replace("1", "1,"),
            nested(200).replace("1", "01"),
            nested(200).replace("1", r#""a\x""#),
            nested(200).replace("1", "tru"),
            nested(200) + "]",
            nested(200) + " x",
            nested(200)[..300].to_string(),
            "[".repeat(200) + "{\"k\" 1}" + &"]".repeat(200),
            "[".repeat(200) + "{\"k\": 1,}" + &"]".repeat(200),
            "[".repeat(200) + "]" + &"}".repeat(199),
        ] {
            assert!(read(&bad).is_err(), "{}", &bad[bad.len().saturating_sub(40)..]);
        }
    }

    #[test]
    fn deep_text_serde_json_would_accept_is_accepted() {
        for ok in [
            "[".repeat(150) + "{\"k\": [], \"j\": {}, \"s\": \"a\\u00e9\\\"\"}" + &"]".repeat(150),
            "[".repeat(150) + "[ ] , { } , 0.5 , -0 , 1E+2" + &"]".repeat(150),
            " \n".to_string() + &nested(150) + " \t",
        ] {
            assert!(read(&ok).is_ok(), "{ok}");
        }
    }

    /// The scan's grammar is serde_json's: every one-byte deletion and substitution of a few
    /// texts is valid for one exactly when it is for the other (shallow texts, where serde_json
    /// reads any).
    #[test]
    fn the_scan_accepts_exactly_what_serde_json_accepts() {
        let samples = [
            r#"{"a": [1, -0.5, 2e10, "x\n\"y", true, false, null, {}, []], "b": {"c": "d"}}"#,
            r#"[{"k": -12.75E-3}, [[]], "\/\b\f\r\t", 0]"#,
        ];
        let alphabet = b" \t\n{}[]:,\"\\-+.0123456789eEtrufalsn/x";
        let mut checked = 0;
        for sample in samples {
            let b = sample.as_bytes();
            let mut variants: Vec<Vec<u8>> = (0..b.len()).map(|k| [&b[..k], &b[k + 1..]].concat()).collect();
            for k in 0..b.len() {
                for &c in alphabet {
                    variants.push([&b[..k], &[c][..], &b[k + 1..]].concat());
                }
            }
            for v in variants {
                let Ok(text) = std::str::from_utf8(&v) else { continue };
                let serde = serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
                assert_eq!(deep_spans(&v).is_ok(), serde, "{text}");
                checked += 1;
            }
        }
        assert!(checked > 2000, "{checked}");
    }
}
