//! How one Antigravity hook is read. Google's guide documents `{"allowTool": false,
//! "denyReason": "…"}` [d]; integrators use `{"decision": "allow"|"deny"|"ask"|"force_ask",
//! "reason"}` [s]: both are read. A third party measured agy 1.2.3 (agents-2.md §2.3 and
//! `docs/dialects.md`): on PreToolUse silence lets the tool run, but anything that is not a clear
//! answer denies it (`{}`, an empty or unknown decision, text that is not JSON, a non-zero exit
//! with nothing): PreToolUse **fails closed**, and hookwire follows that, timeouts included
//! (unverified). On Stop `decision: "continue"` keeps the agent going (a block of the stop).
//! Elsewhere answers have no effect and failures fail open. Pure: no process, no I/O.

use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};
use serde_json::{Map, Value};

/// Antigravity's own words for a tool call its hook refused without a reason.
pub const DENIED: &str = "tool call denied by pre-tool hook";

pub fn read(h: &Handler, _ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let pre_tool = h.native == "PreToolUse";
    let out = f.stdout.text.trim();
    let failure = match f.end {
        End::Exited(0) if out.is_empty() => None,
        End::Exited(0) => match crate::json::from_output(out) {
            _ if f.stdout.truncated => Some("stdout was cut at the output cap".to_string()),
            Ok(Value::Object(o)) => {
                r.verdict = answer(h, &o, &mut r.warnings);
                None
            }
            Ok(_) => Some("stdout is not a JSON object".to_string()),
            Err(e) => Some(format!("stdout is not valid JSON: {e}")),
        },
        End::Exited(code) => Some(crate::dialect::exit_error(*code, &f.stderr.text)),
        end => crate::dialect::not_exited(end, f.timeout_s).map(|(status, why)| {
            r.status = status;
            why
        }),
    };
    if let Some(why) = failure {
        if r.status == Status::Ok {
            r.status = Status::Error;
        }
        r.warnings.push(format!("hook {}: {why}", h.id));
        r.error = Some(why.clone());
        r.verdict = Verdict::default();
        if pre_tool {
            r.verdict.decision = Some(Decision::Deny);
            r.verdict.reason = Some(format!("{DENIED} ({}: {why})", h.id));
            r.verdict.source = VerdictSource::Failure;
        }
    }
    r.verdict.finish();
    Step::of(r)
}

/// The verdict of a JSON answer on an exit 0.
fn answer(h: &Handler, o: &Map<String, Value>, w: &mut Vec<String>) -> Verdict {
    let mut v = Verdict { source: VerdictSource::Json, ..Verdict::default() };
    let text = |k: &str| o.get(k).and_then(Value::as_str).and_then(cap_text);
    let decision = o.get("decision").and_then(Value::as_str);
    match h.native.as_str() {
        "PreToolUse" => {
            let (d, reason) = match (o.get("allowTool"), decision) {
                (Some(Value::Bool(false)), _) => {
                    (Decision::Deny, text("denyReason").or_else(|| text("reason")))
                }
                (Some(Value::Bool(true)), _) => (Decision::Allow, None),
                (_, Some("allow")) => (Decision::Allow, None),
                (_, Some("deny")) => (Decision::Deny, text("reason")),
                (_, Some(ask @ ("ask" | "force_ask"))) => {
                    if ask == "force_ask" {
                        w.push(format!(
                            "hook {}: `force_ask` asks even where the user always allows; read as ask",
                            h.id
                        ));
                    }
                    (Decision::Ask, text("reason"))
                }
                (_, other) => {
                    w.push(format!(
                        "hook {}: no `allowTool` or known `decision` ({other:?}): Antigravity denies",
                        h.id
                    ));
                    (Decision::Deny, None)
                }
            };
            v.decision = Some(d);
            v.reason = match d {
                Decision::Deny => reason.or_else(|| Some(DENIED.to_string())),
                _ => reason,
            };
        }
        "Stop" if decision == Some("continue") => {
            v.decision = Some(Decision::Block);
            v.reason = text("reason").or_else(|| Some(format!("continued by {}", h.id)));
        }
        "PreInvocation" if o.get("injectSteps").is_some() => {
            v.extra.insert("injectSteps".into(), o["injectSteps"].clone());
        }
        _ => {
            if decision.is_some_and(|d| !d.is_empty()) || o.contains_key("allowTool") {
                w.push(format!("hook {}: a decision has no effect on {}; ignored", h.id, h.native));
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Dialect, Shell, lookup, spec};
    use crate::config::CommandSpec;
    use crate::runner::Text;
    use serde_json::json;

    fn run(event: &str, end: End, out: &str) -> Reading {
        let cmd = CommandSpec::Shell { script: "x".into(), shell: Shell::Bash };
        let h = Handler::command("user:h.E[0]".into(), 0, cmd, Dialect::Antigravity, event);
        let e = json!({"hook_event_name": event});
        let ev = FireEvent::plain(spec(lookup(event).unwrap()), &e);
        let text = |t: &str| Text { text: t.to_string(), truncated: false, lossy: false };
        let (stdout, stderr) = (text(out), text(""));
        read(&h, &ev, &Finished { end: &end, stdout: &stdout, stderr: &stderr, timeout_s: 1.0 }).reading
    }

    #[test]
    fn a_pretooluse_answer_that_is_not_clear_denies_and_silence_allows_the_call() {
        for out in ["{}", r#"{"decision":""}"#, r#"{"decision":"maybe"}"#, "text", "[1]"] {
            assert_eq!(
                run("PreToolUse", End::Exited(0), out).verdict.decision,
                Some(Decision::Deny),
                "{out}"
            );
        }
        assert_eq!(run("PreToolUse", End::Exited(3), "").verdict.decision, Some(Decision::Deny));
        assert_eq!(
            run("PreToolUse", End::TimedOut { started: true }, "").verdict.decision,
            Some(Decision::Deny)
        );
        assert_eq!(run("PreToolUse", End::Exited(0), "").verdict.decision, None);
    }

    #[test]
    fn the_guides_allow_tool_wins_over_a_decision_and_failures_elsewhere_fail_open() {
        let r = run("PreToolUse", End::Exited(0), r#"{"allowTool":false,"decision":"allow"}"#);
        assert_eq!((r.verdict.decision, r.verdict.reason.as_deref()), (Some(Decision::Deny), Some(DENIED)));
        let r = run("Stop", End::Exited(1), "");
        assert_eq!((r.verdict.decision, r.status), (None, Status::Error));
        assert_eq!(
            run("Stop", End::Exited(0), r#"{"decision":"continue"}"#).verdict.decision,
            Some(Decision::Block)
        );
    }
}
