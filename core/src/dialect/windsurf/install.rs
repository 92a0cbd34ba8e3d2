//! Where `hookwire install` writes the bridge for Windsurf (docs/bridge.md):
//! `~/.codeium/windsurf/hooks.json` or the project's `.windsurf/hooks.json`, a flat entry per
//! `pre_*` event naming the event (`--event`: its payload's name is not reliable).

use crate::dialect::installing::{Install, bare};

pub(super) static INSTALL: Install = Install {
    user: Some(".codeium/windsurf/hooks.json"),
    project: Some(".windsurf/hooks.json"),
    binaries: &["windsurf"],
    events: &["pre_run_command", "pre_read_code", "pre_write_code", "pre_mcp_tool_use", "pre_user_prompt"],
    names_event: true,
    entry: bare,
    reads: &["/etc/windsurf/hooks.json"],
    ..Install::HOOKS
};
