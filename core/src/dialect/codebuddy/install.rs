//! Where `hookwire install` writes the bridge for CodeBuddy Code (docs/bridge.md): `.codebuddy/settings.json` under
//! the home or `.codebuddy/settings.json` in the project, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".codebuddy/settings.json"),
    project: Some(".codebuddy/settings.json"),
    binaries: &["codebuddy"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    reads: &[".codebuddy/settings.local.json"],
    ..Install::HOOKS
};
