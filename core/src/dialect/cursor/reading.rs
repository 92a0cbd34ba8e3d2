//! How one Cursor hook is read (agents.md §4.3): exit 0 with nothing or a JSON object of
//! snake_case fields; exit 2 denies or blocks where Cursor says it does; anything else (another
//! code, a timeout, a spawn failure, stdout that is not a JSON object) is a failure, open unless
//! `failClosed`. Pure: no process, no I/O.

use super::CursorKnobs;
use super::kind::Kind;
use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// Characters of stderr kept in an error message.
const ERROR_CAP: usize = 2_000;

pub fn read(h: &Handler, kind: Kind, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let stderr = f.stderr.text.trim();
    match f.end {
        End::Exited(0) => match object(f) {
            Ok(None) => {}
            Ok(Some(obj)) => r.verdict = fields(h, kind, ev, &obj, &mut r.warnings),
            Err(why) => fail(&mut r, Status::Error, why),
        },
        End::Exited(2) => match kind.exit2_decision() {
            Some(d) => {
                let agent = object(f)
                    .ok()
                    .flatten()
                    .and_then(|o| text(&o, "agent_message", "agentMessage", &h.id, &mut Vec::new()));
                let reason = (!stderr.is_empty())
                    .then(|| stderr.to_string())
                    .or(agent)
                    .unwrap_or_else(|| format!("blocked by {} (exit 2)", h.id));
                r.verdict.decision = Some(d);
                r.verdict.reason = cap_text(&reason);
                r.verdict.source = VerdictSource::ExitCode;
            }
            None => {
                r.warnings.push(format!("hook {}: exit 2 has no effect on {}; ignored", h.id, kind.name()))
            }
        },
        End::Exited(code) => {
            let why = match stderr {
                "" => format!("exit {code}"),
                s => format!("exit {code}: {}", s.chars().take(ERROR_CAP).collect::<String>()),
            };
            fail(&mut r, Status::Error, why);
        }
        end => {
            if let Some((status, why)) = crate::dialect::not_exited(end, f.timeout_s) {
                fail(&mut r, status, why);
            }
        }
    }
    if r.status != Status::Ok && r.status != Status::Cancelled {
        let error = r.error.clone().unwrap_or_default();
        r.warnings.push(format!("hook {}: {error}", h.id));
        if h.fail_closed
            && let Some(d) = kind.blocking_decision()
        {
            r.verdict.decision = Some(d);
            r.verdict.reason = Some(format!("hook {} failed closed: {error}", h.id));
            r.verdict.source = VerdictSource::Failure;
        }
    }
    r.verdict.finish();
    Step::of(r)
}

fn fail(r: &mut Reading, status: Status, why: String) {
    r.status = status;
    r.error = Some(why);
    r.verdict = Verdict::default();
}

/// Stdout of an exit 0: nothing (blank), a JSON object, or why it is neither.
fn object(f: &Finished<'_>) -> Result<Option<Map<String, Value>>, String> {
    let out = f.stdout.text.trim();
    if out.is_empty() {
        return Ok(None);
    }
    if f.stdout.truncated {
        return Err("stdout was cut at the output cap; it is not read".into());
    }
    match crate::json::from_output(out) {
        Ok(Value::Object(o)) => Ok(Some(o)),
        Ok(_) => Err("stdout is not a JSON object".into()),
        Err(e) => Err(format!("stdout is not valid JSON: {e}")),
    }
}

/// A string field, or its legacy camelCase spelling (read with a warning); blank = absent.
fn text(
    o: &Map<String, Value>,
    key: &str,
    legacy: &str,
    id: &str,
    warnings: &mut Vec<String>,
) -> Option<String> {
    let v = match (o.get(key), o.get(legacy)) {
        (Some(v), _) => v,
        (None, Some(v)) => {
            warnings
                .push(format!("hook {id}: `{legacy}` is the legacy spelling of `{key}`; read as `{key}`"));
            v
        }
        (None, None) => return None,
    };
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::String(_) | Value::Null => None,
        _ => {
            warnings.push(format!("hook {id}: `{key}` must be a string; ignored"));
            None
        }
    }
}

/// The verdict of a JSON answer on an exit 0 (§4.3 "fields").
fn fields(
    h: &Handler,
    kind: Kind,
    ev: &FireEvent<'_>,
    o: &Map<String, Value>,
    w: &mut Vec<String>,
) -> Verdict {
    let id = h.id.as_str();
    let mut v = Verdict { source: VerdictSource::Json, ..Verdict::default() };
    let user = text(o, "user_message", "userMessage", id, w);
    let agent = text(o, "agent_message", "agentMessage", id, w);
    let mut agent_is_reason = false;
    match o.get("permission") {
        None | Some(Value::Null) => {}
        Some(p) if !kind.decides_permission() => {
            w.push(format!("hook {id}: `permission` {p} has no effect on {}; ignored", kind.name()))
        }
        Some(Value::String(p)) => match p.as_str() {
            "allow" => v.decision = Some(Decision::Allow),
            "deny" => {
                v.decision = Some(Decision::Deny);
                agent_is_reason = agent.is_some();
                v.reason = agent.clone().or_else(|| user.clone());
            }
            "ask" if kind.can_ask() => {
                v.decision = Some(Decision::Ask);
                agent_is_reason = user.is_none() && agent.is_some();
                v.reason = user.clone().or_else(|| agent.clone());
            }
            "ask" => w.push(format!(
                "hook {id}: `permission` \"ask\" is honoured on beforeShellExecution and beforeMCPExecution only; ignored on {}",
                kind.name()
            )),
            other => w.push(format!("hook {id}: unknown `permission` {other:?}; ignored")),
        },
        Some(p) => w.push(format!("hook {id}: `permission` must be allow, deny or ask, not {p}; ignored")),
    }
    if kind == Kind::BeforeSubmitPrompt && o.get("continue") == Some(&Value::Bool(false)) {
        // Cursor does not send the prompt: a block of this prompt, not a stop of the agent.
        v.decision = Some(Decision::Block);
        v.reason = user.clone().or_else(|| agent.clone()).or_else(|| Some(format!("blocked by {id}")));
    }
    if kind.loops()
        && let Some(msg) = text(o, "followup_message", "followupMessage", id, w)
    {
        let limit = h.knobs.get::<CursorKnobs>().map_or(Some(super::DEFAULT_LOOP_LIMIT), |k| k.loop_limit);
        match limit {
            Some(l) if ev.loop_count >= l => w.push(format!(
                "hook {id}: followup_message ignored: the session has continued {} times in a row, this hook's loop_limit is {l}",
                ev.loop_count
            )),
            _ => {
                v.decision = Some(Decision::Block);
                v.reason = cap_text(&msg);
            }
        }
    }
    v.system_message = user.as_deref().and_then(cap_text);
    let mut context: Vec<String> = Vec::new();
    match o.get("additional_context") {
        None | Some(Value::Null) => {}
        Some(Value::String(c)) if kind.takes_context() => context.push(c.clone()),
        Some(_) if !kind.takes_context() => {
            w.push(format!("hook {id}: `additional_context` has no effect on {}; ignored", kind.name()))
        }
        Some(_) => w.push(format!("hook {id}: `additional_context` must be a string; ignored")),
    }
    if let Some(a) = agent.filter(|_| !agent_is_reason) {
        context.push(a);
    }
    let context: Vec<String> = context.into_iter().filter(|c| !c.is_empty()).collect();
    v.additional_context = cap_text(&context.join("\n\n"));
    match o.get("updated_input") {
        None | Some(Value::Null) => {}
        Some(i @ Value::Object(_)) if kind == Kind::PreToolUse => v.updated_input = Some(i.clone()),
        Some(_) if kind == Kind::PreToolUse => {
            w.push(format!("hook {id}: `updated_input` must be an object; ignored"))
        }
        Some(_) => w.push(format!("hook {id}: `updated_input` is honoured on preToolUse only; ignored")),
    }
    match o.get("updated_mcp_tool_output") {
        None | Some(Value::Null) => {}
        Some(out) if kind == Kind::PostToolUse => v.updated_tool_output = Some(out.clone()),
        Some(_) => {
            w.push(format!("hook {id}: `updated_mcp_tool_output` is honoured on postToolUse only; ignored"))
        }
    }
    if v.decision == Some(Decision::Deny) {
        v.updated_input = None;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Shell, lookup, spec};
    use crate::config::{CommandSpec, Knobs};
    use crate::runner::Text;
    use serde_json::json;

    fn handler(kind: Kind, loop_limit: Option<u32>) -> Handler {
        let cmd = CommandSpec::Shell { script: "x".into(), shell: Shell::Sh };
        let mut h = Handler::command(
            format!("user:{}[0]", kind.name()),
            0,
            cmd,
            crate::catalog::Dialect::Cursor,
            kind.name(),
        );
        h.knobs = Knobs::new(CursorKnobs { kind, plugin_root: None, loop_limit });
        h
    }

    fn text(s: &str) -> Text {
        Text { text: s.to_string(), truncated: false, lossy: false }
    }

    fn read_as(
        kind: Kind,
        event: &str,
        loop_count: u32,
        limit: Option<u32>,
        code: i32,
        out: &str,
    ) -> Reading {
        let e = json!({"hook_event_name": event});
        let ev = FireEvent { loop_count, ..FireEvent::plain(spec(lookup(event).unwrap()), &e) };
        let end = End::Exited(code);
        let (stdout, stderr) = (text(out), text(""));
        let f = Finished { end: &end, stdout: &stdout, stderr: &stderr, timeout_s: 60.0 };
        read(&handler(kind, limit), kind, &ev, &f).reading
    }

    #[test]
    fn a_followup_blocks_until_the_sessions_count_reaches_the_hooks_loop_limit() {
        let go = r#"{"followup_message":"go"}"#;
        let r = read_as(Kind::Stop, "Stop", 4, Some(5), 0, go);
        assert_eq!(r.verdict.decision, Some(Decision::Block));
        let r = read_as(Kind::Stop, "Stop", 5, Some(5), 0, go);
        assert_eq!(r.verdict.decision, None);
        assert!(r.warnings.iter().any(|w| w.contains("loop_limit is 5")));
        let r = read_as(Kind::Stop, "Stop", 50, None, 0, go);
        assert_eq!(r.verdict.decision, Some(Decision::Block));
        let r = read_as(Kind::Stop, "Stop", 0, Some(0), 0, go);
        assert_eq!(r.verdict.decision, None);
    }

    #[test]
    fn a_deny_keeps_no_rewrite_and_its_reason_is_the_agent_message() {
        let out = r#"{"permission":"deny","agent_message":"a","user_message":"u","updated_input":{"c":1}}"#;
        let r = read_as(Kind::PreToolUse, "PreToolUse", 0, None, 0, out);
        assert_eq!(r.verdict.decision, Some(Decision::Deny));
        assert_eq!(r.verdict.reason.as_deref(), Some("a"));
        assert_eq!(r.verdict.system_message.as_deref(), Some("u"));
        assert_eq!(r.verdict.updated_input, None);
        assert_eq!(r.verdict.additional_context, None);
    }

    #[test]
    fn exit_2_on_stop_is_ignored_with_a_warning_and_never_fails_closed() {
        let r = read_as(Kind::Stop, "Stop", 0, Some(5), 2, "");
        assert_eq!((r.status, r.verdict.decision), (Status::Ok, None));
        assert_eq!(r.warnings.len(), 1);
    }

    #[test]
    fn updated_input_must_be_an_object_and_only_on_pre_tool_use() {
        let r = read_as(Kind::PreToolUse, "PreToolUse", 0, None, 0, r#"{"updated_input":"rm -rf /"}"#);
        assert_eq!(r.verdict.updated_input, None);
        let r = read_as(Kind::BeforeShellExecution, "PreToolUse", 0, None, 0, r#"{"updated_input":{"c":1}}"#);
        assert_eq!(r.verdict.updated_input, None);
        assert_eq!(r.warnings.len(), 1);
    }
}
