//! How Vibe reads a finished hook (observed): exit 0 with empty stdout passes; exit 0 with a
//! JSON object is the answer, `{"decision": "allow"|"deny", "reason", "system_message",
//! "hook_specific_output": {"tool_input" | "additional_context"}}`; **everything else is the
//! failure path** (any non-zero exit, exit 2 included, stdout that is not a JSON object, a
//! timeout): the hook fails open with a warning, unless its entry says `strict = true`, when a
//! `pre_tool` hook denies with the failure's text as the reason (stderr, or `timed out`) and a
//! `post_tool` hook clears the tool result to `""`.
//!
//! A deny: on `pre_tool` the reason is the tool result (verbatim, not the documented
//! `Tool 'X' was denied by hook 'Y': R`), `Blocked by a pre_tool hook.` without one; on
//! `post_tool` the tool result is replaced by the reason and the context (`R\n\nC`); on
//! `post_agent` the reason becomes a user message and the model is called again (a Stop
//! block). `allow`'s reason goes nowhere; `system_message` is for the user. A `pre_tool`
//! `tool_input` replaces the input wholly and the next hooks see it; a `post_tool`
//! `additional_context` is appended to the result. Claude Code's `hookSpecificOutput` and
//! `decision: "block"` are ignored silently, as Vibe ignores them.

use super::super::{Finished, FireEvent, Step, block_decision, not_exited};
use crate::config::Handler;
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let mut chain = Vec::new();
    let failure = match f.end {
        End::Exited(0) => match answer(&f.stdout.text, f.stdout.truncated) {
            Ok(Some(obj)) => {
                apply(&obj, h, ev, &mut r.verdict, &mut chain);
                None
            }
            Ok(None) => None,
            Err(why) => Some((Status::Error, why.clone(), why)),
        },
        End::Exited(code) => {
            let stderr = f.stderr.text.trim().to_string();
            let text = if stderr.is_empty() { format!("exit {code}") } else { stderr.clone() };
            Some((Status::Error, format!("exit {code}: {stderr}"), text))
        }
        end => not_exited(end, f.timeout_s).map(|(status, error)| (status, error, "timed out".to_string())),
    };
    if let Some((status, error, text)) = failure {
        r.status = status;
        if h.fail_closed && h.native == "pre_tool" {
            r.verdict.decision = Some(Decision::Deny);
            r.verdict.reason = Some(text);
            r.verdict.source = VerdictSource::Failure;
            r.warnings.push(format!("hook {}: {error}; denied (strict)", h.id));
        } else if h.fail_closed && h.native == "post_tool" {
            r.verdict.updated_tool_output = Some(Value::String(String::new()));
            r.verdict.source = VerdictSource::Failure;
            r.warnings.push(format!("hook {}: {error}; tool result cleared (strict)", h.id));
        } else {
            r.warnings.push(format!("hook {}: {error}; Vibe goes on (fail open)", h.id));
        }
        r.error = Some(error);
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, chain, ..Step::of(r) }
}

/// The JSON object on stdout; `Ok(None)` for empty stdout; `Err(why)` for anything else.
fn answer(stdout: &str, truncated: bool) -> Result<Option<Map<String, Value>>, String> {
    let out = stdout.trim();
    if out.is_empty() {
        return Ok(None);
    }
    if truncated {
        return Err("stdout is larger than the output cap".into());
    }
    match crate::json::from_output(out) {
        Ok(Value::Object(obj)) => Ok(Some(obj)),
        _ => Err("stdout did not match the hook response schema".into()),
    }
}

fn apply(
    obj: &Map<String, Value>,
    h: &Handler,
    ev: &FireEvent<'_>,
    v: &mut Verdict,
    chain: &mut Vec<(String, Value)>,
) {
    v.source = VerdictSource::Json;
    let text = |o: &Map<String, Value>, k: &str| {
        o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty()).map(str::to_string)
    };
    let specific = obj.get("hook_specific_output").and_then(Value::as_object);
    let context = specific.and_then(|s| text(s, "additional_context"));
    v.system_message = text(obj, "system_message").and_then(|s| cap_text(&s));
    match obj.get("decision").and_then(Value::as_str) {
        Some("deny") => {
            let reason = text(obj, "reason").unwrap_or_else(|| format!("Blocked by a {} hook.", h.native));
            v.decision = Some(block_decision(ev.spec));
            if h.native == "post_tool" {
                let result = match &context {
                    Some(c) => format!("{reason}\n\n{c}"),
                    None => reason.clone(),
                };
                v.updated_tool_output = Some(Value::String(result));
            }
            v.reason = Some(reason);
            return;
        }
        Some("allow") => v.decision = Some(Decision::Allow),
        _ => {}
    }
    match h.native.as_str() {
        "pre_tool" => {
            if let Some(input @ Value::Object(_)) = specific.and_then(|s| s.get("tool_input")) {
                v.updated_input = Some(input.clone());
                chain.push(("tool_input".to_string(), input.clone()));
            }
        }
        "post_tool" => v.additional_context = context.and_then(|c| cap_text(&c)),
        _ => {}
    }
}
