//! Reading one Codex hook (agents.md §2.3): strict. Exit 0 with JSON must be one object valid
//! for the event, else the whole output is rejected (status `error`, nothing read, fail open);
//! plain text is context on `UserPromptSubmit` and `SessionStart` only; exit 2 blocks with its
//! stderr as the reason and ignores stdout, and without a reason it is an error, not a block;
//! any other exit is an error.

use crate::config::{Handler, RunMode};
use crate::dialect::{Finished, FireEvent, block_decision};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// Why an output was rejected.
type Rejected = String;

/// Reads one finished hook of a Codex handler.
pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Reading {
    let native = h.native.as_str();
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let stderr = f.stderr.text.trim();
    match f.end {
        End::Exited(0) => exit0(&h.id, native, ev, f, &mut r),
        End::Exited(2) if stderr.is_empty() => {
            r.status = Status::Error;
            r.error = Some("exit 2 without a reason on stderr".to_string());
        }
        End::Exited(2) => {
            r.verdict.source = VerdictSource::ExitCode;
            if blocks(native) {
                r.verdict.decision = Some(block_decision(ev.spec));
                r.verdict.reason = Some(stderr.to_string());
            } else {
                r.verdict.system_message = cap_text(stderr);
            }
        }
        End::Exited(code) => {
            r.status = Status::Error;
            r.error = Some(match stderr.lines().next() {
                Some(line) => format!("exit {code}: {line}"),
                None => format!("exit {code}"),
            });
        }
        end => {
            if let Some((status, why)) = crate::dialect::not_exited(end, f.timeout_s) {
                (r.status, r.error) = (status, Some(why));
            }
        }
    }
    if r.status != Status::Ok {
        if let Some(e) = &r.error {
            r.warnings.push(format!("hook {}: {e}", h.id));
        }
        r.verdict = Verdict::default();
        let can_fail_closed = h.mode == RunMode::Sync && r.status != Status::Cancelled;
        if h.fail_closed && can_fail_closed && super::PROFILE.can_block(ev.spec, ev.rules) {
            r.verdict.decision = Some(block_decision(ev.spec));
            r.verdict.reason =
                Some(format!("hook {} failed closed: {}", h.id, r.error.as_deref().unwrap_or("failed")));
            r.verdict.source = VerdictSource::Failure;
        }
    }
    r.verdict.finish();
    r
}

/// Events where exit 2 (and a JSON block) decides.
fn blocks(native: &str) -> bool {
    matches!(
        native,
        "PreToolUse" | "PermissionRequest" | "PostToolUse" | "UserPromptSubmit" | "Stop" | "SubagentStop"
    )
}

fn exit0(id: &str, native: &str, ev: &FireEvent<'_>, f: &Finished<'_>, r: &mut Reading) {
    let out = f.stdout.text.trim();
    if out.is_empty() {
        return;
    }
    if out.starts_with('{') || out.starts_with('[') {
        let mut notes = Vec::new();
        let parsed = match crate::json::from_output(out) {
            Ok(Value::Object(obj)) => validate(native, &obj, ev.original, &mut notes),
            Ok(_) => Err("not a JSON object".to_string()),
            Err(e) => Err(format!("not valid JSON: {e}")),
        };
        match parsed {
            Ok(v) => {
                r.verdict = v;
                r.warnings.extend(notes.into_iter().map(|w| format!("hook {id}: {w}")));
            }
            Err(why) => {
                r.status = Status::Error;
                r.error = Some(format!("invalid {native} hook JSON output: {why}"));
            }
        }
        return;
    }
    match native {
        "UserPromptSubmit" | "SessionStart" => {
            r.verdict.additional_context = cap_text(out);
            r.verdict.source = VerdictSource::Text;
        }
        "Stop" | "SubagentStop" => {
            r.status = Status::Error;
            r.error = Some(format!("invalid {native} hook output: Codex reads only JSON here"));
        }
        _ => {}
    }
}

/// The top-level keys an event's output may have besides the universal four.
fn event_keys(native: &str) -> &'static [&'static str] {
    match native {
        "PreToolUse" | "PostToolUse" | "UserPromptSubmit" => &["decision", "reason", "hookSpecificOutput"],
        "PermissionRequest" | "SessionStart" => &["hookSpecificOutput"],
        "Stop" | "SubagentStop" => &["decision", "reason"],
        _ => &[],
    }
}

/// The `hookSpecificOutput` keys an event's output may have besides `hookEventName`.
fn hso_keys(native: &str) -> &'static [&'static str] {
    match native {
        "PreToolUse" => {
            &["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"]
        }
        "PermissionRequest" => &["decision"],
        "PostToolUse" => &["additionalContext", "updatedToolOutput", "updatedMCPToolOutput"],
        "UserPromptSubmit" | "SessionStart" => &["additionalContext"],
        _ => &[],
    }
}

const UNIVERSAL: &[&str] = &["continue", "stopReason", "systemMessage", "suppressOutput"];

/// Typed reads of an object's keys; `null` reads as absent (Codex's optional fields).
struct Obj<'a> {
    map: &'a Map<String, Value>,
    at: &'a str,
}

impl Obj<'_> {
    fn str(&self, k: &str) -> Result<Option<&str>, Rejected> {
        match self.map.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("`{}{k}` must be a string", self.at)),
        }
    }
    fn bool(&self, k: &str) -> Result<Option<bool>, Rejected> {
        match self.map.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(format!("`{}{k}` must be true or false", self.at)),
        }
    }
    fn object(&self, k: &str) -> Result<Option<&Map<String, Value>>, Rejected> {
        match self.map.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(o)) => Ok(Some(o)),
            Some(_) => Err(format!("`{}{k}` must be an object", self.at)),
        }
    }
    fn only(&self, allowed: &[&str], native: &str) -> Result<(), Rejected> {
        match self.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            None => Ok(()),
            Some(k) => Err(format!("unsupported field `{}{k}` on {native}", self.at)),
        }
    }
}

/// A non-empty (after trimming) reason.
fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|t| !t.trim().is_empty())
}

/// Checks one JSON object against what Codex accepts on `native` and reads it; any problem
/// rejects the whole output.
fn validate(
    native: &str,
    map: &Map<String, Value>,
    event: &Value,
    warnings: &mut Vec<String>,
) -> Result<Verdict, Rejected> {
    let top = Obj { map, at: "" };
    let allowed: Vec<&str> = UNIVERSAL.iter().chain(event_keys(native)).copied().collect();
    top.only(&allowed, native)?;
    let cont = top.bool("continue")?.unwrap_or(true);
    let stop_reason = top.str("stopReason")?;
    let system = top.str("systemMessage")?;
    let suppress = top.bool("suppressOutput")?.unwrap_or(false);
    let decision = top.str("decision")?;
    let reason = top.str("reason")?;
    let hso = match top.object("hookSpecificOutput")? {
        None => None,
        Some(map) => {
            let h = Obj { map, at: "hookSpecificOutput." };
            let mut keys = vec!["hookEventName"];
            keys.extend(hso_keys(native));
            h.only(&keys, native)?;
            match h.str("hookEventName")? {
                Some(n) if n == native => {}
                Some(n) => {
                    return Err(format!("hookSpecificOutput.hookEventName is \"{n}\", not \"{native}\""));
                }
                None => return Err("hookSpecificOutput.hookEventName is required".to_string()),
            }
            Some(h)
        }
    };
    let context = match &hso {
        Some(h) if hso_keys(native).contains(&"additionalContext") => h.str("additionalContext")?,
        _ => None,
    };

    let mut v = Verdict { source: VerdictSource::Json, ..Verdict::default() };
    v.system_message = system.and_then(|s| cap_text(s.trim()));
    v.additional_context = context.and_then(|s| cap_text(s.trim()));
    let universal_rejected = matches!(native, "PreToolUse" | "PermissionRequest");
    if universal_rejected {
        if !cont {
            return Err(format!("`continue: false` is not supported on {native}"));
        }
        if stop_reason.is_some() {
            return Err(format!("`stopReason` is not supported on {native}"));
        }
    } else if !cont {
        v.continue_ = false;
        v.stop_reason = stop_reason.map(str::to_string);
    }
    if suppress {
        if matches!(native, "PreToolUse" | "PermissionRequest" | "PostToolUse") {
            return Err(format!("`suppressOutput: true` is not supported on {native}"));
        }
        v.suppress_output = true;
    }

    match native {
        "PreToolUse" => pre_tool_use(&mut v, hso.as_ref(), decision, reason, event, warnings)?,
        "PermissionRequest" => {
            if let Some(h) = &hso {
                permission_request(&mut v, h)?;
            }
        }
        "PostToolUse" => {
            block(&mut v, decision, reason)?;
            if decision.is_none() && reason.is_some() && cont {
                return Err("`reason` without `decision`".to_string());
            }
            if let Some(h) = &hso {
                let out = h.map.get("updatedMCPToolOutput").or_else(|| h.map.get("updatedToolOutput"));
                v.updated_tool_output = out.filter(|o| !o.is_null()).cloned();
            }
        }
        "UserPromptSubmit" | "Stop" | "SubagentStop" => block(&mut v, decision, reason)?,
        _ => {}
    }
    v.finish();
    Ok(v)
}

/// Top-level `decision: "block"` with a non-empty `reason` → block; any other decision, or a
/// block without a reason, is rejected.
fn block(v: &mut Verdict, decision: Option<&str>, reason: Option<&str>) -> Result<(), Rejected> {
    match decision {
        None => Ok(()),
        Some("block") => match non_empty(reason) {
            Some(r) => {
                v.decision = Some(Decision::Block);
                v.reason = Some(r.to_string());
                Ok(())
            }
            None => Err("`decision: \"block\"` without a non-empty `reason`".to_string()),
        },
        Some(other) => Err(format!("unsupported decision \"{other}\"")),
    }
}

fn pre_tool_use(
    v: &mut Verdict,
    hso: Option<&Obj<'_>>,
    decision: Option<&str>,
    reason: Option<&str>,
    event: &Value,
    warnings: &mut Vec<String>,
) -> Result<(), Rejected> {
    let (pd, pdr, input) = match hso {
        Some(h) => {
            (h.str("permissionDecision")?, h.str("permissionDecisionReason")?, h.object("updatedInput")?)
        }
        None => (None, None, None),
    };
    if pd.is_none() && pdr.is_none() && input.is_none() {
        // The legacy top-level form.
        return match decision {
            None if reason.is_some() => Err("`reason` without `decision`".to_string()),
            Some("approve") => Err("legacy `decision: \"approve\"` is not supported".to_string()),
            _ => {
                block(v, decision, reason)?;
                if v.decision == Some(Decision::Block) {
                    v.decision = Some(Decision::Deny);
                }
                Ok(())
            }
        };
    }
    match pd {
        Some("deny") => {
            if input.is_some() {
                return Err("`updatedInput` without `permissionDecision: \"allow\"`".to_string());
            }
            let Some(r) = non_empty(pdr) else {
                return Err(
                    "`permissionDecision: \"deny\"` without a non-empty `permissionDecisionReason`".into()
                );
            };
            v.decision = Some(Decision::Deny);
            v.reason = Some(r.to_string());
        }
        Some("allow") => {
            let Some(input) = input else {
                return Err("`permissionDecision: \"allow\"` without `updatedInput`".to_string());
            };
            v.decision = Some(Decision::Allow);
            v.updated_input = Some(updated_input(input, event, warnings)?);
        }
        Some("ask") => return Err("`permissionDecision: \"ask\"` is not supported".to_string()),
        Some(other) => return Err(format!("unsupported permissionDecision \"{other}\"")),
        None if input.is_some() => {
            return Err("`updatedInput` without `permissionDecision: \"allow\"`".to_string());
        }
        None => return Err("`permissionDecisionReason` without `permissionDecision`".to_string()),
    }
    Ok(())
}

/// On `Bash` only `command` is taken, into the event's own input; elsewhere the input as given.
fn updated_input(
    input: &Map<String, Value>,
    event: &Value,
    warnings: &mut Vec<String>,
) -> Result<Value, Rejected> {
    if event.get("tool_name").and_then(Value::as_str) != Some("Bash") {
        return Ok(Value::Object(input.clone()));
    }
    let Some(Value::String(command)) = input.get("command") else {
        return Err("`updatedInput` for Bash needs a string `command`".to_string());
    };
    let others: Vec<&str> = input.keys().map(String::as_str).filter(|k| *k != "command").collect();
    if !others.is_empty() {
        warnings.push(format!(
            "updatedInput for Bash: only `command` is used; {} ignored",
            others.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    let mut out = match event.get("tool_input") {
        Some(Value::Object(o)) => o.clone(),
        _ => Map::new(),
    };
    out.insert("command".into(), Value::String(command.clone()));
    Ok(Value::Object(out))
}

fn permission_request(v: &mut Verdict, hso: &Obj<'_>) -> Result<(), Rejected> {
    let Some(map) = hso.object("decision")? else { return Ok(()) };
    let d = Obj { map, at: "hookSpecificOutput.decision." };
    d.only(&["behavior", "message", "updatedInput", "updatedPermissions", "interrupt"], "PermissionRequest")?;
    for k in ["updatedInput", "updatedPermissions"] {
        if map.get(k).is_some_and(|x| !x.is_null()) {
            return Err(format!("`decision.{k}` is not supported on PermissionRequest"));
        }
    }
    if d.bool("interrupt")? == Some(true) {
        return Err("`decision.interrupt: true` is not supported on PermissionRequest".to_string());
    }
    let message = d.str("message")?;
    match d.str("behavior")? {
        Some("allow") => v.decision = Some(Decision::Allow),
        Some("deny") => {
            v.decision = Some(Decision::Deny);
            let m = non_empty(message).map(str::trim).unwrap_or("PermissionRequest hook denied approval");
            v.reason = Some(m.to_string());
        }
        Some(other) => return Err(format!("unsupported decision.behavior \"{other}\"")),
        None => return Err("`decision.behavior` is required".to_string()),
    }
    Ok(())
}

#[cfg(test)]
mod tests;
