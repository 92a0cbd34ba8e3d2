//! How an Open Plugins hook's answer is read (Goose's `classify_output`): stdout is a decision
//! channel and nothing else.
//!
//! 1. exit 2 blocks, with the stderr as the reason (`denied by plugin hook` when empty);
//! 2. `{"decision": "block"}` blocks whatever the exit status, with its `reason`;
//! 3. exit 0 with nothing on stdout, or with `{"decision": "allow"}`, decides nothing (no
//!    objection: it does not approve a permission);
//! 4. anything else (a stray log line, other JSON, another exit status, a timeout, a failure
//!    to start) is a hook that could not decide: an error that fails open, or on PreToolUse a
//!    deny when its handler says `on_failure: "block"`, with a fixed reason that never repeats
//!    the command (a command can carry credentials).
//!
//! A block counts only where the event can block; elsewhere it is ignored.

use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step, block_decision, not_exited};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource};
use serde_json::Value;

/// Goose's reason when a block names none.
const DEFAULT_DENY: &str = "denied by plugin hook";
/// Goose's reason when a hook failed to run; the details stay in the outcome's `error`.
const COMMAND_FAILED: &str = "the hook command failed to run";

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let can_block = super::PROFILE
        .native_name(ev.spec)
        .and_then(|n| super::PROFILE.native_event(n))
        .is_some_and(|n| n.can_block);
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let failure = match classify(f) {
        Ok(None) => None,
        Ok(Some(reason)) => {
            if can_block {
                r.verdict.decision = Some(block_decision(ev.spec));
                r.verdict.reason = Some(reason);
                r.verdict.source = if matches!(f.end, End::Exited(2)) {
                    VerdictSource::ExitCode
                } else {
                    VerdictSource::Json
                };
            }
            None
        }
        Err(failure) => Some(failure),
    };
    if let Some((status, why, fixed)) = failure {
        r.status = status;
        r.warnings.push(format!("hook {}: {why}", h.id));
        r.error = Some(why);
        if h.fail_closed && ev.spec.name == "PreToolUse" {
            r.verdict.decision = Some(Decision::Deny);
            r.verdict.reason = Some(fixed.to_string());
            r.verdict.source = VerdictSource::Failure;
        }
    }
    r.verdict.finish();
    Step { halt: r.verdict.blocking, ..Step::of(r) }
}

/// `Ok(Some(reason))` a block, `Ok(None)` no objection, `Err((status, why, fixed reason))` a
/// hook that could not decide.
#[allow(clippy::type_complexity)]
fn classify(f: &Finished<'_>) -> Result<Option<String>, (Status, String, &'static str)> {
    let reason = |s: &str| if s.trim().is_empty() { DEFAULT_DENY.to_string() } else { s.trim().to_string() };
    if let Some((status, why)) = not_exited(f.end, f.timeout_s) {
        return Err((status, why, COMMAND_FAILED));
    }
    let code = match f.end {
        End::Exited(c) => *c,
        _ => -1,
    };
    if code == 2 {
        return Ok(Some(reason(&f.stderr.text)));
    }
    let out = f.stdout.text.trim();
    let json = if out.starts_with('{') && !f.stdout.truncated && !f.stdout.lossy {
        crate::json::from_output(out).ok().and_then(|v| v.as_object().cloned())
    } else {
        None
    };
    let decision = json.as_ref().and_then(|o| o.get("decision")).and_then(Value::as_str);
    if decision == Some("block") {
        let given = json.as_ref().and_then(|o| o.get("reason")).and_then(Value::as_str).unwrap_or("");
        return Ok(Some(reason(given)));
    }
    if code == 0 && (out.is_empty() || decision == Some("allow")) {
        return Ok(None);
    }
    let why = match code {
        0 => "the hook exited 0 without an allow or block decision on stdout".to_string(),
        c => format!("the hook exited with status {c} and no usable decision"),
    };
    Err((Status::Error, why, "the hook returned no decision"))
}
