//! The bytes a Cursor hook reads on stdin (agents.md §4.2): compact JSON, the common keys then
//! the native event's own, in the listed order and no others, no trailing newline. A native
//! field already in the event (the host is Cursor) is used as is; otherwise it is derived from
//! the canonical fields. Never the host's bytes: each handler gets its own event's shape.

use super::kind::Kind;
use super::matcher::{command_text, subagent_type};
use super::tools;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value, json};

/// Canonical fields a native-only event's payload does not repeat (they are in the common
/// keys under Cursor's names, or mean nothing to Cursor).
const CANONICAL: &[&str] =
    &["hook_event_name", "session_id", "prompt_id", "cwd", "permission_mode", "agent_id", "agent_type"];

pub fn payload(kind: Kind, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut p = Payload { e, m: Map::new() };
    p.common(kind, ev);
    match kind {
        Kind::PreToolUse => {
            p.put("tool_name", tool_name(e));
            p.put("tool_input", p.native_or("tool_input", json!({})));
            p.put("tool_use_id", p.string_or("tool_use_id", &[]));
            p.put("cwd", p.string_or("cwd", &[]));
        }
        Kind::PostToolUse => {
            p.put("tool_name", tool_name(e));
            p.put("tool_input", p.native_or("tool_input", json!({})));
            p.put("tool_output", p.native_or("tool_output", Value::String(response_text(e))));
            p.put("duration", duration(e));
            p.put("tool_use_id", p.string_or("tool_use_id", &[]));
        }
        Kind::PostToolUseFailure => {
            p.put("tool_name", tool_name(e));
            p.put("tool_input", p.native_or("tool_input", json!({})));
            p.put("tool_use_id", p.string_or("tool_use_id", &[]));
            p.put("error_message", p.string_or("error_message", &["error"]));
            p.put("failure_type", p.native_or("failure_type", json!("error")));
        }
        Kind::BeforeShellExecution => {
            p.put("command", Value::String(command_text(e).to_string()));
            p.put("cwd", p.string_or("cwd", &[]));
        }
        Kind::AfterShellExecution => {
            p.put("command", Value::String(command_text(e).to_string()));
            p.put("output", p.native_or("output", Value::String(shell_output(e))));
            p.put("duration", duration(e));
        }
        Kind::BeforeMcpExecution | Kind::AfterMcpExecution => {
            let name = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
            p.put("tool_name", Value::String(tools::mcp_tool(name).to_string()));
            let input = match e.get("tool_input") {
                None => String::new(),
                Some(v) => text_or_json(v),
            };
            p.put("tool_input", Value::String(input));
            for key in ["url", "command"] {
                if let Some(v) = e.get(key) {
                    p.put(key, v.clone());
                }
            }
            if kind == Kind::AfterMcpExecution {
                p.put("result_json", p.native_or("result_json", Value::String(response_text(e))));
                p.put("duration", duration(e));
            }
        }
        Kind::BeforeReadFile => {
            p.put("file_path", file_path(e));
            p.put("content", p.string_or("content", &[]));
            if let Some(a) = e.get("attachments") {
                p.put("attachments", a.clone());
            }
        }
        Kind::AfterFileEdit => {
            p.put("file_path", file_path(e));
            p.put("edits", p.native_or("edits", edits(e)));
        }
        Kind::BeforeSubmitPrompt => {
            p.put("prompt", p.string_or("prompt", &[]));
            p.put("attachments", p.native_or("attachments", json!([])));
        }
        Kind::Stop | Kind::SubagentStop => {
            p.put("status", p.native_or("status", json!("completed")));
            p.put("loop_count", p.native_or("loop_count", json!(ev.loop_count)));
            if kind == Kind::SubagentStop {
                p.put("subagent_type", Value::String(subagent_type(e).to_string()));
            }
        }
        Kind::SubagentStart => p.put("subagent_type", Value::String(subagent_type(e).to_string())),
        Kind::SessionEnd => p.put("reason", p.string_or("reason", &[])),
        Kind::PreCompact => p.put("trigger", p.string_or("trigger", &[])),
        Kind::SessionStart => {}
        Kind::AfterAgentResponse
        | Kind::AfterAgentThought
        | Kind::AfterTabFileEdit
        | Kind::BeforeTabFileRead => {
            if let Some(obj) = e.as_object() {
                for (k, v) in obj {
                    if !CANONICAL.contains(&k.as_str()) && !p.m.contains_key(k) {
                        p.put(k, v.clone());
                    }
                }
            }
        }
    }
    serde_json::to_vec(&Value::Object(p.m)).unwrap_or_default()
}

struct Payload<'a> {
    e: &'a Value,
    m: Map<String, Value>,
}

impl Payload<'_> {
    fn put(&mut self, key: &str, v: Value) {
        self.m.insert(key.to_string(), v);
    }

    /// The native field as the host gave it, else `fallback`.
    fn native_or(&self, key: &str, fallback: Value) -> Value {
        self.e.get(key).cloned().unwrap_or(fallback)
    }

    /// The first of `key` and the canonical `from` fields that is a string, else `""`.
    fn string_or(&self, key: &str, from: &[&str]) -> Value {
        std::iter::once(key)
            .chain(from.iter().copied())
            .find_map(|k| self.e.get(k).filter(|v| v.is_string()).cloned())
            .unwrap_or_else(|| Value::String(String::new()))
    }

    /// `conversation_id`, `generation_id`, `model`, `hook_event_name`, `cursor_version`,
    /// `workspace_roots`, `user_email`, `transcript_path`; the optional ones only when present.
    fn common(&mut self, kind: Kind, ev: &FireEvent<'_>) {
        self.put("conversation_id", self.string_or("conversation_id", &["session_id"]));
        self.put("generation_id", self.string_or("generation_id", &["prompt_id"]));
        self.put("model", self.string_or("model", &[]));
        self.put("hook_event_name", Value::String(kind.name().to_string()));
        self.optional("cursor_version");
        let roots = match self.e.get("workspace_roots") {
            Some(r) => r.clone(),
            None if !ev.project_dir.is_empty() => json!([ev.project_dir]),
            None => json!([self.e.get("cwd").and_then(Value::as_str).unwrap_or("")]),
        };
        self.put("workspace_roots", roots);
        self.optional("user_email");
        self.optional("transcript_path");
    }

    fn optional(&mut self, key: &str) {
        if let Some(v) = self.e.get(key).filter(|v| !v.is_null()) {
            self.put(key, v.clone());
        }
    }
}

/// The Cursor tool name of the event's tool.
fn tool_name(e: &Value) -> Value {
    let name = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
    Value::String(tools::cursor_name(name).into_owned())
}

/// `tool_response` as a string: as given when it is one, else its compact JSON.
fn response_text(e: &Value) -> String {
    e.get("tool_response").map(text_or_json).unwrap_or_default()
}

/// `duration` (ms): native, else `duration_ms`, else 0.
fn duration(e: &Value) -> Value {
    e.get("duration").or_else(|| e.get("duration_ms")).cloned().unwrap_or(json!(0))
}

/// The shell tool's output: its stdout then its stderr, or the response when it is a string.
fn shell_output(e: &Value) -> String {
    match e.get("tool_response") {
        Some(Value::Object(r)) if r.contains_key("stdout") || r.contains_key("stderr") => {
            let part = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("");
            format!("{}{}", part("stdout"), part("stderr"))
        }
        Some(v) => text_or_json(v),
        None => String::new(),
    }
}

/// `file_path`: native, else `tool_input.file_path`, else `""`.
fn file_path(e: &Value) -> Value {
    e.get("file_path")
        .filter(|v| v.is_string())
        .or_else(|| e.get("tool_input").and_then(|i| i.get("file_path")).filter(|v| v.is_string()))
        .cloned()
        .unwrap_or_else(|| Value::String(String::new()))
}

/// `afterFileEdit`'s `edits` from a Claude Code tool input: one `{old_string, new_string}` of
/// an Edit, each of a MultiEdit's `edits`, or the whole content of a Write as a new string.
fn edits(e: &Value) -> Value {
    let input = e.get("tool_input");
    let field = |v: Option<&Value>, k: &str| {
        v.and_then(|x| x.get(k)).filter(|x| x.is_string()).cloned().unwrap_or_else(|| json!(""))
    };
    let pair = |v: Option<&Value>| json!({"old_string": field(v, "old_string"), "new_string": field(v, "new_string")});
    match e.get("tool_name").and_then(Value::as_str) {
        Some("Write") => json!([{"old_string": "", "new_string": field(input, "content")}]),
        Some("MultiEdit") => {
            let list = input.and_then(|i| i.get("edits")).and_then(Value::as_array);
            Value::Array(list.into_iter().flatten().map(|x| pair(Some(x))).collect())
        }
        _ => json!([pair(input)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};

    fn bytes(kind: Kind, event: Value, loop_count: u32) -> String {
        let s = spec(lookup(event["hook_event_name"].as_str().unwrap()).unwrap());
        let ev = FireEvent { project_dir: "/proj", loop_count, ..FireEvent::plain(s, &event) };
        String::from_utf8(payload(kind, &ev)).unwrap()
    }

    #[test]
    fn before_shell_execution_gets_the_common_keys_then_command_and_cwd() {
        let e = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w", "tool_name": "Bash",
                       "tool_input": {"command": "ls -l"}, "transcript_path": "/t"});
        assert_eq!(
            bytes(Kind::BeforeShellExecution, e, 0),
            r#"{"conversation_id":"s","generation_id":"","model":"","hook_event_name":"beforeShellExecution","workspace_roots":["/proj"],"transcript_path":"/t","command":"ls -l","cwd":"/w"}"#
        );
    }

    #[test]
    fn mcp_input_is_a_string_and_the_tool_is_the_part_after_the_server() {
        let e = json!({"hook_event_name": "PostToolUse", "session_id": "s", "tool_name": "mcp__gh__issue",
                       "tool_input": {"a": 1}, "tool_response": {"ok": true}, "duration_ms": 7});
        assert_eq!(
            bytes(Kind::AfterMcpExecution, e, 0),
            r#"{"conversation_id":"s","generation_id":"","model":"","hook_event_name":"afterMCPExecution","workspace_roots":["/proj"],"tool_name":"issue","tool_input":"{\"a\":1}","result_json":"{\"ok\":true}","duration":7}"#
        );
    }

    #[test]
    fn stop_carries_the_sessions_loop_count_unless_the_event_has_one() {
        let e = json!({"hook_event_name": "Stop", "session_id": "s"});
        assert!(bytes(Kind::Stop, e, 3).ends_with(r#""status":"completed","loop_count":3}"#));
        let e = json!({"hook_event_name": "Stop", "session_id": "s", "loop_count": 9, "status": "aborted"});
        assert!(bytes(Kind::Stop, e, 3).ends_with(r#""status":"aborted","loop_count":9}"#));
    }

    #[test]
    fn file_edits_come_from_edit_write_and_multiedit_inputs() {
        let w = json!({"tool_name": "Write", "tool_input": {"file_path": "/f", "content": "c"}});
        assert_eq!(edits(&w), json!([{"old_string": "", "new_string": "c"}]));
        let m = json!({"tool_name": "MultiEdit", "tool_input": {"edits": [{"old_string": "a", "new_string": "b"}]}});
        assert_eq!(edits(&m), json!([{"old_string": "a", "new_string": "b"}]));
        let ed = json!({"tool_name": "Edit", "tool_input": {"old_string": "x", "new_string": "y"}});
        assert_eq!(edits(&ed), json!([{"old_string": "x", "new_string": "y"}]));
    }

    #[test]
    fn shell_output_is_stdout_then_stderr() {
        let e = json!({"tool_response": {"stdout": "out\n", "stderr": "err\n", "interrupted": false}});
        assert_eq!(shell_output(&e), "out\nerr\n");
        assert_eq!(shell_output(&json!({"tool_response": "plain"})), "plain");
    }
}
