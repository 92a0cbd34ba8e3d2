//! Cline's names for Claude Code's tools, for its payloads (Cline has no matchers). Only the
//! shell tool is translated (observed: `run_commands` with `{"commands": ["touch m-a"]}`); the
//! other tools keep the host's name and input (unverified: Cline 3.x's full tool list and input
//! keys were not recorded).

use serde_json::{Value, json};

/// The tool name and input a Cline hook sees for the canonical event `e`.
pub(super) fn to_cline(e: &Value) -> (String, Value) {
    let name = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let input = e.get("tool_input").cloned().unwrap_or_else(|| json!({}));
    match (name, input.get("command").and_then(Value::as_str)) {
        ("Bash", Some(command)) => ("run_commands".to_string(), json!({"commands": [command]})),
        _ => (name.to_string(), input),
    }
}

/// Claude Code's tool name and input for Cline's `name` and `input` (a host firing Cline's own
/// payload): `run_commands` is `Bash`, its commands joined by newlines into one `command`.
pub(super) fn to_claude_code(name: &str, input: &Value) -> (String, Value) {
    let commands = input.get("commands").and_then(Value::as_array);
    match (name, commands) {
        ("run_commands", Some(list)) => {
            let lines: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
            ("Bash".to_string(), json!({"command": lines.join("\n")}))
        }
        _ => (name.to_string(), input.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shell_tool_translates_both_ways_and_others_stay() {
        let e = json!({"tool_name": "Bash", "tool_input": {"command": "ls", "description": "d"}});
        assert_eq!(to_cline(&e), ("run_commands".into(), json!({"commands": ["ls"]})));
        let back = to_claude_code("run_commands", &json!({"commands": ["a", "b"]}));
        assert_eq!(back, ("Bash".into(), json!({"command": "a\nb"})));
        let read = json!({"tool_name": "Read", "tool_input": {"file_path": "/x"}});
        assert_eq!(to_cline(&read), ("Read".into(), json!({"file_path": "/x"})));
    }
}
