//! Where `hookwire install` writes the bridge for Antigravity (docs/bridge.md):
//! `~/.gemini/antigravity-cli/hooks.json` or the project's `.agents/hooks.json`, as one named
//! hook `hookwire-bridge` with `enabled` and its events: matcher-less groups on the tool events,
//! flat handlers elsewhere (its shape), naming the event (`--event`: the payload does not).
//! Only keys Antigravity reads: it drops a whole file for one unknown key.

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".gemini/antigravity-cli/hooks.json"),
    project: Some(".agents/hooks.json"),
    binaries: &["agy"],
    events: &["PreToolUse", "PostToolUse", "Stop", "SessionStart"],
    names_event: true,
    skeleton: r#"{"hookwire-bridge": {"enabled": true}}"#,
    at: "hookwire-bridge",
    list: false,
    entry,
};

fn entry(event: &str, command: &str) -> Value {
    let handler = json!({"type": "command", "command": command});
    match event {
        "PreToolUse" | "PostToolUse" => json!({"hooks": [handler]}),
        _ => handler,
    }
}
