//! Cursor's tool names (agents.md §4.1 "tools"): Claude Code's names translated, and which
//! tools each tool-specific Cursor event is about. A name that is not in the table (already
//! Cursor's, or anything else) passes unchanged.

use std::borrow::Cow;

/// Cursor's name for a tool the host names Claude Code's way.
pub fn cursor_name(cc: &str) -> Cow<'_, str> {
    match cc {
        "Bash" => Cow::Borrowed("Shell"),
        "Agent" | "Task" => Cow::Borrowed("Task"),
        _ if cc.starts_with("mcp__") => Cow::Owned(format!("MCP:{}", mcp_tool(cc))),
        other => Cow::Borrowed(other),
    }
}

/// The MCP tool's own name: the part after the last `__` of `mcp__<server>__<tool>`, or after
/// `MCP:` when the host already names it Cursor's way.
pub fn mcp_tool(name: &str) -> &str {
    if let Some(rest) = name.strip_prefix("MCP:") {
        return rest;
    }
    match name.strip_prefix("mcp__") {
        Some(rest) => rest.rsplit_once("__").map_or(rest, |(_, tool)| tool),
        None => name,
    }
}

/// The shell tool (`Bash`, or Cursor's own `Shell`).
pub fn is_shell(name: &str) -> bool {
    name == "Bash" || name == "Shell"
}

/// An MCP tool (`mcp__…`, or Cursor's `MCP:…`).
pub fn is_mcp(name: &str) -> bool {
    name.starts_with("mcp__") || name.starts_with("MCP:")
}

/// A file edit `afterFileEdit` reports.
pub fn is_file_edit(name: &str) -> bool {
    matches!(name, "Edit" | "Write" | "MultiEdit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_names_are_translated_and_others_pass_unchanged() {
        assert_eq!(cursor_name("Bash"), "Shell");
        assert_eq!(cursor_name("Task"), "Task");
        assert_eq!(cursor_name("Agent"), "Task");
        assert_eq!(cursor_name("Read"), "Read");
        assert_eq!(cursor_name("Shell"), "Shell");
        assert_eq!(cursor_name("NotebookEdit"), "NotebookEdit");
        assert_eq!(cursor_name("mcp__github__create_issue"), "MCP:create_issue");
    }

    #[test]
    fn the_mcp_tool_is_the_part_after_the_last_double_underscore() {
        assert_eq!(mcp_tool("mcp__srv__tool"), "tool");
        assert_eq!(mcp_tool("mcp__a__b__c"), "c");
        assert_eq!(mcp_tool("mcp__solo"), "solo");
        assert_eq!(mcp_tool("MCP:x"), "x");
        assert_eq!(mcp_tool("Read"), "Read");
    }
}
