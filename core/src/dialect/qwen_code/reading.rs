//! How Qwen reads a finished hook: Claude Code's reading, then what Qwen 0.24.4 was observed
//! to do differently:
//!
//! - exit 2 blocks only with text on stderr: with empty stderr the tool runs, even when stdout
//!   says deny;
//! - on PreToolUse, `updatedInput` and `additionalContext` are ignored (only
//!   PermissionRequest's `updatedInput` is applied), and `continue: false` denies the call with
//!   `stopReason` as its reason while the loop goes on;
//! - on Stop, `continue: false` continues the turn like a block, `stopReason` its reason;
//! - on PostToolUse, `continue: false` replaces the tool's result with `stopReason` and the
//!   loop goes on;
//! - where Qwen's hooks cannot block (PostToolUse and the notification events), a block is
//!   ignored;
//! - a PreToolUse deny without a reason reaches the model as `No reason provided`.

use super::super::claude_code::ClaudeCodeRules;
use super::super::{DialectRules, Finished, FireEvent, Step, block_decision};
use crate::config::Handler;
use crate::runner::End;
use crate::verdict::Decision;
use serde_json::Value;

/// What Qwen tells the model for a deny that gives no reason (observed).
const NO_REASON: &str = "No reason provided";

pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut step = ClaudeCodeRules.read(h, ev, f);
    let v = &mut step.reading.verdict;
    let silent_exit2 = matches!(f.end, End::Exited(2)) && f.stderr.text.trim().is_empty();
    let cannot_block = silent_exit2 || !super::PROFILE.can_block(ev.spec, ev.rules);
    if cannot_block && v.decision.is_some_and(Decision::is_blocking) {
        v.decision = None;
        v.reason = None;
    }
    if ev.spec.name == "PreToolUse" {
        v.updated_input = None;
        v.additional_context = None;
    }
    if !v.continue_ {
        match ev.spec.name {
            "PreToolUse" | "Stop" => {
                v.continue_ = true;
                v.decision = Some(block_decision(ev.spec));
                v.reason = v.stop_reason.take().or_else(|| v.reason.take());
            }
            "PostToolUse" => {
                v.continue_ = true;
                v.updated_tool_output = Some(Value::String(v.stop_reason.take().unwrap_or_default()));
            }
            _ => {}
        }
    }
    if ev.spec.name == "PreToolUse" && v.decision == Some(Decision::Deny) && v.reason.is_none() {
        v.reason = Some(NO_REASON.to_string());
    }
    v.finish();
    step.halt = v.blocking;
    step
}
