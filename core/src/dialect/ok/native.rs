//! ok's own payload as the canonical event, for the bridge (`bridge.rs`; protocol.md §9.3 read
//! backwards): `event` names it (the bridge copies it to `hook_event_name`), `cwd`,
//! `toolName`/`toolArgs` → `tool_name`/`tool_input` under Claude Code's tool names **[u]**: ok's
//! own tool names are not recorded, so the bridge's table of common spellings
//! (`dialect/tool_names.rs`) decides, and a name it does not know passes as is with a warning;
//! `toolResult` → `tool_response`, `prompt`, `lastAssistantText` → `last_assistant_message`,
//! `turn` as given.

use crate::dialect::tool_names;
use serde_json::{Value, json};

const KEYS: &[(&str, &str)] = &[
    ("cwd", "cwd"),
    ("session_id", "session_id"),
    ("toolResult", "tool_response"),
    ("prompt", "prompt"),
    ("lastAssistantText", "last_assistant_message"),
    ("turn", "turn"),
];

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let spec = super::PROFILE.canonical_spec(name)?;
    let tool = event
        .get("toolName")
        .filter(|_| spec.tool_event)
        .map(|n| (n, event.get("toolArgs").cloned().unwrap_or_else(|| json!({}))));
    Some(tool_names::renamed(spec.name, event, KEYS, tool))
}
