//! YAML 1.2 source files (neocode, j-cli, ub) read into the same JSON value model as JSON
//! sources, so every dialect's parser walks one kind of tree.
//!
//! yaml-rust2 is used because it is maintained, pure Rust and YAML 1.2 (so `yes`/`no` stay
//! strings, as the Go seeds' yaml.v3 reads them); serde_yaml is unmaintained.
//!
//! A YAML file is attacker-controlled (a cloned repository ships it), so the tree is built here
//! from the parser's pull API with an explicit stack, never by recursion: yaml-rust2's own
//! `YamlLoader` (through `Parser::load`) recurses once per nesting level, and block nesting
//! (`- - - - x`) is not bounded by its flow-level limit, so 50,000 levels overflowed the host's
//! stack. Nesting past [`MAX_DEPTH`] and alias expansion past [`MAX_NODES`] (a "billion laughs"
//! file) are errors at the line and column where the bound was crossed.

use serde_json::{Map, Number, Value};
use yaml_rust2::Yaml;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Deepest nesting of sequences and mappings accepted: serde_json's own limit for JSON, so a
/// file reads the same whichever syntax it uses.
pub const MAX_DEPTH: usize = 128;
/// Most values one document may produce, aliases expanded.
pub const MAX_NODES: usize = 1 << 20;

type YamlError = (usize, usize, String);

/// Parses the first YAML document (or JSON, which is YAML) into a value. `Err((line, column,
/// why))`. Time and memory are linear in the text, bounded by [`MAX_NODES`] for aliases.
pub fn parse(text: &str) -> Result<Value, YamlError> {
    let mut parser = Parser::new_from_str(text);
    let mut b = Builder::default();
    loop {
        let (ev, mark) = parser.next_token().map_err(|e| {
            let m = e.marker();
            (m.line(), m.col() + 1, e.info().to_string())
        })?;
        match ev {
            Event::StreamEnd => break,
            // Only the first document is read, as yaml.v3's Unmarshal does.
            Event::DocumentEnd if b.done.is_some() => break,
            _ => b.event(ev, mark)?,
        }
    }
    Ok(b.done.unwrap_or_else(|| Value::Object(Map::new())))
}

/// A collection being built.
enum Frame {
    Seq { items: Vec<Value>, anchor: usize, depth: usize },
    Map { map: Map<String, Value>, key: Key, anchor: usize, depth: usize },
}

/// The state of a mapping between its entries.
enum Key {
    /// The next node is a key.
    Expected,
    /// The next node is the value of this key.
    Name(String),
    /// The key was a collection (no JSON equivalent): its value is read and dropped.
    Skip,
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    /// Anchored values by anchor id, with their depth and node count.
    anchors: std::collections::HashMap<usize, (Value, usize, usize)>,
    nodes: usize,
    done: Option<Value>,
}

fn at(mark: Marker, why: String) -> YamlError {
    (mark.line(), mark.col() + 1, why)
}

impl Builder {
    fn count(&mut self, n: usize, mark: Marker) -> Result<(), YamlError> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_NODES {
            return Err(at(mark, format!("the document expands to more than {MAX_NODES} values (aliases)")));
        }
        Ok(())
    }

    fn event(&mut self, ev: Event, mark: Marker) -> Result<(), YamlError> {
        match ev {
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(at(mark, format!("nested more than {MAX_DEPTH} levels deep")));
                }
                self.count(1, mark)?;
                self.stack.push(match ev {
                    Event::SequenceStart(..) => Frame::Seq { items: Vec::new(), anchor, depth: 1 },
                    _ => Frame::Map { map: Map::new(), key: Key::Expected, anchor, depth: 1 },
                });
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor, depth) = match self.stack.pop() {
                    Some(Frame::Seq { items, anchor, depth }) => (Value::Array(items), anchor, depth),
                    Some(Frame::Map { map, anchor, depth, .. }) => (Value::Object(map), anchor, depth),
                    None => return Err(at(mark, "unbalanced collection end".into())),
                };
                self.node(value, anchor, depth, false, mark)
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.count(1, mark)?;
                self.node(scalar(text, style, tag.as_ref()), anchor, 0, true, mark)
            }
            Event::Alias(id) => {
                let (value, depth, nodes) = self.anchors.get(&id).cloned().unwrap_or((Value::Null, 0, 1));
                if self.stack.len() + depth > MAX_DEPTH {
                    return Err(at(
                        mark,
                        format!("an alias nests the document more than {MAX_DEPTH} levels deep"),
                    ));
                }
                self.count(nodes, mark)?;
                self.node(value, 0, depth, false, mark)
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => Ok(()),
        }
    }

    /// Places a finished node in its parent (or as the document). `depth` is the node's own
    /// nesting (0 for a scalar); `scalar` says whether it may serve as a mapping key.
    fn node(
        &mut self,
        value: Value,
        anchor: usize,
        depth: usize,
        scalar: bool,
        mark: Marker,
    ) -> Result<(), YamlError> {
        if anchor > 0 {
            let nodes = count_nodes(&value);
            self.anchors.insert(anchor, (value.clone(), depth, nodes));
        }
        let Some(parent) = self.stack.last_mut() else {
            self.done.get_or_insert(value);
            return Ok(());
        };
        match parent {
            Frame::Seq { items, depth: d, .. } => {
                *d = (*d).max(depth + 1);
                items.push(value);
            }
            Frame::Map { map, key, depth: d, .. } => match std::mem::replace(key, Key::Expected) {
                Key::Expected => {
                    *key = match (scalar, value) {
                        (true, Value::String(s)) => Key::Name(s),
                        (true, Value::Null) => Key::Name("null".into()),
                        (true, other) => Key::Name(other.to_string()),
                        (false, _) => Key::Skip,
                    }
                }
                Key::Name(name) => {
                    *d = (*d).max(depth + 1);
                    if map.contains_key(&name) {
                        return Err(at(mark, format!("{name:?}: duplicated key in mapping")));
                    }
                    map.insert(name, value);
                }
                Key::Skip => {}
            },
        }
        Ok(())
    }
}

/// Values in a tree, counted with an explicit stack (the tree is at most [`MAX_DEPTH`] deep,
/// but this stays iterative like the rest of the module).
fn count_nodes(v: &Value) -> usize {
    let mut n = 0;
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        n += 1;
        match v {
            Value::Array(a) => todo.extend(a),
            Value::Object(m) => todo.extend(m.values()),
            _ => {}
        }
    }
    n
}

/// One scalar, typed as yaml-rust2's `YamlLoader` types it (YAML 1.2 core schema), then as JSON.
fn scalar(v: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    let y = if style != TScalarStyle::Plain {
        Yaml::String(v)
    } else if let Some(Tag { handle, suffix }) = tag {
        if handle == "tag:yaml.org,2002:" {
            match suffix.as_str() {
                "bool" => match v.as_str() {
                    "true" | "True" | "TRUE" => Yaml::Boolean(true),
                    "false" | "False" | "FALSE" => Yaml::Boolean(false),
                    _ => Yaml::BadValue,
                },
                "int" => v.parse::<i64>().map_or(Yaml::BadValue, Yaml::Integer),
                "float" => Yaml::Real(v),
                "null" => match v.as_str() {
                    "~" | "null" => Yaml::Null,
                    _ => Yaml::BadValue,
                },
                _ => Yaml::String(v),
            }
        } else {
            Yaml::String(v)
        }
    } else {
        Yaml::from_str(&v)
    };
    match y {
        Yaml::Real(s) => {
            s.parse::<f64>().ok().and_then(Number::from_f64).map_or(Value::String(s), Value::Number)
        }
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::String(s) => Value::String(s),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(_) | Yaml::Hash(_) | Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_maps_lists_and_scalars_become_json() {
        let v = parse("hooks:\n  pre_tool_call:\n    - command: [sh, -c, 'exit 0']\n      timeout: 5s\n      n: 3\n      on: yes\n").unwrap();
        assert_eq!(
            v,
            json!({"hooks": {"pre_tool_call": [{"command": ["sh", "-c", "exit 0"], "timeout": "5s", "n": 3, "on": "yes"}]}})
        );
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let (line, col, _) = parse("a: [1, 2\nb: c").unwrap_err();
        assert!(line >= 1 && col >= 1);
    }

    #[test]
    fn scalars_keys_and_aliases_read_as_before() {
        let v = parse("a: &x {b: 1.5, 2: true, ~: null}\nc: *x\nd: !!str 12\ne: [*x]\n? [k]\n: dropped\n")
            .unwrap();
        let x = json!({"b": 1.5, "2": true, "null": null});
        assert_eq!(v, json!({"a": x, "c": x, "d": "12", "e": [x]}));
        assert_eq!(parse("").unwrap(), json!({}));
        assert_eq!(parse("first: 1\n---\nsecond: [").unwrap(), json!({"first": 1}));
    }

    #[test]
    fn block_nesting_past_the_bound_is_an_error_not_a_stack_overflow() {
        for text in ["- ".repeat(50_000) + "x", "a:\n".to_string() + &" b:\n".repeat(10) + &"[".repeat(10)] {
            if let Err((line, col, why)) = parse(&text) {
                assert!(line >= 1 && col >= 1, "{why}");
            }
        }
        let (_, _, why) = parse(&("- ".repeat(50_000) + "x")).unwrap_err();
        assert!(why.contains("nested more than 128 levels"), "{why}");
        assert!(parse(&("- ".repeat(MAX_DEPTH - 1) + "x")).is_ok());
    }

    #[test]
    fn alias_expansion_is_bounded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            text.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let (line, _, why) = parse(&text).unwrap_err();
        assert!(why.contains("more than"), "{why}");
        assert!(line >= 2);
    }

    #[test]
    fn duplicate_keys_are_an_error() {
        assert!(parse("a: 1\na: 2\n").unwrap_err().2.contains("duplicated key"));
    }
}
