//! What a hook of this dialect is given: the bytes on its stdin and its own variables.

use super::reading::JCliStep;
use crate::config::Handler;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value};

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v.filter(|v| !v.is_null()) {
            m.insert(k.to_string(), v);
        }
    };
    let native_or = |native: &str, canonical: &str| e.get(native).or_else(|| e.get(canonical)).cloned();
    put("event", Some(Value::String(h.native.clone())));
    put("cwd", e.get("cwd").cloned());
    put("session_id", e.get("session_id").cloned());
    put("user_input", native_or("user_input", "prompt"));
    put("messages", e.get("messages").cloned());
    put("system_prompt", e.get("system_prompt").cloned());
    put("model", e.get("model").cloned());
    put("assistant_output", native_or("assistant_output", "last_assistant_message"));
    put("tool_name", e.get("tool_name").cloned());
    put(
        "tool_arguments",
        e.get("tool_arguments")
            .cloned()
            .or_else(|| e.get("tool_input").map(|t| Value::String(t.to_string()))),
    );
    put(
        "tool_result",
        e.get("tool_result")
            .cloned()
            .or_else(|| e.get("tool_response").map(|r| Value::String(text_or_json(r)))),
    );
    put("tool_error", native_or("tool_error", "error"));
    for own in ev.carried.iter().filter_map(|k| k.get::<JCliStep>()) {
        for (k, v) in &own.native {
            m.insert(k.clone(), v.clone());
        }
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let cwd = ev.original.get("cwd").and_then(Value::as_str).unwrap_or("").to_string();
    vec![("JCLI_HOOK_EVENT".into(), h.native.clone()), ("JCLI_CWD".into(), cwd)]
}
