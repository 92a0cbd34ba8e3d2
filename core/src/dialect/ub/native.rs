//! ub's own payload as the canonical event, for the bridge (`bridge.rs`; protocol.md §9.5 read
//! backwards): `{event, session_id, turn, tool: {name, use_id, args}, result: {content,
//! is_error}}`. `tool.name`/`tool.args` → `tool_name`/`tool_input` under Claude Code's tool
//! names **[u]** (ub's own are not recorded: the bridge's table of common spellings decides,
//! and a name it does not know passes as is with a warning), `tool.use_id` → `tool_use_id`;
//! `post_tool_call` is PostToolUse with `tool_response` ← `result.content`, or
//! PostToolUseFailure with `error` when `result.is_error`; `post_user_turn` is Stop.

use crate::dialect::tool_names;
use serde_json::{Value, json};

const KEYS: &[(&str, &str)] = &[("session_id", "session_id"), ("turn", "turn"), ("cwd", "cwd")];

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let failed = event.pointer("/result/is_error") == Some(&Value::Bool(true));
    let spec = match (name, failed) {
        ("post_tool_call", true) => crate::catalog::spec(crate::catalog::lookup("PostToolUseFailure")?),
        _ => super::PROFILE.canonical_spec(name)?,
    };
    let tool = event
        .pointer("/tool/name")
        .filter(|_| spec.tool_event)
        .map(|n| (n, event.pointer("/tool/args").cloned().unwrap_or_else(|| json!({}))));
    let mut c = tool_names::renamed(spec.name, event, KEYS, tool);
    if let Some(id) = event.pointer("/tool/use_id").filter(|v| !v.is_null()) {
        c["tool_use_id"] = id.clone();
    }
    if let Some(content) = event.pointer("/result/content").filter(|_| name == "post_tool_call") {
        let key = if failed { "error" } else { "tool_response" };
        c[key] = content.clone();
    }
    Some(c)
}
