//! A result in Kiro's own answer form, for the bridge (`bridge.rs`; agents-2.md §2.6): exit
//! codes and plain text only. A deny on PreToolUse (`preToolUse` in an agent configuration) is
//! exit 2 with the reason on stderr; added context is stdout on exit 0 (on every trigger of a
//! hook file, on `agentSpawn` and `userPromptSubmit` only in an agent configuration). Kiro
//! cannot express an allow, `ask` (denied instead), `continue: false` (a deny on PreToolUse,
//! dropped elsewhere), a rewrite (dropped: the original call runs if nothing blocked), a block
//! anywhere but PreToolUse, or a system message. On an exit 2, stderr is Kiro's reason, so no
//! warning lines are written. The bridge's own failure is exit 1: a failure that blocks
//! nothing.

use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Kiro") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let pre = matches!(native, "PreToolUse" | "preToolUse");
    let deny =
        |why: String, losses: Vec<String>| Answer { stderr: why, exit_code: 2, losses, ..Answer::default() };
    if pre {
        if blocks(r) {
            return deny(block_reason(r), l.into_lines());
        }
        if !r.continue_ {
            l.lose(native, "`continue: false`", "the tool call is denied instead (the agent goes on)");
            return deny(r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()), l.into_lines());
        }
        if r.decision == Some(Decision::Ask) {
            l.lose(native, "ask", "denied instead (Kiro has no ask)");
            return deny(
                r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into()),
                l.into_lines(),
            );
        }
    }
    if r.updated_input.is_some() {
        l.lose(native, "a rewritten input", "dropped: the original call runs");
    }
    match r.decision {
        Some(Decision::Allow | Decision::Defer) => {
            l.lose(native, "an allow", "nothing: Kiro's own approval applies")
        }
        Some(_) if !pre => l.lose(native, "a block", "dropped (Kiro blocks only PreToolUse and PreTaskExec)"),
        _ => {}
    }
    if !r.continue_ && !pre {
        l.lose(native, "`continue: false`", "dropped (the agent goes on)");
    }
    l.unread(native, r, &[Part::SystemMessage, Part::ToolOutput]);
    // An agent configuration's camelCase triggers read stdout only on these two.
    let camel = native.starts_with(|c: char| c.is_ascii_lowercase());
    let takes_context = !camel || matches!(native, "agentSpawn" | "userPromptSubmit");
    match &r.additional_context {
        Some(c) if takes_context => {
            Answer { stdout: c.as_bytes().to_vec(), losses: l.into_lines(), ..Answer::default() }
        }
        Some(_) => {
            l.lose(native, "added context", "dropped (Kiro reads this trigger's stdout nowhere)");
            Answer::nothing(l.into_lines())
        }
        None => Answer::nothing(l.into_lines()),
    }
}
