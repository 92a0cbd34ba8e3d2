//! Where `hookwire install` writes the bridge for Antigravity (docs/bridge.md):
//! `~/.gemini/antigravity-cli/hooks.json` or the project's `.agents/hooks.json`, as one named
//! hook `hookwire-bridge` with `enabled` and its events: matcher-less groups on the tool events,
//! flat handlers elsewhere (its shape), naming the event (`--event`: the payload does not).
//! Only keys Antigravity reads: it drops a whole file for one unknown key.

use crate::dialect::installing::{Install, group, handler};
use serde_json::Value;

pub(super) static INSTALL: Install = Install {
    user: Some(".gemini/antigravity-cli/hooks.json"),
    project: Some(".agents/hooks.json"),
    binaries: &["agy"],
    events: &["PreToolUse", "PostToolUse", "Stop", "SessionStart"],
    names_event: true,
    skeleton: r#"{"hookwire-bridge": {"enabled": true}}"#,
    at: "hookwire-bridge",
    entry,
    reads: &["~/.gemini/config/hooks.json"],
    ..Install::HOOKS
};

fn entry(event: &str, command: &str) -> Value {
    match event {
        "PreToolUse" | "PostToolUse" => group(event, command),
        _ => handler(event, command),
    }
}
