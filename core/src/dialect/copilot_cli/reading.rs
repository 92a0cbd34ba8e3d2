//! How one Copilot hook is read (observed, `docs/dialects.md`, "copilot-cli"; documented where marked).
//!
//! - Exit 0: stdout without its `{"type":"progress",…}` status lines must be one JSON object;
//!   anything else (plain text, two objects, broken JSON) is ignored. Answers are flat
//!   (`permissionDecision`, `modifiedArgs`, `additionalContext`, `decision`, `behavior`…);
//!   Claude Code's `hookSpecificOutput` is read only for a PascalCase `PreToolUse` hook, and
//!   `continue: false` never.
//! - Exit 2 denies preToolUse and permissionRequest (a JSON allow is overruled, its reason kept;
//!   stderr reaches nobody), is the added context of postToolUseFailure (its stderr), and a
//!   warning elsewhere.
//! - Any other failure of a preToolUse hook (another exit code, a signal, a spawn failure)
//!   denies; elsewhere it is a warning. A timeout never denies.
//! - A deny or block ends the fire: later hooks do not run.

use super::Style;
use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value, json};

/// Characters of stderr kept in a warning.
const ERROR_CAP: usize = 2_000;

/// Copilot's own name (camelCase) for the event of a handler configured under `native`.
pub(super) fn kind(native: &str) -> &str {
    match native {
        "UserPromptSubmit" => "userPromptSubmitted",
        "Stop" => "agentStop",
        "PreToolUse" => "preToolUse",
        "PostToolUse" => "postToolUse",
        "PostToolUseFailure" => "postToolUseFailure",
        "PermissionRequest" => "permissionRequest",
        "SubagentStop" => "subagentStop",
        "SessionStart" => "sessionStart",
        other => other,
    }
}

pub fn read(h: &Handler, style: Style, _ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let kind = kind(&h.native);
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let mut chain = Vec::new();
    let stderr = f.stderr.text.trim();
    let denies = matches!(kind, "preToolUse" | "permissionRequest");
    match f.end {
        End::Exited(0) => match answer(f) {
            Ok(Some(o)) => r.verdict = fields(h, kind, style, &o, &mut chain, &mut r.warnings),
            Ok(None) => {}
            Err(why) => r.warnings.push(format!("hook {}: {why}; ignored", h.id)),
        },
        End::Exited(2) if denies => {
            // The JSON's reason is the denial's, whatever it decided (observed).
            let said = answer(f)
                .ok()
                .flatten()
                .map(|o| fields(h, kind, style, &o, &mut Vec::new(), &mut Vec::new()));
            let reason = said.and_then(|v| v.reason).unwrap_or_else(|| "hook exited with code 2".to_string());
            r.verdict.decision = Some(Decision::Deny);
            r.verdict.reason = cap_text(&reason);
            r.verdict.source = VerdictSource::ExitCode;
        }
        End::Exited(2) if kind == "postToolUseFailure" => {
            r.verdict.additional_context = cap_text(stderr);
            r.verdict.source = VerdictSource::ExitCode;
        }
        End::Exited(2) => r.warnings.push(format!("hook {}: exit 2: {}", h.id, clip(stderr))),
        End::Exited(code) => {
            r.status = Status::Error;
            r.error = Some(match stderr {
                "" => format!("exit {code}"),
                s => format!("exit {code}: {}", clip(s)),
            });
        }
        end => {
            if let Some((status, why)) = crate::dialect::not_exited(end, f.timeout_s) {
                r.status = status;
                r.error = Some(why);
            }
        }
    }
    if r.status != Status::Ok && r.status != Status::Cancelled {
        let error = r.error.clone().unwrap_or_default();
        // preToolUse fails closed on an error and open on a timeout (documented, observed).
        if kind == "preToolUse" && r.status != Status::TimedOut {
            r.verdict.decision = Some(Decision::Deny);
            r.verdict.reason = Some(format!("hook {} errored ({error}); preToolUse fails closed", h.id));
            r.verdict.source = VerdictSource::Failure;
        } else {
            r.warnings.push(format!("hook {}: {error}", h.id));
        }
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    let chain = if halt { Vec::new() } else { chain };
    Step { halt, chain, ..Step::of(r) }
}

fn clip(s: &str) -> String {
    s.chars().take(ERROR_CAP).collect()
}

/// The answer of an exit 0: nothing, one JSON object once progress lines are taken out, or
/// why it is neither.
fn answer(f: &Finished<'_>) -> Result<Option<Map<String, Value>>, String> {
    if f.stdout.truncated {
        return Err("stdout was cut at the output cap".into());
    }
    let kept: Vec<&str> = f.stdout.text.lines().filter(|l| !is_progress(l)).collect();
    let out = kept.join("\n");
    let out = out.trim();
    if out.is_empty() {
        return Ok(None);
    }
    match crate::json::from_output(out) {
        Ok(Value::Object(o)) => Ok(Some(o)),
        Ok(_) => Err("stdout is not a JSON object".into()),
        Err(e) => Err(format!("stdout is not one JSON object ({e})")),
    }
}

/// A status line `{"type":"progress","message":…}` (documented, observed stripped).
fn is_progress(line: &str) -> bool {
    let line = line.trim();
    line.starts_with('{')
        && line.contains("progress")
        && matches!(crate::json::from_output(line), Ok(Value::Object(o)) if o.get("type") == Some(&json!("progress")))
}

/// A non-blank string field.
fn text(o: &Map<String, Value>, key: &str) -> Option<String> {
    o.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty()).map(str::to_string)
}

/// The verdict of a JSON answer of a hook on Copilot's event `kind`.
fn fields(
    h: &Handler,
    kind: &str,
    style: Style,
    o: &Map<String, Value>,
    chain: &mut Vec<(String, Value)>,
    w: &mut Vec<String>,
) -> Verdict {
    let mut v = Verdict { source: VerdictSource::Json, ..Verdict::default() };
    let context = |o: &Map<String, Value>| text(o, "additionalContext").and_then(|c| cap_text(&c));
    match kind {
        "preToolUse" => {
            // A PascalCase hook may answer in Claude Code's shape (observed); its flat keys
            // are read when it does not.
            let hso =
                o.get("hookSpecificOutput").and_then(Value::as_object).filter(|_| style == Style::Pascal);
            let o = hso.unwrap_or(o);
            v.decision = match o.get("permissionDecision").and_then(Value::as_str) {
                Some("allow") => Some(Decision::Allow),
                Some("deny") => Some(Decision::Deny),
                Some("ask") => Some(Decision::Ask),
                Some(other) => {
                    w.push(format!(
                        "hook {}: permissionDecision {other:?} is not allow, deny or ask; ignored",
                        h.id
                    ));
                    None
                }
                None => None,
            };
            v.reason = text(o, "permissionDecisionReason").and_then(|r| cap_text(&r));
            let rewrite = if hso.is_some() { "updatedInput" } else { "modifiedArgs" };
            match o.get(rewrite) {
                Some(args @ Value::Object(_)) => {
                    v.updated_input = Some(args.clone());
                    chain.push(("tool_input".to_string(), args.clone()));
                }
                Some(Value::Null) | None => {}
                Some(_) => w.push(format!("hook {}: `{rewrite}` must be an object; ignored", h.id)),
            }
            v.additional_context = context(o);
        }
        "permissionRequest" => {
            v.decision = match o.get("behavior").and_then(Value::as_str) {
                Some("allow") => Some(Decision::Allow),
                Some("deny") => Some(Decision::Deny),
                _ => None,
            };
            v.reason = text(o, "message").and_then(|r| cap_text(&r));
            if let Some(i) = o.get("interrupt").filter(|i| i.is_boolean()) {
                v.extra.insert("interrupt".into(), i.clone());
            }
        }
        "postToolUse" => {
            if let Some(m) = o.get("modifiedResult").filter(|m| m.is_object()) {
                v.updated_tool_output = Some(m.clone());
            }
            v.additional_context = context(o);
            block(o, &mut v);
        }
        "userPromptSubmitted" => {
            v.additional_context = context(o);
            if let Some(p) = text(o, "modifiedPrompt") {
                v.updated_input = Some(json!({"prompt": p}));
            }
            block(o, &mut v);
        }
        "userPromptTransformed" => {
            if let Some(p) = o.get("modifiedTransformedPrompt").filter(|p| p.is_string()) {
                v.extra.insert("modifiedTransformedPrompt".into(), p.clone());
            }
        }
        "agentStop" | "subagentStop" => {
            block(o, &mut v);
            if kind == "subagentStop"
                && let Some(r) = o.get("modifiedResponse").filter(|r| r.is_string())
            {
                v.extra.insert("modifiedResponse".into(), r.clone());
            }
        }
        _ => v.additional_context = context(o),
    }
    v
}

/// `decision: "block"` with a reason (a block without one continues nothing: observed).
fn block(o: &Map<String, Value>, v: &mut Verdict) {
    if o.get("decision").and_then(Value::as_str) == Some("block")
        && let Some(reason) = text(o, "reason")
    {
        v.decision = Some(Decision::Block);
        v.reason = cap_text(&reason);
    }
}
