//! What a hook of this dialect is given: the bytes on its stdin and its own variables.

use super::item_id;
use crate::config::Handler;
use crate::dialect::FireEvent;
use crate::matcher::arguments_preview;
use serde_json::{Map, Value, json};

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut meta = Map::new();
    if ev.spec.tool_event {
        meta.insert("tool_call_id".into(), json!(s("tool_use_id")));
        meta.insert("tool_name".into(), json!(s("tool_name")));
        meta.insert("tool_arguments_preview".into(), json!(arguments_preview(e)));
    }
    meta.insert("workdir".into(), json!(s("cwd")));
    if h.native == "user_prompt_submit" {
        meta.insert("prompt".into(), json!(s("prompt")));
    }
    let payload = json!({
        "payload_version": "1",
        "hook_id": item_id(h),
        "point": h.native,
        "run_id": s("run_id"),
        "session_id": s("session_id"),
        "metadata": Value::Object(meta),
    });
    let mut out = serde_json::to_vec(&payload).unwrap_or_default();
    out.push(b'\n');
    out
}

pub fn vars(h: &Handler, _ev: &FireEvent<'_>) -> Vec<(String, String)> {
    vec![
        ("NEOCODE_HOOK_HOOK_ID".into(), item_id(h).to_string()),
        ("NEOCODE_HOOK_POINT".into(), h.native.clone()),
        ("NEOCODE_HOOK_PAYLOAD_VERSION".into(), "1".into()),
    ]
}
