//! Where `hookwire install` writes the bridge for Kimi CLI (docs/bridge.md): `[[hooks]]` tables
//! in `~/.kimi/config.toml` (Kimi reads no project file), one `{event, command}` per event
//! where Kimi's hooks can block (PreToolUse, UserPromptSubmit, Stop): Kimi reads exit codes
//! only, so the bridge has nothing to say on the others. The CLI edits the TOML keeping the
//! user's comments and formatting.

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".kimi/config.toml"),
    project: None,
    binaries: &["kimi"],
    events: &["PreToolUse", "UserPromptSubmit", "Stop"],
    entry,
    ..Install::TABLES
};

fn entry(event: &str, command: &str) -> Value {
    json!({"event": event, "command": command})
}
