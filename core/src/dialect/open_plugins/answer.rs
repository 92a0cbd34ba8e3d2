//! A result in the Open Plugins answer form as Goose reads it, for the bridge (`bridge.rs`;
//! `reading.rs`): stdout is a decision channel and nothing else, so the answer is exit codes
//! only (`answering::by_exit_code`): a block where the event can block is exit 2 with the
//! reason on stderr; an ask or `continue: false` there becomes a block; allow, rewrite, context
//! and messages are lost, each said on stderr. Nothing is printed on stdout: anything there
//! that is not a decision is a hook that could not decide. The bridge's own failure is exit 1,
//! an error that fails open (unless the entry says `on_failure: "block"`).

use crate::catalog::Rules;
use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let can_block = a.spec.is_some_and(|s| super::PROFILE.can_block(s, Rules::Current));
    by_exit_code("Open Plugins (Goose)", a, can_block)
}
