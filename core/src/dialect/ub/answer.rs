//! A result in ub's own answer form, for the bridge (`bridge.rs`; `reading.rs`): ub reads exit
//! codes only, and a hook's failure blocks only on `pre_tool_call` and only when its entry says
//! `on_failure: block` (docs/bridge.md writes the bridge's entry so). The answer is
//! `answering::by_exit_code`: a block on `pre_tool_call` is exit 2 with its reason on stderr
//! (ub's reason for a failed blocking hook); an ask or `continue: false` there becomes a block;
//! everything else is exit 0 and lost, each said on stderr. Without `on_failure: block` ub
//! reads the exit 2 as a failed hook and runs the tool: the entry must say it. With it, the
//! bridge's own failure (exit 1) also denies the call (ub fails closed there).

use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let can_block = a.can_block(&super::PROFILE);
    by_exit_code("ub", a, can_block)
}
