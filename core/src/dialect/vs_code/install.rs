//! Where `hookwire install` writes the bridge for VS Code (docs/bridge.md): a file of its own in
//! the repository's `.github/hooks/` or `~/.copilot/hooks/`, a flat handler per event.

use crate::dialect::installing::{Install, handler};

pub(super) static INSTALL: Install = Install {
    user: Some(".copilot/hooks/hookwire-vs-code.json"),
    project: Some(".github/hooks/hookwire-vs-code.json"),
    binaries: &["code"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"],
    entry: handler,
    reads: &[
        ".github/hooks/",
        "~/.copilot/hooks/",
        ".claude/settings.json",
        ".claude/settings.local.json",
        "~/.claude/settings.json",
    ],
    ..Install::HOOKS
};
