//! Where `hookwire install` writes the bridge for Auggie (docs/bridge.md): `.augment/settings.json` under
//! the home or `.augment/settings.json` in the project, one matcher-less group per event.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".augment/settings.json"),
    project: Some(".augment/settings.json"),
    binaries: &["auggie"],
    events: &["PreToolUse", "PostToolUse", "PromptSubmit", "Stop"],
    reads: &["/etc/augment/settings.json", ".augment/settings.local.json"],
    ..Install::HOOKS
};
