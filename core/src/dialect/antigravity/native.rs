//! A host emulating Antigravity fires its own camelCase payload (`conversationId`, `stepIdx`,
//! `toolCall{name, args}` with PascalCase argument keys), `hook_event_name` added. Its event
//! names are also Claude Code's (`PreToolUse`, `Stop`), so the payload is recognised by its keys:
//! a `toolCall` object on the tool events, a string `conversationId` elsewhere. This file turns
//! it into the canonical event: `session_id` ← `conversationId`, `run_command` with
//! `CommandLine` → `Bash` with `command`, `toolResult` → `tool_response` (unverified key).

use super::tools::{args, cc_name};
use serde_json::{Map, Value, json};

/// The canonical event of Antigravity's payload `event` fired as its event `name`; `None`
/// when `event` is not Antigravity's payload (a canonical fire of the same name).
pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    super::PROFILE.native_event(name)?;
    let call = event.get("toolCall").and_then(Value::as_object);
    let tool_event = matches!(name, "PreToolUse" | "PostToolUse");
    let conversation = event.get("conversationId").and_then(Value::as_str);
    if (tool_event && call.is_none()) || (!tool_event && conversation.is_none()) {
        return None;
    }
    let mut m = Map::new();
    m.insert("hook_event_name".into(), json!(name));
    m.insert("session_id".into(), json!(conversation.unwrap_or("")));
    for key in ["conversationId", "stepIdx"] {
        if let Some(v) = event.get(key) {
            m.insert(key.into(), v.clone());
        }
    }
    if let Some(call) = call {
        let agy = call.get("name").and_then(Value::as_str).unwrap_or("");
        let cc = cc_name(agy);
        m.insert("tool_name".into(), json!(cc));
        let input = call.get("args").filter(|a| a.is_object()).cloned().unwrap_or_else(|| json!({}));
        m.insert("tool_input".into(), args(cc, &input, false));
        if let Some(result) = event.get("toolResult") {
            m.insert("tool_response".into(), result.clone());
        }
    }
    Some(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_command_call_is_a_bash_pretooluse() {
        let e = json!({"conversationId": "c1", "stepIdx": 4, "hook_event_name": "PreToolUse",
                       "toolCall": {"name": "run_command", "args": {"CommandLine": "ls", "Cwd": "/w"}}});
        assert_eq!(
            canonical("PreToolUse", &e).unwrap(),
            json!({"hook_event_name": "PreToolUse", "session_id": "c1", "conversationId": "c1", "stepIdx": 4,
                   "tool_name": "Bash", "tool_input": {"command": "ls", "cwd": "/w"}})
        );
    }

    #[test]
    fn claude_codes_own_payloads_and_foreign_names_are_left_alone() {
        let cc = json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash", "tool_input": {}});
        assert_eq!(canonical("PreToolUse", &cc), None);
        assert_eq!(canonical("Stop", &json!({"hook_event_name": "Stop", "session_id": "s"})), None);
        assert_eq!(canonical("BeforeTool", &json!({"conversationId": "c"})), None);
        let stop = canonical("Stop", &json!({"conversationId": "c", "stepIdx": 9})).unwrap();
        assert_eq!((stop["session_id"].as_str(), stop["stepIdx"].as_u64()), (Some("c"), Some(9)));
    }
}
