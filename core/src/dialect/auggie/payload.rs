//! The bytes an Auggie hook reads on stdin (observed): JSON pretty-printed with a 2-space
//! indent, `hook_event_name` (Auggie's name: `PromptSubmit`), `conversation_id` and
//! `workspace_roots` on every event, then the event's own keys; no session id, transcript or
//! cwd. A key the host already gives in Auggie's spelling (the host is Auggie) is used as is;
//! otherwise it is derived from the canonical fields.

use crate::catalog::EventSpec;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value, json};

/// The event's name in Auggie's words.
pub fn event_name(spec: &EventSpec) -> &'static str {
    super::PROFILE.native_name(spec).unwrap_or(spec.name)
}

/// Auggie's `conversation_id`, else the canonical `session_id`.
pub fn conversation_id(e: &Value) -> &str {
    let s = |k: &str| e.get(k).and_then(Value::as_str);
    s("conversation_id").or_else(|| s("session_id")).unwrap_or("")
}

pub fn bytes(ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let own = |k: &str| e.get(k).cloned();
    let mut m = Map::new();
    m.insert("hook_event_name".into(), json!(event_name(ev.spec)));
    m.insert("conversation_id".into(), json!(conversation_id(e)));
    let roots = own("workspace_roots").filter(Value::is_array).unwrap_or_else(|| {
        let cwd = e.get("cwd").and_then(Value::as_str).unwrap_or(ev.project_dir);
        json!([cwd])
    });
    m.insert("workspace_roots".into(), roots);
    match ev.spec.name {
        "UserPromptSubmit" => {
            let prompt = own("user_prompt").or_else(|| own("prompt")).unwrap_or(json!(""));
            m.insert("user_prompt".into(), prompt);
        }
        "PreToolUse" | "PostToolUse" | "PostToolUseFailure" => {
            let name = crate::matcher::tool_name(e);
            m.insert("tool_name".into(), json!(name));
            m.insert("tool_input".into(), own("tool_input").unwrap_or(json!({})));
            let (output, error) = match ev.spec.name {
                // Before the call Auggie sends the string "[undefined]" and a null error.
                "PreToolUse" => (json!("[undefined]"), Value::Null),
                "PostToolUse" => (tool_output(e), own("tool_error").unwrap_or(Value::Null)),
                _ => (tool_output(e), own("tool_error").or_else(|| own("error")).unwrap_or(Value::Null)),
            };
            m.insert("tool_output".into(), output);
            m.insert("tool_error".into(), error);
            let mcp =
                own("is_mcp_tool").filter(Value::is_boolean).unwrap_or(json!(name.starts_with("mcp__")));
            m.insert("is_mcp_tool".into(), mcp);
        }
        "Stop" => {
            m.insert("agent_stop_cause".into(), own("agent_stop_cause").unwrap_or(json!("end_turn")));
            if let Some(x) = own("_exchange") {
                m.insert("_exchange".into(), x);
            }
        }
        _ => {}
    }
    serde_json::to_vec_pretty(&Value::Object(m)).unwrap_or_default()
}

/// The text Auggie sent the model as the tool's result.
fn tool_output(e: &Value) -> Value {
    match e.get("tool_output").or_else(|| e.get("tool_response")) {
        Some(v) => Value::String(text_or_json(v)),
        None => Value::String(String::new()),
    }
}
