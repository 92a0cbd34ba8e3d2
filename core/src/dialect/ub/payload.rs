//! What a hook of this dialect is given: the bytes on its stdin and its own variables.

use super::is_tool;
use crate::config::Handler;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value, json};

fn turn(ev: &FireEvent<'_>) -> Value {
    ev.current.get("turn").cloned().unwrap_or(json!(0))
}

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    m.insert("event".into(), Value::String(h.native.clone()));
    m.insert("session_id".into(), e.get("session_id").cloned().unwrap_or(Value::String(String::new())));
    m.insert("turn".into(), turn(ev));
    if is_tool(ev) {
        let tool = e.get("tool").cloned().unwrap_or_else(|| {
            json!({
                "name": e.get("tool_name").cloned().unwrap_or(Value::Null),
                "use_id": e.get("tool_use_id").cloned().unwrap_or(Value::Null),
                "args": e.get("tool_input").cloned().unwrap_or(Value::Null),
            })
        });
        m.insert("tool".into(), tool);
    }
    if h.native == "post_tool_call" {
        let failed = ev.spec.name == "PostToolUseFailure";
        let content = if failed { e.get("error") } else { e.get("tool_response") };
        let result = e.get("result").cloned().unwrap_or_else(
            || json!({"content": content.map(text_or_json).unwrap_or_default(), "is_error": failed}),
        );
        m.insert("result".into(), result);
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let field = |k: &str| ev.original.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let turn = match turn(ev) {
        Value::String(s) => s,
        other => other.to_string(),
    };
    let mut v = vec![
        ("UB_HOOK_EVENT".to_string(), h.native.clone()),
        ("UB_HOOK_SESSION_ID".to_string(), field("session_id")),
        ("UB_HOOK_TURN".to_string(), turn),
    ];
    if is_tool(ev) {
        v.push(("UB_HOOK_TOOL_NAME".into(), field("tool_name")));
        v.push(("UB_HOOK_TOOL_USE_ID".into(), field("tool_use_id")));
    }
    v
}
