//! A result in Cursor's own answer form, for the bridge (`bridge.rs`; agents.md §4.3): one
//! snake_case JSON object on stdout and exit 0. `permission` (`allow`, `deny`, and `ask` on
//! `beforeShellExecution` and `beforeMCPExecution`), `agent_message` the reason of a deny,
//! `user_message` the system message (or the reason of an ask or a blocked prompt),
//! `updated_input` on `preToolUse`, `additional_context` where Cursor takes it,
//! `continue: false` on `beforeSubmitPrompt` (a blocked prompt), `followup_message` on `stop`
//! and `subagentStop` (a block: keep working), `updated_mcp_tool_output` on `postToolUse`.
//! What it cannot carry: `ask` where Cursor has none becomes a deny; a rewrite outside
//! `preToolUse` is dropped and the allow with it; `continue: false` becomes a deny on the
//! permission events and a blocked prompt on `beforeSubmitPrompt`, and is dropped elsewhere;
//! a system message beside a blocked prompt's or an ask's reason is dropped. The bridge's
//! own failure is exit 1: an error, which Cursor lets through unless the entry says
//! `failClosed: true`.

use super::kind::Kind;
use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Cursor") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let Some(kind) = Kind::of(native) else { return Answer::nothing(Vec::new()) };
    let mut out = Map::new();
    // `user_message` is the reason of an ask or a blocked prompt when it holds one.
    let mut user_is_reason = false;
    let deny = |out: &mut Map<String, serde_json::Value>, why: String| {
        out.insert("permission".into(), json!("deny"));
        out.insert("agent_message".into(), json!(why));
    };
    if kind.decides_permission() {
        if blocks(r) {
            deny(&mut out, block_reason(r));
        } else if !r.continue_ {
            l.lose(native, "`continue: false`", "the action is denied instead (the agent goes on)");
            deny(&mut out, r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".to_string()));
        } else {
            match r.decision {
                Some(Decision::Ask) if kind.can_ask() => {
                    out.insert("permission".into(), json!("ask"));
                    if let Some(why) = &r.reason {
                        out.insert("user_message".into(), json!(why));
                        user_is_reason = true;
                    }
                }
                Some(Decision::Ask) => {
                    l.lose(native, "ask", "denied instead (Cursor asks only before shell and MCP calls)");
                    deny(
                        &mut out,
                        r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".to_string()),
                    );
                }
                Some(Decision::Allow) => {
                    let rewrite_lost = r.updated_input.is_some() && kind != Kind::PreToolUse;
                    if !rewrite_lost {
                        out.insert("permission".into(), json!("allow"));
                    }
                }
                Some(Decision::Defer) => {
                    l.lose(native, "defer", "no decision (the same: Cursor's own approval applies)")
                }
                _ => {}
            }
        }
    } else if blocks(r) {
        match kind {
            Kind::BeforeSubmitPrompt => {
                out.insert("continue".into(), json!(false));
                out.insert("user_message".into(), json!(block_reason(r)));
                user_is_reason = true;
            }
            Kind::Stop | Kind::SubagentStop => {
                out.insert("followup_message".into(), json!(block_reason(r)));
            }
            _ => l.lose(native, "a block", "dropped"),
        }
    } else if r.decision.is_some() {
        l.lose(native, "a decision", "dropped");
    }
    if !r.continue_ && !kind.decides_permission() {
        if kind == Kind::BeforeSubmitPrompt && !blocks(r) {
            l.lose(native, "`continue: false`", "the prompt is blocked instead");
            out.insert("continue".into(), json!(false));
            let why = r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".to_string());
            out.insert("user_message".into(), json!(why));
            user_is_reason = true;
        } else if kind != Kind::BeforeSubmitPrompt {
            l.lose(native, "`continue: false`", "dropped (the agent goes on)");
        }
    }
    if let Some(u) = r.updated_input.as_ref().filter(|_| !blocks(r)) {
        if kind == Kind::PreToolUse && out.get("permission") != Some(&json!("deny")) {
            out.insert("updated_input".into(), u.clone());
        } else if kind.decides_permission() {
            l.lose(
                native,
                "a rewritten input",
                "dropped, and the allow with it (Cursor's own approval applies)",
            );
        } else {
            l.lose(native, "a rewritten input", "dropped");
        }
    }
    if let Some(c) = &r.additional_context {
        if kind.takes_context() {
            out.insert("additional_context".into(), json!(c));
        } else {
            l.lose(native, "added context", "dropped");
        }
    }
    if let Some(o) = &r.updated_tool_output {
        if kind == Kind::PostToolUse {
            out.insert("updated_mcp_tool_output".into(), o.clone());
        } else {
            l.lose(native, "a rewritten tool output", "dropped");
        }
    }
    if let Some(m) = &r.system_message {
        if user_is_reason {
            l.lose(native, "a system message beside this reason", "dropped (the reason is the user message)");
        } else {
            out.insert("user_message".into(), json!(m));
        }
    }
    l.unread(native, r, &[Part::SuppressOutput]);
    Answer::json(out, l.into_lines())
}
