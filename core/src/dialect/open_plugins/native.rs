//! Goose's hook context (the Open Plugins payload, `payload.rs`) as the canonical event, for the
//! bridge (`bridge.rs`): `event` names it (Claude Code's names, or the specification's own),
//! `session_id`, `tool_call_id` → `tool_use_id`, `tool_output` → `tool_response`, `message` →
//! `prompt`, `last_assistant_message`, `working_dir` → `cwd`. Tool names: Goose names a tool
//! `<extension>__<tool>`; its shell is `developer__shell` (→ `Bash`) and its file tool
//! `developer__text_editor` (→ `Read`, `Write` or `Edit` by its `command`), and the bridge's
//! table of common spellings decides the rest **[u]**; a name it does not know passes as is
//! with a warning. The specification's shell and file events are the tool calls they stand for
//! **[u]**: `BeforeShellExecution` is PreToolUse of `Bash` with the command (its matcher
//! context), `AfterShellExecution` PostToolUse of `Bash`, `BeforeReadFile` PreToolUse of
//! `Read`, `AfterFileEdit` PostToolUse of `Edit`, so a `Bash` guard runs for them too.
//! `PreToolUseResult` is Goose's own: no canonical event.

use crate::catalog::{lookup, spec};
use crate::dialect::tool_names;
use serde_json::{Value, json};

const KEYS: &[(&str, &str)] = &[
    ("session_id", "session_id"),
    ("tool_call_id", "tool_use_id"),
    ("tool_output", "tool_response"),
    ("message", "prompt"),
    ("last_assistant_message", "last_assistant_message"),
    ("working_dir", "cwd"),
];

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let context = || event.get("matcher_context").and_then(Value::as_str).unwrap_or("").to_string();
    let (spec_name, tool, input) = match name {
        "BeforeShellExecution" | "AfterShellExecution" => {
            let command = event.get("command").and_then(Value::as_str).map_or_else(context, str::to_string);
            let c = if name == "BeforeShellExecution" { "PreToolUse" } else { "PostToolUse" };
            (c, json!("Bash"), json!({"command": command}))
        }
        "BeforeReadFile" | "AfterFileEdit" => {
            let path = event.get("file_path").and_then(Value::as_str).map_or_else(context, str::to_string);
            let (c, t) =
                if name == "BeforeReadFile" { ("PreToolUse", "Read") } else { ("PostToolUse", "Edit") };
            (c, json!(t), json!({"file_path": path}))
        }
        _ => {
            let s = super::PROFILE.canonical_spec(name)?;
            let name = event.get("tool_name").cloned().unwrap_or(Value::Null);
            let input = event.get("tool_input").cloned().unwrap_or_else(|| json!({}));
            (s.name, name, input)
        }
    };
    let s = spec(lookup(spec_name)?);
    let tool = s.tool_event.then_some((&tool, input));
    Some(tool_names::renamed(s.name, event, KEYS, tool))
}
