//! A result in Cline's own answer form, for the bridge (`bridge.rs`; observed/cline.md): one
//! JSON object on stdout, exit 0 (Cline ignores exit codes). `cancel: true` with an
//! `errorMessage` is Cline's only block, and it aborts the whole run: a deny (or an ask, or
//! `continue: false`) becomes a cancel, the nearest safe answer, with a warning that the run
//! stops too. `contextModification` is context; `overrideInput` a PreToolUse rewrite. TaskStart
//! and TaskComplete are detached (Cline never reads their output): everything is lost there.
//! Cline has no allow and shows no system message. The bridge's own failure is exit 1, which
//! Cline ignores like any exit code: the tool runs.

use super::detached;
use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Cline") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    if detached(native) {
        let said = r.decision.is_some()
            || !r.continue_
            || r.additional_context.is_some()
            || r.system_message.is_some()
            || r.updated_input.is_some();
        if said {
            l.lose(native, "any answer", "dropped (Cline does not read this hook's output)");
        }
        return Answer::nothing(l.into_lines());
    }
    let mut out = Map::new();
    let can_block = matches!(native, "PreToolUse" | "UserPromptSubmit");
    let cancel = |out: &mut Map<String, serde_json::Value>, why: String| {
        out.insert("cancel".into(), json!(true));
        out.insert("errorMessage".into(), json!(why));
    };
    if blocks(r) && can_block {
        l.lose(native, "a deny that lets the task go on", "the whole run is cancelled (Cline's only block)");
        cancel(&mut out, block_reason(r));
    } else if r.decision == Some(Decision::Ask) && can_block {
        l.lose(native, "ask", "the whole run is cancelled (Cline has no ask)");
        cancel(&mut out, r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into()));
    } else if !r.continue_ {
        cancel(&mut out, r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()));
    } else if r.decision.is_some() {
        let what = if blocks(r) { "a block after the fact" } else { "an allow or defer" };
        l.lose(native, what, "nothing: Cline goes on as it would");
    }
    if out.is_empty() {
        if let Some(u) = r.updated_input.as_ref() {
            if native == "PreToolUse" {
                out.insert("overrideInput".into(), u.clone());
            } else {
                l.lose(native, "a rewritten input", "dropped");
            }
        }
        if let Some(c) = &r.additional_context {
            out.insert("contextModification".into(), json!(c));
        }
    } else if r.additional_context.is_some() {
        l.lose(native, "added context beside a cancel", "dropped");
    }
    l.unread(native, r, &[Part::SystemMessage, Part::ToolOutput]);
    Answer::json(out, l.into_lines())
}
