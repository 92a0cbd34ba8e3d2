//! A result in j-cli's own answer form, for the bridge (`bridge.rs`; `reading.rs`): one JSON
//! object on stdout and exit 0 (any other exit is j-cli's `on_error`, skipped by default).
//!
//! - A block where j-cli can block (`pre_tool_execution`, `pre_send_message`, `stop`) is
//!   `{"action": "skip", "retry_feedback": <reason>}`: the call or message is skipped and the
//!   reason goes back as feedback (on `stop`, the agent goes on working with it, as Claude
//!   Code's Stop block does). `skip` rather than `stop`, which would end the run.
//! - An ask becomes that block (j-cli has no ask); an allow is lost (j-cli has none).
//! - `continue: false` is `{"action": "stop", "system_message": <stop reason>}` on
//!   `pre_tool_execution` and `pre_send_message`; dropped on `stop` (j-cli's stop there keeps
//!   the agent working, the opposite) and where j-cli cannot block.
//! - A rewrite is `tool_arguments` (a string of compact JSON, in j-cli's own keys where the
//!   hooks saw Claude Code's: `tool_names::in_agent_keys`) on `pre_tool_execution` and
//!   `user_input` on `pre_send_message`; context is `additional_context`, a system message
//!   `system_message`, a rewritten tool output `tool_result` on `post_tool_execution`.
//!
//! The bridge's own failure is exit 1: j-cli's `on_error` (skip, unless the entry says
//! `abort`).

use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::dialect::tool_names;
use crate::verdict::Decision;
use serde_json::{Map, Value, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("j-cli") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let can_block = a.can_block(&super::PROFILE);
    let mut out = Map::new();
    let skip = |out: &mut Map<String, Value>, why: String| {
        out.insert("action".into(), json!("skip"));
        out.insert("retry_feedback".into(), json!(why));
    };
    let halting = !r.continue_ && can_block && native != "stop";
    if blocks(r) && can_block {
        skip(&mut out, block_reason(r));
    } else if halting {
        out.insert("action".into(), json!("stop"));
        let why = r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into());
        out.insert("system_message".into(), json!(why));
    } else if r.decision == Some(Decision::Ask) && can_block {
        l.lose(native, "ask", "blocked instead (j-cli has no ask)");
        skip(&mut out, r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into()));
    } else if let Some(d) = r.decision {
        let (what, instead) = match d {
            Decision::Allow => ("an allow", "nothing: the action runs as j-cli runs it"),
            Decision::Defer => ("defer", "nothing: the action runs as j-cli runs it"),
            Decision::Ask => ("ask", "dropped (j-cli cannot block here)"),
            Decision::Deny | Decision::Block => ("a block", "dropped (j-cli cannot block here)"),
        };
        l.lose(native, what, instead);
    }
    if !r.continue_ && !halting {
        l.lose(native, "`continue: false`", "dropped (the agent goes on)");
    }
    let decided = out.contains_key("action");
    if let Some(u) = &r.updated_input {
        match (native, u.get("prompt").and_then(Value::as_str)) {
            _ if decided => l.lose(native, "a rewritten input", "dropped (the action does not run)"),
            ("pre_tool_execution", _) if u.is_object() => {
                let own = tool_names::in_agent_keys(a.event.get("tool_input"), u);
                out.insert("tool_arguments".into(), json!(own.to_string()));
            }
            ("pre_send_message", Some(p)) => {
                out.insert("user_input".into(), json!(p));
            }
            _ => l.lose(native, "a rewritten input", "dropped"),
        }
    }
    if let Some(c) = &r.additional_context {
        out.insert("additional_context".into(), json!(c));
    }
    if let Some(m) = &r.system_message {
        if halting {
            l.lose(native, "a system message", "dropped (the stop reason takes its place)");
        } else {
            out.insert("system_message".into(), json!(m));
        }
    }
    if let Some(t) = &r.updated_tool_output {
        if native == "post_tool_execution" && !decided {
            out.insert("tool_result".into(), t.clone());
        } else {
            l.lose(native, "a rewritten tool output", "dropped");
        }
    }
    l.unread(native, r, &[Part::SuppressOutput]);
    Answer::json(out, l.into_lines())
}
