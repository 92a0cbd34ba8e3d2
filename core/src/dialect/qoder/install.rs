//! Where `hookwire install` writes the bridge for Qoder CLI (docs/bridge.md): `.qoder/settings.json` under
//! the home or `.qoder/settings.json` in the project, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".qoder/settings.json"),
    project: Some(".qoder/settings.json"),
    binaries: &["qodercli"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    reads: &[".qoder/settings.local.json"],
    ..Install::HOOKS
};
