//! A host emulating Kiro fires Kiro's payload, which already carries Claude Code's keys and
//! `hook_event_name`; only its tool names differ (`fs_write`, `@git/status`). Such an event is
//! recognised by a Kiro tool name on a tool trigger, and its canonical event is the same with
//! Claude Code's tool name. Anything else is fired as it is (`None`).

use super::tools::cc_name;
use serde_json::Value;

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    if !matches!(name, "PreToolUse" | "PostToolUse") {
        return None;
    }
    let cc = cc_name(event.get("tool_name")?.as_str()?)?;
    let mut e = event.clone();
    e["tool_name"] = Value::String(cc);
    Some(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_kiro_tool_name_makes_a_kiro_payload() {
        let e = json!({"hook_event_name": "PreToolUse", "cwd": "/w", "tool_name": "fs_write", "tool_input": {"path": "/a"}});
        assert_eq!(canonical("PreToolUse", &e).unwrap()["tool_name"], "Write");
        let cc = json!({"hook_event_name": "PreToolUse", "tool_name": "Write"});
        assert_eq!(canonical("PreToolUse", &cc), None);
        assert_eq!(canonical("Stop", &e), None);
    }
}
