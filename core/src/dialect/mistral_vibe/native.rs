//! A host that is Vibe fires Vibe's own stdin, whose `hook_event_name` is already Vibe's event
//! name (`pre_tool`, `post_tool`, `post_agent`: names only Vibe has). This turns it into the
//! canonical event the engine matches and reads: Claude Code's event and keys
//! (`tool_call_id` → `tool_use_id`, `tool_output` → `tool_response`, a failed tool's
//! `tool_error` → `error`) and Claude Code's tool name for Vibe's (`file_system.bash` → `Bash`).
//! A Vibe hook of the fired event gets the host's text as it is (`payload.rs`).

use super::tools;
use serde_json::{Map, Value, json};

pub(super) fn canonical(name: &str, event: &Value) -> Option<Value> {
    let obj = event.as_object()?;
    let failed = obj.get("tool_status").and_then(Value::as_str) == Some("failure");
    let canonical = match name {
        "pre_tool" => "PreToolUse",
        "post_tool" if failed => "PostToolUseFailure",
        "post_tool" => "PostToolUse",
        "post_agent" => "Stop",
        _ => return None,
    };
    let mut e = Map::new();
    for key in ["session_id", "transcript_path", "cwd"] {
        if let Some(v) = obj.get(key) {
            e.insert(key.into(), v.clone());
        }
    }
    e.insert("hook_event_name".into(), json!(canonical));
    if canonical == "Stop" {
        e.insert("stop_hook_active".into(), json!(false));
        if let Some(agent) = obj.get("agent_name") {
            e.insert("agent_name".into(), agent.clone());
        }
        return Some(Value::Object(e));
    }
    let tool = obj.get("tool_name").and_then(Value::as_str).unwrap_or("");
    e.insert("tool_name".into(), json!(tools::to_claude_code(tool)));
    e.insert("tool_input".into(), obj.get("tool_input").cloned().unwrap_or_else(|| json!({})));
    e.insert("tool_use_id".into(), obj.get("tool_call_id").cloned().unwrap_or(json!("")));
    match canonical {
        "PostToolUseFailure" => {
            let error = obj.get("tool_error").or_else(|| obj.get("tool_output_text"));
            e.insert("error".into(), error.cloned().unwrap_or(json!("")));
            e.insert("is_interrupt".into(), json!(false));
        }
        "PostToolUse" => {
            let output =
                obj.get("tool_output").filter(|v| !v.is_null()).or_else(|| obj.get("tool_output_text"));
            e.insert("tool_response".into(), output.cloned().unwrap_or(Value::Null));
        }
        _ => {}
    }
    Some(Value::Object(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vibes_stdin_is_claude_codes_event() {
        let pre = json!({"session_id": "s", "transcript_path": null, "cwd": "/w", "parent_session_id": null,
            "hook_event_name": "pre_tool", "tool_name": "file_system.bash", "tool_call_id": "c1",
            "tool_input": {"command": "ls"}});
        assert_eq!(
            canonical("pre_tool", &pre).unwrap(),
            json!({"session_id": "s", "transcript_path": null, "cwd": "/w", "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "c1"})
        );
        let failed = json!({"hook_event_name": "post_tool", "tool_name": "file_system.read_file",
            "tool_status": "failure", "tool_output": null, "tool_error": "File not found"});
        let e = canonical("post_tool", &failed).unwrap();
        assert_eq!(
            (e["hook_event_name"].as_str(), e["tool_name"].as_str()),
            (Some("PostToolUseFailure"), Some("Read"))
        );
        assert_eq!(canonical("PreToolUse", &pre), None);
    }
}
