//! The `ub` dialect at fire time (protocol.md §9.5): a nested payload, a whitelisted
//! environment with `UB_HOOK_*`, exit codes only, `on_failure: block` on pre_tool_call, and
//! the run-all fold (every hook runs; the first block gives the reason).

mod config;
mod matcher;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, Strategy, Syntax, ev};
use super::{Finished, FireEvent, Step, block_decision, text_or_json};
use crate::catalog::Dialect;
use crate::config::{Action, CommandSpec, Handler};
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource};
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// The `ub` dialect.
pub struct UbRules;

/// Its event names and what they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("pre_tool_call", &["PreToolUse"], true),
    ev("post_tool_call", &["PostToolUse", "PostToolUseFailure"], false),
    ev("pre_user_turn", &["UserPromptSubmit"], false),
    ev("post_user_turn", &["Stop", "StopFailure"], false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Ub,
    files: "YAML with ub's triggers",
    shape: "trigger → flat list of hooks",
    syntax: Syntax::Yaml,
    differs: "YAML triggers; every matched hook runs, even after a block",
    native_events: Some(EVENTS),
    strategy: Strategy::RunAll,
    fold_summary: "run-all: one hook at a time, every matched hook runs even after a block",
    ..Profile::BASE
};

impl DialectRules for UbRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// YAML whose top-level `hooks` names one of ub's triggers.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        let own = file.yaml_has("hooks", true) && EVENTS.iter().any(|e| file.yaml_has(e.name, false));
        if file.is_yaml() && own { Claim::Content } else { Claim::No }
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

fn is_tool(ev: &FireEvent<'_>) -> bool {
    ev.spec.tool_event
}

fn turn(ev: &FireEvent<'_>) -> Value {
    ev.current.get("turn").cloned().unwrap_or(json!(0))
}

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    m.insert("event".into(), Value::String(h.native.clone()));
    m.insert("session_id".into(), e.get("session_id").cloned().unwrap_or(Value::String(String::new())));
    m.insert("turn".into(), turn(ev));
    if is_tool(ev) {
        let tool = e.get("tool").cloned().unwrap_or_else(|| {
            json!({
                "name": e.get("tool_name").cloned().unwrap_or(Value::Null),
                "use_id": e.get("tool_use_id").cloned().unwrap_or(Value::Null),
                "args": e.get("tool_input").cloned().unwrap_or(Value::Null),
            })
        });
        m.insert("tool".into(), tool);
    }
    if h.native == "post_tool_call" {
        let failed = ev.spec.name == "PostToolUseFailure";
        let content = if failed { e.get("error") } else { e.get("tool_response") };
        let result = e.get("result").cloned().unwrap_or_else(
            || json!({"content": content.map(text_or_json).unwrap_or_default(), "is_error": failed}),
        );
        m.insert("result".into(), result);
    }
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let field = |k: &str| ev.original.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let turn = match turn(ev) {
        Value::String(s) => s,
        other => other.to_string(),
    };
    let mut v = vec![
        ("UB_HOOK_EVENT".to_string(), h.native.clone()),
        ("UB_HOOK_SESSION_ID".to_string(), field("session_id")),
        ("UB_HOOK_TURN".to_string(), turn),
    ];
    if is_tool(ev) {
        v.push(("UB_HOOK_TOOL_NAME".into(), field("tool_name")));
        v.push(("UB_HOOK_TOOL_USE_ID".into(), field("tool_use_id")));
    }
    v
}

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let (failed, code) = match f.end {
        End::Exited(0) => (false, 0),
        End::Exited(c) => (true, *c),
        End::Signaled(_)
        | End::TimedOut { .. }
        | End::Cancelled { .. }
        | End::SpawnFailed(_)
        | End::Failed(_)
        | End::Lost(_) => (true, -1),
    };
    if failed {
        let argv0 = match &h.action {
            Action::Command(CommandSpec::Exec { program, .. }) => program.clone(),
            Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
            _ => h.id.clone(),
        };
        let stderr = f.stderr.text.trim();
        let line = match f.end {
            _ if !stderr.is_empty() => stderr.to_string(),
            End::Lost(_) => format!("hook {argv0} ended"),
            _ => format!("hook {argv0} exit {code}"),
        };
        r.status = match f.end {
            End::TimedOut { .. } | End::Cancelled { .. } => Status::TimedOut,
            End::SpawnFailed(_) => Status::SpawnFailed,
            _ => Status::Error,
        };
        r.error = Some(match f.end {
            End::SpawnFailed(msg) | End::Lost(msg) => format!("{line}: {msg}"),
            _ => line.clone(),
        });
        if h.fail_closed && PROFILE.can_block(ev.spec, ev.rules) {
            r.verdict.decision = Some(block_decision(ev.spec));
            r.verdict.reason = Some(line);
            r.verdict.source = VerdictSource::Failure;
        } else {
            r.verdict.system_message = Some(line);
            r.verdict.source = VerdictSource::ExitCode;
            r.warnings.push(format!("hook {}: {}", h.id, r.error.clone().unwrap_or_default()));
        }
    }
    r.verdict.finish();
    Step::of(r)
}
