//! Where `hookwire install` writes the bridge for Copilot CLI (docs/bridge.md): a file of its
//! own in `~/.copilot/hooks/` or the repository's `.github/hooks/` (Copilot reads every
//! `*.json` there), a flat `bash` entry per camelCase event naming the event (`--event`: the
//! payload does not).

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".copilot/hooks/hookwire-copilot-cli.json"),
    project: Some(".github/hooks/hookwire-copilot-cli.json"),
    binaries: &["copilot"],
    events: &["preToolUse", "postToolUse", "userPromptSubmitted", "agentStop", "sessionStart"],
    names_event: true,
    skeleton: r#"{"version": 1, "hooks": {}}"#,
    entry,
    reads: &[
        "~/.copilot/hooks/",
        ".github/hooks/",
        "/etc/github-copilot/policy.d/",
        "~/.copilot/settings.json",
        ".github/copilot/settings.json",
        ".github/copilot/settings.local.json",
    ],
    ..Install::HOOKS
};

fn entry(_event: &str, command: &str) -> Value {
    json!({"type": "command", "bash": command})
}
