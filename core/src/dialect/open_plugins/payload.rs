//! The bytes an Open Plugins hook reads on stdin, as Goose writes them (its `HookContext`):
//! compact JSON with `event`, `session_id` and `matcher_context` (the string the matcher is
//! tested against), then whichever of `tool_call_id`, `tool_name`, `tool_input`,
//! `tool_output`, `message`, `last_assistant_message` and `working_dir` the event has, and on
//! `PreToolUseResult` its outcome (`decision`, `policy_evaluated`, `blocked_by`, `reason`,
//! `cause`). Each is taken from the event under Goose's name, else its Claude Code name.

use crate::catalog::MatchOn;
use crate::dialect::FireEvent;
use serde_json::{Map, Value, json};

/// Goose's keys after `matcher_context`, each with the canonical fields it may come from.
const KEYS: &[(&str, &[&str])] = &[
    ("tool_call_id", &["tool_call_id", "tool_use_id"]),
    ("tool_name", &["tool_name"]),
    ("tool_input", &["tool_input"]),
    ("tool_output", &["tool_output", "tool_response"]),
    ("message", &["message", "prompt"]),
    ("last_assistant_message", &["last_assistant_message"]),
    ("working_dir", &["working_dir", "cwd"]),
    ("decision", &["decision"]),
    ("policy_evaluated", &["policy_evaluated"]),
    ("blocked_by", &["blocked_by"]),
    ("reason", &["reason"]),
    ("cause", &["cause"]),
];

pub fn bytes(ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    m.insert("event".into(), json!(super::PROFILE.native_name(ev.spec).unwrap_or(ev.spec.name)));
    m.insert("session_id".into(), e.get("session_id").cloned().unwrap_or(json!("")));
    let context = match ev.spec.match_on {
        MatchOn::Field(f) | MatchOn::Basename(f) => e.get(f).cloned().unwrap_or(Value::Null),
        MatchOn::Nothing => Value::Null,
    };
    m.insert("matcher_context".into(), context);
    for (key, from) in KEYS {
        if let Some(v) = from.iter().find_map(|k| e.get(*k)) {
            m.insert((*key).into(), v.clone());
        }
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}
