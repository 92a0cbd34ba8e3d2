//! What a Crush hook is given (observed): on stdin the compact JSON
//! `{"event", "session_id", "cwd", "tool_name", "tool_input"}` in that order (no
//! `hook_event_name`, no timestamp, no transcript), with Crush's tool name and the input as the
//! model gave it; in its environment `CRUSH=1`, `AGENT=crush`, `AI_AGENT=crush`, `CRUSH_EVENT`,
//! `CRUSH_TOOL_NAME`, `CRUSH_SESSION_ID`, `CRUSH_CWD`, `CRUSH_PROJECT_DIR`,
//! `CRUSH_TOOL_INPUT_COMMAND` (when the input has a string `command`),
//! `CRUSH_TOOL_INPUT_FILE_PATH` (a `file_path`), and the non-interactive guards
//! (`EDITOR=false`, `PAGER=cat`, …). A host that is Crush fires its own stdin, which the hook
//! gets as given, without the `hook_event_name` the host added.

use super::tools;
use crate::catalog::Dialect;
use crate::dialect::FireEvent;
use serde_json::{Map, Value, json};

/// Crush keeps its hooks from waiting on an editor or a pager.
const GUARDS: &[(&str, &str)] = &[
    ("EDITOR", "false"),
    ("VISUAL", "false"),
    ("GIT_EDITOR", "false"),
    ("JJ_EDITOR", "false"),
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
    ("JJ_PAGER", "cat"),
];

pub(super) fn payload(ev: &FireEvent<'_>) -> Vec<u8> {
    if let Some(fired) = ev.native.filter(|n| n.dialect == Dialect::Crush) {
        return fired.payload(false);
    }
    let e = ev.current;
    let mut m = Map::new();
    m.insert("event".into(), json!(ev.spec.name));
    m.insert("session_id".into(), e.get("session_id").cloned().unwrap_or(json!("")));
    m.insert("cwd".into(), e.get("cwd").cloned().unwrap_or(json!("")));
    m.insert("tool_name".into(), json!(tool_name(ev)));
    m.insert("tool_input".into(), e.get("tool_input").cloned().unwrap_or(json!({})));
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

/// Crush's name of the fired tool: the host's own when it fired Crush's stdin.
fn tool_name(ev: &FireEvent<'_>) -> String {
    let given = ev.native.and_then(|n| n.get("tool_name")).or_else(|| ev.current.get("tool_name"));
    let name = given.and_then(Value::as_str).unwrap_or("");
    if ev.native.is_some() { name.to_string() } else { tools::to_crush(name).to_string() }
}

pub(super) fn vars(ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let e = ev.current;
    let text = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut vars: Vec<(String, String)> = [("CRUSH", "1"), ("AGENT", "crush"), ("AI_AGENT", "crush")]
        .iter()
        .chain(GUARDS)
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    vars.push(("CRUSH_EVENT".into(), ev.spec.name.to_string()));
    vars.push(("CRUSH_TOOL_NAME".into(), tool_name(ev)));
    vars.push(("CRUSH_SESSION_ID".into(), text("session_id")));
    vars.push(("CRUSH_CWD".into(), text("cwd")));
    vars.push(("CRUSH_PROJECT_DIR".into(), ev.project_dir.to_string()));
    let input = e.get("tool_input");
    for (key, var) in [("command", "CRUSH_TOOL_INPUT_COMMAND"), ("file_path", "CRUSH_TOOL_INPUT_FILE_PATH")] {
        if let Some(v) = input.and_then(|i| i.get(key)).and_then(Value::as_str) {
            vars.push((var.into(), v.to_string()));
        }
    }
    vars
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn a_canonical_bash_call_is_crushs_stdin_in_its_key_order() {
        let spec = catalog::spec(catalog::lookup("PreToolUse").unwrap());
        let e = json!({"hook_event_name": "PreToolUse", "session_id": "s", "transcript_path": "/t", "cwd": "/w",
                       "tool_name": "Bash", "tool_input": {"command": "ls", "description": "d"}});
        let out = String::from_utf8(payload(&FireEvent::plain(spec, &e))).unwrap();
        assert_eq!(
            out,
            r#"{"event":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"bash","tool_input":{"command":"ls","description":"d"}}"#
        );
        let vars = vars(&FireEvent::plain(spec, &e));
        assert!(vars.contains(&("CRUSH_TOOL_INPUT_COMMAND".into(), "ls".into())));
        assert!(vars.contains(&("CRUSH_TOOL_NAME".into(), "bash".into())));
        assert!(!vars.iter().any(|(k, _)| k == "CRUSH_TOOL_INPUT_FILE_PATH"));
    }
}
