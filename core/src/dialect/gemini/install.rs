//! Where `hookwire install` writes the bridge for Gemini CLI (docs/bridge.md): `settings.json`
//! of `~/.gemini/` or the project's `.gemini/`, one matcher-less group per event. Gemini's
//! timeout is in milliseconds: 600000 gives the bridge the ten minutes a Claude Code hook has.

use crate::dialect::installing::Install;
use serde_json::{Value, json};

pub(super) static INSTALL: Install = Install {
    user: Some(".gemini/settings.json"),
    project: Some(".gemini/settings.json"),
    binaries: &["gemini"],
    events: &["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart"],
    entry,
    ..Install::HOOKS
};

fn entry(_event: &str, command: &str) -> Value {
    json!({"hooks": [{"type": "command", "command": command, "timeout": 600000}]})
}
