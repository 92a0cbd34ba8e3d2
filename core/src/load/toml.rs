//! TOML 1.0 source files (Codex's `config.toml`) read into the same JSON value model as JSON
//! sources, so every dialect's parser walks one kind of tree. Datetimes become their TOML text.
//!
//! A TOML file is attacker-controlled (a cloned repository ships `.codex/config.toml`). The
//! `toml` crate bounds the nesting of inline arrays and tables itself (its parser stops with
//! "max recursion depth met"), but not the depth of dotted keys and table headers
//! (`a.b.c. ... = 1`), so the text is pre-scanned here: a key path or value nested past
//! [`MAX_DEPTH`] is an error at its line and column, before the crate builds anything. The
//! conversion below then never goes deeper than that.

use serde_json::{Map, Number, Value};

/// Deepest nesting accepted: serde_json's own limit for JSON, so a file reads the same whichever
/// syntax it uses.
pub const MAX_DEPTH: usize = 128;

type TomlError = (usize, usize, String);

/// Parses a TOML document into a JSON object. `Err((line, column, why))`, both 1-based. Time
/// is linear in the text.
pub fn parse(text: &str) -> Result<Value, TomlError> {
    precheck(text)?;
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let (line, col) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        (line, col, e.message().trim().to_string())
    })?;
    Ok(table_to_json(table, 1))
}

/// 1-based line and column (in characters) of byte `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Rejects text whose nesting could go past [`MAX_DEPTH`]: brackets and braces outside strings
/// and comments, plus the dots of each line's key path. An over-estimate (a dot in a value
/// counts too) only for lines already near the bound, which no real configuration reaches.
fn precheck(text: &str) -> Result<(), TomlError> {
    let mut depth: usize = 0;
    let (mut line, mut col) = (1usize, 0usize);
    let mut dots_on_line: usize = 0;
    let mut chars = text.chars().peekable();
    // Inside a string: its closing delimiter and whether it is a multi-line one.
    let mut quote: Option<(char, bool)> = None;
    while let Some(c) = chars.next() {
        col += 1;
        if c == '\n' {
            line += 1;
            col = 0;
            dots_on_line = 0;
            if quote.is_some_and(|(_, multi)| !multi) {
                quote = None; // an unterminated one-line string: the parser reports it
            }
            continue;
        }
        if let Some((q, multi)) = quote {
            if c == '\\' && q == '"' {
                chars.next();
                col += 1;
            } else if c == q {
                if !multi {
                    quote = None;
                } else if chars.peek() == Some(&q) {
                    chars.next();
                    if chars.peek() == Some(&q) {
                        chars.next();
                        quote = None;
                    }
                }
            }
            continue;
        }
        match c {
            '#' => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '"' | '\'' => {
                let multi = chars.peek() == Some(&c) && {
                    let mut look = chars.clone();
                    look.next();
                    look.peek() == Some(&c)
                };
                if multi {
                    chars.next();
                    chars.next();
                    col += 2;
                }
                quote = Some((c, multi));
            }
            '[' | '{' => depth += 1,
            ']' | '}' => depth = depth.saturating_sub(1),
            '.' => dots_on_line += 1,
            _ => {}
        }
        if depth + dots_on_line > MAX_DEPTH {
            return Err((line, col, format!("nested more than {MAX_DEPTH} levels deep")));
        }
    }
    Ok(())
}

fn table_to_json(t: toml::Table, depth: usize) -> Value {
    let mut map = Map::with_capacity(t.len());
    for (k, v) in t {
        map.insert(k, to_json(v, depth + 1));
    }
    Value::Object(map)
}

/// One value; `depth` never passes [`MAX_DEPTH`] plus a few (the pre-check bounds it).
fn to_json(v: toml::Value, depth: usize) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::Number(Number::from(i)),
        toml::Value::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.into_iter().map(|x| to_json(x, depth + 1)).collect()),
        toml::Value::Table(t) => table_to_json(t, depth),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_tables_read_as_the_json_shape() {
        let text = "model = \"o3\"\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\ntimeout = 5\n";
        let v = parse(text).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"model":"o3","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","timeout":5}]}]}})
        );
    }

    #[test]
    fn datetimes_become_strings_and_nan_becomes_null() {
        let v = parse("a = 1979-05-27T07:32:00Z\nb = nan\nc = 1.5\n").unwrap();
        assert_eq!(v, serde_json::json!({"a":"1979-05-27T07:32:00Z","b":null,"c":1.5}));
    }

    #[test]
    fn a_syntax_error_has_its_line_and_column() {
        let (line, col, why) = parse("a = 1\nb = = 2\n").unwrap_err();
        assert_eq!(line, 2, "{why}");
        assert!(col >= 1, "{col}");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        for text in [
            format!("a = {}", "[".repeat(100_000)),
            format!("a = {}", "{b = ".repeat(100_000)),
            format!("{} = 1", vec!["a"; 100_000].join(".")),
            format!("[{}]\nx = 1", vec!["a"; 100_000].join(".")),
            format!("[[{}]]\nx = 1", vec!["a"; 100_000].join(".")),
        ] {
            let (line, _, why) = parse(&text).unwrap_err();
            assert_eq!(line, 1);
            assert!(why.contains("nested more than"), "{why}");
        }
    }

    #[test]
    fn brackets_and_dots_inside_strings_and_comments_do_not_count() {
        let deep = "[".repeat(500);
        let text = format!(
            "a = \"{deep}\"\nb = '{deep}'\nc = \"\"\"\n{deep}\n\"\"\"\n# {deep}\nd = \"{}\"\n",
            ".".repeat(500)
        );
        assert!(parse(&text).is_ok());
    }

    #[test]
    fn nesting_within_the_bound_parses() {
        let text = format!("a = {}1{}", "[".repeat(60), "]".repeat(60));
        assert!(parse(&text).is_ok());
    }
}
