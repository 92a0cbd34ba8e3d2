//! Where `hookwire install` writes the bridge for Kiro (docs/bridge.md): a hook file of its own,
//! the project's `.kiro/hooks/hookwire-bridge.json` (`version: "v1"`), one named hook per
//! trigger. No user scope: hookwire knows of no user hooks directory of Kiro's.

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: None,
    project: Some(".kiro/hooks/hookwire-bridge.json"),
    binaries: &["kiro", "kiro-cli"],
    events: &["PreToolUse", "UserPromptSubmit", "SessionStart"],
    skeleton: r#"{"version": "v1", "hooks": []}"#,
    list: true,
    entry,
    reads: &[".kiro/hooks/", ".kiro/agents/", "~/.kiro/agents/"],
    ..Install::HOOKS
};

fn entry(event: &str, command: &str) -> Value {
    json!({"name": format!("hookwire-bridge-{event}"), "trigger": event,
           "action": {"type": "command", "command": command}})
}
