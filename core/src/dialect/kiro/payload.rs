//! The bytes a Kiro hook reads on stdin (Kiro CLI's documented event, agents-2.md §2.6): compact
//! `{hook_event_name, cwd}` and, on tool triggers, `tool_name` (Kiro's name), `tool_input` and
//! after the call `tool_response`; `prompt` on UserPromptSubmit and the event's own fields on
//! Kiro's own triggers (unverified). `hook_event_name` is the trigger as configured. A hook of
//! the very trigger a Kiro host fired gets the host's bytes as they are (Kiro's payload carries
//! the event name). A hook deferred to the turn's end (`only_when_turn_complete`) gets
//! `{hook_event_name, cwd, hook_events}`, `hook_events` holding the payload each recorded call
//! would have given it, oldest first (the batch's shape is unverified: docs/dialects.md).

use super::tools::kiro_name;
use crate::config::{Handler, RunMode};
use crate::dialect::FireEvent;
use crate::turn_end;
use serde_json::{Map, Value, json};

/// Canonical keys that Kiro's payload of its own triggers does not repeat.
const CANONICAL: &[&str] =
    &["hook_event_name", "session_id", "transcript_path", "permission_mode", "cwd", "prompt_id"];

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    if h.mode == RunMode::TurnEnd
        && let Some(Value::Array(events)) = ev.current.get(turn_end::EVENTS_KEY)
    {
        return turn_end_batch(h, ev, events);
    }
    if let Some(n) = ev.native.filter(|n| n.dialect == super::PROFILE.dialect)
        && n.get("hook_event_name").and_then(Value::as_str) == Some(h.native.as_str())
    {
        return n.payload(true);
    }
    serde_json::to_vec(&one(h, ev)).unwrap_or_default()
}

/// The payload of one event, built from the canonical event.
fn one(h: &Handler, ev: &FireEvent<'_>) -> Value {
    let e = ev.current;
    let mut m = Map::new();
    m.insert("hook_event_name".into(), json!(h.native));
    m.insert("cwd".into(), e.get("cwd").filter(|v| v.is_string()).cloned().unwrap_or(json!("")));
    if ev.spec.tool_event {
        let tool = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
        m.insert("tool_name".into(), json!(kiro_name(tool)));
        m.insert("tool_input".into(), e.get("tool_input").cloned().unwrap_or_else(|| json!({})));
        if let Some(r) = e.get("tool_response") {
            m.insert("tool_response".into(), r.clone());
        }
    } else if ev.spec.name == "UserPromptSubmit" {
        m.insert("prompt".into(), e.get("prompt").cloned().unwrap_or(json!("")));
    } else if ev.spec.native_of.is_some() {
        for (k, v) in e.as_object().into_iter().flatten() {
            if !CANONICAL.contains(&k.as_str()) {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(m)
}

/// The stdin of a turn-end run: the payload each recorded event would have given the hook.
fn turn_end_batch(h: &Handler, ev: &FireEvent<'_>, events: &[Value]) -> Vec<u8> {
    let each = events.iter().map(|e| {
        let fired = FireEvent { original: e, current: e, raw: None, native: None, ..*ev };
        one(h, &fired)
    });
    let cwd = ev.current.get("cwd").filter(|v| v.is_string()).cloned().unwrap_or(json!(""));
    let batch =
        json!({"hook_event_name": h.native, "cwd": cwd, turn_end::EVENTS_KEY: each.collect::<Vec<_>>()});
    serde_json::to_vec(&batch).unwrap_or_default()
}
