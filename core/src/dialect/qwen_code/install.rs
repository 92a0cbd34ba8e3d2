//! Where `hookwire install` writes the bridge for Qwen Code (docs/bridge.md): `settings.json`
//! of `~/.qwen/` or the project's `.qwen/`, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".qwen/settings.json"),
    project: Some(".qwen/settings.json"),
    binaries: &["qwen"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    reads: &[".qwen/settings.local.json"],
    ..Install::HOOKS
};
