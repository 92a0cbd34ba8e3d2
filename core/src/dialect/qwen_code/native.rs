//! Qwen Code's own payload as the canonical event, for the bridge (`bridge.rs`): Claude Code's
//! keys and event names with Qwen's tool names, which become Claude Code's (`run_shell_command`
//! → `Bash`, `write_file` → `Write`, `read_file` → `Read`, `edit` → `Edit`: the first Claude
//! Code name of `tools.rs`'s table). The tool input is kept as Qwen gives it.

use super::tools::TOOL_NAMES;
use serde_json::Value;

pub fn canonical(_name: &str, event: &Value) -> Option<Value> {
    let tool = event.get("tool_name").and_then(Value::as_str)?;
    let cc = TOOL_NAMES
        .iter()
        .find(|(qwen, _)| *qwen == tool && qwen.starts_with(|c: char| c.is_ascii_lowercase()))
        .and_then(|(_, aliases)| aliases.first())?;
    let mut c = event.clone();
    c["tool_name"] = Value::String((*cc).to_string());
    Some(c)
}
