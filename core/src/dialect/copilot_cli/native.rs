//! A host emulating Copilot fires its camelCase payloads (`{sessionId, timestamp, cwd,
//! toolName, toolArgs}`, observed) with `hook_event_name` added: this is the canonical event
//! such a payload stands for, with Claude Code's keys and tool names, so that matchers, `if`
//! rules and the Claude Code hooks of a mixed configuration see what they always see. Keys
//! without a Claude Code counterpart (`timestamp`, `stopReason`, `initialPrompt`) are kept as
//! they are. A PascalCase fire is already Claude Code's shape and is not translated.

use super::tools::claude_name;
use super::{PROFILE, Style};
use crate::catalog;
use serde_json::{Map, Value};

/// Copilot's keys → Claude Code's.
const KEYS: &[(&str, &str)] = &[
    ("sessionId", "session_id"),
    ("transcriptPath", "transcript_path"),
    ("toolArgs", "tool_input"),
    ("toolInput", "tool_input"),
    ("toolResult", "tool_response"),
    ("permissionSuggestions", "permission_suggestions"),
];

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    if Style::of(name) != Style::Camel {
        return None;
    }
    let eid = PROFILE.event_ids(name).into_iter().next()?;
    let obj = event.as_object()?;
    let mut c = Map::new();
    c.insert("hook_event_name".into(), Value::String(catalog::spec(eid).name.to_string()));
    for (k, v) in obj {
        let key = match KEYS.iter().find(|(n, _)| n == k) {
            Some((_, cc)) => *cc,
            None if k == "hook_event_name" || k == "hookName" => continue,
            None => k.as_str(),
        };
        let v = match (key, v) {
            ("toolName", Value::String(t)) => {
                c.insert("tool_name".into(), Value::String(claude_name(t).to_string()));
                continue;
            }
            // Copilot's SDK gives `toolArgs` as JSON text; an object inside is the input.
            ("tool_input", Value::String(text)) => match crate::json::value_from_str(text) {
                Ok(o @ Value::Object(_)) => o,
                _ => v.clone(),
            },
            ("source", Value::String(s)) if s == "new" => Value::String("startup".into()),
            _ => v.clone(),
        };
        c.entry(key.to_string()).or_insert(v);
    }
    Some(Value::Object(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_camel_case_pre_tool_use_becomes_claude_codes_event_with_claude_codes_tool_name() {
        let native = json!({"hook_event_name": "preToolUse", "sessionId": "s", "timestamp": 17, "cwd": "/p",
                            "toolName": "bash", "toolArgs": {"command": "ls", "description": "d"}});
        let c = canonical("preToolUse", &native).unwrap();
        assert_eq!(
            c,
            json!({"hook_event_name": "PreToolUse", "session_id": "s", "timestamp": 17, "cwd": "/p",
                   "tool_name": "Bash", "tool_input": {"command": "ls", "description": "d"}})
        );
    }

    #[test]
    fn tool_args_given_as_json_text_are_the_input_object() {
        let native =
            json!({"hook_event_name": "preToolUse", "toolName": "view", "toolArgs": "{\"path\":\"/a\"}"});
        let c = canonical("preToolUse", &native).unwrap();
        assert_eq!(c["tool_input"], json!({"path": "/a"}));
        assert_eq!(c["tool_name"], "Read");
    }

    #[test]
    fn pascal_case_and_unknown_names_are_not_copilots_payload() {
        assert!(canonical("PreToolUse", &json!({"hook_event_name": "PreToolUse"})).is_none());
        assert!(canonical("beforeShellExecution", &json!({})).is_none());
    }

    #[test]
    fn copilots_own_events_keep_their_native_name() {
        let native =
            json!({"hook_event_name": "userPromptTransformed", "prompt": "p", "transformedPrompt": "t"});
        let c = canonical("userPromptTransformed", &native).unwrap();
        assert_eq!(c["hook_event_name"], "userPromptTransformed");
        assert_eq!(c["transformedPrompt"], "t");
    }
}
