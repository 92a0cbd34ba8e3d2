//! A result in Factory Droid's own answer form, for the bridge (`bridge.rs`; `reading.rs`, as
//! observed on Droid 0.225.2): Claude Code's, less what Droid reads differently. An `ask` lets
//! the tool run in Droid, so it becomes a deny (the nearest safe answer); PreToolUse's
//! `additionalContext` is not delivered (a loss); a top-level `decision` is ignored on
//! PreToolUse and PostToolUse, so a PostToolUse block is exit 2 with the reason on stderr,
//! which Droid does read, and what else the result holds is lost beside it. The bridge's own
//! failure is exit 1, a non-blocking error: the tool runs.

use crate::dialect::answering::{Answer, Answering, Losses, Part, block_reason, blocks};
use crate::dialect::claude_code::answer::answer_stripped;
use crate::verdict::Decision;

const AGENT: &str = "Factory Droid";

pub fn answer(a: &Answering<'_>) -> Answer {
    if let (Ok(r), Some(spec)) = (a.result(), a.spec)
        && spec.name == "PostToolUse"
        && blocks(r)
    {
        let mut l = Losses::new(AGENT);
        l.unread(spec.name, r, &[Part::Context, Part::SystemMessage, Part::ToolOutput, Part::SuppressOutput]);
        return Answer { stderr: block_reason(r), exit_code: 2, ..Answer::nothing(l.into_lines()) };
    }
    answer_stripped(AGENT, a, |spec, kept, l| {
        if spec.name != "PreToolUse" {
            return;
        }
        if kept.decision == Some(Decision::Ask) {
            l.lose(spec.name, "ask", "denied instead (Droid lets the tool run on an ask)");
            kept.decision = Some(Decision::Deny);
            kept.updated_input = None;
            if kept.reason.is_none() {
                kept.reason = Some("a hook asks for the user's approval".into());
            }
        }
        if kept.additional_context.take().is_some() {
            l.lose(spec.name, "added context", "dropped (Droid does not deliver it here)");
        }
    })
}
