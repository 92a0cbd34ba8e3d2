//! Droid's names for Claude Code's tools (its matchers are tested against them).

use super::super::family::ToolNames;

/// Claude Code's tool names and Droid's for the same tool (documented: `Execute`, `Create`,
/// `Edit`, `Read`; observed: `Execute`, `Read`, `ApplyPatch`, …): a matcher is also tested
/// against the Droid name of a Claude Code name the host fires.
pub(super) const TOOL_NAMES: ToolNames =
    &[("Bash", &["Execute"]), ("Write", &["Create"]), ("MultiEdit", &["Edit"])];
