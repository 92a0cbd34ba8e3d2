//! A host that is Crush fires Crush's own stdin (`{"event": "PreToolUse", "session_id", "cwd",
//! "tool_name": "bash", "tool_input"}`) with `hook_event_name` added. Its keys are Claude
//! Code's but for `event` and the tool names: the canonical event is the same with Claude
//! Code's tool name and without `event`. Recognised by its `event` key naming the fired event.

use super::tools;
use serde_json::Value;

pub(super) fn canonical(name: &str, event: &Value) -> Option<Value> {
    let obj = event.as_object()?;
    if obj.get("event").and_then(Value::as_str) != Some(name) {
        return None;
    }
    let mut e = obj.clone();
    e.shift_remove("event");
    if let Some(Value::String(tool)) = e.get_mut("tool_name") {
        *tool = tools::to_claude_code(tool).to_string();
    }
    Some(Value::Object(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn crushs_stdin_is_claude_codes_event_with_claude_codes_tool_name() {
        let given = json!({"hook_event_name": "PreToolUse", "event": "PreToolUse", "session_id": "s",
                           "cwd": "/w", "tool_name": "bash", "tool_input": {"command": "ls"}});
        let e = canonical("PreToolUse", &given).unwrap();
        assert_eq!(
            e,
            json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w", "tool_name": "Bash",
                   "tool_input": {"command": "ls"}})
        );
        assert_eq!(
            canonical("PreToolUse", &json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"})),
            None
        );
    }
}
