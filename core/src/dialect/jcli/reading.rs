//! Reads one finished hook of this dialect into a step: its exit, its output, its failure.

use super::{Abort, PROFILE};
use crate::config::{Handler, Knobs};
use crate::dialect::{Finished, FireEvent, Step, block_decision};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text, fmt_secs};
use serde_json::{Map, Value, json};

/// Fields a hook's answer hands to the following hooks as they are.
const NATIVE_FIELDS: &[&str] = &["assistant_output", "messages", "system_prompt", "tool_error"];

/// Fields kept in `extra`.
const EXTRA_FIELDS: &[&str] =
    &["assistant_output", "messages", "system_prompt", "tool_error", "inject_messages", "retry_feedback"];

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let abort = h.knobs.get::<Abort>().is_some_and(|a| a.0);
    let out = f.stdout.text.trim();
    let failure: Option<String> = match f.end {
        End::Exited(0) if out.is_empty() => None,
        End::Exited(0) => match crate::json::from_output(out) {
            Ok(Value::Object(_)) if !f.stdout.truncated => None,
            _ => Some("stdout is not a JSON object".to_string()),
        },
        End::Exited(code) => Some(match f.stderr.text.trim().lines().next() {
            Some(l) => format!("exit {code}: {l}"),
            None => format!("exit {code}"),
        }),
        End::Signaled(sig) => Some(format!("terminated by signal {sig}")),
        End::Failed(msg) | End::Lost(msg) => Some(msg.clone()),
        End::TimedOut { .. } | End::Cancelled { .. } => {
            r.status = Status::TimedOut;
            Some(format!("timed out after {} s", fmt_secs(f.timeout_s)))
        }
        End::SpawnFailed(msg) => {
            r.status = Status::SpawnFailed;
            Some(msg.clone())
        }
    };
    if let Some(why) = failure {
        if r.status == Status::Ok {
            r.status = Status::Error;
        }
        r.error = Some(why.clone());
        r.warnings.push(format!("hook {}: {why}", h.id));
        if !abort {
            return Step::of(r);
        }
        return action(h, ev, r, "stop", None);
    }
    let obj = match crate::json::from_output(out) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let mut step_chain = Vec::new();
    let mut native = Map::new();
    let v = &mut r.verdict;
    if !obj.is_empty() {
        v.source = VerdictSource::Json;
    }
    match obj.get("tool_arguments") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => match crate::json::from_output(s) {
            Ok(input @ Value::Object(_)) => {
                v.updated_input = Some(input.clone());
                step_chain.push(("tool_input".to_string(), input));
                native.insert("tool_arguments".into(), Value::String(s.clone()));
            }
            _ => r
                .warnings
                .push(format!("hook {}: tool_arguments is not a JSON object in a string; ignored", h.id)),
        },
        Some(_) => {
            r.warnings.push(format!("hook {}: tool_arguments must be a string holding JSON; ignored", h.id))
        }
    }
    if let Some(Value::String(p)) = obj.get("user_input") {
        v.updated_input = Some(json!({"prompt": p}));
        step_chain.push(("prompt".to_string(), Value::String(p.clone())));
        native.insert("user_input".into(), Value::String(p.clone()));
    }
    if let Some(t) = obj.get("tool_result").filter(|t| !t.is_null()) {
        v.updated_tool_output = Some(t.clone());
        step_chain.push(("tool_response".to_string(), t.clone()));
        native.insert("tool_result".into(), t.clone());
    }
    if let Some(Value::String(c)) = obj.get("additional_context") {
        v.additional_context = cap_text(c);
    }
    if let Some(Value::String(m)) = obj.get("system_message") {
        v.system_message = cap_text(m);
    }
    for k in EXTRA_FIELDS {
        if let Some(x) = obj.get(*k).filter(|x| !x.is_null()) {
            v.extra.insert((*k).to_string(), x.clone());
            if NATIVE_FIELDS.contains(k) {
                native.insert((*k).to_string(), x.clone());
            }
        }
    }
    let act = match obj.get("action").and_then(Value::as_str) {
        Some("stop") => Some("stop"),
        Some("skip") => Some("skip"),
        _ if obj.get("abort") == Some(&Value::Bool(true)) => Some("stop"),
        _ => None,
    };
    let feedback = obj.get("retry_feedback").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
    let step = match act {
        Some(a) => action(h, ev, r, a, feedback.map(str::to_string)),
        None => {
            r.verdict.finish();
            Step::of(r)
        }
    };
    let action = step.own.get::<JCliStep>().and_then(|o| o.action);
    Step { chain: step_chain, own: Knobs::new(JCliStep { native, action }), ..step }
}

/// A j-cli step's own state ([`Step::own`]): the native fields its hook replaced, handed as
/// they are to the later hooks of the chain, and the action that ended the chain, if any.
#[derive(Debug)]
pub(super) struct JCliStep {
    pub native: Map<String, Value>,
    pub action: Option<&'static str>,
}

/// An action ends the chain; on events that can block it decides (§9.4 "actions").
fn action(
    h: &Handler,
    ev: &FireEvent<'_>,
    mut r: Reading,
    act: &'static str,
    feedback: Option<String>,
) -> Step {
    let can_block = PROFILE.can_block(ev.spec, ev.rules);
    let v = &mut r.verdict;
    let by = |verb: &str| v.system_message.clone().unwrap_or_else(|| format!("{verb} by {}", h.id));
    if can_block {
        if let Some(fb) = feedback {
            v.decision = Some(block_decision(ev.spec));
            v.reason = Some(fb);
        } else if act == "stop" {
            let reason = by("stopped");
            v.decision = Some(block_decision(ev.spec));
            v.reason = Some(reason);
            if ev.spec.name != "Stop" {
                v.continue_ = false;
                v.stop_reason = v.reason.clone();
            }
        } else if ev.spec.name == "PreToolUse" {
            let reason = by("skipped");
            v.decision = Some(Decision::Deny);
            v.reason = Some(reason);
        }
    }
    if v.decision.is_some() && v.source == VerdictSource::None {
        v.source = if r.status == Status::Ok { VerdictSource::Json } else { VerdictSource::Failure };
    }
    r.verdict.finish();
    Step { halt: true, own: Knobs::new(JCliStep { native: Map::new(), action: Some(act) }), ..Step::of(r) }
}
