//! A result in Goose's own answer form (the Open Plugins hooks), for the bridge (`bridge.rs`;
//! `reading.rs`): Goose's stdout is a decision channel only and exit 2 blocks with stderr as
//! the reason, so the answer is `answering::by_exit_code`: a block where Goose's hooks block
//! (PreToolUse, UserPromptSubmit, Stop, the `Before…` events) is exit 2 with its reason; an ask
//! or `continue: false` there becomes a block; an allow (Goose's `allow` approves nothing), a
//! rewrite, context and messages are lost, each said on stderr. The bridge's own failure is
//! exit 1: a hook that could not decide, which fails open unless the entry says
//! `on_failure: "block"` (then PreToolUse is denied).

use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let can_block = a.can_block(&super::PROFILE);
    by_exit_code("Goose", a, can_block)
}
