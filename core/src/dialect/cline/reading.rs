//! How Cline reads a finished hook (observed): **exit codes are ignored**; only stdout counts,
//! and only when it is exactly one JSON object, or when a line `HOOK_CONTROL<TAB>{json}` follows
//! log lines (the last such line). Anything else on stdout is "invalid JSON control output"
//! (a warning here, as in Cline's log) and changes nothing. A timeout fails open.
//!
//! The answer's keys:
//! - `cancel: true` aborts the whole run: `continue: false`, and where the hook can block
//!   (PreToolUse, UserPromptSubmit, TaskResume) the event's blocking decision; the reason is
//!   `errorMessage`, else `contextModification`, else Cline's log text `Run stopped by runtime
//!   control`;
//! - `contextModification` (without a cancel) is context for the model;
//! - `overrideInput` replaces the tool input (PreToolUse);
//! - `errorMessage` without a cancel, `review` and Claude Code's `hookSpecificOutput` change
//!   nothing (observed for `hookSpecificOutput`; `errorMessage` alone unverified, chosen).
//!
//! TaskStart and TaskComplete are detached: their output is never read.

use super::super::{Finished, FireEvent, Step, block_decision, not_exited};
use crate::config::Handler;
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// Cline's reason for a cancel that gives none (its log line).
const CANCEL_REASON: &str = "Run stopped by runtime control";

pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    if let Some((status, error)) = not_exited(f.end, f.timeout_s) {
        r.status = status;
        r.warnings.push(format!("hook {}: {error}; Cline goes on (fail open)", h.id));
        r.error = Some(error);
        return Step::of(r);
    }
    if super::detached(&h.native) {
        return Step::of(r);
    }
    match control(&f.stdout.text, f.stdout.truncated) {
        Ok(Some(answer)) => apply(&answer, h, ev, &mut r.verdict),
        Ok(None) => {
            if let End::Exited(code @ 1..) = f.end {
                r.status = Status::Error;
                r.error = Some(format!("exit {code}; Cline ignores exit codes"));
            }
        }
        Err(why) => {
            r.status = Status::Error;
            r.error = Some(format!("{why}; ignored (Cline: invalid JSON control output)"));
        }
    }
    if let Some(e) = &r.error {
        r.warnings.push(format!("hook {}: {e}", h.id));
    }
    r.verdict.finish();
    Step::of(r)
}

/// The hook's answer: stdout that is one JSON object, or the last `HOOK_CONTROL\t{json}` line;
/// `Ok(None)` for empty stdout; `Err(why)` for anything else.
fn control(stdout: &str, truncated: bool) -> Result<Option<Map<String, Value>>, String> {
    let out = stdout.trim();
    if out.is_empty() {
        return Ok(None);
    }
    if truncated {
        return Err("stdout is larger than the output cap".into());
    }
    let line = out.lines().rev().find_map(|l| l.strip_prefix("HOOK_CONTROL\t"));
    let text = line.unwrap_or(out);
    match crate::json::from_output(text.trim()) {
        Ok(Value::Object(answer)) => Ok(Some(answer)),
        Ok(_) => Err("stdout is JSON but not an object".into()),
        Err(_) if line.is_some() => Err("the HOOK_CONTROL line is not a JSON object".into()),
        Err(_) => Err("stdout is not one JSON value nor ends with a HOOK_CONTROL line".into()),
    }
}

fn apply(answer: &Map<String, Value>, h: &Handler, ev: &FireEvent<'_>, v: &mut Verdict) {
    v.source = VerdictSource::Json;
    let text = |k: &str| answer.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let context = text("contextModification");
    if answer.get("cancel") == Some(&Value::Bool(true)) {
        let reason = text("errorMessage").or(context).unwrap_or(CANCEL_REASON).to_string();
        v.continue_ = false;
        v.stop_reason = Some(reason.clone());
        if super::PROFILE.can_block(ev.spec, ev.rules) {
            v.decision = Some(block_decision(ev.spec));
            v.reason = Some(reason);
        }
        return;
    }
    v.additional_context = context.and_then(cap_text);
    if h.native == "PreToolUse"
        && let Some(input @ Value::Object(_)) = answer.get("overrideInput")
    {
        v.updated_input = Some(input.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_one_json_value_or_a_hook_control_line_is_an_answer() {
        assert_eq!(control("", false), Ok(None));
        assert!(control(" {\"cancel\": true}\n", false).unwrap().is_some());
        assert!(control("log\n{\"cancel\": true}", false).is_err());
        let both = "log\nHOOK_CONTROL\t{\"a\":1}\nmore\nHOOK_CONTROL\t{\"a\":2}\n";
        assert_eq!(control(both, false).unwrap().unwrap()["a"], 2);
        assert!(control("HOOK_CONTROL\tnope", false).is_err());
        assert!(control("[1]", false).is_err());
    }
}
