//! Where `hookwire install` writes the bridge for Cursor (docs/bridge.md): `hooks.json` of
//! `~/.cursor/` or the project's `.cursor/` (`version: 1`), a flat entry per event. `preToolUse`
//! covers every tool, so `beforeShellExecution` gets none (the hooks would run twice); `stop`
//! sets `loop_limit: null`, leaving the Stop-loop cap to the user's hooks and hookwire's.

use crate::dialect::installing::{Install, bare};
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".cursor/hooks.json"),
    project: Some(".cursor/hooks.json"),
    binaries: &["cursor", "cursor-agent"],
    events: &["preToolUse", "postToolUse", "beforeSubmitPrompt", "stop", "sessionStart"],
    skeleton: r#"{"version": 1, "hooks": {}}"#,
    entry,
    ..Install::HOOKS
};

fn entry(event: &str, command: &str) -> Value {
    match event {
        "stop" => json!({"command": command, "loop_limit": null}),
        _ => bare(event, command),
    }
}
