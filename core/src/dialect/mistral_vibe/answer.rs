//! A result in Mistral Vibe's own answer form, for the bridge (`bridge.rs`; `reading.rs`, as
//! observed on Vibe 3.0.3): one JSON object on stdout and exit 0, `{"decision": "allow" |
//! "deny", "reason", "system_message", "hook_specific_output": {"tool_input" |
//! "additional_context"}}`. A deny on `pre_tool` refuses the call, on `post_tool` replaces the
//! tool's result with the reason, on `post_agent` sends the agent back to work (a Stop block).
//! Vibe has no ask (denied instead) and no stop (`continue: false` becomes a deny on
//! `pre_tool` and is dropped elsewhere); a rewrite goes on `pre_tool` only, context on
//! `post_tool` only; a rewritten tool output cannot be said. Any non-zero exit is Vibe's failure
//! path, so the bridge never blocks by exit code, and its own failure (exit 1) fails open unless
//! the entry says `strict = true`.

use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Mistral Vibe") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let mut out = Map::new();
    let mut specific = Map::new();
    let pre = native == "pre_tool";
    let deny = |out: &mut Map<String, serde_json::Value>, why: String| {
        out.insert("decision".into(), json!("deny"));
        out.insert("reason".into(), json!(why));
    };
    if blocks(r) {
        deny(&mut out, block_reason(r));
    } else if !r.continue_ && pre {
        l.lose(native, "`continue: false`", "the tool call is denied instead (Vibe goes on)");
        deny(&mut out, r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()));
    } else {
        if !r.continue_ {
            l.lose(native, "`continue: false`", "dropped (the agent goes on)");
        }
        match r.decision {
            Some(Decision::Ask) => {
                l.lose(native, "ask", "denied instead (Vibe has no ask)");
                deny(
                    &mut out,
                    r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into()),
                );
            }
            Some(Decision::Allow) if r.updated_input.is_some() && !pre => {
                l.lose(native, "a rewritten input", "dropped, and the allow with it");
            }
            Some(Decision::Allow) => {
                out.insert("decision".into(), json!("allow"));
                if let Some(why) = &r.reason {
                    out.insert("reason".into(), json!(why));
                }
            }
            _ => {}
        }
    }
    let denied = out.get("decision") == Some(&json!("deny"));
    if let Some(u) = &r.updated_input
        && !denied
    {
        if pre {
            specific.insert("tool_input".into(), u.clone());
        } else if r.decision != Some(Decision::Allow) {
            l.lose(native, "a rewritten input", "dropped");
        }
    }
    if let Some(c) = &r.additional_context {
        if native == "post_tool" {
            specific.insert("additional_context".into(), json!(c));
        } else {
            l.lose(native, "added context", "dropped (Vibe takes context after a tool only)");
        }
    }
    if let Some(m) = &r.system_message {
        out.insert("system_message".into(), json!(m));
    }
    if !specific.is_empty() {
        out.insert("hook_specific_output".into(), specific.into());
    }
    l.unread(native, r, &[Part::ToolOutput, Part::SuppressOutput]);
    Answer::json(out, l.into_lines())
}
