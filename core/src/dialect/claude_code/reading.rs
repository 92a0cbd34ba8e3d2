//! Claude Code's reading of one hook (protocol.md §6): a pure function of how the hook ended,
//! what it printed, the event's row of the catalogue, the rule set and the handler's fail-closed
//! flag. Nothing here spawns, waits or reads a file; every rule of §6 lives here once.

use crate::catalog::{Decisions, EventSpec, Exit2, Rules};
use crate::runner::{End, Text};
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// The reason of a Stop, SubagentStop or PreModelSwitch block that gives none (§6.4).
const NO_REASON: &str = "Blocked by hook";

/// Everything the reading depends on.
pub struct Input<'a> {
    pub spec: &'static EventSpec,
    pub rules: Rules,
    pub event: &'a Value,
    pub hook_id: &'a str,
    pub fail_closed: bool,
    /// Shell form: exit 127/126 mean the script could not start (§5.2).
    pub shell_form: bool,
    pub end: &'a End,
    pub stdout: &'a Text,
    pub stderr: &'a Text,
    pub timeout_s: f64,
}

/// Reads one hook's outcome into a verdict (§6.1–§6.6).
pub fn read(i: &Input<'_>) -> Reading {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    match i.end {
        End::Exited(code) => read_exit(i, *code, &mut r),
        end => {
            if let Some((status, why)) = crate::dialect::not_exited(end, i.timeout_s) {
                (r.status, r.error) = (status, Some(why));
            }
        }
    }
    if r.status != Status::Ok {
        if let Some(e) = &r.error {
            r.warnings.push(format!("hook {}: {e}", i.hook_id));
        }
        r.verdict = Verdict::default();
        // A cancelled fire's answer is not wanted: never fail closed on it.
        if i.fail_closed && r.status != Status::Cancelled && i.spec.can_block(i.rules) {
            r.verdict.decision = Some(blocking_decision(i.spec));
            r.verdict.reason =
                Some(format!("hook {} failed closed: {}", i.hook_id, r.error.as_deref().unwrap_or("failed")));
            r.verdict.source = VerdictSource::Failure;
        }
    }
    r.verdict.finish();
    r
}

fn blocking_decision(spec: &EventSpec) -> Decision {
    match spec.decisions {
        Decisions::Permission | Decisions::PermissionRequest => Decision::Deny,
        _ => Decision::Block,
    }
}

fn read_exit(i: &Input<'_>, code: i32, r: &mut Reading) {
    let stdout = i.stdout.text.as_str();
    let stderr_trim = i.stderr.text.trim();
    if i.spec.only_terminal_sequence {
        if let Some(Ok(obj)) = json_of(i.stdout)
            && let Some(Value::String(t)) = obj.get("terminalSequence")
        {
            r.verdict.extra.insert("terminalSequence".into(), Value::String(t.clone()));
            r.verdict.source = VerdictSource::Json;
        }
        return;
    }
    if i.shell_form && (code == 127 || code == 126) {
        r.status = Status::Error;
        r.error = Some(if code == 127 {
            "command not found (exit 127)".to_string()
        } else {
            "not executable (exit 126)".to_string()
        });
        return;
    }
    let json = json_of(i.stdout);
    if i.spec.exit2 == Exit2::AnyNonZeroBlocks {
        if code != 0 {
            let reason =
                non_empty(stderr_trim).unwrap_or_else(|| format!("blocked by {} (exit {code})", i.hook_id));
            set_decision(&mut r.verdict, Decision::Block, Some(reason), VerdictSource::ExitCode);
        } else if let Some(line) = stdout.lines().rev().map(strip_ansi).find(|l| !l.trim().is_empty()) {
            r.verdict.extra.insert("worktreePath".into(), Value::String(line.trim().to_string()));
            r.verdict.source = VerdictSource::Text;
        }
        return;
    }
    match code {
        0 => match json {
            None => {
                let text = stdout.trim_end();
                if !text.trim().is_empty() && i.spec.text_is_context {
                    r.verdict.additional_context = cap_text(text);
                    r.verdict.source = VerdictSource::Text;
                }
            }
            Some(Err(msg)) => {
                r.status = Status::Error;
                r.error = Some(msg);
            }
            Some(Ok(obj)) => match apply_json(i, &obj, &mut r.warnings, false) {
                Ok(v) => r.verdict = v,
                Err(msg) => {
                    r.status = Status::Error;
                    r.error = Some(msg);
                }
            },
        },
        2 => {
            let effect = i.spec.exit2_effect(i.rules, i.event);
            let mut from_json = Verdict::default();
            if i.rules == Rules::Current {
                match json {
                    Some(Ok(obj)) => match apply_json(i, &obj, &mut r.warnings, true) {
                        Ok(v) => from_json = v,
                        Err(msg) => {
                            r.warnings.push(format!("hook {}: {msg}; exit 2 still applies", i.hook_id))
                        }
                    },
                    Some(Err(msg)) => {
                        r.warnings.push(format!("hook {}: {msg}; exit 2 still applies", i.hook_id))
                    }
                    None => {}
                }
            }
            match effect {
                Exit2::Deny | Exit2::Block | Exit2::AnyNonZeroBlocks | Exit2::BlockCurrentUserClassic => {
                    let json_reason = if from_json.decision.is_some_and(Decision::is_blocking) {
                        from_json.reason.clone()
                    } else {
                        None
                    };
                    let reason = non_empty(stderr_trim)
                        .or(json_reason)
                        .unwrap_or_else(|| format!("blocked by {} (exit 2)", i.hook_id));
                    let mut v = from_json;
                    let d = if effect == Exit2::Deny { Decision::Deny } else { Decision::Block };
                    set_decision(&mut v, d, Some(reason), VerdictSource::ExitCode);
                    // A rewrite never rides along with a block.
                    v.updated_input = None;
                    r.verdict = v;
                }
                Exit2::User => {
                    let mut v = from_json;
                    if let Some(msg) = cap_text(stderr_trim) {
                        v.system_message = Some(msg);
                        v.source = VerdictSource::ExitCode;
                    }
                    r.verdict = v;
                }
                Exit2::Ignored | Exit2::BlockUnlessPolicy => r.verdict = from_json,
            }
        }
        _ => {
            let failure = || match stderr_trim.lines().find(|l| !l.trim().is_empty()) {
                Some(line) => format!("exit {code}: {}", line.trim()),
                None => format!("exit {code}, no stderr"),
            };
            match (i.rules, json) {
                (Rules::Current, Some(Ok(obj))) => match apply_json(i, &obj, &mut r.warnings, false) {
                    Ok(v) => r.verdict = v,
                    Err(msg) => {
                        r.status = Status::Error;
                        r.error = Some(msg);
                    }
                },
                _ => {
                    r.status = Status::Error;
                    r.error = Some(failure());
                }
            }
        }
    }
}

fn set_decision(v: &mut Verdict, d: Decision, reason: Option<String>, source: VerdictSource) {
    v.decision = Some(d);
    v.reason = reason;
    v.source = source;
}

fn non_empty(s: &str) -> Option<String> {
    let t = s.trim();
    if t.is_empty() { None } else { Some(t.to_string()) }
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for n in chars.by_ref() {
                    if ('@'..='~').contains(&n) {
                        break;
                    }
                }
            } else {
                chars.next();
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// `None`: stdout is not JSON (plain text); `Some(Err)`: it starts with `{` but cannot be read.
fn json_of(stdout: &Text) -> Option<Result<Map<String, Value>, String>> {
    if !stdout.text.trim_start().starts_with('{') {
        return None;
    }
    if stdout.truncated {
        return Some(Err("stdout exceeded max_output_bytes; JSON not read".to_string()));
    }
    Some(match crate::json::object_from_output(&stdout.text, READ_KEYS) {
        Ok(Some(m)) => Ok(m),
        Ok(None) => Err("stdout is not a JSON object".to_string()),
        Err(e) => Err(format!("stdout is not valid JSON: {e}")),
    })
}

/// The top-level keys of hook output whose values [`apply_json`] reads. Every other key is only
/// named (in the "ignored" warning), so its value is skipped unparsed: a hook echoing its event
/// back costs a scan, not a copy.
const READ_KEYS: &[&str] = &[
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "terminalSequence",
    "decision",
    "reason",
    "hookSpecificOutput",
];

fn schema(msg: impl Into<String>) -> String {
    format!("invalid hook output: {}", msg.into())
}

fn want_str<'v>(v: &'v Value, name: &str) -> Result<&'v str, String> {
    v.as_str().ok_or_else(|| schema(format!("`{name}` must be a string")))
}

fn want_bool(v: &Value, name: &str) -> Result<bool, String> {
    v.as_bool().ok_or_else(|| schema(format!("`{name}` must be true or false")))
}

/// The JSON fields of §6.3 into a verdict; `Err` is a schema failure (§6.4), which discards
/// the whole JSON. `exit2` is set when the JSON rides along an exit 2 (Elicitation then ignores
/// `hookSpecificOutput`).
fn apply_json(
    i: &Input<'_>,
    obj: &Map<String, Value>,
    warnings: &mut Vec<String>,
    exit2: bool,
) -> Result<Verdict, String> {
    let spec = i.spec;
    let mut v = Verdict { source: VerdictSource::Json, ..Verdict::default() };
    if spec.discards_all_json {
        return Ok(v);
    }
    let mut ignored: Vec<String> = Vec::new();
    let mut top_decision: Option<Decision> = None;
    let mut top_reason: Option<String> = None;
    let mut stop_reason = None;
    for (k, val) in obj {
        match k.as_str() {
            "continue" => {
                if !want_bool(val, "continue")? && !spec.discards_continue {
                    v.continue_ = false;
                }
            }
            "stopReason" => stop_reason = non_empty(want_str(val, "stopReason")?),
            "suppressOutput" => v.suppress_output = want_bool(val, "suppressOutput")?,
            "systemMessage" => {
                let s = want_str(val, "systemMessage")?;
                if !spec.discards_system_message {
                    v.system_message = cap_text(s);
                }
            }
            "terminalSequence" => {
                let s = want_str(val, "terminalSequence")?;
                v.extra.insert("terminalSequence".into(), Value::String(s.to_string()));
            }
            "decision" => {
                let d = want_str(val, "decision")?;
                if !spec.honours_top_decision(i.rules, i.event) {
                    ignored.push("decision".into());
                    continue;
                }
                match (d, spec.decisions) {
                    ("block", Decisions::Permission) => top_decision = Some(Decision::Deny),
                    ("approve", Decisions::Permission) => top_decision = Some(Decision::Allow),
                    ("block", _) => top_decision = Some(Decision::Block),
                    ("approve", _) => warnings.push(format!(
                        "hook {}: decision \"approve\" is not honoured on {}; ignored",
                        i.hook_id, spec.name
                    )),
                    (other, _) => {
                        return Err(schema(format!(
                            "`decision` must be \"block\" or \"approve\", not {other:?}"
                        )));
                    }
                }
            }
            "reason" => top_reason = non_empty(want_str(val, "reason")?),
            "hookSpecificOutput" => {}
            "permissionDecision" | "permissionDecisionReason" | "updatedInput" | "additionalContext" => {
                warnings.push(format!(
                    "hook {}: {k} outside hookSpecificOutput is ignored (missing hookSpecificOutput)",
                    i.hook_id
                ));
            }
            _ => ignored.push(k.clone()),
        }
    }
    if !v.continue_ {
        v.stop_reason = stop_reason;
    }
    let mut hso_decision: Option<(Decision, Option<String>)> = None;
    let skip_hso = exit2 && spec.hso.contains(&"action");
    if let Some(hso) = obj.get("hookSpecificOutput").filter(|_| !skip_hso) {
        let Some(hso) = hso.as_object() else {
            return Err(schema("`hookSpecificOutput` must be an object"));
        };
        match hso.get("hookEventName") {
            None => warnings.push(format!(
                "hook {}: hookSpecificOutput.hookEventName is missing; read anyway",
                i.hook_id
            )),
            Some(Value::String(n)) if n == spec.name => {}
            Some(Value::String(n)) => {
                return Err(schema(format!(
                    "hookSpecificOutput.hookEventName is {n:?} on a {} event",
                    spec.name
                )));
            }
            Some(_) => return Err(schema("`hookSpecificOutput.hookEventName` must be a string")),
        }
        let mut perm: Option<Decision> = None;
        let mut perm_reason = None;
        for (k, val) in hso {
            if k == "hookEventName" {
                continue;
            }
            if !spec.hso.contains(&k.as_str()) {
                ignored.push(format!("hookSpecificOutput.{k}"));
                continue;
            }
            match k.as_str() {
                "permissionDecision" => {
                    perm = Some(match want_str(val, k)? {
                        "allow" => Decision::Allow,
                        "deny" => Decision::Deny,
                        "ask" => Decision::Ask,
                        "defer" if spec.refuses_defer => {
                            return Err(schema(format!(
                                "`permissionDecision` \"defer\" is not allow, deny or ask on {}",
                                spec.name
                            )));
                        }
                        "defer" => Decision::Defer,
                        other => {
                            return Err(schema(format!(
                                "`permissionDecision` {other:?} is not allow, deny, ask or defer"
                            )));
                        }
                    })
                }
                "permissionDecisionReason" => perm_reason = non_empty(want_str(val, k)?),
                "updatedInput" => {
                    if !val.is_object() {
                        return Err(schema("`updatedInput` must be an object"));
                    }
                    v.updated_input = Some(val.clone());
                }
                "additionalContext" => v.additional_context = cap_text(want_str(val, k)?),
                "decision" => {
                    let Some(d) = val.as_object() else {
                        return Err(schema("`decision` must be an object with `behavior`"));
                    };
                    let behavior = match d.get("behavior").map(|b| want_str(b, "behavior")).transpose()? {
                        Some("allow") => Decision::Allow,
                        Some("deny") => Decision::Deny,
                        Some(other) => {
                            return Err(schema(format!("`behavior` {other:?} is not allow or deny")));
                        }
                        None => return Err(schema("`decision.behavior` is required")),
                    };
                    let message = d.get("message").map(|m| want_str(m, "message")).transpose()?;
                    if let Some(u) = d.get("updatedInput") {
                        if !u.is_object() {
                            return Err(schema("`updatedInput` must be an object"));
                        }
                        if behavior == Decision::Allow {
                            v.updated_input = Some(u.clone());
                        }
                    }
                    if let Some(p) = d.get("updatedPermissions") {
                        if !p.is_array() {
                            return Err(schema("`updatedPermissions` must be an array"));
                        }
                        if behavior == Decision::Allow {
                            v.extra.insert("updatedPermissions".into(), p.clone());
                        }
                    }
                    if let Some(b) = d.get("interrupt") {
                        let b = want_bool(b, "interrupt")?;
                        if behavior == Decision::Deny && b {
                            v.extra.insert("interrupt".into(), Value::Bool(true));
                        }
                    }
                    hso_decision = Some((behavior, message.and_then(non_empty)));
                }
                "updatedToolOutput" => v.updated_tool_output = Some(val.clone()),
                "updatedMCPToolOutput" => {
                    if !hso.contains_key("updatedToolOutput") {
                        v.updated_tool_output = Some(val.clone());
                    }
                }
                "classifierContext" | "sessionTitle" | "initialUserMessage" | "displayContent"
                | "worktreePath" => {
                    v.extra.insert(k.clone(), Value::String(want_str(val, k)?.to_string()));
                }
                "suppressOriginalPrompt" | "reloadSkills" | "retry" => {
                    v.extra.insert(k.clone(), Value::Bool(want_bool(val, k)?));
                }
                "watchPaths" => {
                    let ok = val.as_array().is_some_and(|a| a.iter().all(Value::is_string));
                    if !ok {
                        return Err(schema("`watchPaths` must be an array of strings"));
                    }
                    v.extra.insert(k.clone(), val.clone());
                }
                "action" => {
                    let a = want_str(val, k)?;
                    if !["accept", "decline", "cancel"].contains(&a) {
                        return Err(schema(format!("`action` {a:?} is not accept, decline or cancel")));
                    }
                    v.extra.insert(k.clone(), val.clone());
                }
                _ => {
                    v.extra.insert(k.clone(), val.clone());
                }
            }
        }
        if let Some(p) = perm {
            hso_decision = Some((p, perm_reason));
        }
    }
    match (hso_decision, top_decision) {
        (Some((d, reason)), _) => {
            v.decision = Some(d);
            v.reason = reason;
        }
        (None, Some(d)) => {
            v.decision = Some(d);
            v.reason = top_reason;
        }
        (None, None) => {}
    }
    if spec.no_reason_is_blocked_by_hook
        && matches!(v.decision, Some(Decision::Block | Decision::Deny))
        && v.reason.is_none()
    {
        // §6.4: a block all the same; Claude Code gives its model (Stop) or its user
        // (PreModelSwitch) these words.
        v.reason = Some(NO_REASON.to_string());
    }
    if !ignored.is_empty() {
        warnings.push(format!(
            "hook {}: output fields not honoured on {} ignored: {}",
            i.hook_id,
            spec.name,
            ignored.join(", ")
        ));
    }
    Ok(v)
}

#[cfg(test)]
#[path = "reading_tests.rs"]
mod tests;
