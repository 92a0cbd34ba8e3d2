//! A result in Claude Code's own answer form, for the bridge (`bridge.rs`): one JSON object on
//! stdout and exit 0, the keys §6 reads on the event (`hookSpecificOutput` where the event has
//! the field, top-level `decision`/`reason` on blocking events, the universal four). What the
//! event does not read is a loss. The bridge's own failure is exit 1, a non-blocking error:
//! Claude Code goes on and the tool runs.

use crate::catalog::{Decisions, EventSpec, Exit2};
use crate::dialect::answering::{Answer, Answering, Fired, Losses, block_reason, blocks};
use crate::result::FireResult;
use crate::verdict::Decision;
use serde_json::{Map, Value, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    answer_as("Claude Code", a)
}

/// Claude Code's answer form for an agent that reads less of it (Qwen Code, Factory Droid,
/// Auggie): `strip` takes out of a copy of the result what `agent` ignores on the event,
/// saying each as a loss, and the rest is answered as Claude Code's. The agent's own losses come
/// first, then those of Claude Code's form.
pub(crate) fn answer_stripped(
    agent: &'static str,
    a: &Answering<'_>,
    strip: impl FnOnce(&'static EventSpec, &mut FireResult, &mut Losses),
) -> Answer {
    let (Fired::Result(r), Some(spec)) = (&a.fired, a.spec) else { return answer_as(agent, a) };
    let mut l = Losses::new(agent);
    let mut kept = (*r).clone();
    strip(spec, &mut kept, &mut l);
    let mut ans = answer_as(agent, &Answering { fired: Fired::Result(&kept), ..*a });
    let mut lines = l.into_lines();
    lines.append(&mut ans.losses);
    ans.losses = lines;
    ans
}

/// Claude Code's answer form, for `agent` (VS Code answers as Claude Code does, mostly).
pub(crate) fn answer_as(agent: &'static str, a: &Answering<'_>) -> Answer {
    let (r, mut losses) = match a.begin(agent) {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let Some(spec) = a.spec else { return Answer::nothing(Vec::new()) };
    let ev = spec.name;
    let mut out = Map::new();
    let mut hso = Map::new();
    hso.insert("hookEventName".into(), json!(ev));
    let has = |k: &str| spec.hso.contains(&k);
    // Events whose JSON Claude Code does not read (or reads only `terminalSequence` of).
    let no_json =
        spec.discards_all_json || spec.only_terminal_sequence || spec.exit2 == Exit2::AnyNonZeroBlocks;
    let rewrite_lost = r.updated_input.is_some() && !blocks(r) && !has("updatedInput");
    match (spec.decisions, r.decision) {
        (_, None) => {}
        (Decisions::Permission, Some(Decision::Allow)) if rewrite_lost => {
            losses.lose(ev, "a rewritten input", "dropped, and the allow with it");
        }
        (Decisions::Permission, Some(d)) => {
            let word = match d {
                Decision::Allow => "allow",
                Decision::Ask => "ask",
                Decision::Defer => "defer",
                Decision::Deny | Decision::Block => "deny",
            };
            hso.insert("permissionDecision".into(), json!(word));
            let reason = if blocks(r) { Some(block_reason(r)) } else { r.reason.clone() };
            if let Some(reason) = reason {
                hso.insert("permissionDecisionReason".into(), json!(reason));
            }
        }
        (Decisions::PermissionRequest, Some(d)) => {
            let mut decision = Map::new();
            match d {
                Decision::Allow => {
                    decision.insert("behavior".into(), json!("allow"));
                    if let Some(u) = &r.updated_input {
                        decision.insert("updatedInput".into(), u.clone());
                    }
                }
                Decision::Deny | Decision::Block => {
                    decision.insert("behavior".into(), json!("deny"));
                    decision.insert("message".into(), json!(block_reason(r)));
                }
                Decision::Ask | Decision::Defer => losses.lose(
                    ev,
                    "ask or defer",
                    "no decision: the agent asks the user as it would without the hook",
                ),
            }
            if !decision.is_empty() {
                hso.insert("decision".into(), Value::Object(decision));
            }
        }
        (_, Some(_)) if blocks(r) && spec.top_decision => {
            out.insert("decision".into(), json!("block"));
            out.insert("reason".into(), json!(block_reason(r)));
        }
        // A block the event says only by its exit code (WorktreeCreate, Elicitation): exit 2
        // with the reason on stderr, which Claude Code reads as the block.
        (_, Some(_)) if blocks(r) => {
            return Answer { stderr: block_reason(r), exit_code: 2, ..Answer::nothing(losses.into_lines()) };
        }
        (_, Some(_)) => losses.lose(ev, "a decision", "dropped"),
    }
    if let Some(u) = &r.updated_input
        && spec.decisions != Decisions::PermissionRequest
        && !blocks(r)
    {
        if has("updatedInput") {
            hso.insert("updatedInput".into(), u.clone());
        } else if spec.decisions != Decisions::Permission {
            losses.lose(ev, "a rewritten input", "dropped");
        }
    }
    if let Some(c) = &r.additional_context {
        if has("additionalContext") {
            hso.insert("additionalContext".into(), json!(c));
        } else {
            losses.lose(ev, "added context", "dropped");
        }
    }
    if let Some(o) = &r.updated_tool_output {
        if has("updatedToolOutput") {
            hso.insert("updatedToolOutput".into(), o.clone());
        } else {
            losses.lose(ev, "a rewritten tool output", "dropped");
        }
    }
    for (k, v) in &r.extra {
        if k == "terminalSequence" {
            out.insert(k.clone(), v.clone());
        } else if has(k) {
            hso.insert(k.clone(), v.clone());
        } else {
            losses.lose(ev, &format!("`{k}`"), "dropped");
        }
    }
    if no_json || spec.discards_continue {
        if !r.continue_ {
            losses.lose(ev, "`continue: false`", "dropped (ignored on this event)");
        }
    } else if !r.continue_ {
        out.insert("continue".into(), json!(false));
        if let Some(s) = &r.stop_reason {
            out.insert("stopReason".into(), json!(s));
        }
    }
    if let Some(m) = &r.system_message {
        if no_json || spec.discards_system_message {
            losses.lose(ev, "a system message", "dropped (ignored on this event)");
        } else {
            out.insert("systemMessage".into(), json!(m));
        }
    }
    if r.suppress_output {
        out.insert("suppressOutput".into(), json!(true));
    }
    if hso.len() > 1 {
        out.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    Answer::json(out, losses.into_lines())
}
