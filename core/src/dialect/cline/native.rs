//! A host that is Cline fires Cline's own payload (it carries `hookName`), naming the event by
//! its hook file's name in `hook_event_name` (`PreToolUse`, `TaskStart`, …). This turns such a
//! payload into the canonical event the engine matches and reads: Claude Code's keys and tool
//! names, `hook_event_name` the canonical name. The hook itself still gets Cline's payload as
//! the host gave it (`payload.rs`).

use super::tools;
use serde_json::{Map, Value, json};

/// The canonical event of Cline's payload `event` fired as `name`; `None` when `event` is not
/// Cline's (no `hookName`) or `name` is no Cline event.
pub(super) fn canonical(name: &str, event: &Value) -> Option<Value> {
    let obj = event.as_object()?;
    obj.get("hookName")?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let mut e = Map::new();
    let post = obj.get("postToolUse");
    let failed = post.and_then(|p| p.get("success")).and_then(Value::as_bool) == Some(false);
    let canonical = match name {
        "TaskStart" => "SessionStart",
        "TaskComplete" => "Stop",
        "TaskError" => "StopFailure",
        "SessionShutdown" => "SessionEnd",
        "PostToolUse" if failed => "PostToolUseFailure",
        "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "TaskResume" | "TaskCancel" => name,
        _ => return None,
    };
    e.insert("session_id".into(), text(obj.get("taskId")).into());
    let cwd = obj.get("workspaceRoots").and_then(|r| r.get(0));
    e.insert("cwd".into(), text(cwd).into());
    e.insert("hook_event_name".into(), canonical.into());
    let call = obj.get("tool_call").or_else(|| obj.get("tool_result"));
    if let Some(call) = call {
        let (tool, input) =
            tools::to_claude_code(&text(call.get("name")), call.get("input").unwrap_or(&json!({})));
        e.insert("tool_name".into(), tool.into());
        e.insert("tool_input".into(), input);
        e.insert("tool_use_id".into(), text(call.get("id")).into());
    }
    let at = |outer: &str, key: &str| obj.get(outer).and_then(|o| o.get(key)).cloned();
    match canonical {
        "PostToolUse" => {
            e.insert("tool_response".into(), at("tool_result", "output").unwrap_or(Value::Null));
        }
        "PostToolUseFailure" => {
            e.insert("error".into(), text(post.and_then(|p| p.get("result"))).into());
            e.insert("is_interrupt".into(), false.into());
        }
        "UserPromptSubmit" => {
            e.insert("prompt".into(), text(at("userPromptSubmit", "prompt").as_ref()).into());
        }
        "SessionStart" => {
            e.insert("source".into(), "startup".into());
        }
        "SessionEnd" => {
            let reason = text(at("sessionShutdown", "reason").as_ref());
            e.insert("reason".into(), if reason.is_empty() { "other".into() } else { reason }.into());
        }
        "Stop" => {
            e.insert("stop_hook_active".into(), false.into());
            e.insert("last_assistant_message".into(), text(at("turn", "outputText").as_ref()).into());
        }
        _ => {}
    }
    Some(Value::Object(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clines_tool_call_is_claude_codes_pre_tool_use() {
        let given = json!({"clineVersion": "", "taskId": "t1", "workspaceRoots": ["/w"], "hookName": "tool_call",
            "iteration": 1, "tool_call": {"id": "c1", "name": "run_commands", "input": {"commands": ["ls"]}},
            "preToolUse": {"toolName": "run_commands", "parameters": {"commands": "[\"ls\"]"}}});
        let e = canonical("PreToolUse", &given).unwrap();
        assert_eq!(
            e,
            json!({"session_id": "t1", "cwd": "/w", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "ls"}, "tool_use_id": "c1"})
        );
    }

    #[test]
    fn events_of_other_names_and_failures_map_to_their_canonical_events() {
        let start = json!({"taskId": "t", "hookName": "agent_start", "taskStart": {"taskMetadata": {}}});
        assert_eq!(canonical("TaskStart", &start).unwrap()["hook_event_name"], "SessionStart");
        let failed = json!({"taskId": "t", "hookName": "tool_result",
            "tool_result": {"id": "c", "name": "read_files", "input": {}, "output": "boom"},
            "postToolUse": {"toolName": "read_files", "success": false, "result": "boom"}});
        let e = canonical("PostToolUse", &failed).unwrap();
        assert_eq!(
            (e["hook_event_name"].as_str(), e["error"].as_str()),
            (Some("PostToolUseFailure"), Some("boom"))
        );
        let end = json!({"taskId": "t", "hookName": "agent_end", "turn": {"outputText": "done"}});
        assert_eq!(canonical("TaskComplete", &end).unwrap()["last_assistant_message"], "done");
    }

    #[test]
    fn a_payload_without_hook_name_or_an_unknown_name_is_not_clines() {
        assert_eq!(canonical("PreToolUse", &json!({"session_id": "s"})), None);
        assert_eq!(canonical("Stop", &json!({"hookName": "x"})), None);
    }
}
