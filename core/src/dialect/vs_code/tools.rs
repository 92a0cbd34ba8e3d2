//! VS Code's tool names and input keys against Claude Code's (agents-2.md §2.2 names
//! `editFiles`, `runTerminalCommand` and `filePath`; the rest of the table is *chosen*:
//! VS Code's documentation gives no full list). A name not in the table is the same in both.

/// VS Code's name → Claude Code's, in the order names are given back.
const TABLE: &[(&str, &str)] = &[
    ("runTerminalCommand", "Bash"),
    ("editFiles", "Edit"),
    ("editFiles", "Write"),
    ("editFiles", "MultiEdit"),
    ("readFile", "Read"),
];

/// Input keys: VS Code's → Claude Code's.
pub const KEYS: &[(&str, &str)] = &[("filePath", "file_path")];

/// Claude Code's name for a tool VS Code calls `name`.
pub fn claude_name(name: &str) -> &str {
    TABLE.iter().find(|(v, _)| *v == name).map_or(name, |(_, cc)| cc)
}

/// VS Code's name for a tool Claude Code calls `name`.
pub fn vs_code_name(name: &str) -> &str {
    TABLE.iter().find(|(_, cc)| *cc == name).map_or(name, |(v, _)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_both_ways() {
        assert_eq!(vs_code_name("Bash"), "runTerminalCommand");
        assert_eq!(vs_code_name("Write"), "editFiles");
        assert_eq!(claude_name("editFiles"), "Edit");
        assert_eq!(claude_name("mcp__x__y"), "mcp__x__y");
    }
}
