//! How Auggie reads a finished hook (observed), where it differs from Claude Code's reading:
//!
//! - Exit 0 with JSON: only PreToolUse's `hookSpecificOutput.permissionDecision` (`deny`,
//!   `allow`; `ask` changes nothing), its `updatedInput` (which replaces the input) and
//!   `continue: false` (a deny, `Tool execution blocked by hook: <tool>`, the loop goes on)
//!   decide; PostToolUse's `hookSpecificOutput.additionalContext` is appended to the tool
//!   result. Everything else is ignored: the legacy top-level `decision`, PreToolUse's and
//!   SessionStart's `additionalContext`, a Stop or PostToolUse block, PromptSubmit's answers.
//! - Exit 0 with plain text: printed to the user, never given to the model.
//! - Exit 2 off PreToolUse: PostToolUse appends `[hook:PostToolUse]: <stderr>` to the tool
//!   result; elsewhere the stderr is printed to the user and nothing is blocked.
//!
//! Every other end (PreToolUse's exit 2, other exit codes, timeouts, failures) is read as
//! Claude Code reads it: the recordings showed the same.

use crate::catalog::Dialect;
use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let out = f.stdout.text.trim();
    let mut v = Verdict::default();
    match f.end {
        End::Exited(0) if out.starts_with('{') => match crate::json::from_output(out) {
            Ok(Value::Object(obj)) => from_json(&obj, ev, &mut v),
            _ => return Dialect::ClaudeCode.rules().read(h, ev, f),
        },
        End::Exited(0) => {
            v.source = VerdictSource::Text;
            v.system_message = cap_text(out);
        }
        End::Exited(2) if ev.spec.name != "PreToolUse" => {
            let stderr = f.stderr.text.trim();
            v.source = VerdictSource::ExitCode;
            if ev.spec.name.starts_with("PostToolUse") {
                v.additional_context = cap_text(&format!("[hook:PostToolUse]: {stderr}"));
            } else {
                v.system_message = cap_text(stderr);
            }
        }
        _ => return Dialect::ClaudeCode.rules().read(h, ev, f),
    }
    v.finish();
    let reading = Reading { verdict: v, status: Status::Ok, error: None, warnings: Vec::new() };
    Step { halt: reading.verdict.blocking, ..Step::of(reading) }
}

fn from_json(obj: &Map<String, Value>, ev: &FireEvent<'_>, v: &mut Verdict) {
    v.source = VerdictSource::Json;
    let text = |m: &Map<String, Value>, k: &str| {
        m.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty()).map(str::to_string)
    };
    if let Some(m) = text(obj, "systemMessage") {
        v.system_message = cap_text(&m);
    }
    let empty = Map::new();
    let hso = obj.get("hookSpecificOutput").and_then(Value::as_object).unwrap_or(&empty);
    match ev.spec.name {
        "PreToolUse" => {
            let tool = crate::matcher::tool_name(ev.current);
            let blocked = || format!("Tool execution blocked by hook: {tool}");
            match hso.get("permissionDecision").and_then(Value::as_str) {
                Some("deny") => {
                    v.decision = Some(Decision::Deny);
                    v.reason = Some(text(hso, "permissionDecisionReason").unwrap_or_else(blocked));
                }
                Some("allow") => v.decision = Some(Decision::Allow),
                _ => {}
            }
            if obj.get("continue") == Some(&Value::Bool(false)) && v.decision != Some(Decision::Deny) {
                v.decision = Some(Decision::Deny);
                v.reason = Some(blocked());
            }
            if v.decision != Some(Decision::Deny) {
                v.updated_input = hso.get("updatedInput").filter(|u| u.is_object()).cloned();
            }
        }
        "PostToolUse" | "PostToolUseFailure" => {
            v.additional_context = text(hso, "additionalContext").and_then(|c| cap_text(&c));
        }
        _ => {}
    }
}
