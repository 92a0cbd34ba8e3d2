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
use crate::dialect::answering::{Answer, Answering, Losses, Part, block_reason, blocks};
use crate::verdict::Decision;

pub fn answer(a: &Answering<'_>) -> Answer {
    let r = match a.result() {
        Ok(r) => r,
        Err(failed) => return failed,
    };
    let native = a.native;
    let mut l = Losses::new("Windsurf");
    let pre = Kind::of(native).and_then(Kind::exit2_decision).is_some();
    let block = |why: String| Answer { stderr: why, exit_code: 2, ..Answer::default() };
    if pre {
        if blocks(r) {
            return block(block_reason(r));
        }
        if !r.continue_ {
            l.lose(native, "`continue: false`", "the action is blocked instead (the agent goes on)");
            return Answer {
                losses: l.into_lines(),
                ..block(r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()))
            };
        }
        if r.decision == Some(Decision::Ask) {
            l.lose(native, "ask", "blocked instead (Windsurf has no ask)");
            let why = r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into());
            return Answer { losses: l.into_lines(), ..block(why) };
        }
        if r.updated_input.is_some() {
            l.lose(native, "a rewritten input", "dropped: the original action runs");
        }
        match r.decision {
            Some(Decision::Allow) => {
                l.lose(native, "an allow", "nothing: the action runs as Windsurf runs it")
            }
            Some(Decision::Defer) => l.lose(native, "defer", "nothing: the action runs as Windsurf runs it"),
            _ => {}
        }
    } else {
        if r.decision.is_some() {
            l.lose(native, "a decision", "dropped");
        }
        if !r.continue_ {
            l.lose(native, "`continue: false`", "dropped (the agent goes on)");
        }
        if r.updated_input.is_some() {
            l.lose(native, "a rewritten input", "dropped");
        }
    }
    l.unread(native, r, &[Part::Context, Part::SystemMessage, Part::ToolOutput]);
    Answer::nothing(l.into_lines())
}
