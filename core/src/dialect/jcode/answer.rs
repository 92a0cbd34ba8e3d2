//! A result in jcode's own answer form, for the bridge (`bridge.rs`; protocol.md §9.1):
//! Claude Code's keys, which jcode reads, less what it reads differently. Only PreToolUse,
//! UserPromptSubmit and Stop block, so a block elsewhere is lost. `continue: false` is a block
//! to jcode on Stop and UserPromptSubmit: on UserPromptSubmit that blocks the prompt (said as a
//! loss, the nearest answer); on Stop it would make the agent keep working, the opposite, so it
//! is dropped and the agent stops as it was going to; on PreToolUse it becomes a deny; elsewhere
//! it is dropped. The bridge's own failure is exit 1, an error: nothing is blocked.

use crate::catalog::Rules;
use crate::dialect::answering::{Answer, Answering, blocks};
use crate::dialect::claude_code::answer::answer_stripped;
use crate::verdict::Decision;

pub fn answer(a: &Answering<'_>) -> Answer {
    answer_stripped("jcode", a, |spec, kept, l| {
        let ev = spec.name;
        if blocks(kept) && !super::PROFILE.can_block(spec, Rules::Current) {
            l.lose(ev, "a block", "dropped (jcode's hooks cannot block here)");
            kept.decision = None;
            kept.reason = None;
        }
        if kept.continue_ {
            return;
        }
        match ev {
            "UserPromptSubmit" => {
                l.lose(ev, "`continue: false`", "the prompt is blocked instead (the session goes on)")
            }
            "PreToolUse" => {
                l.lose(ev, "`continue: false`", "the tool call is denied instead (the agent goes on)");
                if !blocks(kept) {
                    kept.decision = Some(Decision::Deny);
                    kept.reason = kept.stop_reason.clone().or_else(|| Some("stopped by a hook".into()));
                    kept.updated_input = None;
                }
                kept.continue_ = true;
                kept.stop_reason = None;
            }
            _ => {
                let why = if ev == "Stop" {
                    "dropped (jcode would keep working on it); the agent stops as it was going to"
                } else {
                    "dropped (the agent goes on)"
                };
                l.lose(ev, "`continue: false`", why);
                kept.continue_ = true;
                kept.stop_reason = None;
            }
        }
    })
}
