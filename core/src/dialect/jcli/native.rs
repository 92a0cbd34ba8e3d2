//! j-cli's own payload as the canonical event, for the bridge (`bridge.rs`; protocol.md §9.4
//! read backwards): `event` names it, `cwd`, `session_id`, `user_input` → `prompt`,
//! `assistant_output` → `last_assistant_message`, `tool_result` → `tool_response`, `tool_error`
//! → `error`, `model` as given. `tool_name` under Claude Code's names **[u]** (j-cli's own are
//! not recorded: the bridge's table of common spellings decides, and a name it does not know
//! passes as is with a warning). `tool_arguments` is a string of JSON: parsed into
//! `tool_input`; a string that is not a whole JSON object keeps the members read whole and
//! gives the rest placeholders that leave an `if` rule undecided (so its hook runs), with a
//! warning.

use crate::dialect::tool_names;
use serde_json::{Value, json};

const KEYS: &[(&str, &str)] = &[
    ("cwd", "cwd"),
    ("session_id", "session_id"),
    ("user_input", "prompt"),
    ("assistant_output", "last_assistant_message"),
    ("tool_result", "tool_response"),
    ("tool_error", "error"),
    ("model", "model"),
];

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let spec = super::PROFILE.canonical_spec(name)?;
    let input = match event.get("tool_arguments") {
        None | Some(Value::Null) => json!({}),
        Some(Value::String(s)) => {
            tool_names::object_from_prefix(s, "j-cli's tool_arguments is not a JSON object")
                .unwrap_or_else(|rebuilt| rebuilt)
        }
        Some(v @ Value::Object(_)) => v.clone(),
        Some(other) => {
            tool_names::object_from_prefix(&other.to_string(), "j-cli's tool_arguments is not a JSON object")
                .unwrap_or_else(|rebuilt| rebuilt)
        }
    };
    let tool = event.get("tool_name").filter(|_| spec.tool_event).map(|n| (n, input));
    Some(tool_names::renamed(spec.name, event, KEYS, tool))
}
