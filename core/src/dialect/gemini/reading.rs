//! Reading one finished Gemini hook (agents.md §3.3). Trimmed stdout that parses as JSON
//! decides whatever the exit code (a JSON string is parsed once more; anything but an object
//! then contributes nothing). Without JSON: exit 0 text is a `system_message`, never context;
//! exit 2 blocks with trimmed stderr as the reason; any other exit is an error whose stderr
//! becomes `Warning: <stderr>`. Unknown keys, Claude Code's fields and decisions an event
//! cannot take draw a warning and do nothing; a known field of the wrong type is dropped with
//! a warning and the rest is read (Gemini does not validate). Pure: nothing here runs.

use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step, block_decision};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// Top-level keys Gemini reads.
const TOP: &[&str] = &[
    "decision",
    "reason",
    "continue",
    "stopReason",
    "systemMessage",
    "suppressOutput",
    "hookSpecificOutput",
];
/// Claude Code's `hookSpecificOutput` fields, which Gemini does not know.
const CLAUDE_CODE_HSO: &[&str] = &[
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
    "updatedToolOutput",
    "updatedMCPToolOutput",
    "decision",
    "sessionTitle",
    "watchPaths",
];

/// The `hookSpecificOutput` fields an event honours (beyond `hookEventName`).
fn honoured(native: &str) -> &'static [&'static str] {
    match native {
        "BeforeTool" => &["tool_input"],
        "AfterTool" => &["additionalContext", "tailToolCallRequest"],
        "BeforeAgent" | "SessionStart" => &["additionalContext"],
        "AfterAgent" => &["clearContext"],
        "BeforeModel" => &["llm_request", "llm_response"],
        "AfterModel" => &["llm_response"],
        "BeforeToolSelection" => &["toolConfig"],
        _ => &[],
    }
}

/// Reads one hook of a Gemini source.
pub(super) fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let mut chain = Vec::new();
    let can_block = super::PROFILE.can_block(ev.spec, ev.rules);
    match f.end {
        End::Exited(code) => exited(*code, h, ev, f, can_block, &mut r, &mut chain),
        end => {
            if let Some((status, why)) = crate::dialect::not_exited(end, f.timeout_s) {
                (r.status, r.error) = (status, Some(why));
            }
        }
    }
    if let Some(e) = r.error.clone() {
        if h.fail_closed && can_block && r.status != Status::Ok {
            r.verdict = Verdict {
                source: VerdictSource::Failure,
                decision: Some(block_decision(ev.spec)),
                reason: Some(format!("hook {} failed closed: {e}", h.id)),
                ..Verdict::default()
            };
        }
        r.warnings.push(format!("hook {}: {e}", h.id));
    }
    r.verdict.finish();
    Step { chain, ..Step::of(r) }
}

fn exited(
    code: i32,
    h: &Handler,
    ev: &FireEvent<'_>,
    f: &Finished<'_>,
    can_block: bool,
    r: &mut Reading,
    chain: &mut Vec<(String, Value)>,
) {
    let out = f.stdout.text.trim();
    let stderr = f.stderr.text.trim();
    if let Some(value) = json(out) {
        match value {
            Value::Object(obj) => {
                r.verdict.source = VerdictSource::Json;
                apply(&obj, h, ev, can_block, r, chain);
            }
            other => r.warnings.push(format!(
                "hook {}: stdout is JSON but not an object ({}); ignored",
                h.id,
                kind(&other)
            )),
        }
        return;
    }
    match code {
        0 => {
            if let Some(text) = cap_text(out) {
                r.verdict.system_message = Some(text);
                r.verdict.source = VerdictSource::Text;
            }
        }
        2 if stderr.is_empty() => {
            r.status = Status::Error;
            r.error = Some("exit 2 without a reason on stderr".into());
        }
        2 => {
            r.verdict.source = VerdictSource::ExitCode;
            if can_block {
                r.verdict.decision = Some(block_decision(ev.spec));
                r.verdict.reason = Some(stderr.to_string());
            } else {
                r.verdict.system_message = cap_text(stderr);
            }
        }
        _ => {
            r.status = Status::Error;
            r.error = Some(match stderr.lines().next() {
                Some(l) => format!("exit {code}: {l}"),
                None => format!("exit {code}, no stderr"),
            });
            if !stderr.is_empty() {
                r.verdict.system_message = cap_text(&format!("Warning: {stderr}"));
                r.verdict.source = VerdictSource::ExitCode;
            }
        }
    }
}

/// Stdout read as JSON, a JSON string parsed once more; `None` when it is not JSON.
fn json(out: &str) -> Option<Value> {
    if out.is_empty() {
        return None;
    }
    match crate::json::from_output(out).ok()? {
        Value::String(inner) => Some(crate::json::from_output(inner.trim()).unwrap_or(Value::String(inner))),
        v => Some(v),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Lays `over`'s keys over `base` (an object, else empty): existing keys keep their place, new
/// keys are appended.
pub(super) fn merge(base: Option<&Value>, over: &Map<String, Value>) -> Value {
    let mut out = base.and_then(Value::as_object).cloned().unwrap_or_default();
    for (k, v) in over {
        out.insert(k.clone(), v.clone());
    }
    Value::Object(out)
}

fn apply(
    obj: &Map<String, Value>,
    h: &Handler,
    ev: &FireEvent<'_>,
    can_block: bool,
    r: &mut Reading,
    chain: &mut Vec<(String, Value)>,
) {
    let native = h.native.as_str();
    let id = &h.id;
    let mut warn = |w: String| r.warnings.push(format!("hook {id}: {w}"));
    let v = &mut r.verdict;
    let unknown: Vec<&str> = obj.keys().map(String::as_str).filter(|k| !TOP.contains(k)).collect();
    if !unknown.is_empty() {
        warn(format!("unknown output keys ignored: {}", unknown.join(", ")));
    }
    let wrong = |key: &str, what: &str| format!("`{key}` must be {what}; ignored");
    match obj.get("decision") {
        None | Some(Value::Null) => {}
        Some(Value::String(d)) => {
            let said = match d.as_str() {
                "deny" | "block" => Some(block_decision(ev.spec)),
                "allow" | "approve" => Some(Decision::Allow),
                "ask" => Some(Decision::Ask),
                _ => None,
            };
            match said {
                None => warn(format!("unknown decision \"{d}\"; ignored")),
                Some(dec) if native == "BeforeTool" || (can_block && dec.is_blocking()) => {
                    v.decision = Some(dec)
                }
                Some(_) => warn(format!("decision \"{d}\" is not honoured on {native}; ignored")),
            }
        }
        Some(_) => warn(wrong("decision", "a string")),
    }
    match obj.get("reason") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => {
            if v.decision.is_some() {
                v.reason = Some(s.trim().to_string()).filter(|t| !t.is_empty());
            }
        }
        Some(_) => warn(wrong("reason", "a string")),
    }
    match obj.get("continue") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(c)) => v.continue_ = *c,
        Some(_) => warn(wrong("continue", "true or false")),
    }
    match obj.get("stopReason") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => {
            if !v.continue_ {
                v.stop_reason = Some(s.trim().to_string()).filter(|t| !t.is_empty());
            }
        }
        Some(_) => warn(wrong("stopReason", "a string")),
    }
    match obj.get("systemMessage") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => v.system_message = cap_text(s.trim()),
        Some(_) => warn(wrong("systemMessage", "a string")),
    }
    match obj.get("suppressOutput") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => v.suppress_output = *b,
        Some(_) => warn(wrong("suppressOutput", "true or false")),
    }
    let hso = match obj.get("hookSpecificOutput") {
        None | Some(Value::Null) => return,
        Some(Value::Object(o)) => o,
        Some(_) => return warn(wrong("hookSpecificOutput", "an object")),
    };
    match hso.get("hookEventName") {
        None | Some(Value::Null) => {}
        Some(Value::String(n)) if n == native => {}
        Some(other) => warn(format!("hookSpecificOutput.hookEventName {other} is not {native}; read anyway")),
    }
    let honours = honoured(native);
    let mut ignored: Vec<String> = Vec::new();
    for (key, value) in hso {
        let key = key.as_str();
        if key == "hookEventName" {
            continue;
        }
        if !honours.contains(&key) {
            ignored.push(if CLAUDE_CODE_HSO.contains(&key) {
                format!("{key} (a Claude Code field)")
            } else {
                key.to_string()
            });
            continue;
        }
        match (key, value) {
            ("tool_input", Value::Object(over)) => {
                v.updated_input = Some(Value::Object(over.clone()));
                chain.push(("tool_input".into(), merge(ev.current.get("tool_input"), over)));
            }
            ("additionalContext", Value::String(c)) => {
                v.additional_context = cap_text(c.trim());
                if native == "BeforeAgent" && !c.trim().is_empty() {
                    let prompt = ev.current.get("prompt").and_then(Value::as_str).unwrap_or("");
                    chain.push(("prompt".into(), Value::String(format!("{prompt}\n\n{}", c.trim()))));
                }
            }
            ("clearContext", Value::Bool(b)) => {
                v.extra.insert("clearContext".into(), Value::Bool(*b));
            }
            ("llm_request", Value::Object(over)) => {
                v.extra.insert(key.into(), value.clone());
                chain.push(("llm_request".into(), merge(ev.current.get("llm_request"), over)));
            }
            ("llm_response" | "toolConfig", Value::Object(_)) => {
                v.extra.insert(key.into(), value.clone());
            }
            ("tailToolCallRequest", x) if !x.is_null() => {
                v.extra.insert(key.into(), x.clone());
            }
            (_, Value::Null) => {}
            (_, other) => warn(format!("hookSpecificOutput.{key} is {}; ignored", kind(other))),
        }
    }
    if !ignored.is_empty() {
        warn(format!(
            "hookSpecificOutput fields not honoured on {native} (no effect): {}",
            ignored.join(", ")
        ));
    }
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
