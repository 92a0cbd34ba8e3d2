//! Vibe's names for Claude Code's tools. Vibe's hooks see a namespaced name
//! (`file_system.bash`, observed for `bash` and `read_file`) and its `match` accepts the bare or
//! the namespaced one. A host firing Claude Code's `Bash` reaches a `match = "bash"` hook, and
//! the hook reads `file_system.bash`. Only `bash` and `read_file` were recorded; the others are
//! Vibe's built-in tool names under the same namespace (unverified).

/// Claude Code's tool name and Vibe's bare name for it.
const TOOL_NAMES: &[(&str, &str)] = &[
    ("Bash", "bash"),
    ("Read", "read_file"),
    ("Write", "write_file"),
    ("Edit", "search_replace"),
    ("Grep", "grep"),
    ("TodoWrite", "todo"),
];

/// The namespace of Vibe's built-in tools.
const NAMESPACE: &str = "file_system.";

/// The name a Vibe hook reads for the fired tool: a Claude Code tool's namespaced Vibe name,
/// else the name as given (a host that is Vibe gives the namespaced name itself).
pub(super) fn namespaced(name: &str) -> String {
    match TOOL_NAMES.iter().find(|(cc, _)| *cc == name) {
        Some((_, own)) => format!("{NAMESPACE}{own}"),
        None => name.to_string(),
    }
}

/// Claude Code's name for one of Vibe's tools, bare or namespaced (a host firing Vibe's own
/// stdin); another name as it is.
pub(super) fn to_claude_code(name: &str) -> &str {
    let bare = name.strip_prefix(NAMESPACE).unwrap_or(name);
    TOOL_NAMES.iter().find(|(_, own)| *own == bare).map_or(name, |(cc, _)| cc)
}

/// Every name a `match` is tested against for the fired tool: the name as given, its bare
/// form (after the last `.`), and Vibe's bare and namespaced names of a Claude Code tool.
pub(super) fn candidates(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    if let Some((_, bare)) = name.rsplit_once('.') {
        out.push(bare.to_string());
    }
    if let Some((_, own)) = TOOL_NAMES.iter().find(|(cc, _)| *cc == name) {
        out.push(own.to_string());
        out.push(format!("{NAMESPACE}{own}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_code_names_become_vibes_namespaced_names() {
        assert_eq!(namespaced("Bash"), "file_system.bash");
        assert_eq!(namespaced("file_system.bash"), "file_system.bash");
        assert_eq!(candidates("file_system.read_file"), ["file_system.read_file", "read_file"]);
        assert_eq!(candidates("Bash"), ["Bash", "bash", "file_system.bash"]);
        assert_eq!(to_claude_code("file_system.read_file"), "Read");
        assert_eq!(to_claude_code("bash"), "Bash");
        assert_eq!(to_claude_code("file_system.glob"), "file_system.glob");
    }
}
