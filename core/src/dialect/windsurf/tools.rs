//! Windsurf names no tools: each of its tool events is about one kind of call (a file read, a
//! file write, a terminal command, an MCP tool). This file says which of Claude Code's tool
//! names fall in each kind, and spells MCP tools both ways (`mcp__<server>__<tool>` against
//! Windsurf's `mcp_server_name` and `mcp_tool_name`).

/// The kinds of tool call Windsurf has hook events for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `pre_read_code` / `post_read_code`: Claude Code's `Read`.
    Read,
    /// `pre_write_code` / `post_write_code`: `Edit`, `Write`, `MultiEdit`.
    Write,
    /// `pre_run_command` / `post_run_command`: `Bash`.
    Command,
    /// `pre_mcp_tool_use` / `post_mcp_tool_use`: `mcp__…`.
    Mcp,
}

/// The kind of a tool Claude Code names; `None` for a tool Windsurf has no hook for (`Grep`,
/// `WebFetch`, ...), whose fires run no Windsurf hook.
pub fn kind_of(cc: &str) -> Option<Tool> {
    match cc {
        "Read" => Some(Tool::Read),
        "Edit" | "Write" | "MultiEdit" => Some(Tool::Write),
        "Bash" => Some(Tool::Command),
        _ if mcp_parts(cc).is_some() => Some(Tool::Mcp),
        _ => None,
    }
}

/// `(server, tool)` of `mcp__<server>__<tool>`; the server ends at the first `__`.
pub fn mcp_parts(cc: &str) -> Option<(&str, &str)> {
    cc.strip_prefix("mcp__")?.split_once("__").filter(|(s, t)| !s.is_empty() && !t.is_empty())
}

/// Claude Code's name of a Windsurf MCP tool.
pub fn mcp_name(server: &str, tool: &str) -> String {
    format!("mcp__{server}__{tool}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_codes_tools_fall_into_windsurfs_four_kinds() {
        assert_eq!(kind_of("Bash"), Some(Tool::Command));
        assert_eq!(kind_of("Read"), Some(Tool::Read));
        assert_eq!(kind_of("MultiEdit"), Some(Tool::Write));
        assert_eq!(kind_of("mcp__gh__create_issue"), Some(Tool::Mcp));
        for none in ["Grep", "Glob", "WebFetch", "bash", "mcp__", "mcp__solo", "NotebookEdit"] {
            assert_eq!(kind_of(none), None, "{none}");
        }
    }

    #[test]
    fn mcp_names_split_at_the_first_double_underscore_and_join_back() {
        assert_eq!(mcp_parts("mcp__gh__create_issue"), Some(("gh", "create_issue")));
        assert_eq!(mcp_parts("mcp__a__b__c"), Some(("a", "b__c")));
        assert_eq!(mcp_name("a", "b__c"), "mcp__a__b__c");
        assert_eq!(mcp_parts("Bash"), None);
    }
}
