//! How Droid reads a finished hook: Claude Code's reading (exit 2 with stderr, or stdout JSON
//! with `hookSpecificOutput`), then what Droid was observed to do differently:
//!
//! - `permissionDecision: "ask"` lets the tool run (`droid exec`): read as `allow`;
//! - a top-level `decision` (`block`/`approve`) is ignored on PreToolUse and PostToolUse,
//!   where Claude Code reads it as a deny, an allow or a block (exit 2 still blocks);
//! - on PreToolUse, `additionalContext` is not delivered, but the stderr of a hook that exits
//!   with another code than 0 or 2 is put before the tool's result for the model: it is the
//!   context of that call (the status stays `error`).

use super::super::claude_code::ClaudeCodeRules;
use super::super::{DialectRules, Finished, FireEvent, Step};
use crate::config::Handler;
use crate::runner::End;
use crate::verdict::{Decision, VerdictSource};
use serde_json::Value;

pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut step = ClaudeCodeRules.read(h, ev, f);
    let v = &mut step.reading.verdict;
    if v.decision == Some(Decision::Ask) {
        v.decision = Some(Decision::Allow);
    }
    let tool_event = matches!(ev.spec.name, "PreToolUse" | "PostToolUse");
    if tool_event && v.source == VerdictSource::Json && matches!(f.end, End::Exited(0)) && legacy_only(f) {
        v.decision = None;
        v.reason = None;
    }
    if ev.spec.name == "PreToolUse" {
        v.additional_context = match f.end {
            End::Exited(code) if *code != 0 && *code != 2 => crate::verdict::cap_text(f.stderr.text.trim()),
            _ => None,
        };
    }
    v.finish();
    step.halt = v.blocking;
    step
}

/// The hook's stdout decides only through the top-level `decision` (no
/// `hookSpecificOutput.permissionDecision`).
fn legacy_only(f: &Finished<'_>) -> bool {
    let out = f.stdout.text.trim();
    if f.stdout.truncated || !out.starts_with('{') {
        return false;
    }
    let Ok(Value::Object(obj)) = crate::json::from_output(out) else { return false };
    let specific =
        obj.get("hookSpecificOutput").and_then(|h| h.get("permissionDecision")).is_some_and(|d| !d.is_null());
    obj.get("decision").is_some_and(|d| !d.is_null()) && !specific
}
