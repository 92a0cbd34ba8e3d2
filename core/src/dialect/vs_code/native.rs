//! A host emulating VS Code fires VS Code's own payload: Claude Code's keys (its
//! `hook_event_name` included) with `hookEventName`, `sessionId` and `timestamp` added, and VS
//! Code's tool names and input keys. Recognised by `hookEventName`; the canonical event has
//! Claude Code's tool names and input keys, so that the Claude Code hooks of a mixed
//! configuration match it (`Bash`, `file_path`).

use super::PROFILE;
use super::tools::{KEYS, claude_name};
use serde_json::{Map, Value};

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let obj = event.as_object()?;
    if !obj.contains_key("hookEventName") || PROFILE.native_event(name).is_none() {
        return None;
    }
    let mut c = Map::new();
    for (k, v) in obj {
        let v = match (k.as_str(), v) {
            ("tool_name", Value::String(t)) => Value::String(claude_name(t).to_string()),
            ("tool_input", Value::Object(input)) => {
                Value::Object(rename(input, |k| KEYS.iter().find(|(vs, _)| *vs == k).map(|(_, cc)| *cc)))
            }
            _ => v.clone(),
        };
        c.insert(k.clone(), v);
    }
    Some(Value::Object(c))
}

/// `input` with its keys renamed by `to` (a key it does not name is kept).
pub fn rename(input: &Map<String, Value>, to: impl Fn(&str) -> Option<&'static str>) -> Map<String, Value> {
    input.iter().map(|(k, v)| (to(k).map_or_else(|| k.clone(), str::to_string), v.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_vs_code_payload_becomes_claude_codes_tool_names_and_keys() {
        let e = json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "editFiles",
                       "tool_input": {"filePath": "/a"}, "hookEventName": "PreToolUse", "sessionId": "s"});
        let c = canonical("PreToolUse", &e).unwrap();
        assert_eq!(c["tool_name"], "Edit");
        assert_eq!(c["tool_input"], json!({"file_path": "/a"}));
        assert!(canonical("PreToolUse", &json!({"hook_event_name": "PreToolUse"})).is_none());
    }
}
