//! Codex's own payload as the canonical event, for the bridge (`bridge.rs`): Codex sends
//! Claude Code's keys and event names, and its shell tool as `Bash` [o]; only the tools it names
//! its own way are renamed: `apply_patch` → `Edit` (Codex's matcher treats it as `Edit` and
//! `Write`; a Claude Code `Edit|Write` guard must see it) **[u]**, `spawn_agent` → `Agent` [d].
//! The tool input is kept as Codex gives it (a patch stays a patch).

use serde_json::Value;

/// The canonical event of a Codex payload whose tool has a name of Codex's own; `None`: the
/// payload is already canonical.
pub fn canonical(_name: &str, event: &Value) -> Option<Value> {
    let cc = match event.get("tool_name").and_then(Value::as_str)? {
        "apply_patch" => "Edit",
        "spawn_agent" => "Agent",
        _ => return None,
    };
    let mut c = event.clone();
    c["tool_name"] = Value::String(cc.to_string());
    Some(c)
}
