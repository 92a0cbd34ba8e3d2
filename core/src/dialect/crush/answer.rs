//! A result in Crush's own answer form, for the bridge (`bridge.rs`; `reading.rs`, as the
//! recorded build reads it): Claude Code's `hookSpecificOutput` on PreToolUse (a decision, its
//! reason, a rewrite, context), the only event whose hooks Crush runs. `continue: false` is
//! Crush's halt, exit 49 with the reason on stderr: the tool does not run and the turn ends,
//! what else the result holds lost beside it. Crush shows no system message (a loss). The
//! bridge's own failure is exit 1, a non-blocking error: the tool runs.

use crate::dialect::answering::{Answer, Answering, Losses, Part};
use crate::dialect::claude_code::answer::answer_stripped;

const AGENT: &str = "Crush";

pub fn answer(a: &Answering<'_>) -> Answer {
    if let (Ok(r), Some(spec)) = (a.result(), a.spec)
        && !r.continue_
    {
        let mut l = Losses::new(AGENT);
        if r.updated_input.is_some() {
            l.lose(spec.name, "a rewritten input", "dropped: the turn ends");
        }
        l.unread(spec.name, r, &[Part::Context, Part::SystemMessage, Part::ToolOutput, Part::SuppressOutput]);
        let why =
            r.stop_reason.clone().or_else(|| r.reason.clone()).unwrap_or_else(|| "stopped by a hook".into());
        return Answer { stderr: why, exit_code: 49, ..Answer::nothing(l.into_lines()) };
    }
    answer_stripped(AGENT, a, |spec, kept, l| {
        if kept.system_message.take().is_some() {
            l.lose(spec.name, "a system message", "dropped (Crush shows none)");
        }
    })
}
