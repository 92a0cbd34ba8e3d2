//! A result in Kimi CLI's own answer form, for the bridge (`bridge.rs`; `reading.rs`): of a
//! hook's answer Kimi acts on exit 2 (stderr the reason) and a JSON deny only, and only where
//! its hooks can block (PreToolUse, UserPromptSubmit, Stop, SubagentStop). So the answer is
//! exit codes only (`answering::by_exit_code`): a block is exit 2 with its reason; an ask or
//! `continue: false` there becomes a block; everything else (allow, rewrite, context, system
//! message, a block on an event that cannot block) is lost, each said on stderr. The bridge's
//! own failure is exit 1, which Kimi ignores (fail open).

use crate::catalog::Rules;
use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let can_block = a.spec.is_some_and(|s| super::PROFILE.can_block(s, Rules::Current));
    by_exit_code("Kimi CLI", a, can_block)
}
