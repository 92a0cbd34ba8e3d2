//! Where `hookwire install` writes the bridge for Crush (docs/bridge.md): `.config/crush/crush.json` under
//! the home or `crush.json` in the project, a flat list per event of `{command}` entries (Crush's only event, PreToolUse).

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".config/crush/crush.json"),
    project: Some("crush.json"),
    binaries: &["crush"],
    events: &["PreToolUse"],
    entry: crate::dialect::installing::bare,
    reads: &[".crush.json"],
    ..Install::HOOKS
};
