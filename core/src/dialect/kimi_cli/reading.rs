//! How Kimi reads a finished hook (its `runner.py`, observed case by case): exit 2 blocks with
//! stderr as the reason; exit 0 with a JSON object whose `hookSpecificOutput.permissionDecision`
//! is `"deny"` blocks with `permissionDecisionReason`. Nothing else of a hook has any effect:
//! `decision: "block"`, `updatedInput`, `additionalContext`, `continue: false`, plain stdout,
//! other exit codes, timeouts — all allow (fail open). Blocks count only where Kimi's hooks can
//! block ([`super::EVENTS`]).
//!
//! A block with no reason: on Stop it continues nothing (observed: a continuation needs a
//! reason); elsewhere it takes Kimi's text `Blocked by <Event> hook`.

use super::super::{Finished, FireEvent, Step, block_decision, not_exited};
use crate::config::Handler;
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource};
use serde_json::Value;

pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let block = match f.end {
        End::Exited(2) => Some((VerdictSource::ExitCode, f.stderr.text.trim().to_string())),
        End::Exited(0) => deny_reason(f).map(|reason| (VerdictSource::Json, reason)),
        End::Exited(code) => {
            r.status = Status::Error;
            r.error = Some(format!("exit {code}; Kimi ignores it (fail open)"));
            None
        }
        end => {
            if let Some((status, error)) = not_exited(end, f.timeout_s) {
                r.status = status;
                r.error = Some(error);
            }
            None
        }
    };
    if let Some((source, reason)) = block
        && super::PROFILE.can_block(ev.spec, ev.rules)
        && !(reason.is_empty() && ev.spec.name == "Stop")
    {
        let reason = if reason.is_empty() { format!("Blocked by {} hook", h.native) } else { reason };
        r.verdict.decision = Some(block_decision(ev.spec));
        r.verdict.reason = Some(reason);
        r.verdict.source = source;
    }
    if let Some(e) = &r.error {
        r.warnings.push(format!("hook {}: {e}", h.id));
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, ..Step::of(r) }
}

/// The reason of a JSON deny (`""` when it gives none); `None` when stdout does not deny.
fn deny_reason(f: &Finished<'_>) -> Option<String> {
    let out = f.stdout.text.trim();
    if f.stdout.truncated || !out.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(obj)) = crate::json::from_output(out) else { return None };
    let hso = obj.get("hookSpecificOutput")?;
    (hso.get("permissionDecision").and_then(Value::as_str) == Some("deny"))
        .then(|| hso.get("permissionDecisionReason").and_then(Value::as_str).unwrap_or("").trim().to_string())
}
