//! Copilot's tool names against Claude Code's (documented for its PascalCase events:
//! `bash`→`Bash`, `view`→`Read`, `create`→`Write`, `edit` and `apply_patch`→`Edit`,
//! `task`→`Agent`). A name not in the table is the same in both (`glob`, MCP tools).

/// Copilot's name → Claude Code's, in the order the names are given back.
const TABLE: &[(&str, &str)] = &[
    ("bash", "Bash"),
    ("view", "Read"),
    ("create", "Write"),
    ("edit", "Edit"),
    ("apply_patch", "Edit"),
    ("task", "Agent"),
];

/// Claude Code's name for a tool Copilot calls `name`.
pub fn claude_name(name: &str) -> &str {
    TABLE.iter().find(|(c, _)| *c == name).map_or(name, |(_, cc)| cc)
}

/// Copilot's name for a tool Claude Code calls `name`: the first of Copilot's names for it
/// (`Edit` → `edit`, never `apply_patch`: a host firing Claude Code's events cannot say which).
pub fn copilot_name(name: &str) -> &str {
    TABLE.iter().find(|(_, cc)| *cc == name).map_or(name, |(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_both_ways_and_unknown_names_pass_unchanged() {
        assert_eq!(claude_name("bash"), "Bash");
        assert_eq!(claude_name("apply_patch"), "Edit");
        assert_eq!(copilot_name("Edit"), "edit");
        assert_eq!(copilot_name("Read"), "view");
        assert_eq!(copilot_name("mcp__gh__issue"), "mcp__gh__issue");
        assert_eq!(claude_name("glob"), "glob");
    }
}
