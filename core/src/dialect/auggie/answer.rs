//! A result in Auggie's own answer form, for the bridge (`bridge.rs`; `reading.rs`, as observed
//! on Auggie 0.36.0): Claude Code's, less what Auggie ignores. Only PreToolUse decides: a deny
//! or an allow, a rewrite, and `continue: false` (which Auggie reads as a deny, the agent going
//! on: said as a loss); an `ask` changes nothing there, so it becomes a deny. PostToolUse takes
//! added context; everything else Auggie ignores (a block after the fact or on Stop, context on
//! PreToolUse and SessionStart, the prompt event's answers) is lost, each said on stderr. The
//! bridge's own failure is exit 1, a non-blocking error: the tool runs.

use crate::dialect::answering::{Answer, Answering, blocks};
use crate::dialect::claude_code::answer::answer_stripped;
use crate::verdict::Decision;

pub fn answer(a: &Answering<'_>) -> Answer {
    answer_stripped("Auggie", a, |spec, kept, l| {
        let ev = spec.name;
        if ev == "PreToolUse" {
            if kept.decision == Some(Decision::Ask) {
                l.lose(ev, "ask", "denied instead (an ask changes nothing in Auggie)");
                kept.decision = Some(Decision::Deny);
                kept.updated_input = None;
                if kept.reason.is_none() {
                    kept.reason = Some("a hook asks for the user's approval".into());
                }
            }
            if !kept.continue_ && !blocks(kept) {
                l.lose(ev, "`continue: false`", "Auggie denies the tool call instead and goes on");
            }
            if kept.additional_context.take().is_some() {
                l.lose(ev, "added context", "dropped (Auggie ignores it here)");
            }
            return;
        }
        if kept.decision.take().is_some() {
            l.lose(ev, "a decision", "dropped (only PreToolUse decides in Auggie)");
            kept.reason = None;
        }
        if kept.updated_input.take().is_some() {
            l.lose(ev, "a rewritten input", "dropped");
        }
        if !kept.continue_ {
            l.lose(ev, "`continue: false`", "dropped (only PreToolUse decides in Auggie)");
            kept.continue_ = true;
            kept.stop_reason = None;
        }
        if !ev.starts_with("PostToolUse") && kept.additional_context.take().is_some() {
            l.lose(ev, "added context", "dropped (Auggie takes context after a tool only)");
        }
    })
}
