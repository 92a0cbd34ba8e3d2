//! Reads one finished hook of this dialect into a step: its exit, its output, its failure.

use super::PROFILE;
use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step, block_decision};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text, fmt_secs};
use serde_json::{Map, Value};

fn empty_reading() -> Reading {
    Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() }
}

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r = empty_reading();
    let mut step_chain = Vec::new();
    let stderr = f.stderr.text.trim();
    let can_block = PROFILE.can_block(ev.spec, ev.rules);
    let name = ev.spec.name;
    match f.end {
        End::TimedOut { .. } | End::Cancelled { .. } => {
            r.status = Status::TimedOut;
            r.error = Some(format!("timed out after {} s", fmt_secs(f.timeout_s)));
        }
        End::SpawnFailed(msg) => {
            r.status = Status::SpawnFailed;
            r.error = Some(msg.clone());
            r.verdict.system_message = Some(format!("hook failed to start: {msg}"));
        }
        End::Failed(msg) | End::Lost(msg) => {
            r.status = Status::Error;
            r.error = Some(msg.clone());
        }
        End::Signaled(sig) => {
            r.status = Status::Error;
            r.error = Some(format!("terminated by signal {sig}"));
            r.verdict.system_message = cap_text(stderr);
        }
        End::Exited(2) => {
            if can_block {
                let reason = if stderr.is_empty() {
                    format!("blocked by {} (exit 2)", h.id)
                } else {
                    stderr.to_string()
                };
                r.verdict.decision = Some(block_decision(ev.spec));
                r.verdict.reason = Some(reason);
                r.verdict.source = VerdictSource::ExitCode;
            }
        }
        End::Exited(0) => {
            let out = f.stdout.text.trim();
            if out.starts_with('{') {
                match crate::json::from_output(out) {
                    Ok(Value::Object(obj)) => apply_json(&obj, name, can_block, &mut r, &mut step_chain),
                    _ => {
                        r.status = Status::Error;
                        r.error = Some("stdout is not valid JSON".into());
                    }
                }
            }
        }
        End::Exited(code) => {
            r.status = Status::Error;
            r.error = Some(match stderr.lines().next() {
                Some(l) => format!("exit {code}: {l}"),
                None => format!("exit {code}, no stderr"),
            });
            r.verdict.system_message = cap_text(stderr);
        }
    }
    if let Some(e) = &r.error {
        r.warnings.push(format!("hook {}: {e}", h.id));
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, chain: step_chain, ..Step::of(r) }
}

fn apply_json(
    obj: &Map<String, Value>,
    name: &str,
    can_block: bool,
    r: &mut Reading,
    chain: &mut Vec<(String, Value)>,
) {
    let v = &mut r.verdict;
    v.source = VerdictSource::Json;
    let s = |k: &str| obj.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
    if let Some(m) = s("systemMessage") {
        v.system_message = cap_text(m);
    }
    if matches!(name, "Stop" | "UserPromptSubmit") && can_block {
        let blocks = s("decision") == Some("block") || obj.get("continue") == Some(&Value::Bool(false));
        if blocks {
            v.decision = Some(Decision::Block);
            v.reason = s("reason").or_else(|| s("stopReason")).map(str::to_string);
        }
    }
    let Some(hso) = obj.get("hookSpecificOutput").and_then(Value::as_object) else { return };
    let hs = |k: &str| hso.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
    if name == "PreToolUse" {
        let d = match hs("permissionDecision") {
            Some("allow") => Some(Decision::Allow),
            Some("deny") => Some(Decision::Deny),
            Some("ask") => Some(Decision::Ask),
            _ => None,
        };
        if d.is_some() {
            v.decision = d;
            v.reason = hs("permissionDecisionReason").map(str::to_string);
        }
    }
    if let Some(u) = hso.get("updatedInput").filter(|u| u.is_object()) {
        v.updated_input = Some(u.clone());
        chain.push(("tool_input".into(), u.clone()));
    }
    if let Some(m) = hso.get("modifiedResult").and_then(Value::as_str) {
        v.updated_tool_output = Some(Value::String(m.to_string()));
        chain.push(("tool_response".into(), Value::String(m.to_string())));
    }
    if let Some(c) = hs("additionalContext") {
        v.additional_context = cap_text(c);
    }
}
