//! A result in Copilot CLI's own answer form, for the bridge (`bridge.rs`; observed/copilot.md):
//! one flat JSON object on stdout and exit 0, on camelCase and PascalCase events alike (a
//! PascalCase `PreToolUse` hook's flat keys are read when it gives no `hookSpecificOutput`).
//! `permissionDecision` (allow, deny, ask) with `permissionDecisionReason`, `modifiedArgs`
//! and `additionalContext` on preToolUse; `behavior` and `message` on permissionRequest;
//! `decision: "block"` with a `reason` on postToolUse, userPromptSubmitted, agentStop and
//! subagentStop; `modifiedResult` (an object) on postToolUse; `modifiedPrompt` on
//! userPromptSubmitted; `additionalContext` elsewhere. Copilot reads no `continue`, no
//! `systemMessage` and no `suppressOutput`: `continue: false` becomes a deny on preToolUse
//! and permissionRequest and is dropped elsewhere; the others are dropped. The bridge's own
//! failure is exit 1, which Copilot reads as an error: on preToolUse it **denies** the tool
//! call (Copilot fails closed there), elsewhere a warning.

use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, Value, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Copilot CLI") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let k = super::reading::kind(native);
    let mut out = Map::new();
    let stopped =
        |r: &crate::result::FireResult| r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into());
    match k {
        "preToolUse" => {
            let (word, why) = if blocks(r) {
                (Some("deny"), Some(block_reason(r)))
            } else if !r.continue_ {
                l.lose(native, "`continue: false`", "the tool call is denied instead (the agent goes on)");
                (Some("deny"), Some(stopped(r)))
            } else {
                match r.decision {
                    Some(Decision::Allow) => (Some("allow"), r.reason.clone()),
                    Some(Decision::Ask) => (Some("ask"), r.reason.clone()),
                    Some(Decision::Defer) => {
                        l.lose(native, "defer", "no decision (the same: Copilot's own approval applies)");
                        (None, None)
                    }
                    _ => (None, None),
                }
            };
            if let Some(w) = word {
                out.insert("permissionDecision".into(), json!(w));
            }
            if let Some(why) = why {
                out.insert("permissionDecisionReason".into(), json!(why));
            }
            if let Some(u) = r.updated_input.as_ref().filter(|_| word != Some("deny")) {
                out.insert("modifiedArgs".into(), u.clone());
            }
        }
        "permissionRequest" => {
            if blocks(r) || !r.continue_ {
                if !blocks(r) {
                    l.lose(native, "`continue: false`", "the permission is denied instead");
                }
                out.insert("behavior".into(), json!("deny"));
                out.insert("message".into(), json!(if blocks(r) { block_reason(r) } else { stopped(r) }));
            } else if r.decision == Some(Decision::Allow) && r.updated_input.is_some() {
                l.lose(native, "a rewritten input", "no decision: Copilot asks about the original input");
            } else if r.decision == Some(Decision::Allow) {
                out.insert("behavior".into(), json!("allow"));
            } else if r.decision.is_some() {
                l.lose(native, "ask or defer", "no decision: Copilot asks the user");
            }
        }
        "postToolUse" | "userPromptSubmitted" | "agentStop" | "subagentStop" => {
            if blocks(r) {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(block_reason(r)));
            } else if r.decision.is_some() {
                l.lose(native, "a decision", "dropped");
            }
        }
        _ => {
            if r.decision.is_some() {
                l.lose(native, "a decision", "dropped");
            }
        }
    }
    if !r.continue_ && !matches!(k, "preToolUse" | "permissionRequest") {
        l.lose(native, "`continue: false`", "dropped (the agent goes on)");
    }
    if let Some(u) = r.updated_input.as_ref().filter(|_| !blocks(r)) {
        match (k, u.get("prompt").and_then(Value::as_str)) {
            ("preToolUse" | "permissionRequest", _) => {}
            ("userPromptSubmitted", Some(p)) => {
                out.insert("modifiedPrompt".into(), json!(p));
            }
            _ => l.lose(native, "a rewritten input", "dropped"),
        }
    }
    if let Some(c) = &r.additional_context {
        if matches!(k, "permissionRequest" | "agentStop" | "subagentStop" | "userPromptTransformed") {
            l.lose(native, "added context", "dropped");
        } else {
            out.insert("additionalContext".into(), json!(c));
        }
    }
    match &r.updated_tool_output {
        Some(o @ Value::Object(_)) if k == "postToolUse" => {
            out.insert("modifiedResult".into(), o.clone());
        }
        Some(_) => l.lose(native, "a rewritten tool output", "dropped"),
        None => {}
    }
    l.unread(native, r, &[Part::SystemMessage, Part::SuppressOutput]);
    Answer::json(out, l.into_lines())
}
