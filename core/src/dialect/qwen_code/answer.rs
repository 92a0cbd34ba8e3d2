//! A result in Qwen Code's own answer form, for the bridge (`bridge.rs`; observed/qwen.md):
//! Claude Code's (Qwen reads Claude Code's keys), less what Qwen 0.24.4 ignores: on PreToolUse
//! `updatedInput` and `additionalContext` (a rewrite is dropped, and the allow with it, so
//! Qwen's own approval applies to the original input), and a block where Qwen's hooks cannot
//! block (PostToolUse and the notification events); `continue: false` on Stop, which Qwen reads
//! as "keep working" (dropped: the agent stops anyway), and on PreToolUse and PostToolUse, where
//! Qwen denies the call or replaces its result and goes on (said as a loss). The bridge's own failure is exit 1, a
//! non-blocking error: the tool runs.

use crate::dialect::answering::{Answer, Answering, blocks};
use crate::dialect::claude_code::answer::answer_stripped;
use crate::verdict::Decision;

pub fn answer(a: &Answering<'_>) -> Answer {
    answer_stripped("Qwen Code", a, |spec, kept, l| {
        if spec.name == "PreToolUse" {
            if kept.updated_input.take().is_some() && !blocks(kept) {
                l.lose(
                    spec.name,
                    "a rewritten input",
                    "dropped, and the allow with it (Qwen ignores updatedInput here)",
                );
                if kept.decision == Some(Decision::Allow) {
                    kept.decision = None;
                    kept.reason = None;
                }
            }
            if kept.additional_context.take().is_some() {
                l.lose(spec.name, "added context", "dropped (Qwen ignores it here)");
            }
        }
        if !kept.continue_ {
            match spec.name {
                "PreToolUse" => {
                    l.lose(spec.name, "`continue: false`", "Qwen denies the tool call instead and goes on")
                }
                "PostToolUse" => l.lose(
                    spec.name,
                    "`continue: false`",
                    "Qwen replaces the tool's result with the stop reason and goes on",
                ),
                // Qwen reads `continue: false` on Stop as "keep working": the opposite. Said by
                // nothing, the agent stops as it was going to.
                "Stop" => {
                    l.lose(
                        spec.name,
                        "`continue: false`",
                        "dropped (Qwen would keep working on it); the agent stops as it was going to",
                    );
                    kept.continue_ = true;
                    kept.stop_reason = None;
                }
                _ => {}
            }
        }
        if blocks(kept) && !super::PROFILE.can_block(spec, crate::catalog::Rules::Current) {
            l.lose(spec.name, "a block", "dropped (Qwen's hooks cannot block here)");
        }
    })
}
