//! Gemini CLI's own payload as the canonical event, for the bridge (`bridge.rs`): Gemini sends
//! Claude Code's keys under its own event and tool names (agents.md §3.2). The event name is
//! the catalogue's (`BeforeTool` → `PreToolUse`; an `AfterTool` whose `tool_response` holds an
//! `error` → `PostToolUseFailure` with that `error` **[u]**), the tool name Claude Code's
//! (`run_shell_command` → `Bash`, `tools.rs`), and `AfterAgent`'s `prompt_response` is also
//! `last_assistant_message`. Argument names are kept as Gemini gives them (`command` is the
//! same in both). Gemini's own events (`BeforeModel`, ...) have no canonical event.

use super::tools;
use serde_json::Value;

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let row = super::EVENTS.iter().find(|e| e.name == name)?;
    let first = row.canonical.first()?;
    let mut c = event.as_object()?.clone();
    let failed = name == "AfterTool"
        && c.get("tool_response").and_then(|t| t.get("error")).is_some_and(|e| !e.is_null());
    let canonical = if failed { "PostToolUseFailure" } else { first };
    c.insert("hook_event_name".into(), Value::String(canonical.to_string()));
    if let Some(t) = c.get("tool_name").and_then(Value::as_str) {
        let cc = tools::claude_code_name(t).to_string();
        c.insert("tool_name".into(), Value::String(cc));
    }
    if failed && let Some(e) = c.get("tool_response").and_then(|t| t.get("error")).cloned() {
        c.insert("error".into(), Value::String(crate::dialect::text_or_json(&e)));
    }
    if name == "AfterAgent"
        && let Some(p) = c.get("prompt_response").cloned()
    {
        c.entry("last_assistant_message").or_insert(p);
    }
    Some(Value::Object(c))
}
