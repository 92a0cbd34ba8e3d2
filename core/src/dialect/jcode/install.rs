//! Where `hookwire install` writes the bridge for jcode (docs/bridge.md): `.jcode/hooks.json` under
//! the home or `.jcode/hooks.json` in the project, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".jcode/hooks.json"),
    project: Some(".jcode/hooks.json"),
    binaries: &["jcode"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    reads: &[".jcode/hooks.local.json"],
    ..Install::HOOKS
};
