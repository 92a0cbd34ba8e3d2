//! What a Cline hook reads on stdin (observed, key order included): a common prefix,
//! `clineVersion, timestamp, taskId, sessionContext{rootSessionId}, workspaceRoots,
//! workspaceInfo{rootPath, hint}, userId, agent_id, parent_agent_id, hookName`, then the
//! event's own keys, among them an object named after the event (`preToolUse{toolName,
//! parameters}`). Compact JSON, no trailing newline.
//!
//! A host that is Cline fires Cline's own payload (it has `hookName`; `native.rs`): a hook of
//! the fired event gets it as given, without the `hook_event_name` key the host added to name
//! the event. Otherwise the
//! payload is built from the canonical event: `taskId` and `rootSessionId` are its
//! `session_id`, the workspace its `cwd`; `clineVersion` is `$CLINE_VERSION` or `""` and
//! `userId` `$CLINE_USER_ID`, `$USER` or `"unknown"` (as Cline writes them). Unverified, chosen:
//! `workspaceInfo.hint` is the workspace directory's name, `agent_id` the event's `agent_id`
//! or its `session_id`, `iteration` the event's or 1, `durationMs` the event's
//! `duration_ms` or 0.

use super::tools;
use crate::catalog::Dialect;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value, json};

pub(super) fn payload(native: &str, ev: &FireEvent<'_>) -> Vec<u8> {
    if let Some(fired) = ev.native.filter(|n| n.dialect == Dialect::Cline)
        && fired.get("hook_event_name").and_then(Value::as_str) == Some(native)
    {
        return fired.payload(false);
    }
    serde_json::to_vec(&Value::Object(build(native, ev))).unwrap_or_default()
}

fn build(native: &str, ev: &FireEvent<'_>) -> Map<String, Value> {
    let e = ev.current;
    let text = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let session = text("session_id");
    let cwd = text("cwd");
    let hint = std::path::Path::new(&cwd).file_name().map(|n| n.to_string_lossy().into_owned());
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let mut m = Map::new();
    m.insert("clineVersion".into(), env("CLINE_VERSION").unwrap_or_default().into());
    m.insert("timestamp".into(), crate::dialect::time::timestamp(ev.at).into());
    m.insert("taskId".into(), session.clone().into());
    m.insert("sessionContext".into(), json!({"rootSessionId": session}));
    m.insert("workspaceRoots".into(), json!([cwd]));
    m.insert("workspaceInfo".into(), json!({"rootPath": cwd, "hint": hint.unwrap_or_default()}));
    let user = env("CLINE_USER_ID").or_else(|| env("USER")).unwrap_or_else(|| "unknown".into());
    m.insert("userId".into(), user.into());
    let agent = e.get("agent_id").and_then(Value::as_str).map(str::to_string).unwrap_or(session);
    m.insert("agent_id".into(), agent.into());
    m.insert("parent_agent_id".into(), Value::Null);
    m.insert("hookName".into(), super::hook_name(native).into());
    let iteration = || e.get("iteration").filter(|v| v.is_u64()).cloned().unwrap_or(json!(1));
    let (name, input) = tools::to_cline(e);
    let id = text("tool_use_id");
    match native {
        "PreToolUse" => {
            m.insert("iteration".into(), iteration());
            m.insert("tool_call".into(), json!({"id": id, "name": name, "input": input}));
            m.insert("preToolUse".into(), json!({"toolName": name, "parameters": parameters(&input)}));
        }
        "PostToolUse" => {
            let failed = ev.spec.name == "PostToolUseFailure";
            let output = if failed {
                json!(text("error"))
            } else {
                e.get("tool_response").cloned().unwrap_or(Value::Null)
            };
            let ms = e.get("duration_ms").filter(|v| v.is_u64()).cloned().unwrap_or(json!(0));
            let at = crate::dialect::time::timestamp(ev.at);
            m.insert("iteration".into(), iteration());
            m.insert(
                "tool_result".into(),
                json!({"id": id, "name": name, "input": input, "output": output, "durationMs": ms,
                       "startedAt": at, "endedAt": at}),
            );
            m.insert(
                "postToolUse".into(),
                json!({"toolName": name, "parameters": parameters(&input), "result": text_or_json(&output),
                       "success": !failed, "executionTimeMs": ms}),
            );
        }
        "TaskComplete" => {
            m.insert("iteration".into(), iteration());
            m.insert(
                "turn".into(),
                json!({"outputText": text("last_assistant_message"), "status": "completed"}),
            );
            m.insert("taskComplete".into(), json!({"taskMetadata": {}}));
        }
        "UserPromptSubmit" => {
            m.insert("userPromptSubmit".into(), json!({"prompt": text("prompt"), "attachments": []}));
        }
        "TaskError" => {
            m.insert("taskError".into(), json!({"taskMetadata": {}, "error": text("error")}));
        }
        "SessionShutdown" => {
            m.insert("sessionShutdown".into(), json!({"reason": text("reason")}));
        }
        other => {
            let key = lower_first(other);
            m.insert(key, json!({"taskMetadata": {}}));
        }
    }
    m
}

/// Cline's `parameters`: every value a string, arrays and objects JSON-encoded (observed:
/// `"commands":"[\"touch m-a\"]"`).
fn parameters(input: &Value) -> Value {
    match input {
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), Value::String(text_or_json(v)))).collect())
        }
        _ => json!({}),
    }
}

/// `TaskStart` → `taskStart`.
fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_lowercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn fire(name: &str, native: &str, event: Value) -> Value {
        let spec = catalog::spec(catalog::lookup(name).unwrap());
        serde_json::from_slice(&payload(native, &FireEvent::plain(spec, &event))).unwrap()
    }

    #[test]
    fn a_canonical_bash_call_is_a_run_commands_call_with_string_parameters() {
        let p = fire(
            "PreToolUse",
            "PreToolUse",
            json!({"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": "/w/proj", "tool_name": "Bash",
                   "tool_input": {"command": "ls"}, "tool_use_id": "t1"}),
        );
        let keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "clineVersion",
                "timestamp",
                "taskId",
                "sessionContext",
                "workspaceRoots",
                "workspaceInfo",
                "userId",
                "agent_id",
                "parent_agent_id",
                "hookName",
                "iteration",
                "tool_call",
                "preToolUse"
            ]
        );
        assert_eq!(p["hookName"], "tool_call");
        assert_eq!(p["workspaceInfo"], json!({"rootPath": "/w/proj", "hint": "proj"}));
        assert_eq!(
            p["tool_call"],
            json!({"id": "t1", "name": "run_commands", "input": {"commands": ["ls"]}})
        );
        assert_eq!(
            p["preToolUse"],
            json!({"toolName": "run_commands", "parameters": {"commands": "[\"ls\"]"}})
        );
    }
}
