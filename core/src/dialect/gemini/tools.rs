//! Claude Code's tool names in Gemini's words (agents.md §3.1 "tools"): what Gemini CLI
//! 0.61.0 offers, observed. A name that is not a Claude Code name in the table (already
//! Gemini's, or `mcp__…`) passes unchanged.

/// CC name → Gemini name.
const TOOLS: &[(&str, &str)] = &[
    ("Bash", "run_shell_command"),
    ("Edit", "replace"),
    ("Write", "write_file"),
    ("Read", "read_file"),
    ("Glob", "glob"),
    ("Grep", "grep_search"),
    ("LS", "list_directory"),
    ("WebFetch", "web_fetch"),
    ("WebSearch", "google_web_search"),
    ("Agent", "invoke_agent"),
    ("Task", "invoke_agent"),
    ("TodoWrite", "write_todos"),
];

/// The Gemini name of a tool, given as the host named it.
pub(super) fn gemini_name(name: &str) -> &str {
    TOOLS.iter().find(|(cc, _)| *cc == name).map_or(name, |(_, g)| g)
}

/// The Claude Code name of a tool Gemini names its own way (the first Claude Code name in the
/// table: `invoke_agent` is `Agent`); any other name passes unchanged.
pub(super) fn claude_code_name(name: &str) -> &str {
    TOOLS.iter().find(|(_, g)| *g == name).map_or(name, |(cc, _)| cc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_names_are_translated_and_others_pass_unchanged() {
        assert_eq!(gemini_name("Bash"), "run_shell_command");
        assert_eq!(gemini_name("Task"), "invoke_agent");
        assert_eq!(gemini_name("Agent"), "invoke_agent");
        assert_eq!(gemini_name("run_shell_command"), "run_shell_command");
        assert_eq!(gemini_name("mcp__memory__read"), "mcp__memory__read");
        assert_eq!(gemini_name("bash"), "bash");
        assert_eq!(gemini_name(""), "");
    }

    #[test]
    fn gemini_names_read_back_as_claude_codes_and_others_pass_unchanged() {
        assert_eq!(claude_code_name("run_shell_command"), "Bash");
        assert_eq!(claude_code_name("invoke_agent"), "Agent");
        assert_eq!(claude_code_name("replace"), "Edit");
        assert_eq!(claude_code_name("mcp__memory__read"), "mcp__memory__read");
        assert_eq!(claude_code_name("Bash"), "Bash");
    }
}
