//! Where `hookwire install` writes the bridge for Codex (docs/bridge.md): `hooks.json` of
//! `~/.codex/` or the project's `.codex/`, one matcher-less group per event; or, when the
//! scope's `config.toml` already holds a `[hooks]` table, there (`[[hooks.<Event>]]` groups,
//! edited in place), since Codex loads both files of a layer with a warning.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".codex/hooks.json"),
    project: Some(".codex/hooks.json"),
    binaries: &["codex"],
    events: &["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop"],
    reads: &["~/.codex/config.toml", ".codex/config.toml"],
    toml_beside: Some(".codex/config.toml"),
    ..Install::HOOKS
};
