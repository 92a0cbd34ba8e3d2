//! A result in ok's own answer form, for the bridge (`bridge.rs`; `reading.rs`): ok reads exit
//! codes only (stdout is never parsed), so the answer is `answering::by_exit_code`: a block
//! where ok gates (PreToolUse, UserPromptSubmit) is exit 2 with its reason on stderr, which ok
//! frames as `hook [<layer>/<Event>] <command> — block: <reason>`; an ask or `continue: false`
//! there becomes a block; an allow, a rewrite, context and messages are lost, each said on
//! stderr. The bridge's own failure is exit 1, which ok reads as a warning (fail open).

use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let can_block = a.can_block(&super::PROFILE);
    by_exit_code("ok", a, can_block)
}
