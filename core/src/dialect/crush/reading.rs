//! How Crush reads a finished hook (observed, case by case):
//!
//! - exit 2 denies, its stderr (trimmed) the reason, `blocked by hook` when empty; stdout is not
//!   read then;
//! - exit 49 halts: the tool does not run and the turn ends (`continue: false`), the reason as
//!   for exit 2;
//! - any other non-zero exit is a non-blocking error; a timeout fails open;
//! - exit 0: stdout that is a JSON object is read; anything else is ignored. When the object has
//!   Claude Code's `hookSpecificOutput`, that is read (`permissionDecision`,
//!   `permissionDecisionReason`, `updatedInput`, `additionalContext`) and Crush's own keys are
//!   not; otherwise Crush's: `decision` (`allow`, `deny`; `ask` read as ask, unverified),
//!   `reason` (a deny without one has the reason `""`), `halt: true` (as exit 49),
//!   `updated_input` (a patch shallow-merged into the tool input), `context` (a string or a
//!   list of strings joined by newlines). `version` changes nothing.
//!
//! The patch itself is kept in the step (`Step::own`) for the fold, which merges every hook's
//! patch in configuration order; the verdict's `updated_input` is the input with this hook's
//! patch merged.

use super::super::{Finished, FireEvent, Step, not_exited};
use crate::config::{Handler, Knobs};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// Crush's reason for an exit-2 or exit-49 hook with nothing on stderr.
const NO_REASON: &str = "blocked by hook";

/// The exit code that halts the turn.
const HALT: i32 = 49;

/// One hook's `updated_input` patch, for the fold.
#[derive(Debug)]
pub(super) struct Patch(pub Map<String, Value>);

pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let mut own = Knobs::default();
    let stderr = || Some(f.stderr.text.trim()).filter(|s| !s.is_empty()).unwrap_or(NO_REASON).to_string();
    match f.end {
        End::Exited(2) => deny(&mut r.verdict, stderr(), VerdictSource::ExitCode),
        End::Exited(HALT) => halt(&mut r.verdict, stderr(), VerdictSource::ExitCode),
        End::Exited(0) => match answer(&f.stdout.text, f.stdout.truncated) {
            Ok(Some(obj)) => {
                if let Some(patch) = apply(&obj, ev, &mut r.verdict) {
                    own = Knobs::new(Patch(patch));
                }
            }
            Ok(None) => {}
            Err(why) => r.warnings.push(format!("hook {}: {why}; ignored", h.id)),
        },
        End::Exited(code) => {
            let err = f.stderr.text.trim();
            r.status = Status::Error;
            r.error = Some(format!("exit {code}: {err}; non-blocking (Crush)"));
        }
        end => {
            if let Some((status, error)) = not_exited(end, f.timeout_s) {
                r.status = status;
                r.error = Some(format!("{error}; Crush fails open"));
            }
        }
    }
    if let Some(e) = &r.error {
        r.warnings.push(format!("hook {}: {e}", h.id));
    }
    r.verdict.finish();
    Step { own, ..Step::of(r) }
}

fn deny(v: &mut Verdict, reason: String, source: VerdictSource) {
    v.decision = Some(Decision::Deny);
    v.reason = Some(reason);
    v.source = source;
}

fn halt(v: &mut Verdict, reason: String, source: VerdictSource) {
    v.continue_ = false;
    v.stop_reason = Some(reason.clone());
    deny(v, reason, source);
}

/// A JSON object on stdout; `Ok(None)` for empty or plain stdout (Crush ignores it);
/// `Err(why)` for stdout that looks like JSON and is not an object.
fn answer(stdout: &str, truncated: bool) -> Result<Option<Map<String, Value>>, String> {
    let out = stdout.trim();
    if !out.starts_with('{') {
        return Ok(None);
    }
    if truncated {
        return Err("stdout is larger than the output cap".into());
    }
    match crate::json::from_output(out) {
        Ok(Value::Object(obj)) => Ok(Some(obj)),
        _ => Err("stdout is not a valid JSON object".into()),
    }
}

/// Reads the answer into `v`; returns the hook's `updated_input` patch.
fn apply(obj: &Map<String, Value>, ev: &FireEvent<'_>, v: &mut Verdict) -> Option<Map<String, Value>> {
    v.source = VerdictSource::Json;
    let (answer, keys, halts) = match obj.get("hookSpecificOutput").and_then(Value::as_object) {
        Some(hso) => (
            hso,
            ["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
            false,
        ),
        None => (
            obj,
            ["decision", "reason", "updated_input", "context"],
            obj.get("halt") == Some(&Value::Bool(true)),
        ),
    };
    let [decision, reason, updated, context] = keys.map(|k| answer.get(k));
    let reason = reason.and_then(Value::as_str).unwrap_or("").to_string();
    if halts {
        halt(v, reason, VerdictSource::Json);
        return None;
    }
    match decision.and_then(Value::as_str) {
        Some("deny") => deny(v, reason, VerdictSource::Json),
        Some("allow") => v.decision = Some(Decision::Allow),
        Some("ask") => v.decision = Some(Decision::Ask),
        _ => {}
    }
    v.additional_context = match context {
        Some(Value::String(s)) => cap_text(s),
        Some(Value::Array(items)) => {
            let lines: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            cap_text(&lines.join("\n"))
        }
        _ => None,
    };
    let patch = updated.and_then(Value::as_object)?.clone();
    let mut input = ev.current.get("tool_input").and_then(Value::as_object).cloned().unwrap_or_default();
    input.extend(patch.clone());
    v.updated_input = Some(Value::Object(input));
    Some(patch)
}
