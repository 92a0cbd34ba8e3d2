//! Crush's names for Claude Code's tools. Its matchers and its stdin use its own names (observed:
//! `bash`); a host firing Claude Code's `Bash` reaches a matcher that says `bash`, and the hook
//! reads `bash`. Only `bash` was recorded; the others are Crush's tool names read in its source
//! tree's tool list (unverified against the recorded build).

use crate::dialect::family::ToolNames;

/// Claude Code's tool names and Crush's for the same tool.
pub(super) const TOOL_NAMES: ToolNames = &[
    ("Bash", &["bash"]),
    ("Edit", &["edit"]),
    ("MultiEdit", &["multiedit"]),
    ("Read", &["view"]),
    ("Write", &["write"]),
    ("Glob", &["glob"]),
    ("Grep", &["grep"]),
    ("LS", &["ls"]),
    ("WebFetch", &["fetch"]),
    ("Task", &["agent"]),
];

/// Crush's name for the tool a host fires: its own name for a Claude Code tool, else the
/// name as given.
pub(super) fn to_crush(name: &str) -> &str {
    TOOL_NAMES.iter().find(|(cc, _)| *cc == name).map_or(name, |(_, own)| own[0])
}

/// Claude Code's name for one of Crush's tools (a host firing Crush's own stdin).
pub(super) fn to_claude_code(name: &str) -> &str {
    TOOL_NAMES.iter().find(|(_, own)| own.contains(&name)).map_or(name, |(cc, _)| cc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_translate_both_ways_and_unknown_ones_stay() {
        assert_eq!(to_crush("Bash"), "bash");
        assert_eq!(to_crush("Read"), "view");
        assert_eq!(to_crush("mcp_x"), "mcp_x");
        assert_eq!(to_claude_code("view"), "Read");
        assert_eq!(to_claude_code("job_output"), "job_output");
    }
}
