//! The bytes a Codex hook reads on stdin (agents.md §2.2): compact JSON re-serialised from the
//! host's event, Codex's keys in Codex's order and no others, Codex's tool names, Bash input
//! reduced to `{command}`, `tool_response` as a string, and defaults for absent fields. No
//! trailing newline.

use crate::config::Handler;
use crate::dialect::FireEvent;
use serde_json::{Map, Value};

/// `source` when the host's `SessionStart` has none.
pub const DEFAULT_SOURCE: &str = "startup";

/// A Claude Code tool name as Codex names it; any other name passes unchanged.
pub fn tool_name(cc: &str) -> &str {
    match cc {
        "Edit" | "Write" | "MultiEdit" => "apply_patch",
        "Agent" | "Task" => "spawn_agent",
        other => other,
    }
}

/// A key of the payload and where its value comes from.
#[derive(Clone, Copy)]
enum Key {
    /// As given, else this default.
    Given(&'static str, Fallback),
    /// The Codex event name.
    EventName,
    /// The event's `turn_id`, else its `prompt_id`, else `""`.
    TurnId,
    /// `agent_id` and `agent_type`, only when the event has them (inside a subagent).
    Subagent,
    ToolName,
    ToolInput,
    ToolResponse,
}

#[derive(Clone, Copy)]
enum Fallback {
    Str(&'static str),
    Null,
    False,
}

use Fallback::{False, Null, Str};
use Key::*;

const SESSION: Key = Given("session_id", Str(""));
const TRANSCRIPT: Key = Given("transcript_path", Null);
const CWD: Key = Given("cwd", Str(""));
const MODEL: Key = Given("model", Str(""));
const MODE: Key = Given("permission_mode", Str("default"));

const PREFIX: &[Key] = &[SESSION, TurnId, TRANSCRIPT, CWD, EventName, MODEL, MODE, Subagent];

/// The keys after the prefix, per Codex event; `None` for `SessionStart` and `SubagentStop`,
/// whose whole list differs.
fn keys(native: &str) -> Vec<Key> {
    let tail: &[Key] = match native {
        "PreToolUse" => &[ToolName, ToolInput, Given("tool_use_id", Str(""))],
        "PostToolUse" => &[ToolName, ToolInput, ToolResponse, Given("tool_use_id", Str(""))],
        "PermissionRequest" => &[ToolName, ToolInput],
        "UserPromptSubmit" => &[Given("prompt", Str(""))],
        "SessionStart" => {
            return vec![
                SESSION,
                TRANSCRIPT,
                CWD,
                EventName,
                MODEL,
                MODE,
                Subagent,
                Given("source", Str(DEFAULT_SOURCE)),
            ];
        }
        "Stop" => &[Given("stop_hook_active", False), Given("last_assistant_message", Null)],
        "SubagentStart" => {
            return vec![
                SESSION,
                TurnId,
                TRANSCRIPT,
                CWD,
                EventName,
                MODEL,
                MODE,
                Given("agent_id", Str("")),
                Given("agent_type", Str("")),
            ];
        }
        "SubagentStop" => {
            return vec![
                SESSION,
                TurnId,
                TRANSCRIPT,
                Given("agent_transcript_path", Null),
                CWD,
                EventName,
                MODEL,
                MODE,
                Given("stop_hook_active", False),
                Given("agent_id", Str("")),
                Given("agent_type", Str("")),
                Given("last_assistant_message", Null),
            ];
        }
        "PreCompact" | "PostCompact" => &[Given("trigger", Str("auto"))],
        _ => &[],
    };
    PREFIX.iter().chain(tail).copied().collect()
}

/// The payload's JSON object.
pub fn object(native: &str, event: &Value) -> Map<String, Value> {
    let get = |k: &str| event.get(k).filter(|v| !v.is_null());
    let cc_tool = event.get("tool_name").and_then(Value::as_str).unwrap_or("");
    let mut out = Map::new();
    for key in keys(native) {
        match key {
            Given(k, d) => {
                let v = get(k).cloned().unwrap_or(match d {
                    Str(s) => Value::String(s.to_string()),
                    Null => Value::Null,
                    False => Value::Bool(false),
                });
                out.insert(k.to_string(), v);
            }
            EventName => {
                out.insert("hook_event_name".into(), Value::String(native.to_string()));
            }
            TurnId => {
                let v = get("turn_id").or_else(|| get("prompt_id")).cloned();
                out.insert("turn_id".into(), v.unwrap_or_else(|| Value::String(String::new())));
            }
            Subagent => {
                for k in ["agent_id", "agent_type"] {
                    if let Some(v) = get(k) {
                        out.insert(k.to_string(), v.clone());
                    }
                }
            }
            ToolName => {
                let v = match event.get("tool_name") {
                    Some(Value::String(s)) => Value::String(tool_name(s).to_string()),
                    Some(v) if !v.is_null() => v.clone(),
                    _ => Value::String(String::new()),
                };
                out.insert("tool_name".into(), v);
            }
            ToolInput => {
                let input = get("tool_input").cloned().unwrap_or(Value::Object(Map::new()));
                out.insert("tool_input".into(), tool_input(cc_tool, input));
            }
            ToolResponse => {
                out.insert("tool_response".into(), Value::String(tool_response(get("tool_response"))));
            }
        }
    }
    out
}

/// Bash input as Codex gives it: `{command}` only. Other tools' input as given.
fn tool_input(cc_tool: &str, input: Value) -> Value {
    match input {
        Value::Object(mut obj) if cc_tool == "Bash" => {
            let mut only = Map::new();
            if let Some(c) = obj.remove("command") {
                only.insert("command".into(), c);
            }
            Value::Object(only)
        }
        other => other,
    }
}

/// The tool's output as text: a string as given; an object with a string `stdout` → `stdout`
/// then `stderr`; other JSON → its compact text; absent → `""`.
fn tool_response(v: Option<&Value>) -> String {
    match v {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(o)) if o.get("stdout").is_some_and(Value::is_string) => {
            let out = o.get("stdout").and_then(Value::as_str).unwrap_or("");
            let err = o.get("stderr").and_then(Value::as_str).unwrap_or("");
            format!("{out}{err}")
        }
        Some(other) => other.to_string(),
    }
}

/// The stdin bytes of a Codex handler on this fire.
pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    serde_json::to_vec(&Value::Object(object(&h.native, ev.original))).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(native: &str, event: Value) -> String {
        Value::Object(object(native, &event)).to_string()
    }

    #[test]
    fn pretooluse_bash_keys_are_in_codex_order_with_only_the_command() {
        let got = text(
            "PreToolUse",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","session_id":"s","cwd":"/w",
                   "tool_input":{"command":"touch a","description":"d","timeout":5},"tool_use_id":"t1","prompt_id":"p"}),
        );
        assert_eq!(
            got,
            r#"{"session_id":"s","turn_id":"p","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse","model":"","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"touch a"},"tool_use_id":"t1"}"#
        );
    }

    #[test]
    fn a_failure_fire_is_posttooluse_with_an_empty_response_and_edit_is_apply_patch() {
        let got = text(
            "PostToolUse",
            json!({"hook_event_name":"PostToolUseFailure","tool_name":"Edit","tool_input":{"file_path":"/a"},"error":"x"}),
        );
        assert!(got.contains(r#""hook_event_name":"PostToolUse""#), "{got}");
        assert!(
            got.contains(r#""tool_name":"apply_patch","tool_input":{"file_path":"/a"},"tool_response":"""#),
            "{got}"
        );
    }

    #[test]
    fn tool_response_becomes_a_string() {
        assert_eq!(tool_response(Some(&json!({"stdout":"o","stderr":"e"}))), "oe");
        assert_eq!(tool_response(Some(&json!({"ok":true}))), r#"{"ok":true}"#);
        assert_eq!(tool_response(Some(&json!("t"))), "t");
        assert_eq!(tool_response(None), "");
    }

    #[test]
    fn native_fields_are_used_as_given_and_subagent_keys_follow_permission_mode() {
        let got = text(
            "Stop",
            json!({"turn_id":"t","model":"m","permission_mode":"bypassPermissions","agent_id":"a","agent_type":"w",
                   "stop_hook_active":true,"last_assistant_message":"done","extra":1}),
        );
        assert_eq!(
            got,
            r#"{"session_id":"","turn_id":"t","transcript_path":null,"cwd":"","hook_event_name":"Stop","model":"m","permission_mode":"bypassPermissions","agent_id":"a","agent_type":"w","stop_hook_active":true,"last_assistant_message":"done"}"#
        );
    }

    #[test]
    fn sessionstart_has_no_turn_id_and_defaults_its_source() {
        assert_eq!(
            text("SessionStart", json!({})),
            r#"{"session_id":"","transcript_path":null,"cwd":"","hook_event_name":"SessionStart","model":"","permission_mode":"default","source":"startup"}"#
        );
    }

    #[test]
    fn subagentstop_has_its_own_order() {
        assert_eq!(
            text("SubagentStop", json!({"agent_id":"a"})),
            r#"{"session_id":"","turn_id":"","transcript_path":null,"agent_transcript_path":null,"cwd":"","hook_event_name":"SubagentStop","model":"","permission_mode":"default","stop_hook_active":false,"agent_id":"a","agent_type":"","last_assistant_message":null}"#
        );
    }

    #[test]
    fn unknown_tools_and_mcp_tools_pass_unchanged() {
        let got = text("PreToolUse", json!({"tool_name":"mcp__s__t","tool_input":{"a":1,"command":"x"}}));
        assert!(got.contains(r#""tool_name":"mcp__s__t","tool_input":{"a":1,"command":"x"}"#), "{got}");
    }
}
