//! Cursor's own payload as the canonical event, for the bridge (`bridge.rs`; agents.md §4.2
//! read backwards). The common keys: `session_id` ← `conversation_id`, `prompt_id` ←
//! `generation_id`, `cwd` ← `cwd`, else the first of `workspace_roots`; `transcript_path`,
//! `model` as given. Per event: `preToolUse` keeps its tool (Cursor's names back to Claude
//! Code's: `Shell` → `Bash`, `Task` → `Agent`, `MCP:<tool>` → `mcp__cursor__<tool>` **[u]**:
//! Cursor does not say the server); `beforeShellExecution` is `Bash` with its `command`;
//! `beforeMCPExecution` is `mcp__cursor__<tool_name>` with its `tool_input` string parsed
//! **[u]**; `beforeReadFile` is `Read` with `file_path`; the after-events are PostToolUse with
//! `tool_response` ← `tool_output` / `output` / `result_json`; `postToolUseFailure` has `error`
//! ← `error_message`; `beforeSubmitPrompt` is UserPromptSubmit; `stop`/`subagentStop` are
//! Stop/SubagentStop with `stop_hook_active` = `loop_count` > 0; `subagent_type` is
//! `agent_type`. Cursor's own events (`afterAgentResponse`, ...) have no canonical event.

use super::kind::Kind;
use serde_json::{Map, Value, json};

/// Claude Code's name for a tool Cursor names its own way.
fn claude_code_name(name: &str) -> String {
    match name {
        "Shell" => "Bash".to_string(),
        "Task" => "Agent".to_string(),
        _ => match name.strip_prefix("MCP:") {
            Some(tool) => format!("mcp__cursor__{tool}"),
            None => name.to_string(),
        },
    }
}

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let kind = Kind::of(name)?;
    let e = event.as_object()?;
    let get = |k: &str| e.get(k).cloned();
    let text = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_string);
    let (canonical, tool): (&str, Option<(String, Value)>) = match kind {
        Kind::PreToolUse | Kind::PostToolUse | Kind::PostToolUseFailure => {
            let tool = claude_code_name(&text("tool_name").unwrap_or_default());
            let c = match kind {
                Kind::PreToolUse => "PreToolUse",
                Kind::PostToolUse => "PostToolUse",
                _ => "PostToolUseFailure",
            };
            (c, Some((tool, get("tool_input").unwrap_or_else(|| json!({})))))
        }
        Kind::BeforeShellExecution | Kind::AfterShellExecution => {
            let c = if kind == Kind::BeforeShellExecution { "PreToolUse" } else { "PostToolUse" };
            (c, Some(("Bash".to_string(), json!({"command": text("command").unwrap_or_default()}))))
        }
        Kind::BeforeMcpExecution | Kind::AfterMcpExecution => {
            let c = if kind == Kind::BeforeMcpExecution { "PreToolUse" } else { "PostToolUse" };
            let input = match get("tool_input") {
                Some(Value::String(s)) => crate::json::value_from_str(&s).unwrap_or(Value::String(s)),
                Some(v) => v,
                None => json!({}),
            };
            (c, Some((format!("mcp__cursor__{}", text("tool_name").unwrap_or_default()), input)))
        }
        Kind::BeforeReadFile => (
            "PreToolUse",
            Some(("Read".to_string(), json!({"file_path": text("file_path").unwrap_or_default()}))),
        ),
        Kind::AfterFileEdit => {
            let input = json!({"file_path": text("file_path").unwrap_or_default(), "edits": get("edits").unwrap_or(json!([]))});
            ("PostToolUse", Some(("Edit".to_string(), input)))
        }
        Kind::BeforeSubmitPrompt => ("UserPromptSubmit", None),
        Kind::Stop => ("Stop", None),
        Kind::SubagentStart => ("SubagentStart", None),
        Kind::SubagentStop => ("SubagentStop", None),
        Kind::SessionStart => ("SessionStart", None),
        Kind::SessionEnd => ("SessionEnd", None),
        Kind::PreCompact => ("PreCompact", None),
        Kind::AfterAgentResponse
        | Kind::AfterAgentThought
        | Kind::AfterTabFileEdit
        | Kind::BeforeTabFileRead => {
            return None;
        }
    };
    let mut c = Map::new();
    c.insert("session_id".into(), get("conversation_id").unwrap_or(json!("")));
    if let Some(t) = get("transcript_path") {
        c.insert("transcript_path".into(), t);
    }
    let roots = e.get("workspace_roots").and_then(Value::as_array).and_then(|r| r.first()).cloned();
    c.insert("cwd".into(), get("cwd").or(roots).unwrap_or(json!("")));
    c.insert("hook_event_name".into(), json!(canonical));
    if let Some(g) = get("generation_id") {
        c.insert("prompt_id".into(), g);
    }
    if let Some(m) = get("model") {
        c.insert("model".into(), m);
    }
    if let Some((name, input)) = tool {
        c.insert("tool_name".into(), json!(name));
        c.insert("tool_input".into(), input);
        if let Some(id) = get("tool_use_id") {
            c.insert("tool_use_id".into(), id);
        }
        if let Some(out) = get("tool_output").or_else(|| get("output")).or_else(|| get("result_json")) {
            c.insert("tool_response".into(), out);
        }
        if let Some(err) = get("error_message") {
            c.insert("error".into(), err);
        }
    }
    match kind {
        Kind::BeforeSubmitPrompt => {
            c.insert("prompt".into(), get("prompt").unwrap_or(json!("")));
        }
        Kind::Stop | Kind::SubagentStop => {
            let looped = e.get("loop_count").and_then(Value::as_u64).is_some_and(|n| n > 0);
            c.insert("stop_hook_active".into(), json!(looped));
        }
        _ => {}
    }
    if let Some(t) = get("subagent_type") {
        c.insert("agent_type".into(), t);
    }
    for k in ["reason", "trigger", "source"] {
        if let Some(v) = get(k) {
            c.insert(k.into(), v);
        }
    }
    Some(Value::Object(c))
}
