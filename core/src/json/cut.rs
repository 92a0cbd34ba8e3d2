//! Payloads larger than the bridge reads whole. An agent hands its hooks a tool's whole output
//! (`PostToolUse` after reading a large file) or a pasted prompt; above the bridge's bound such a
//! payload was refused, `hookwire bridge` exited 1, and most agents read that as "go on": no hook
//! ran, not even the one that scans outputs for secrets. What makes a payload that large is one
//! long string, and the engine never needs all of one (matchers read the tool's name, `if` rules
//! a command, a path or a URL), so such a payload is read with each string longer than a bound cut
//! after its first bytes and [`CUT`] appended: the hooks run on what is left, the bridge says so,
//! an `if` rule that meets a cut command or path cannot decide and runs its hook, and a rewrite
//! that carries a cut string is refused (`FireResult::refuse_unread_rewrites`).
//!
//! The cut is a copy of the text in one pass over its bytes, outside any parser: the text is too
//! large to parse first. A string is cut at an escape or character boundary (a `\u` surrogate
//! pair counts as one), so the copy parses exactly when the text does.

/// What a cut string ends with: the part before it is the string's beginning as sent.
pub const CUT: &str = "[hookwire: the rest of this string was not read]";

/// What was cut from a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Strings cut.
    pub strings: usize,
    /// Bytes of the text not read.
    pub bytes: usize,
    /// Bytes of each string kept.
    pub keep: usize,
}

impl Cut {
    /// The result's warning for a fire of a cut payload.
    pub fn warning(&self) -> String {
        let keep = if self.keep >= 1 << 20 && self.keep.is_multiple_of(1 << 20) {
            format!("{} MiB", self.keep >> 20)
        } else {
            format!("{} bytes", self.keep)
        };
        format!(
            "the payload was too large to read whole: {} string(s) longer than {keep} were cut to their first {keep} ({} bytes not read) and end in {CUT:?}; the hooks ran on the rest",
            self.strings, self.bytes
        )
    }
}

/// `text` with every string literal (keys too) longer than `keep` bytes as written cut after at
/// most `keep` of them and closed with [`CUT`]; `None` when no string is that long. The text is
/// UTF-8 (checked before); a text that is not JSON is copied as far as it goes and left for the
/// parser to refuse.
pub fn cut(text: &str, keep: usize) -> Option<(String, Cut)> {
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut done = Cut { strings: 0, bytes: 0, keep };
    let mut copied = 0; // bytes of `text` before `at` already in `out`
    let mut at = 0;
    while at < b.len() {
        if b[at] != b'"' {
            at += 1;
            continue;
        }
        let open = at + 1;
        let mut kept_end = open; // where the kept part of this string ends
        let mut i = open;
        let mut over = false;
        while i < b.len() && b[i] != b'"' {
            let unit = unit_len(b, i);
            if !over && i + unit - open > keep {
                over = true;
            }
            i += unit;
            if !over {
                kept_end = i;
            }
        }
        if over && i < b.len() {
            out.extend_from_slice(&b[copied..kept_end]);
            out.extend_from_slice(CUT.as_bytes());
            copied = i; // the closing quote is copied with what follows
            done.strings += 1;
            done.bytes += i - kept_end;
        }
        at = i + 1;
    }
    if done.strings == 0 {
        return None;
    }
    out.extend_from_slice(&b[copied..]);
    // Cuts fall on character boundaries and CUT is ASCII: still UTF-8.
    String::from_utf8(out).ok().map(|s| (s, done))
}

/// The length of the string's unit at `i`: an escape (`\u` with its low surrogate when it is a
/// high one, so that a pair is never split), else one UTF-8 character; never past the text.
fn unit_len(b: &[u8], i: usize) -> usize {
    let n = if b[i] == b'\\' {
        if b.get(i + 1) == Some(&b'u') {
            let pair =
                is_high_surrogate(&b[i..]) && b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u');
            if pair { 12 } else { 6 }
        } else {
            2
        }
    } else {
        match b[i] {
            0xf0.. => 4,
            0xe0.. => 3,
            0xc0.. => 2,
            _ => 1,
        }
    };
    n.min(b.len() - i)
}

/// Whether `b` begins with `\uD800`–`\uDBFF`.
fn is_high_surrogate(b: &[u8]) -> bool {
    b.len() >= 6
        && b[2].eq_ignore_ascii_case(&b'd')
        && matches!(b[3].to_ascii_lowercase(), b'8' | b'9' | b'a' | b'b')
}

/// Whether `s` is a string [`cut`] cut.
pub fn is_cut(s: &str) -> bool {
    s.ends_with(CUT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn long_strings_are_cut_at_their_bound_and_the_rest_is_kept_as_written() {
        // Keys are strings too: a key longer than the bound would be cut as well.
        let long = "x".repeat(100);
        let text =
            json!({"tool_name": "Read", "tool_response": {"content": long, "n": [1, "short"]}}).to_string();
        let (cut_text, c) = cut(&text, 20).unwrap();
        let v: Value = serde_json::from_str(&cut_text).unwrap();
        assert_eq!(v["tool_response"]["content"], format!("{}{CUT}", "x".repeat(20)));
        assert_eq!((v["tool_name"].as_str(), &v["tool_response"]["n"]), (Some("Read"), &json!([1, "short"])));
        assert_eq!((c.strings, c.bytes), (1, 80));
        assert!(is_cut(v["tool_response"]["content"].as_str().unwrap()));
        assert!(cut(&text, 100).is_none(), "no string longer than the bound: nothing to cut");
    }

    #[test]
    fn a_cut_never_splits_an_escape_a_surrogate_pair_or_a_character() {
        // Every cut point over strings of escapes, pairs and multi-byte characters parses, and
        // what is kept is a prefix of the string as sent.
        let s = "a\\\"b\\n\\u00e9\\ud83d\\ude00é😀\\\\c\\/".repeat(3);
        let text = format!("{{\"k\":\"{s}\",\"z\":1}}");
        let whole: Value = serde_json::from_str(&text).unwrap();
        let whole = whole["k"].as_str().unwrap();
        for keep in 1..s.len() {
            let (t, c) = cut(&text, keep).unwrap();
            let v: Value = serde_json::from_str(&t).unwrap_or_else(|e| panic!("keep {keep}: {e}: {t}"));
            let got = v["k"].as_str().unwrap().strip_suffix(CUT).unwrap();
            assert!(whole.starts_with(got), "keep {keep}: {got:?}");
            assert_eq!((v["z"].as_i64(), c.strings), (Some(1), 1));
        }
    }

    #[test]
    fn text_that_is_not_json_is_copied_for_the_parser_to_refuse() {
        assert!(cut("\"unterminated xxxxxxxxxxxxxxxx", 4).is_none());
        let (t, _) = cut("{\"a\":\"xxxxxxxxxx\" garbage", 4).unwrap();
        assert!(serde_json::from_str::<Value>(&t).is_err());
    }
}
