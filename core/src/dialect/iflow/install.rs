//! Where `hookwire install` writes the bridge for iFlow CLI (docs/bridge.md): `.iflow/settings.json` under
//! the home or `.iflow/settings.json` in the project, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".iflow/settings.json"),
    project: Some(".iflow/settings.json"),
    binaries: &["iflow"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    ..Install::HOOKS
};
