//! A result in Windsurf's own answer form, for the bridge (`bridge.rs`; agents-2.md §2.4):
//! exit codes only. A block on a `pre_*` hook is exit 2 with the reason on stderr; everything
//! else is exit 0 and nothing, since Windsurf reads no JSON. So Windsurf cannot express an
//! allow (the action simply runs), `ask` (denied instead: Windsurf has no ask), a rewrite
//! (dropped: the original action runs only if nothing blocked), context, a system message, a
//! stop (`continue: false` on a `pre_*` hook becomes a block; elsewhere it is dropped), nor a
//! block after the fact. On an exit 2 stderr is the reason, so the bridge writes no warning
//! lines there. The bridge's own failure is exit 1: an error that blocks nothing (Windsurf
//! fails open).

use super::kind::Kind;
use crate::dialect::answering::{Answer, Answering, by_exit_code};

pub fn answer(a: &Answering<'_>) -> Answer {
    let pre = Kind::of(a.native).and_then(Kind::exit2_decision).is_some();
    by_exit_code("Windsurf", a, pre)
}
