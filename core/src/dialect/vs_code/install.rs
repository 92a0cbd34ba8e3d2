//! Where `hookwire install` writes the bridge for VS Code (docs/bridge.md): a file of its own in
//! the repository's `.github/hooks/` or `~/.copilot/hooks/`, a flat entry per event.

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".copilot/hooks/hookwire-vs-code.json"),
    project: Some(".github/hooks/hookwire-vs-code.json"),
    binaries: &["code"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    names_event: false,
    skeleton: r#"{"hooks": {}}"#,
    at: "hooks",
    list: false,
    entry,
};

fn entry(_event: &str, command: &str) -> Value {
    json!({"type": "command", "command": command})
}
