//! JSON with comments, as Gemini CLI writes its settings (agents.md §3.1): `//` line comments
//! and `/* */` block comments are replaced by spaces before the JSON parse, byte for byte and
//! keeping every newline, so the parser's line:column still points into the file as written.
//!
//! Hand-written rather than a dependency: it is one linear pass over bytes with no recursion
//! (a hostile file cannot make it deep or slow), and it must keep byte positions exactly,
//! which the line:column of every later error depends on. It never parses JSON itself.

/// The text with its comments blanked. Inside strings (`"…"`, with `\` escapes) nothing is a
/// comment. `Err((line, column, why))` for a block comment that never ends.
pub(crate) fn strip(bytes: &[u8]) -> Result<Vec<u8>, (usize, usize, String)> {
    let mut out = bytes.to_vec();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (b, bytes.get(i + 1)) {
            (b'"', _) => {
                in_string = true;
                i += 1;
            }
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let start = i;
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
                loop {
                    match (bytes.get(i), bytes.get(i + 1)) {
                        (None, _) => {
                            let (line, column) = position(bytes, start);
                            return Err((line, column, "unterminated /* comment".into()));
                        }
                        (Some(b'*'), Some(b'/')) => {
                            out[i] = b' ';
                            out[i + 1] = b' ';
                            i += 2;
                            break;
                        }
                        (Some(b'\n' | b'\r'), _) => i += 1,
                        (Some(_), _) => {
                            out[i] = b' ';
                            i += 1;
                        }
                    }
                }
            }
            _ => i += 1,
        }
    }
    Ok(out)
}

/// 1-based line and column (in bytes, as serde_json counts) of byte `at`.
fn position(bytes: &[u8], at: usize) -> (usize, usize) {
    let before = &bytes[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = at - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> String {
        String::from_utf8(strip(text.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn line_and_block_comments_become_spaces_of_the_same_length() {
        let text = "{\"a\": 1, // one\n /* two\n lines */ \"b\": 2}";
        let out = s(text);
        assert_eq!(out.len(), text.len());
        assert_eq!(out, "{\"a\": 1,       \n       \n          \"b\": 2}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v, serde_json::json!({"a": 1, "b": 2}));
    }

    #[test]
    fn comment_markers_inside_strings_are_text() {
        let text = r#"{"url": "http://x//y", "glob": "a/*b*/c", "q": "say \"//hi\" \\", "z": 1}"#;
        assert_eq!(s(text), text);
    }

    #[test]
    fn an_escaped_backslash_before_a_quote_ends_the_string() {
        let text = "{\"p\": \"C:\\\\\" // dir\n}";
        assert_eq!(s(text), "{\"p\": \"C:\\\\\"       \n}");
    }

    #[test]
    fn an_unterminated_block_comment_is_an_error_with_its_place() {
        assert_eq!(strip(b"{\n  /* open").unwrap_err(), (2, 3, "unterminated /* comment".to_string()));
        // A line comment may end the file.
        assert_eq!(s("{} // end"), "{}       ");
    }

    #[test]
    fn errors_after_a_comment_keep_their_line_and_column() {
        let text = "{ /* é ü */ \"a\": 1,\n  // x\n  \"b\": }";
        let err = serde_json::from_slice::<serde_json::Value>(&strip(text.as_bytes()).unwrap()).unwrap_err();
        assert_eq!((err.line(), err.column()), (3, 8));
    }

    #[test]
    fn a_lone_slash_is_left_for_the_parser() {
        assert_eq!(s("{\"a\": 1 / 2}"), "{\"a\": 1 / 2}");
    }

    #[test]
    fn hostile_input_is_linear_and_never_recursive() {
        let deep = "[".repeat(100_000);
        assert_eq!(s(&deep), deep);
        let many = "/**/".repeat(100_000);
        assert_eq!(s(&many).trim(), "");
        let unclosed = format!("{}\"", "/* ".repeat(10));
        assert!(strip(unclosed.as_bytes()).is_err());
        // The parse after stripping refuses depth with a clear error, not a stack overflow.
        let err = crate::json::from_slice::<serde_json::Value>(&strip(deep.as_bytes()).unwrap()).unwrap_err();
        assert!(err.to_string().contains("recursion limit"), "{err}");
    }
}
