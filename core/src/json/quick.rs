//! A quick reading of JSON text that carries large strings: a parse into serde_json's `Value`,
//! and the skim of a hook's output object ([`super::object_from_output`]). Both scan strings
//! with [`super::scan::plain_run`], where serde_json goes eight bytes at a time: with a 1 MiB
//! event, its parse and the skim of a `cat` hook's output were a third of the fire's own
//! time (figure 4b, issue 20).
//!
//! They answer only when they can vouch that serde_json would answer the same (read as a
//! [`super::PlainValue`]), and otherwise say `None`, and the caller asks serde_json. So
//! everything but the common shape stays serde_json's: every error and its position, the repair
//! of unpaired surrogates ([`super::repair`]) and nesting past [`MAX_DEPTH`].
//! Numbers are read by serde_json, token by token. A property test holds both readings equal
//! on generated text.

use super::scan::plain_run;
use serde_json::{Map, Value};

/// Deepest nesting read here. serde_json's own limit is 128 for a parsed value and none for a
/// skipped one; deeper text is left to it.
const MAX_DEPTH: usize = 100;

/// `text` parsed as serde_json reads a [`super::PlainValue`], or `None` when this reading
/// cannot vouch for the answer.
pub fn value(text: &str) -> Option<Value> {
    let mut p = Parser { text, b: text.as_bytes(), i: 0 };
    let v = p.value(0)?;
    p.end().then_some(v)
}

/// What [`super::object_from_output`]'s serde_json skim answers for `text`, or `None` when
/// this reading cannot vouch for it: an object's keys with the values of the `read` keys
/// parsed and every other value `null` (checked as JSON and skipped), or `Some(None)` for an
/// array. A scalar is left to serde_json.
pub fn object(text: &str, read: &[&str]) -> Option<Option<Map<String, Value>>> {
    let mut p = Parser { text, b: text.as_bytes(), i: 0 };
    p.ws();
    let object = match p.peek()? {
        b'{' => {
            p.i += 1;
            Some(p.entries(read)?)
        }
        b'[' => {
            p.skip(0)?;
            None
        }
        _ => return None,
    };
    p.end().then_some(object)
}

struct Parser<'t> {
    text: &'t str,
    b: &'t [u8],
    /// The next byte to read.
    i: usize,
}

impl Parser<'_> {
    /// Whether only whitespace is left.
    fn end(&mut self) -> bool {
        self.ws();
        self.i == self.b.len()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Steps over `c` after whitespace, or `None` when something else is there.
    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// The items of a container whose opening bracket is read, each read by `item`, up to
    /// and past its `close`: none, or one, then one more after each comma.
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.ws();
        if self.peek()? == close {
            self.i += 1;
            return Some(());
        }
        loop {
            item(self)?;
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                c if c == close => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// One value, `depth` containers deep.
    fn value(&mut self, depth: usize) -> Option<Value> {
        self.ws();
        Some(match self.peek()? {
            b'"' => {
                self.i += 1;
                Value::String(self.string()?)
            }
            b'{' if depth < MAX_DEPTH => {
                self.i += 1;
                let mut m = Map::new();
                self.items(b'}', |p| {
                    p.eat(b'"')?;
                    let key = p.string()?;
                    p.eat(b':')?;
                    m.insert(key, p.value(depth + 1)?);
                    Some(())
                })?;
                Value::Object(m)
            }
            b'[' if depth < MAX_DEPTH => {
                self.i += 1;
                let mut items = Vec::new();
                self.items(b']', |p| {
                    items.push(p.value(depth + 1)?);
                    Some(())
                })?;
                Value::Array(items)
            }
            b't' => self.word("true").map(|()| Value::Bool(true))?,
            b'f' => self.word("false").map(|()| Value::Bool(false))?,
            b'n' => self.word("null").map(|()| Value::Null)?,
            b'-' | b'0'..=b'9' => {
                let start = self.i;
                self.i += self.b[start..]
                    .iter()
                    .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .unwrap_or(self.b.len() - start);
                // serde_json's own reading of the token: integers, floats and their edges
                // (`-0`, `1e400`, `1.0`) stay its own.
                match serde_json::from_str(self.text.get(start..self.i)?).ok()? {
                    n @ Value::Number(_) => n,
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    /// Steps over `word` (`true`, `false`, `null`), or `None` when something else is there.
    fn word(&mut self, word: &str) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word.as_bytes()).then(|| self.i = end)
    }

    /// The rest of a string whose opening quote is read, decoded; past its closing quote.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.i += plain_run(&self.b[start..]);
        // Runs end only at ASCII bytes, so every cut here is on a character boundary.
        let mut out = match self.peek()? {
            b'"' => {
                self.i += 1;
                return self.text.get(start..self.i - 1).map(str::to_owned);
            }
            b'\\' => String::from(self.text.get(start..self.i)?),
            _ => return None, // a control byte: serde_json's error
        };
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.i += 1;
                    out.push(self.escape()?);
                }
                _ => return None,
            }
            let from = self.i;
            self.i += plain_run(&self.b[from..]);
            out.push_str(self.text.get(from..self.i)?);
        }
    }

    /// The character of an escape whose backslash is read. An unpaired surrogate is `None`:
    /// serde_json refuses it, and the caller's repair decides.
    fn escape(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        Some(match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4()?;
                match unit {
                    0xD800..=0xDBFF => {
                        if self.b.get(self.i..self.i + 2)? != b"\\u" {
                            return None;
                        }
                        self.i += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => char::from_u32(unit)?,
                }
            }
            _ => return None,
        })
    }

    /// The four hex digits of a `\u` escape, read as [`super::repair`] reads them.
    fn hex4(&mut self) -> Option<u32> {
        let unit = super::hex4(self.b.get(self.i..)?)?;
        self.i += 4;
        Some(u32::from(unit))
    }

    /// The members of the skimmed object whose `{` is read.
    fn entries(&mut self, read: &[&str]) -> Option<Map<String, Value>> {
        let mut m = Map::new();
        self.items(b'}', |p| {
            p.eat(b'"')?;
            let key = p.string()?;
            p.eat(b':')?;
            let v = if read.contains(&key.as_str()) {
                // serde_json's reading of a read value is its `Value`, one level down.
                p.value(1)?
            } else {
                p.skip(1)?;
                Value::Null
            };
            m.insert(key, v);
            Some(())
        })?;
        Some(m)
    }

    /// Checks one value as serde_json's skipping does, and steps over it: strings' escapes
    /// are checked for form only (any `\uXXXX`), numbers for grammar only.
    fn skip(&mut self, depth: usize) -> Option<()> {
        self.ws();
        match self.peek()? {
            b'"' => {
                self.i += 1;
                self.skip_string()
            }
            b'{' if depth < MAX_DEPTH => {
                self.i += 1;
                self.items(b'}', |p| {
                    p.eat(b'"')?;
                    p.skip_string()?;
                    p.eat(b':')?;
                    p.skip(depth + 1)
                })
            }
            b'[' if depth < MAX_DEPTH => {
                self.i += 1;
                self.items(b']', |p| p.skip(depth + 1))
            }
            b't' => self.word("true"),
            b'f' => self.word("false"),
            b'n' => self.word("null"),
            b'-' | b'0'..=b'9' => self.skip_number(),
            _ => None,
        }
    }

    /// The rest of a string whose opening quote is read, checked as serde_json's skipping
    /// checks it.
    fn skip_string(&mut self) -> Option<()> {
        loop {
            self.i += plain_run(&self.b[self.i..]);
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => {
                    self.i += 1;
                    match self.peek()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
                        b'u' => {
                            self.i += 1;
                            self.hex4()?;
                        }
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn skip_number(&mut self) -> Option<()> {
        let digits = |p: &mut Self| {
            let n = p.b[p.i..].iter().take_while(|c| c.is_ascii_digit()).count();
            p.i += n;
            n
        };
        self.i += usize::from(self.peek()? == b'-');
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            (digits(self) > 0).then_some(())?;
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            (digits(self) > 0).then_some(())?;
        }
        // serde_json refuses `01` and `1.5.2` where the next byte is read; so does the caller,
        // which expects a comma, a close or the end here.
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::Config;

    /// serde_json's one special key (see `PlainValue`), a key like any other to both readings.
    const RAW_VALUE_KEY: &str = "$serde_json::private::RawValue";

    /// serde_json's reading of a value.
    fn serde_value(text: &str) -> serde_json::Result<Value> {
        super::super::plain_value(serde_json::Deserializer::from_str(text))
    }

    fn ws() -> impl Strategy<Value = String> {
        proptest::sample::select(vec!["", "", " ", "\n", "\t ", "\r\n  "]).prop_map(String::from)
    }

    /// A string literal: plain runs short and long (past the vector widths), every escape,
    /// paired and unpaired surrogates, non-ASCII text, and serde_json's raw-value key.
    fn string() -> impl Strategy<Value = String> {
        let part = prop_oneof![
            4 => "[a-z ]{0,8}",
            1 => "[a-z]{60,300}",
            1 => proptest::sample::select(vec![
                "\\n", "\\\"", "\\\\", "\\/", "\\b\\f\\r\\t", "\\u00e9", "\\u00E9", "\\u0000", "\\uD83D\\uDE00",
                "\\ud800", "\\udc00x", "\\ud83dx", "é€😀", RAW_VALUE_KEY,
            ])
            .prop_map(String::from),
        ];
        proptest::collection::vec(part, 0..5).prop_map(|parts| format!("\"{}\"", parts.concat()))
    }

    fn number() -> impl Strategy<Value = String> {
        let edges = proptest::sample::select(vec![
            "0",
            "-0",
            "1",
            "-1",
            "12.5",
            "1e5",
            "1E+2",
            "-3.25e-7",
            "0.0",
            "1.0",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "-1e-400",
            "123456789012345678901234567890",
            "2.2250738585072014e-308",
        ])
        .prop_map(String::from);
        // Not numbers, but close: serde_json refuses each, reading or skipping.
        let broken = proptest::sample::select(vec![
            "01", "-", "1.", ".5", "1e", "--1", "1.5.2", "+1", "-01", "1e+", "0x1",
        ])
        .prop_map(String::from);
        prop_oneof![
            4 => edges,
            2 => any::<i64>().prop_map(|n| n.to_string()),
            2 => any::<f64>().prop_map(|f| format!("{f:e}")),
            1 => broken,
        ]
    }

    /// JSON text, always valid as generated (unless a number is out of range or a surrogate
    /// unpaired, which serde_json refuses), with whitespace anywhere it may go.
    fn text() -> impl Strategy<Value = String> {
        let scalar = prop_oneof![
            3 => string(),
            2 => number(),
            1 => proptest::sample::select(vec!["true", "false", "null"]).prop_map(String::from),
        ];
        let value = scalar.prop_recursive(6, 48, 5, |inner| {
            let member = (
                ws(),
                prop_oneof![string(), Just(format!("\"{RAW_VALUE_KEY}\""))],
                ws(),
                ws(),
                inner.clone(),
            );
            prop_oneof![
                proptest::collection::vec(member, 0..5).prop_map(|ms| {
                    let ms: Vec<String> =
                        ms.into_iter().map(|(a, k, b, c, v)| format!("{a}{k}{b}:{c}{v}")).collect();
                    format!("{{{}}}", ms.join(","))
                }),
                proptest::collection::vec((ws(), inner, ws()), 0..5).prop_map(|items| {
                    let items: Vec<String> =
                        items.into_iter().map(|(a, v, b)| format!("{a}{v}{b}")).collect();
                    format!("[{}]", items.join(","))
                }),
            ]
        });
        (ws(), value, ws()).prop_map(|(a, v, b)| format!("{a}{v}{b}"))
    }

    /// `text` with one byte position cut, doubled or replaced by a byte that matters to JSON.
    fn mutated() -> impl Strategy<Value = String> {
        (
            text(),
            any::<prop::sample::Index>(),
            0..3usize,
            proptest::sample::select(b",:]}[{\"\\\x01 0e-.tu".to_vec()),
        )
            .prop_map(|(t, at, how, byte)| {
                let Some(at) = (0..=t.len()).filter(|&i| t.is_char_boundary(i)).nth(at.index(t.len() + 1))
                else {
                    return t;
                };
                let mut b = t.into_bytes();
                match how {
                    0 if at < b.len() && b[at].is_ascii() => drop(b.remove(at)),
                    1 => b.insert(at, byte),
                    _ if at < b.len() && b[at].is_ascii() => b[at] = byte,
                    _ => {}
                }
                String::from_utf8(b).unwrap_or_default()
            })
    }

    /// What serde_json's skim of an output object answers.
    fn serde_skim(text: &str, read: &[&str]) -> serde_json::Result<Option<Map<String, Value>>> {
        super::super::skim(serde_json::Deserializer::from_str(text), read)
    }

    /// Whether the text has what this reading leaves to serde_json, in any string.
    fn left_to_serde(text: &str) -> bool {
        ["\\ud800", "\\udc00", "\\ud83dx"].iter().any(|s| text.contains(s))
    }

    const READ: &[&str] = &["decision", "", "a", RAW_VALUE_KEY];

    proptest! {
        #![proptest_config(Config { cases: 3000, ..Config::default() })]

        /// Whenever the quick reading answers, it is serde_json's answer; and on valid text
        /// without what it leaves to serde_json, it does answer.
        #[test]
        fn the_quick_parse_is_serde_jsons_parse(t in prop_oneof![text(), mutated()]) {
            let serde = serde_value(&t);
            match value(&t) {
                Some(v) => prop_assert_eq!(serde.ok(), Some(v), "{}", t),
                None => prop_assert!(serde.is_err() || left_to_serde(&t), "no answer for valid {}", t),
            }
        }

        #[test]
        fn the_quick_skim_is_serde_jsons_skim(t in prop_oneof![text(), mutated()]) {
            let serde = serde_skim(&t, READ);
            let container = t.trim_start().starts_with(['{', '[']);
            match object(&t, READ) {
                Some(o) => prop_assert_eq!(serde.ok(), Some(o), "{}", t),
                None => prop_assert!(serde.is_err() || !container || left_to_serde(&t), "no answer for valid {}", t),
            }
        }
    }

    #[test]
    fn nesting_past_the_bound_is_left_to_serde_json() {
        let nested = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert!(value(&nested(MAX_DEPTH)).is_some());
        assert!(value(&nested(MAX_DEPTH + 1)).is_none());
        assert!(object(&format!("{{\"b\": {}}}", nested(MAX_DEPTH - 1)), &[]).is_some());
        assert!(object(&format!("{{\"b\": {}}}", nested(MAX_DEPTH)), &[]).is_none());
        // serde_json skips any depth; what is left to it still gets its answer.
        let deep = format!("{{\"b\": {}}}", nested(100_000));
        assert!(object(&deep, &[]).is_none());
        assert!(super::super::object_from_output(&deep, &[]).is_ok());
    }

    #[test]
    fn a_large_string_with_escapes_reads_whole() {
        let content: String = (0..200_000)
            .map(|i| if i % 61 == 0 { '\n' } else { char::from(b'a' + (i % 26) as u8) })
            .collect();
        let text = serde_json::json!({"tool_input": {"content": content, "n": [1, -2, 3.5]}}).to_string();
        assert_eq!(value(&text), serde_value(&text).ok());
        let m = object(&text, &["n"]).unwrap().unwrap();
        assert_eq!(m["tool_input"], Value::Null);
    }
}
