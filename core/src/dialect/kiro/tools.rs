//! Kiro's names for Claude Code's tools (its built-in `execute_bash`, `fs_read`, `fs_write`,
//! `str_replace`; MCP tools as `@server/tool`), both ways: matchers are tested against Kiro's
//! name of a tool the host names Claude Code's way, a payload carries Kiro's name, and a
//! Kiro host's name is Claude Code's again in the canonical event.

use crate::dialect::family::ToolNames;
use std::borrow::Cow;

/// Claude Code's name and Kiro's.
const TOOLS: &[(&str, &str)] = &[
    ("Bash", "execute_bash"),
    ("Read", "fs_read"),
    ("Write", "fs_write"),
    ("Edit", "str_replace"),
    ("MultiEdit", "str_replace"),
    ("Grep", "grep"),
    ("Glob", "glob"),
];

/// For the family's matcher: Kiro's names of a Claude Code name (`Edit` is also an `fs_write`).
pub(super) const TOOL_NAMES: ToolNames = &[
    ("Bash", &["execute_bash"]),
    ("Read", &["fs_read"]),
    ("Write", &["fs_write"]),
    ("Edit", &["str_replace", "fs_write"]),
    ("MultiEdit", &["str_replace", "fs_write"]),
    ("Grep", &["grep"]),
    ("Glob", &["glob"]),
];

/// Kiro's name of a tool the host names Claude Code's way (`mcp__git__status` → `@git/status`).
pub fn kiro_name(cc: &str) -> Cow<'_, str> {
    if let Some((_, k)) = TOOLS.iter().find(|(c, _)| *c == cc) {
        return Cow::Borrowed(k);
    }
    match cc.strip_prefix("mcp__").and_then(|r| r.split_once("__")) {
        Some((server, tool)) => Cow::Owned(format!("@{server}/{tool}")),
        None => Cow::Borrowed(cc),
    }
}

/// Claude Code's name of a Kiro tool, when it is one of Kiro's own names (`None` otherwise).
pub fn cc_name(kiro: &str) -> Option<String> {
    if let Some((c, _)) = TOOLS.iter().find(|(_, k)| *k == kiro) {
        return Some(c.to_string());
    }
    let (server, tool) = kiro.strip_prefix('@')?.split_once('/')?;
    Some(format!("mcp__{server}__{tool}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_translate_both_ways_mcp_included() {
        assert_eq!(kiro_name("Bash"), "execute_bash");
        assert_eq!(kiro_name("mcp__git__status"), "@git/status");
        assert_eq!(kiro_name("WebFetch"), "WebFetch");
        assert_eq!(cc_name("fs_write").as_deref(), Some("Write"));
        assert_eq!(cc_name("@git/status").as_deref(), Some("mcp__git__status"));
        assert_eq!(cc_name("Bash"), None);
    }
}
