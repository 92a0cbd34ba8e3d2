//! A host that emulates Windsurf fires Windsurf's own payload, `hook_event_name` naming the
//! Windsurf event (the host adds it: Windsurf's payload has only `agent_action_name`). This
//! file turns such an event into the canonical Claude Code event the engine matches and fires:
//! `pre_run_command`'s `tool_info.command_line` becomes PreToolUse for `Bash` with
//! `tool_input.command`, and so on. Windsurf's own ids and timestamp are kept beside the
//! canonical keys, so that a Windsurf hook of another event of the same fire gets them back.
//! The response and worktree events have no canonical counterpart: they stay under their own
//! name (native-only rows of the catalogue), with `tool_info`'s fields at the top level and
//! `session_id`. A payload is Windsurf's when its `tool_info` is an object; an event fired under
//! a Windsurf name with Claude Code's keys is not translated (`None`).

use super::kind::Kind;
use super::tools::{Tool, mcp_name};
use serde_json::{Map, Value, json};

/// The canonical event of Windsurf's payload `event` fired as its event `name`; `None` when
/// `name` is not Windsurf's or `event` is not Windsurf's payload.
pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let kind = Kind::of(name)?;
    let info = event.get("tool_info").and_then(Value::as_object)?.clone();
    let text = |k: &str| info.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut m = Map::new();
    let canonical = match (kind.tool(), kind.after()) {
        (Some(_), false) => "PreToolUse",
        (Some(_), true) => "PostToolUse",
        (None, _) if kind == Kind::PreUserPrompt => "UserPromptSubmit",
        (None, _) => kind.name(),
    };
    m.insert("hook_event_name".into(), json!(canonical));
    m.insert("session_id".into(), json!(string(event, "trajectory_id")));
    for key in ["trajectory_id", "execution_id", "timestamp"] {
        if let Some(v) = event.get(key) {
            m.insert(key.into(), v.clone());
        }
    }
    match kind.tool() {
        Some(Tool::Read) => {
            m.insert("tool_name".into(), json!("Read"));
            m.insert("tool_input".into(), json!({"file_path": text("file_path")}));
        }
        Some(Tool::Write) => {
            let (name, input) = edit_input(&text("file_path"), info.get("edits"));
            m.insert("tool_name".into(), json!(name));
            m.insert("tool_input".into(), input);
        }
        Some(Tool::Command) => {
            if let Some(cwd) = info.get("cwd").filter(|v| v.is_string()) {
                m.insert("cwd".into(), cwd.clone());
            }
            m.insert("tool_name".into(), json!("Bash"));
            m.insert("tool_input".into(), json!({"command": text("command_line")}));
        }
        Some(Tool::Mcp) => {
            m.insert("tool_name".into(), json!(mcp_name(&text("mcp_server_name"), &text("mcp_tool_name"))));
            let args = info.get("mcp_tool_arguments").filter(|v| v.is_object());
            m.insert("tool_input".into(), args.cloned().unwrap_or_else(|| json!({})));
            if let Some(result) = info.get("mcp_result") {
                m.insert("tool_response".into(), result.clone());
            }
        }
        None if kind == Kind::PreUserPrompt => {
            m.insert("prompt".into(), json!(text("user_prompt")));
        }
        // A native-only event: its own fields, at the top level.
        None => {
            for (k, v) in info {
                m.entry(k).or_insert(v);
            }
        }
    }
    Some(Value::Object(m))
}

fn string(event: &Value, key: &str) -> String {
    event.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// Claude Code's tool and input for Windsurf's `edits`: one edit is an `Edit`, several a
/// `MultiEdit` (Windsurf does not say which tool made them; unverified choice).
fn edit_input(file_path: &str, edits: Option<&Value>) -> (&'static str, Value) {
    let list = edits.and_then(Value::as_array).cloned().unwrap_or_default();
    let pair = |e: &Value| {
        let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        json!({"old_string": s("old_string"), "new_string": s("new_string")})
    };
    match list.as_slice() {
        [one] => {
            let mut input = json!({"file_path": file_path});
            if let (Value::Object(m), Value::Object(p)) = (&mut input, pair(one)) {
                m.extend(p);
            }
            ("Edit", input)
        }
        many => {
            ("MultiEdit", json!({"file_path": file_path, "edits": many.iter().map(pair).collect::<Vec<_>>()}))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn native(name: &str, tool_info: Value) -> Value {
        json!({"agent_action_name": name, "trajectory_id": "t1", "execution_id": "x1",
               "timestamp": "2026-11-28T10:00:00Z", "tool_info": tool_info, "hook_event_name": name})
    }

    #[test]
    fn pre_run_command_is_a_bash_pretooluse_in_its_cwd() {
        let e = native("pre_run_command", json!({"command_line": "rm -rf /", "cwd": "/w"}));
        assert_eq!(
            canonical("pre_run_command", &e).unwrap(),
            json!({"hook_event_name": "PreToolUse", "session_id": "t1", "trajectory_id": "t1",
                   "execution_id": "x1", "timestamp": "2026-11-28T10:00:00Z", "cwd": "/w",
                   "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})
        );
    }

    #[test]
    fn reads_writes_mcp_and_prompts_get_claude_codes_names() {
        let c = |n: &str, info: Value| canonical(n, &native(n, info)).unwrap();
        let r = c("post_read_code", json!({"file_path": "/a"}));
        assert_eq!(
            (r["hook_event_name"].as_str(), r["tool_name"].as_str()),
            (Some("PostToolUse"), Some("Read"))
        );
        let w = c(
            "pre_write_code",
            json!({"file_path": "/a", "edits": [{"old_string": "x", "new_string": "y"}]}),
        );
        assert_eq!(w["tool_name"], "Edit");
        assert_eq!(w["tool_input"], json!({"file_path": "/a", "old_string": "x", "new_string": "y"}));
        let edits = json!([{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]);
        let w = c("post_write_code", json!({"file_path": "/a", "edits": edits}));
        assert_eq!((w["tool_name"].as_str(), &w["tool_input"]["edits"]), (Some("MultiEdit"), &edits));
        let m = c(
            "post_mcp_tool_use",
            json!({"mcp_server_name": "gh", "mcp_tool_name": "issue",
                                             "mcp_tool_arguments": {"t": 1}, "mcp_result": "ok"}),
        );
        assert_eq!(
            (m["tool_name"].as_str(), &m["tool_input"], &m["tool_response"]),
            (Some("mcp__gh__issue"), &json!({"t": 1}), &json!("ok"))
        );
        let p = c("pre_user_prompt", json!({"user_prompt": "hi"}));
        assert_eq!(
            (p["hook_event_name"].as_str(), p["prompt"].as_str()),
            (Some("UserPromptSubmit"), Some("hi"))
        );
    }

    #[test]
    fn native_only_events_keep_their_name_with_their_fields_on_top() {
        let e = native("post_cascade_response", json!({"response": "done", "session_id": "no"}));
        let c = canonical("post_cascade_response", &e).unwrap();
        assert_eq!(
            (c["hook_event_name"].as_str(), c["session_id"].as_str(), c["response"].as_str()),
            (Some("post_cascade_response"), Some("t1"), Some("done"))
        );
    }

    #[test]
    fn foreign_names_and_payloads_without_tool_info_are_not_windsurfs() {
        let e = native("pre_run_command", json!({"command_line": "ls"}));
        assert_eq!(canonical("PreToolUse", &e), None);
        let cc = json!({"hook_event_name": "pre_run_command", "tool_name": "Bash", "tool_info": "x"});
        assert_eq!(canonical("pre_run_command", &cc), None);
        // A hostile tool_info of the wrong types still gives a well-formed event.
        let odd = json!({"tool_info": {"command_line": 5, "cwd": [1]}, "trajectory_id": {}});
        let c = canonical("pre_run_command", &odd).unwrap();
        assert_eq!((c["tool_input"]["command"].as_str(), c.get("cwd")), (Some(""), None));
    }
}
