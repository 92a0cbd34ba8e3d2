//! What a hook of this dialect is given: the bytes on its stdin and its own variables.

use crate::config::Handler;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value};

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    let mut put = |key: &str, v: Option<Value>| {
        if let Some(v) = v {
            let empty = match &v {
                Value::Null => true,
                Value::String(s) => s.is_empty(),
                Value::Object(o) => o.is_empty(),
                Value::Array(a) => a.is_empty(),
                _ => false,
            };
            if !empty {
                m.insert(key.to_string(), v);
            }
        }
    };
    let native_or = |native: &str, canonical: &str| e.get(native).or_else(|| e.get(canonical)).cloned();
    put("event", Some(e.get("event").cloned().unwrap_or_else(|| Value::String(h.native.clone()))));
    put("cwd", e.get("cwd").cloned());
    put("toolName", native_or("toolName", "tool_name"));
    put("toolArgs", native_or("toolArgs", "tool_input"));
    put(
        "toolResult",
        e.get("toolResult")
            .cloned()
            .or_else(|| e.get("tool_response").map(|r| Value::String(text_or_json(r)))),
    );
    put("prompt", e.get("prompt").cloned());
    put("lastAssistantText", native_or("lastAssistantText", "last_assistant_message"));
    put("turn", e.get("turn").cloned());
    let mut out = serde_json::to_vec(&Value::Object(m)).unwrap_or_default();
    out.push(b'\n');
    out
}
