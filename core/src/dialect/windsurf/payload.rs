//! The bytes a Windsurf hook reads on stdin (agents-2.md §2.4): compact JSON
//! `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`, in that order and no
//! others, the per-event fields nested in `tool_info`. Built from the canonical event for the
//! handler's own event (a PreToolUse fire for `Bash` gives a `pre_run_command` hook
//! `tool_info.command_line`); a field the host already gives in Windsurf's spelling
//! (`trajectory_id`, `timestamp`) is used as it is. A hook of the very event a Windsurf host
//! fired gets the host's payload, without the `hook_event_name` the host added.

use super::kind::Kind;
use super::tools::{Tool, mcp_parts};
use crate::dialect::FireEvent;
use serde_json::{Map, Value, json};

pub fn payload(kind: Kind, ev: &FireEvent<'_>) -> Vec<u8> {
    if let Some(n) = ev.native.filter(|n| n.dialect == super::PROFILE.dialect)
        && n.get("hook_event_name").and_then(Value::as_str) == Some(kind.name())
    {
        return n.payload(false);
    }
    let e = ev.current;
    let mut m = Map::new();
    m.insert("agent_action_name".into(), json!(kind.name()));
    m.insert("trajectory_id".into(), first_string(e, &["trajectory_id", "session_id"]));
    m.insert("execution_id".into(), first_string(e, &["execution_id", "prompt_id"]));
    let stamp = match e.get("timestamp") {
        Some(Value::String(s)) => s.clone(),
        _ => crate::dialect::time::timestamp(ev.at),
    };
    m.insert("timestamp".into(), Value::String(stamp));
    m.insert("tool_info".into(), tool_info(kind, e));
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

/// The event's `tool_info` for a hook of `kind`.
fn tool_info(kind: Kind, e: &Value) -> Value {
    let input = e.get("tool_input");
    let field =
        |k: &str| input.and_then(|i| i.get(k)).filter(|v| v.is_string()).cloned().unwrap_or(json!(""));
    match kind.tool() {
        Some(Tool::Read) => json!({"file_path": field("file_path")}),
        Some(Tool::Write) => json!({"file_path": field("file_path"), "edits": edits(e)}),
        Some(Tool::Command) => json!({"command_line": field("command"), "cwd": first_string(e, &["cwd"])}),
        Some(Tool::Mcp) => {
            let name = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
            let (server, tool) = mcp_parts(name).unwrap_or(("", name));
            let mut m = Map::new();
            m.insert("mcp_server_name".into(), json!(server));
            m.insert("mcp_tool_name".into(), json!(tool));
            m.insert("mcp_tool_arguments".into(), input.cloned().unwrap_or_else(|| json!({})));
            if kind.after() {
                m.insert("mcp_result".into(), e.get("tool_response").cloned().unwrap_or(Value::Null));
            }
            Value::Object(m)
        }
        None => own_fields(kind, e),
    }
}

/// `tool_info` of the events that are not about a tool, from the event's top-level fields.
fn own_fields(kind: Kind, e: &Value) -> Value {
    let keys: &[&str] = match kind {
        Kind::PreUserPrompt => return json!({"user_prompt": first_string(e, &["user_prompt", "prompt"])}),
        Kind::PostCascadeResponse => &["response"],
        Kind::PostCascadeResponseWithTranscript => &["transcript_path"],
        Kind::PostSetupWorktree => &["worktree_path", "root_workspace_path"],
        _ => &[],
    };
    Value::Object(keys.iter().map(|k| (k.to_string(), first_string(e, &[k]))).collect())
}

/// The first of `keys` that is a string in the event, else `""`.
fn first_string(e: &Value, keys: &[&str]) -> Value {
    keys.iter().find_map(|k| e.get(*k).filter(|v| v.is_string()).cloned()).unwrap_or(json!(""))
}

/// Windsurf's `edits` (`[{old_string, new_string}]`) from Claude Code's input of an edit
/// tool: a Write replaces nothing with its whole content, a MultiEdit lists its edits, an Edit
/// is one pair.
fn edits(e: &Value) -> Value {
    let input = e.get("tool_input").cloned().unwrap_or_else(|| json!({}));
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let pair = |v: &Value| json!({"old_string": text(v, "old_string"), "new_string": text(v, "new_string")});
    let list: Vec<Value> = match e.get("tool_name").and_then(Value::as_str) {
        Some("Write") => vec![json!({"old_string": "", "new_string": text(&input, "content")})],
        Some("MultiEdit") => input
            .get("edits")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |l| l.iter().map(pair).collect()),
        _ => vec![pair(&input)],
    };
    Value::Array(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};
    use std::time::{Duration, UNIX_EPOCH};

    fn bytes(kind: Kind, event: Value) -> String {
        let s = spec(lookup(event["hook_event_name"].as_str().unwrap()).unwrap());
        let at = UNIX_EPOCH + Duration::from_millis(1_795_485_127_226);
        let ev = FireEvent { at, ..FireEvent::plain(s, &event) };
        String::from_utf8(payload(kind, &ev)).unwrap()
    }

    #[test]
    fn a_bash_pretooluse_gives_pre_run_command_its_command_line_and_cwd() {
        let e = json!({"hook_event_name": "PreToolUse", "session_id": "s1", "prompt_id": "p1", "cwd": "/w",
                       "tool_name": "Bash", "tool_input": {"command": "ls -l"}});
        assert_eq!(
            bytes(Kind::PreRunCommand, e),
            r#"{"agent_action_name":"pre_run_command","trajectory_id":"s1","execution_id":"p1","timestamp":"2026-11-24T01:52:07.226Z","tool_info":{"command_line":"ls -l","cwd":"/w"}}"#
        );
    }

    #[test]
    fn mcp_names_split_into_server_and_tool_and_the_result_comes_after() {
        let e = json!({"hook_event_name": "PostToolUse", "session_id": "s", "tool_name": "mcp__gh__create_issue",
                       "tool_input": {"title": "x"}, "tool_response": {"ok": true}, "timestamp": "T"});
        assert_eq!(
            bytes(Kind::PostMcpToolUse, e),
            r#"{"agent_action_name":"post_mcp_tool_use","trajectory_id":"s","execution_id":"","timestamp":"T","tool_info":{"mcp_server_name":"gh","mcp_tool_name":"create_issue","mcp_tool_arguments":{"title":"x"},"mcp_result":{"ok":true}}}"#
        );
    }

    #[test]
    fn edits_come_from_edit_write_and_multiedit_inputs() {
        let w = json!({"tool_name": "Write", "tool_input": {"file_path": "/f", "content": "c"}});
        assert_eq!(edits(&w), json!([{"old_string": "", "new_string": "c"}]));
        let m = json!({"tool_name": "MultiEdit", "tool_input": {"edits": [{"old_string": "a", "new_string": "b"}]}});
        assert_eq!(edits(&m), json!([{"old_string": "a", "new_string": "b"}]));
        let ed = json!({"tool_name": "Edit", "tool_input": {"old_string": "x", "new_string": "y"}});
        assert_eq!(edits(&ed), json!([{"old_string": "x", "new_string": "y"}]));
    }

    #[test]
    fn a_prompt_is_user_prompt_and_a_worktree_keeps_its_two_paths() {
        let e = json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "prompt": "hi"});
        assert!(bytes(Kind::PreUserPrompt, e).ends_with(r#""tool_info":{"user_prompt":"hi"}}"#));
        let info = own_fields(Kind::PostSetupWorktree, &json!({"worktree_path": "/w", "x": 1}));
        assert_eq!(info, json!({"worktree_path": "/w", "root_workspace_path": ""}));
    }
}
