//! The `j-cli` dialect at fire time (protocol.md §9.4): a payload with string-typed tool
//! arguments, `JCLI_*` variables, field replacement with actions (`stop`, `skip`,
//! `retry_feedback`), `on_error`, and the chain fold where a stop discards earlier rewrites.

mod config;
mod matcher;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, Strategy, Syntax, ev, native};
use super::{Finished, FireEvent, Step, block_decision, text_or_json};
use crate::catalog::Dialect;
use crate::catalog::EventSpec;
use crate::config::{Handler, Knobs};
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text, fmt_secs};
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// A hook's knobs: `on_error: abort` (else skip).
#[derive(Debug)]
pub(crate) struct Abort(pub bool);

/// The `j-cli` dialect.
pub struct JCliRules;

/// Its event names and what they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("pre_send_message", &["UserPromptSubmit"], true),
    ev("pre_tool_execution", &["PreToolUse"], true),
    ev("post_tool_execution", &["PostToolUse"], false),
    ev("post_tool_execution_failure", &["PostToolUseFailure"], false),
    ev("stop", &["Stop"], true),
    ev("session_start", &["SessionStart"], false),
    ev("session_end", &["SessionEnd"], false),
    ev("pre_auto_compact", &["PreCompact"], false),
    ev("post_auto_compact", &["PostCompact"], false),
    native("post_send_message", false),
    native("pre_llm_request", true),
    native("post_llm_response", false),
    native("pre_micro_compact", false),
    native("post_micro_compact", false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::JCli,
    files: "YAML",
    shape: "event → flat list of hooks",
    syntax: Syntax::Yaml,
    differs: "YAML flat lists, its own event names; each hook sees the input as rewritten before it",
    native_events: Some(EVENTS),
    strategy: Strategy::Chain,
    fold_summary: "chain: one hook at a time, each seeing the input as rewritten before it; the first stop or skip ends the chain and discards earlier rewrites",
    chains: true,
    ..Profile::BASE
};

impl DialectRules for JCliRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Any YAML file neither neocode nor ub claims.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_yaml() { Claim::Fallback } else { Claim::No }
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        config::read(doc, cx, p, events, warnings)
    }
    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        fold(steps)
    }
    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        vars(h, ev)
    }
    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload(h, ev))
    }
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        read(h, ev, f)
    }
}

/// Fields a hook's answer hands to the following hooks as they are.
const NATIVE_FIELDS: &[&str] = &["assistant_output", "messages", "system_prompt", "tool_error"];
/// Fields kept in `extra`.
const EXTRA_FIELDS: &[&str] =
    &["assistant_output", "messages", "system_prompt", "tool_error", "inject_messages", "retry_feedback"];

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v.filter(|v| !v.is_null()) {
            m.insert(k.to_string(), v);
        }
    };
    let native_or = |native: &str, canonical: &str| e.get(native).or_else(|| e.get(canonical)).cloned();
    put("event", Some(Value::String(h.native.clone())));
    put("cwd", e.get("cwd").cloned());
    put("session_id", e.get("session_id").cloned());
    put("user_input", native_or("user_input", "prompt"));
    put("messages", e.get("messages").cloned());
    put("system_prompt", e.get("system_prompt").cloned());
    put("model", e.get("model").cloned());
    put("assistant_output", native_or("assistant_output", "last_assistant_message"));
    put("tool_name", e.get("tool_name").cloned());
    put(
        "tool_arguments",
        e.get("tool_arguments")
            .cloned()
            .or_else(|| e.get("tool_input").map(|t| Value::String(t.to_string()))),
    );
    put(
        "tool_result",
        e.get("tool_result")
            .cloned()
            .or_else(|| e.get("tool_response").map(|r| Value::String(text_or_json(r)))),
    );
    put("tool_error", native_or("tool_error", "error"));
    for own in ev.carried.iter().filter_map(|k| k.get::<JCliStep>()) {
        for (k, v) in &own.native {
            m.insert(k.clone(), v.clone());
        }
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let cwd = ev.original.get("cwd").and_then(Value::as_str).unwrap_or("").to_string();
    vec![("JCLI_HOOK_EVENT".into(), h.native.clone()), ("JCLI_CWD".into(), cwd)]
}

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
struct JCliStep {
    native: Map<String, Value>,
    action: Option<&'static str>,
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

/// The chain fold: replaced fields last wins; `inject_messages` concatenate; the first stop or
/// skip ends the chain and keeps only its action, `retry_feedback` and `system_message`.
pub fn fold(steps: &[&Step]) -> Folded {
    let action_of = |s: &Step| s.own.get::<JCliStep>().and_then(|o| o.action);
    if let Some((last, action)) = steps.last().and_then(|s| Some((s, action_of(s)?))) {
        let v = &last.reading.verdict;
        let mut extra = Map::new();
        if let Some(fb) = v.extra.get("retry_feedback") {
            extra.insert("retry_feedback".into(), fb.clone());
        }
        extra.insert("action".into(), Value::String(action.to_string()));
        return Folded {
            decision: v.decision,
            reason: v.reason.clone(),
            continue_: v.continue_,
            stop_reason: v.stop_reason.clone(),
            updated_input: None,
            updated_tool_output: None,
            additional_context: None,
            system_message: v.system_message.clone(),
            suppress_output: false,
            extra,
            warnings: Vec::new(),
        };
    }
    let verdicts: Vec<&Verdict> = steps.iter().map(|s| &s.reading.verdict).collect();
    let last =
        |pick: fn(&Verdict) -> Option<&Value>| verdicts.iter().filter_map(|v| pick(v).cloned()).next_back();
    let last_text =
        |pick: fn(&Verdict) -> Option<&String>| verdicts.iter().filter_map(|v| pick(v).cloned()).next_back();
    let mut extra = Map::new();
    let mut injected: Vec<Value> = Vec::new();
    for v in &verdicts {
        for (k, x) in &v.extra {
            if k == "inject_messages" {
                match x {
                    Value::Array(a) => injected.extend(a.iter().cloned()),
                    other => injected.push(other.clone()),
                }
            } else {
                extra.insert(k.clone(), x.clone());
            }
        }
    }
    if !injected.is_empty() {
        extra.insert("inject_messages".into(), Value::Array(injected));
    }
    Folded {
        decision: None,
        reason: None,
        continue_: true,
        stop_reason: None,
        updated_input: last(|v| v.updated_input.as_ref()),
        updated_tool_output: last(|v| v.updated_tool_output.as_ref()),
        additional_context: last_text(|v| v.additional_context.as_ref()),
        system_message: last_text(|v| v.system_message.as_ref()),
        suppress_output: false,
        extra,
        warnings: Vec::new(),
    }
}
