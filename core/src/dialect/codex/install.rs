//! Where `hookwire install` writes the bridge for Codex (docs/bridge.md): `hooks.json` of
//! `~/.codex/` or the project's `.codex/`, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".codex/hooks.json"),
    project: Some(".codex/hooks.json"),
    binaries: &["codex"],
    events: &["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"],
    reads: &["~/.codex/config.toml", ".codex/config.toml"],
    ..Install::HOOKS
};
