//! A result in neocode's own answer form, for the bridge (`bridge.rs`; `reading.rs`): its status
//! protocol on stdout and exit 0, `{"status": "pass" | "block" | "failed", "message",
//! "update_input": {"text"}}`. neocode lets the exit code win (1 and 2 block), so the bridge
//! never answers with one: a block where neocode can block (`before_tool_call`,
//! `user_prompt_submit`, `accept_gate`) is `status: "block"` with the reason as `message`; an
//! ask and `continue: false` there become that block (neocode has neither); an allow, context
//! and a rewritten tool output are lost; a rewrite goes on `user_prompt_submit` only (the
//! prompt); a system message is a pass's `message`. The bridge's own failure is
//! `status: "failed"` on exit 0 (an exit 1 would **block** in neocode): a failed hook, which
//! blocks only where the entry says `failure_policy: fail_closed`.

use crate::dialect::answering::{Answer, Answering, Fired, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, Value, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    if let Fired::Failed(why) = a.fired {
        let mut failed = Answer::error(1, why);
        failed.exit_code = 0;
        failed.stdout = json!({"status": "failed", "message": failed.stderr}).to_string().into_bytes();
        return failed;
    }
    let (r, mut l) = match a.begin("neocode") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let can_block = a.can_block(&super::PROFILE);
    let mut out = Map::new();
    let block = |out: &mut Map<String, Value>, why: String| {
        out.insert("status".into(), json!("block"));
        out.insert("message".into(), json!(why));
    };
    if can_block {
        if blocks(r) {
            block(&mut out, block_reason(r));
        } else if !r.continue_ {
            l.lose(native, "`continue: false`", "the action is blocked instead (neocode goes on)");
            block(&mut out, r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()));
        } else if r.decision == Some(Decision::Ask) {
            l.lose(native, "ask", "blocked instead (neocode has no ask)");
            block(&mut out, r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into()));
        }
    } else {
        if r.decision.is_some_and(|d| d != Decision::Allow) {
            l.lose(native, "a decision", "dropped (neocode cannot block here)");
        }
        if !r.continue_ {
            l.lose(native, "`continue: false`", "dropped (the agent goes on)");
        }
    }
    let blocked = out.contains_key("status");
    match r.decision {
        Some(Decision::Allow) => l.lose(native, "an allow", "nothing: the action runs as neocode runs it"),
        Some(Decision::Defer) => l.lose(native, "defer", "nothing: the action runs as neocode runs it"),
        _ => {}
    }
    if let Some(u) = &r.updated_input {
        match u.get("prompt").and_then(Value::as_str) {
            Some(p) if native == "user_prompt_submit" && !blocked => {
                out.insert("update_input".into(), json!({"text": p}));
            }
            _ => l.lose(native, "a rewritten input", "dropped: the original action runs if nothing blocked"),
        }
    }
    if let Some(m) = &r.system_message {
        if blocked {
            l.lose(native, "a system message", "dropped (the block's reason takes its place)");
        } else {
            out.insert("message".into(), json!(m));
        }
    }
    l.unread(native, r, &[Part::Context, Part::ToolOutput, Part::SuppressOutput]);
    Answer::json(out, l.into_lines())
}
