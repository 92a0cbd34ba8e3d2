//! Qwen's names for Claude Code's tools (its matchers are tested against them).

use super::super::family::ToolNames;

/// Qwen's names for Claude Code's tools: a matcher is also tested against them. Observed:
/// `Bash` and `Shell` match `run_shell_command`; the others are the documented tool names,
/// unverified as aliases.
pub(super) const TOOL_NAMES: ToolNames = &[
    ("run_shell_command", &["Bash", "Shell"]),
    ("Bash", &["run_shell_command", "Shell"]),
    ("write_file", &["Write", "WriteFile"]),
    ("Write", &["write_file", "WriteFile"]),
    ("read_file", &["Read", "ReadFile"]),
    ("Read", &["read_file", "ReadFile"]),
    ("edit", &["Edit"]),
    ("Edit", &["edit"]),
];
