//! Antigravity's tool names and argument keys against Claude Code's (agents-2.md §2.3, third
//! party): `run_command` with `CommandLine` is `Bash` with `command`, `view_file` with
//! `AbsolutePath` is `Read` with `file_path`, and so on. Matchers test both names (a host firing
//! `Bash` reaches a `run_command` matcher); payloads and native fires translate the arguments.

use crate::dialect::family::ToolNames;
use serde_json::{Map, Value};

/// Argument keys, Claude Code's and Antigravity's, pair by pair.
type Keys = &'static [(&'static str, &'static str)];

/// Claude Code's name, Antigravity's name, and their argument keys.
const TOOLS: &[(&str, &str, Keys)] = &[
    ("Bash", "run_command", &[("command", "CommandLine"), ("cwd", "Cwd")]),
    ("Read", "view_file", &[("file_path", "AbsolutePath")]),
    ("Write", "write_to_file", &[("file_path", "TargetFile"), ("content", "CodeContent")]),
    (
        "Edit",
        "replace_file_content",
        &[("file_path", "TargetFile"), ("old_string", "TargetContent"), ("new_string", "ReplacementContent")],
    ),
    ("Grep", "grep_search", &[("pattern", "Query"), ("path", "SearchPath")]),
    ("Glob", "find_by_name", &[("pattern", "Pattern"), ("path", "SearchDirectory")]),
    ("LS", "list_dir", &[("path", "DirectoryPath")]),
    ("WebFetch", "read_url_content", &[("url", "Url")]),
];

/// For the family's matcher: a matcher is also tested against Antigravity's name of a Claude
/// Code name the host fires (`edit_file` is another of its edit tools).
pub(super) const TOOL_NAMES: ToolNames = &[
    ("Bash", &["run_command"]),
    ("Read", &["view_file"]),
    ("Write", &["write_to_file"]),
    ("Edit", &["replace_file_content", "edit_file"]),
    ("MultiEdit", &["replace_file_content", "edit_file"]),
    ("Grep", &["grep_search"]),
    ("Glob", &["find_by_name"]),
    ("LS", &["list_dir"]),
    ("WebFetch", &["read_url_content"]),
];

/// Antigravity's name of a Claude Code tool; other names (MCP tools, its own) as they are.
pub fn agy_name(cc: &str) -> &str {
    TOOLS.iter().find(|(c, _, _)| *c == cc).map_or(cc, |(_, a, _)| a)
}

/// Claude Code's name of an Antigravity tool; other names as they are.
pub fn cc_name(agy: &str) -> &str {
    TOOLS.iter().find(|(_, a, _)| *a == agy).map_or(agy, |(c, _, _)| c)
}

/// The tool's arguments with their keys renamed for the other side; `to_agy` picks the side.
/// Keys without a counterpart are kept as they are.
pub fn args(tool_cc: &str, input: &Value, to_agy: bool) -> Value {
    let Some(obj) = input.as_object() else { return input.clone() };
    let keys = TOOLS.iter().find(|(c, _, _)| *c == tool_cc).map_or(&[][..], |(_, _, k)| *k);
    let rename = |k: &str| -> String {
        let hit = keys.iter().find(|(c, a)| if to_agy { *c == k } else { *a == k });
        hit.map_or(k, |(c, a)| if to_agy { a } else { c }).to_string()
    };
    Value::Object(obj.iter().map(|(k, v)| (rename(k), v.clone())).collect::<Map<_, _>>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_and_argument_keys_translate_both_ways() {
        assert_eq!(agy_name("Bash"), "run_command");
        assert_eq!(cc_name("view_file"), "Read");
        assert_eq!(agy_name("mcp__gh__x"), "mcp__gh__x");
        let input = json!({"command": "ls", "description": "d"});
        let agy = args("Bash", &input, true);
        assert_eq!(agy, json!({"CommandLine": "ls", "description": "d"}));
        assert_eq!(args("Bash", &agy, false), input);
        assert_eq!(args("Bash", &json!("x"), true), json!("x"));
    }
}
