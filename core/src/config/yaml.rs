//! YAML 1.2 source files (neocode, j-cli, ub) read into the same JSON value model as JSON
//! sources, so every dialect's parser walks one kind of tree.
//!
//! yaml-rust2 is used because it is maintained, pure Rust and YAML 1.2 (so `yes`/`no` stay
//! strings, as the Go seeds' yaml.v3 reads them); serde_yaml is unmaintained.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// Parses one YAML document (or JSON, which is YAML) into a value. `Err((line, column, why))`.
pub fn parse(text: &str) -> Result<Value, (usize, usize, String)> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| {
        let m = e.marker();
        (m.line(), m.col() + 1, e.info().to_string())
    })?;
    match docs.into_iter().next() {
        None => Ok(Value::Object(Map::new())),
        Some(doc) => Ok(convert(doc)),
    }
}

fn convert(y: Yaml) -> Value {
    match y {
        Yaml::Real(s) => {
            s.parse::<f64>().ok().and_then(Number::from_f64).map_or(Value::String(s), Value::Number)
        }
        Yaml::Integer(i) => Value::Number(i.into()),
        Yaml::String(s) => Value::String(s),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(a) => Value::Array(a.into_iter().map(convert).collect()),
        Yaml::Hash(h) => {
            let mut m = Map::new();
            for (k, v) in h {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s,
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    Yaml::Null => "null".to_string(),
                    _ => continue,
                };
                m.insert(key, convert(v));
            }
            Value::Object(m)
        }
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
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
}
