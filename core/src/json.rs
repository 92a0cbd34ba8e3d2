//! JSON text as hosts and hooks really write it: RFC 8259's grammar, which allows a `\uXXXX`
//! escape of an unpaired UTF-16 surrogate (`"\ud800"`). JavaScript's `JSON.stringify` emits one
//! for a string cut inside an emoji, Python's `json.dumps` for a lone surrogate in a `str`.
//! serde_json refuses such text, so an event carrying one in a model-written tool input was
//! refused as `invalid_json` and no hook ran: a guard bypass.
//!
//! Every parse of untrusted JSON in the engine goes through here; a parse into a `Value` goes
//! through [`value_from_str`] or [`value_from_slice`], which also read serde_json's one special
//! key as a key ([`PlainValue`]). The strict parse runs first
//! (no cost for ordinary text); only when it fails is the text scanned once, each unpaired
//! surrogate escape replaced by `\ufffd` (the same six bytes, so any later error keeps its line
//! and column), and parsed again. A number no double holds (`1e400`, valid by the same grammar,
//! `Infinity` to JavaScript) is refused by serde_json too, and repaired in the same pass: it
//! reads as `null`. Hooks still receive the event's bytes as the host sent them; only the
//! parsed value sees U+FFFD or `null`. Depth stays bounded by serde_json's 128-level limit.

use serde::de::DeserializeOwned;
use std::borrow::Cow;

pub mod clip;
pub mod cut;
mod quick;
pub(crate) mod scan;

/// Texts at least this long are read by [`quick`] first; below it a large string is rare and
/// serde_json is as quick.
const QUICK_MIN: usize = 4096;

/// Parses `text`, reading unpaired surrogate escapes as U+FFFD.
pub fn from_str<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    // serde_json's `str` reader: the text is known to be UTF-8, so strings are not checked again.
    serde_json::from_str(text).or_else(|e| reparse(text.as_bytes(), e, |b| serde_json::from_slice(b)))
}

/// [`from_str`] into a `Value` ([`PlainValue`]: every key a key), with a large text read by
/// [`quick`] when it can: the same value, its strings scanned four times as fast. Every parse
/// of untrusted text into a value goes through here or [`value_from_slice`].
pub fn value_from_str(text: &str) -> serde_json::Result<serde_json::Value> {
    if text.len() >= QUICK_MIN
        && let Some(v) = quick::value(text)
    {
        return Ok(v);
    }
    plain_value(serde_json::Deserializer::from_str(text))
        .or_else(|e| reparse(text.as_bytes(), e, |b| plain_value(serde_json::Deserializer::from_slice(b))))
}

/// An event's text as [`value_from_str`] reads it, except that an event nested past serde_json's
/// depth limit is still read, each container [`clip::DEPTH`] levels deep replaced by
/// [`clip::MARKER`] ([`clip`]: refusing it skipped every guard). `Some` says what was not read.
pub fn event_from_str(text: &str) -> serde_json::Result<(serde_json::Value, Option<clip::Clip>)> {
    match value_from_str(text) {
        Ok(v) => Ok((v, None)),
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            clip::read(text).map(|(v, c)| (v, Some(c)))
        }
        Err(e) => Err(e),
    }
}

/// `text` as a [`PlainValue`] (every key a key), with no repair: an unpaired surrogate escape is
/// an error, not U+FFFD. For a file hookwire rewrites (`hookwire install`), which must change
/// nothing it was not asked to.
pub fn value_exact(text: &str) -> serde_json::Result<serde_json::Value> {
    plain_value(serde_json::Deserializer::from_str(text))
}

/// [`value_from_str`] for bytes (invalid UTF-8 stays an error, as serde_json reports it).
pub fn value_from_slice(bytes: &[u8]) -> serde_json::Result<serde_json::Value> {
    plain_value(serde_json::Deserializer::from_slice(bytes))
        .or_else(|e| reparse(bytes, e, |b| plain_value(serde_json::Deserializer::from_slice(b))))
}

/// One whole JSON text read as a [`PlainValue`].
fn plain_value<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
) -> serde_json::Result<serde_json::Value> {
    let v = serde::de::DeserializeSeed::deserialize(PlainValue, &mut de)?;
    de.end()?;
    Ok(v)
}

/// serde_json's `Value`, read without its one special key. With the `raw_value` feature (the
/// engine uses it), `Value`'s own reading takes an object whose first key is
/// `$serde_json::private::RawValue` as the JSON text held in its value. A model-written tool
/// input `{"$serde_json::private::RawValue": "{\"command\":\"ls\"}", "command": "rm -rf /"}`
/// made the whole event unreadable (`trailing comma`: no hook ran), and one without the second
/// key was matched and `if`-checked as `{"command":"ls"}`. Here that key is a key like any
/// other; everything else is serde_json's reading, its depth limit included.
pub struct PlainValue;

impl<'de> serde::de::DeserializeSeed<'de> for PlainValue {
    type Value = serde_json::Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<serde_json::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for PlainValue {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> Result<serde_json::Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<serde_json::Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<serde_json::Value, A::Error> {
        let mut v = Vec::with_capacity(items.size_hint().unwrap_or(0));
        while let Some(item) = items.next_element_seed(PlainValue)? {
            v.push(item);
        }
        Ok(serde_json::Value::Array(v))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut entries: A) -> Result<serde_json::Value, A::Error> {
        let mut m = serde_json::Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            m.insert(key, entries.next_value_seed(PlainValue)?);
        }
        Ok(serde_json::Value::Object(m))
    }
}

/// [`from_str`] for bytes (invalid UTF-8 stays an error, as serde_json reports it).
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    serde_json::from_slice(bytes).or_else(|e| reparse(bytes, e, |b| serde_json::from_slice(b)))
}

/// After a failed strict parse: `parse` again with the text [`repair`]ed (unpaired surrogates,
/// numbers no double holds), or the strict error when there was nothing to repair. The repair
/// only rewrites ASCII into ASCII of the same length, so UTF-8 text stays UTF-8, and any later
/// error keeps its position.
fn reparse<T>(
    bytes: &[u8],
    strict: serde_json::Error,
    parse: impl FnOnce(&[u8]) -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    match repair(bytes) {
        Cow::Owned(fixed) => parse(&fixed),
        Cow::Borrowed(_) => Err(strict),
    }
}

/// Deepest hook output accepted. A hook's values are copied into the result (`updated_input`
/// at depth 2, `outcomes[i].verdict.updated_input` at depth 4), so output nested as deep as
/// serde_json allows (128) made a result 130 levels deep, which a host parsing the result with
/// serde_json's own limit then refused: a verdict lost in the host. 64 leaves room for every
/// embedding, and no real tool input comes near it.
pub const MAX_OUTPUT_DEPTH: usize = 64;

/// Parses a hook's output (stdout, an http body, a function's reply): [`from_str`], then
/// refused past [`MAX_OUTPUT_DEPTH`] levels.
pub fn from_output(text: &str) -> serde_json::Result<serde_json::Value> {
    let v = value_from_str(text)?;
    if depth(&v) > MAX_OUTPUT_DEPTH {
        return Err(serde::de::Error::custom(format!("nested more than {MAX_OUTPUT_DEPTH} levels deep")));
    }
    Ok(v)
}

/// A hook's output object with the values of only the `read` keys parsed; every other key is
/// kept with a `null` value, its value checked as JSON and skipped. A hook that echoes a 1 MiB
/// event back (`cat`) had its whole event copied into a parsed value no reader looked at
/// (figure 4b, issue 20). `Ok(None)`: valid JSON, not an object. The depth bound of
/// [`from_output`] applies to the values read; a skipped value is never copied anywhere, so it
/// is bounded only by being valid JSON.
pub fn object_from_output(
    text: &str,
    read: &[&str],
) -> serde_json::Result<Option<serde_json::Map<String, serde_json::Value>>> {
    let quick = if text.len() >= QUICK_MIN { quick::object(text, read) } else { None };
    let object = match quick {
        Some(object) => object,
        None => skim(serde_json::Deserializer::from_str(text), read).or_else(|e| {
            reparse(text.as_bytes(), e, |fixed| skim(serde_json::Deserializer::from_slice(fixed), read))
        })?,
    };
    if let Some(m) = &object
        && m.values().any(|v| depth(v) >= MAX_OUTPUT_DEPTH)
    {
        return Err(serde::de::Error::custom(format!("nested more than {MAX_OUTPUT_DEPTH} levels deep")));
    }
    Ok(object)
}

/// One whole JSON text read through [`Skim`].
fn skim<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
    read: &[&str],
) -> serde_json::Result<Option<serde_json::Map<String, serde_json::Value>>> {
    let object = serde::Deserializer::deserialize_any(&mut de, Skim(read))?;
    de.end()?;
    Ok(object)
}

/// The visitor of [`object_from_output`].
struct Skim<'k>(&'k [&'k str]);

impl<'de> serde::de::Visitor<'de> for Skim<'_> {
    type Value = Option<serde_json::Map<String, serde_json::Value>>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
        let mut m = serde_json::Map::new();
        while let Some(key) = entries.next_key::<String>()? {
            let value = if self.0.contains(&key.as_str()) {
                entries.next_value_seed(PlainValue)?
            } else {
                entries.next_value::<serde::de::IgnoredAny>()?;
                serde_json::Value::Null
            };
            m.insert(key, value);
        }
        Ok(Some(m))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        while items.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

/// Levels of nesting of a value (a scalar is 1), counted without recursion.
pub fn depth(v: &serde_json::Value) -> usize {
    let mut max = 0;
    let mut todo = vec![(v, 1usize)];
    while let Some((v, d)) = todo.pop() {
        max = max.max(d);
        match v {
            serde_json::Value::Array(a) => todo.extend(a.iter().map(|x| (x, d + 1))),
            serde_json::Value::Object(m) => todo.extend(m.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    max
}

/// The bytes a value holds in memory: its nodes, its strings and its keys, counted without
/// recursion (what the async queue charges for a hook's JSON, §5.10).
pub fn held_bytes(v: &serde_json::Value) -> usize {
    let node = std::mem::size_of::<serde_json::Value>();
    let mut sum = 0;
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        sum += node;
        match v {
            serde_json::Value::String(s) => sum += s.len(),
            serde_json::Value::Array(a) => todo.extend(a),
            serde_json::Value::Object(m) => {
                sum += m.keys().map(|k| k.len() + std::mem::size_of::<String>()).sum::<usize>();
                todo.extend(m.values());
            }
            _ => {}
        }
    }
    sum
}

fn hex4(b: &[u8]) -> Option<u16> {
    let s = std::str::from_utf8(b.get(..4)?).ok()?;
    if !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(s, 16).ok()
}

/// The text with what RFC 8259 allows and serde_json refuses made readable, in one linear
/// pass; borrowed when there was nothing to repair. Each fix keeps the text's length, so a later
/// error keeps its line and column, and its UTF-8:
///
/// - every `\uD800`–`\uDFFF` escape that is not half of a high-low pair becomes `\ufffd`
///   (escapes are recognised only inside strings, and `\\u...`, an escaped backslash, is left
///   alone);
/// - every number no double holds (`1e400`, `-1e400`, a 400-digit integer: serde_json's
///   "number out of range") becomes `null` padded with blanks, what JavaScript's
///   `JSON.stringify` writes for the `Infinity` its `JSON.parse` reads there. Such a number is at
///   least five bytes long (`1e309`), so `null` always fits.
pub fn repair(b: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut in_string = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if b.get(i + 1) != Some(&b'u') {
                    i += 2; // a one-character escape, `\"` included
                    continue;
                }
                let Some(unit) = hex4(&b[i + 2..]) else {
                    i += 2;
                    continue;
                };
                let high = (0xD800..0xDC00).contains(&unit);
                let low = (0xDC00..0xE000).contains(&unit);
                let paired = high
                    && b.get(i + 6) == Some(&b'\\')
                    && b.get(i + 7) == Some(&b'u')
                    && hex4(b.get(i + 8..).unwrap_or(&[])).is_some_and(|n| (0xDC00..0xE000).contains(&n));
                if paired {
                    i += 12;
                    continue;
                }
                if high || low {
                    let o = out.get_or_insert_with(|| b.to_vec());
                    o[i + 2..i + 6].copy_from_slice(b"fffd");
                }
                i += 6;
                continue;
            }
            c if !in_string && (c == b'-' || c.is_ascii_digit()) => {
                let end = number_end(b, i);
                if overflows(&b[i..end]) {
                    let o = out.get_or_insert_with(|| b.to_vec());
                    o[i..i + 4].copy_from_slice(b"null");
                    o[i + 4..end].fill(b' ');
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.map_or(Cow::Borrowed(b), Cow::Owned)
}

/// Where the number token starting at `start` ends: its bytes are those a JSON number may hold
/// (whether they form one is the parser's to say).
fn number_end(b: &[u8], start: usize) -> usize {
    let len = b[start..]
        .iter()
        .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
        .unwrap_or(b.len() - start);
    start + len
}

/// Whether `token` is a number whose magnitude no finite double holds. Rust's reading, like
/// serde_json's, rounds to the nearest double, so the two agree on which ones overflow.
fn overflows(token: &[u8]) -> bool {
    token.len() >= 5
        && std::str::from_utf8(token).ok().and_then(|t| t.parse::<f64>().ok()).is_some_and(f64::is_infinite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn unpaired_surrogates_read_as_replacement_characters() {
        let v: Value = from_str(r#"{"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\ud83d"}"#).unwrap();
        assert_eq!(v, json!({"a": "x\u{fffd}y", "b": "\u{fffd}", "c": "😀", "d": "\u{fffd}"}));
    }

    #[test]
    fn escaped_backslashes_and_other_errors_are_left_alone() {
        let v: Value = from_str(r#"{"a":"\\ud800"}"#).unwrap();
        assert_eq!(v, json!({"a": "\\ud800"}));
        let e = from_str::<Value>("{\"a\": \"\\ud800\",\n  }").unwrap_err();
        assert_eq!((e.line(), e.column()), (2, 3));
        assert!(from_str::<Value>("not json").is_err());
    }

    #[test]
    fn hook_output_deeper_than_the_bound_is_refused() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(from_output(&deep(MAX_OUTPUT_DEPTH)).is_ok());
        let e = from_output(&deep(MAX_OUTPUT_DEPTH + 1)).unwrap_err().to_string();
        assert!(e.contains("nested more than 64"), "{e}");
    }

    #[test]
    fn a_skimmed_object_reads_only_the_named_values_and_keeps_every_key() {
        let text = r#"{"decision":"block","big":{"a":[1,2,{"b":"\ud800"}]},"reason":"x\ud800","n":3}"#;
        let m = object_from_output(text, &["decision", "reason"]).unwrap().unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"decision": "block", "big": null, "reason": "x\u{fffd}", "n": null})
        );
        assert_eq!(object_from_output("[1, {\"a\": 2}]", &["a"]).unwrap(), None);
        assert_eq!(object_from_output("\"s\"", &[]).unwrap(), None);
        for bad in ["{\"a\": 1} x", "{\"a\": [1,}", "{\"a\": \"\\q\"}", "{\"a\"}"] {
            assert!(object_from_output(bad, &["a"]).is_err(), "{bad}");
            assert!(object_from_output(bad, &[]).is_err(), "{bad}");
        }
        // The same key twice: the last one counts, as in a full parse.
        let m = object_from_output(r#"{"a": 1, "a": 2}"#, &["a"]).unwrap().unwrap();
        assert_eq!(m["a"], json!(2));
    }

    #[test]
    fn a_skimmed_value_read_is_bounded_in_depth_and_one_skipped_is_not() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        let read = format!("{{\"a\": {}}}", deep(MAX_OUTPUT_DEPTH));
        let e = object_from_output(&read, &["a"]).unwrap_err().to_string();
        assert!(e.contains("nested more than 64"), "{e}");
        assert!(object_from_output(&format!("{{\"a\": {}}}", deep(MAX_OUTPUT_DEPTH - 1)), &["a"]).is_ok());
        // Skipped: as deep as serde_json's own limit allows, never copied, so not refused.
        assert!(object_from_output(&format!("{{\"b\": {}}}", deep(120)), &["a"]).is_ok());
        // Far deeper too: serde_json skips without recursing (a byte per level, and the text
        // is at most `max_output_bytes`), so this is no stack overflow.
        assert!(object_from_output(&format!("{{\"b\": {}}}", deep(100_000)), &["a"]).is_ok());
    }

    #[test]
    fn repair_is_linear_and_keeps_length() {
        let text = format!("[{}]", vec![r#""\udbff""#; 200_000].join(","));
        let fixed = repair(text.as_bytes());
        assert_eq!(fixed.len(), text.len());
        let v: Value = from_slice(&fixed).unwrap();
        assert_eq!(v.as_array().map(Vec::len), Some(200_000));
    }

    #[test]
    fn numbers_no_double_holds_read_as_null_and_every_other_number_as_serde_json_reads_it() {
        let text =
            r#"{"a":1e400,"b":-1e400,"c":"1e400","d":[1e308,-0,1e-400,12345678901234567890123],"e":1E+309}"#;
        let fixed = repair(text.as_bytes());
        assert_eq!(fixed.len(), text.len());
        let v: Value = value_from_str(text).unwrap();
        assert_eq!(v["a"], Value::Null);
        assert_eq!(v["b"], Value::Null);
        assert_eq!(v["c"], "1e400", "a string is never touched");
        assert_eq!(v["d"], json!([1e308, -0.0, 0.0, 1.2345678901234568e22]));
        assert_eq!(v["e"], Value::Null);
        let long = format!("[{}]", "9".repeat(400));
        assert_eq!(value_from_str(&long).unwrap(), json!([null]));
        // Text that is not JSON stays an error, at its own place.
        let e = value_from_str(r#"{"a":1e400,}"#).unwrap_err();
        assert_eq!((e.line(), e.column()), (1, 12), "{e}");
        // Linear: 200,000 of them.
        let many = format!("[{}]", vec!["-1e999"; 200_000].join(","));
        assert_eq!(value_from_str(&many).unwrap().as_array().map(Vec::len), Some(200_000));
    }
}
