//! A VS Code hook's stdin (agents-2.md §2.2): Claude Code's keys with VS Code's tool names and
//! input keys, then `hookEventName`, `sessionId` and `timestamp` (ISO 8601). *Chosen*: the
//! three VS Code keys come after Claude Code's (the order is not documented). A host that fired
//! VS Code's own payload gives its hooks those bytes, unless a hook rewrote the input.

use super::native::rename;
use super::tools::{KEYS, vs_code_name};
use crate::catalog::Dialect;
use crate::dialect::FireEvent;
use crate::dialect::time::timestamp;
use serde_json::{Map, Value, json};

pub fn payload(ev: &FireEvent<'_>) -> Vec<u8> {
    if let Some(n) = ev.native.filter(|n| n.dialect == Dialect::VsCode)
        && std::ptr::eq(ev.current, ev.original)
    {
        return n.payload(true);
    }
    let e = ev.current;
    let mut m = Map::new();
    for (k, v) in e.as_object().into_iter().flatten() {
        let v = match (k.as_str(), v) {
            ("tool_name", Value::String(t)) => Value::String(vs_code_name(t).to_string()),
            ("tool_input", Value::Object(input)) => {
                Value::Object(rename(input, |k| KEYS.iter().find(|(_, cc)| *cc == k).map(|(vs, _)| *vs)))
            }
            _ => v.clone(),
        };
        m.insert(k.clone(), v);
    }
    let name = e.get("hook_event_name").cloned().unwrap_or_else(|| json!(ev.spec.name));
    m.entry("hookEventName").or_insert(name);
    m.entry("sessionId").or_insert_with(|| e.get("session_id").cloned().unwrap_or_else(|| json!("")));
    m.entry("timestamp").or_insert_with(|| json!(timestamp(ev.at)));
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}
