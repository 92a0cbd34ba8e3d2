//! A result in ok's own answer form, for the bridge (`bridge.rs`; protocol.md §9.3): ok reads
//! exit codes only and never parses stdout, so the answer is `answering::by_exit_code`: on the
//! gating events (PreToolUse, UserPromptSubmit) a block is exit 2 with the reason on stderr,
//! an ask or `continue: false` becomes a block; elsewhere, and for everything else (allow,
//! rewrite, context, messages), nothing can be said: each is a loss on stderr. The bridge's own
//! failure is exit 1, which ok reads as a warning.

use crate::catalog::Rules;
use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let can_block = a.spec.is_some_and(|s| super::PROFILE.can_block(s, Rules::Current));
    by_exit_code("ok", a, can_block)
}
