//! A result in Antigravity's own answer form, for the bridge (`bridge.rs`; agents-2.md §2.3):
//! one JSON object on stdout, exit 0, on PreToolUse the documented `{"allowTool": false,
//! "denyReason"}` for a deny and the integrators' `{"decision": "allow"|"ask", "reason"}`
//! otherwise [s]; on Stop `{"decision": "continue", "reason"}` keeps the agent going.
//! Antigravity denies a PreToolUse answer it does not understand, so anything else is said by
//! silence (which lets the tool run). It cannot express an allow's reason, a rewrite (dropped:
//! the original call runs if nothing blocked), context, a system message, or `continue: false`
//! (a deny on PreToolUse, dropped elsewhere). The bridge's own failure is exit 1, which
//! Antigravity reads as a failed hook: on PreToolUse it **denies** the call (it fails closed
//! there [s]), elsewhere nothing.

use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Antigravity") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let mut out = Map::new();
    let deny = |out: &mut Map<String, serde_json::Value>, why: String| {
        out.insert("allowTool".into(), json!(false));
        out.insert("denyReason".into(), json!(why));
    };
    match native {
        "PreToolUse" if blocks(r) => deny(&mut out, block_reason(r)),
        "PreToolUse" if !r.continue_ => {
            l.lose(native, "`continue: false`", "the tool call is denied instead (the agent goes on)");
            deny(&mut out, r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()));
        }
        "PreToolUse" => match r.decision {
            Some(Decision::Ask) => {
                out.insert("decision".into(), json!("ask"));
                if let Some(why) = &r.reason {
                    out.insert("reason".into(), json!(why));
                }
            }
            Some(Decision::Allow) if r.updated_input.is_some() => {
                l.lose(
                    native,
                    "a rewritten input",
                    "dropped, and the allow with it: the original call runs as Antigravity runs it",
                );
            }
            Some(Decision::Allow) => {
                out.insert("decision".into(), json!("allow"));
                if r.reason.is_some() {
                    l.lose(native, "an allow's reason", "dropped");
                }
            }
            Some(_) => l.lose(native, "defer", "nothing (the same: Antigravity's own approval applies)"),
            None => {}
        },
        "Stop" if blocks(r) => {
            out.insert("decision".into(), json!("continue"));
            out.insert("reason".into(), json!(block_reason(r)));
        }
        _ => {
            if r.decision.is_some() {
                l.lose(native, "a decision", "dropped");
            }
        }
    }
    if !r.continue_ && native != "PreToolUse" {
        l.lose(native, "`continue: false`", "dropped (the agent goes on)");
    }
    if r.updated_input.is_some() && r.decision != Some(Decision::Allow) && !blocks(r) {
        l.lose(native, "a rewritten input", "dropped");
    }
    l.unread(native, r, &[Part::Context, Part::SystemMessage, Part::ToolOutput]);
    Answer::json(out, l.into_lines())
}
