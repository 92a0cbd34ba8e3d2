//! The `ok` dialect at fire time (protocol.md §9.3): a camelCase payload, exit codes only
//! (stdout never parsed), a timeout that blocks on gating events, and one line per failure:
//! `hook [<project|global>/<Event>] <command> — <block|warn|error>: <detail>`.

mod config;
mod matcher;

use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, Strategy, ev, verdicts};
use super::{Finished, FireEvent, Step, block_decision, text_or_json};
use super::{Profile, TimeUnit};
use crate::catalog::Dialect;
use crate::catalog::EventSpec;
use crate::catalog::Scope;
use crate::config::{Action, CommandSpec, Handler};
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource, fmt_secs};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A hook's knobs: the layer its lines name (`project` or `global`).
#[derive(Debug)]
pub(crate) struct OkKnobs {
    pub layer: &'static str,
}

/// The `ok` dialect.
pub struct OkRules;

/// Its event names and what they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Ok,
    files: "`.ok/` JSON files",
    shape: "event → flat list of hooks",
    differs: "timeouts in milliseconds, a flat list per event; one at a time, stopping at the first block",
    timeout_unit: TimeUnit::Milliseconds,
    native_events: Some(EVENTS),
    strategy: Strategy::SequentialStop,
    fold_summary: super::SEQUENTIAL_STOP,
    // Project hooks run before user hooks in ok (§9.3).
    scope_order: [Scope::Managed, Scope::Project, Scope::User, Scope::Local, Scope::Plugin, Scope::Session],
    ..Profile::BASE
};

impl DialectRules for OkRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_json_like() { file.in_dir(".ok") } else { Claim::No }
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
        crate::fold::first_block(&verdicts(steps))
    }
    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload(h, ev))
    }
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        read(h, ev, f)
    }
}

/// Characters kept of one line's detail.
const DETAIL_CAP: usize = 2_000;

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let mut m = Map::new();
    let mut put = |key: &str, v: Option<Value>| {
        if let Some(v) = v {
            let empty = match &v {
                Value::Null => true,
                Value::String(s) => s.is_empty(),
                Value::Object(o) => o.is_empty(),
                Value::Array(a) => a.is_empty(),
                _ => false,
            };
            if !empty {
                m.insert(key.to_string(), v);
            }
        }
    };
    let native_or = |native: &str, canonical: &str| e.get(native).or_else(|| e.get(canonical)).cloned();
    put("event", Some(e.get("event").cloned().unwrap_or_else(|| Value::String(h.native.clone()))));
    put("cwd", e.get("cwd").cloned());
    put("toolName", native_or("toolName", "tool_name"));
    put("toolArgs", native_or("toolArgs", "tool_input"));
    put(
        "toolResult",
        e.get("toolResult")
            .cloned()
            .or_else(|| e.get("tool_response").map(|r| Value::String(text_or_json(r)))),
    );
    put("prompt", e.get("prompt").cloned());
    put("lastAssistantText", native_or("lastAssistantText", "last_assistant_message"));
    put("turn", e.get("turn").cloned());
    let mut out = serde_json::to_vec(&Value::Object(m)).unwrap_or_default();
    out.push(b'\n');
    out
}

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let gating = PROFILE.can_block(ev.spec, ev.rules);
    let layer = h.knobs.get::<OkKnobs>().map_or("global", |k| k.layer);
    let command = match &h.action {
        Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
        Action::Command(CommandSpec::Exec { program, .. }) => program.clone(),
        _ => h.id.clone(),
    };
    let detail = |fallback: String| {
        let d = [f.stderr.text.trim(), f.stdout.text.trim()]
            .into_iter()
            .find(|s| !s.is_empty())
            .map(str::to_string);
        let d = d.unwrap_or(fallback);
        d.chars().take(DETAIL_CAP).collect::<String>()
    };
    let line =
        |kind: &str, detail: String| format!("hook [{layer}/{}] {command} — {kind}: {detail}", h.native);
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let block = |r: &mut Reading, reason: String| {
        r.verdict.decision = Some(block_decision(ev.spec));
        r.verdict.reason = Some(reason);
        r.verdict.source = VerdictSource::ExitCode;
    };
    match f.end {
        End::Exited(0) => {}
        End::Exited(2) if gating => block(&mut r, line("block", detail("exit 2".into()))),
        End::Exited(code) => {
            let l = line("warn", detail(format!("exit {code}")));
            r.status = Status::Error;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
        End::Failed(msg) | End::Lost(msg) => {
            let l = line("warn", detail(msg.clone()));
            r.status = Status::Error;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
        End::Signaled(sig) => {
            let l = line("warn", detail(format!("terminated by signal {sig}")));
            r.status = Status::Error;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
        End::TimedOut { .. } | End::Cancelled { .. } => {
            let l = line(
                if gating { "block" } else { "warn" },
                format!("timed out after {} s", fmt_secs(f.timeout_s)),
            );
            r.status = Status::TimedOut;
            r.error = Some(l.clone());
            if gating {
                block(&mut r, l);
            } else {
                r.verdict.system_message = Some(l);
            }
        }
        End::SpawnFailed(msg) => {
            let l = line("error", msg.chars().take(DETAIL_CAP).collect());
            r.status = Status::SpawnFailed;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
    }
    if r.verdict.system_message.is_some() {
        r.verdict.source = VerdictSource::ExitCode;
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, ..Step::of(r) }
}
