//! The bytes an Antigravity hook reads on stdin (agents-2.md §2.3, third party): compact
//! camelCase JSON without an event name, `{conversationId, stepIdx}` and on the tool events
//! `toolCall{name, args}` (Antigravity's tool name, PascalCase argument keys) and, after the
//! call, `toolResult` (unverified). Built from the canonical event; a hook of the very event a
//! host emulating Antigravity fired gets the host's payload without the `hook_event_name` it
//! added.

use super::tools::{agy_name, args};
use crate::config::Handler;
use crate::dialect::FireEvent;
use serde_json::{Map, Value, json};

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    if let Some(n) = ev.native.filter(|n| n.dialect == super::PROFILE.dialect)
        && n.get("hook_event_name").and_then(Value::as_str) == Some(h.native.as_str())
    {
        return n.payload(false);
    }
    let e = ev.current;
    let mut m = Map::new();
    let conversation =
        ["conversationId", "session_id"].iter().find_map(|k| e.get(*k).filter(|v| v.is_string()));
    m.insert("conversationId".into(), conversation.cloned().unwrap_or(json!("")));
    m.insert("stepIdx".into(), e.get("stepIdx").filter(|v| v.is_u64()).cloned().unwrap_or(json!(0)));
    if ev.spec.tool_event {
        let cc = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
        let input = e.get("tool_input").cloned().unwrap_or_else(|| json!({}));
        m.insert("toolCall".into(), json!({"name": agy_name(cc), "args": args(cc, &input, true)}));
        if let Some(r) = e.get("tool_response") {
            m.insert("toolResult".into(), r.clone());
        }
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}
