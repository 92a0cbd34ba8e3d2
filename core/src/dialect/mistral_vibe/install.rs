//! Where `hookwire install` writes the bridge for Mistral Vibe (docs/bridge.md): `[[hooks]]`
//! tables in `~/.vibe/hooks.toml` or a project's `.vibe/hooks.toml`, one per hook type
//! (`pre_tool`, `post_tool`, `post_agent`), each `{name, type, command}` with the name
//! `hookwire-bridge-<type>` (Vibe requires a name, unique in the file). The CLI edits the TOML
//! keeping the user's comments and formatting.

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".vibe/hooks.toml"),
    project: Some(".vibe/hooks.toml"),
    binaries: &["vibe"],
    events: &["pre_tool", "post_tool", "post_agent"],
    entry,
    ..Install::TABLES
};

fn entry(event: &str, command: &str) -> Value {
    json!({"name": format!("hookwire-bridge-{event}"), "type": event, "command": command})
}
