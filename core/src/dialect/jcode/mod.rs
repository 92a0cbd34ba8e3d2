//! The `jcode` dialect at fire time (protocol.md §9.1): CC's payload, `JCODE_*` variables,
//! exit 0 JSON only, `continue: false` as a block on Stop and UserPromptSubmit, chained
//! `updatedInput`/`modifiedResult`, and the sequential stop-at-first-block fold (shared by ok).

mod matcher;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::settings::SettingsShape;
use super::{DialectRules, NativeEvent, Strategy, ev, verdicts};
use super::{Finished, FireEvent, Step, block_decision};
use crate::catalog::{Dialect, EventId, EventSpec, HandlerType, Rules};
use crate::config::Handler;
use crate::config::RunMode;
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use crate::matcher::GroupMatcher;
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text, fmt_secs};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The `jcode` dialect.
pub struct JcodeRules;

/// Its event names and what they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("SessionStart", &["SessionStart"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("PreCompact", &["PreCompact"], false),
    ev("PostCompact", &["PostCompact"], false),
    ev("Stop", &["Stop"], true),
];

/// jcode reads Claude Code's settings shape with its own event names and matcher, command
/// handlers only, and its own timeouts.
impl SettingsShape for JcodeRules {
    fn event_ids_of(&self, name: &str) -> Vec<EventId> {
        PROFILE.event_ids(name)
    }

    fn group_matcher(
        &self,
        raw: Option<&str>,
        _spec: &EventSpec,
        _rules: Rules,
    ) -> super::settings::ReadMatcher {
        matcher::JcodeMatcher::compile(raw.unwrap_or("")).map(|m| (GroupMatcher::new(m), None))
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (ty != HandlerType::Command).then(|| "jcode runs command handlers only".to_string())
    }

    /// Seconds, default 60; async only where nothing can be blocked, capped at 30 s.
    fn timing(
        &self,
        spec: &EventSpec,
        rules: Rules,
        mode: RunMode,
        timeout: Option<f64>,
        warn: &mut dyn FnMut(String),
    ) -> (RunMode, Option<f64>) {
        let timeout = timeout.unwrap_or(60.0);
        if mode == RunMode::Sync {
            (mode, Some(timeout))
        } else if PROFILE.can_block(spec, rules) {
            warn(format!("async hooks cannot run on {}; runs synchronously", spec.name));
            (RunMode::Sync, Some(timeout))
        } else {
            (mode, Some(timeout.min(30.0)))
        }
    }
}

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Jcode,
    files: "`.jcode/` JSON files",
    shape: "Claude Code's",
    differs: "hooks run one at a time and stop at the first block; `.jcode/` files",
    native_events: Some(EVENTS),
    strategy: Strategy::SequentialStop,
    fold_summary: super::SEQUENTIAL_STOP,
    chains: true,
    sets_project_dir: true,
    ..Profile::BASE
};

impl DialectRules for JcodeRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_json_like() { file.in_dir(".jcode") } else { Claim::No }
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        super::settings::read_document(self, doc, cx, p, events, warnings)
    }
    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        crate::fold::first_block(&verdicts(steps))
    }
    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        vars(h, ev)
    }
    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        super::claude_code::payload(ev)
    }
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        read(h, ev, f)
    }
}

pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let field = |k: &str| ev.original.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    vec![
        ("JCODE_SESSION_ID".into(), field("session_id")),
        ("JCODE_TOOL_NAME".into(), field("tool_name")),
        ("JCODE_CWD".into(), field("cwd")),
        ("JCODE_TRANSCRIPT_PATH".into(), field("transcript_path")),
        ("JCODE_HOOK_EVENT".into(), h.native.clone()),
    ]
}

fn empty_reading() -> Reading {
    Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() }
}

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r = empty_reading();
    let mut step_chain = Vec::new();
    let stderr = f.stderr.text.trim();
    let can_block = PROFILE.can_block(ev.spec, ev.rules);
    let name = ev.spec.name;
    match f.end {
        End::TimedOut { .. } | End::Cancelled { .. } => {
            r.status = Status::TimedOut;
            r.error = Some(format!("timed out after {} s", fmt_secs(f.timeout_s)));
        }
        End::SpawnFailed(msg) => {
            r.status = Status::SpawnFailed;
            r.error = Some(msg.clone());
            r.verdict.system_message = Some(format!("hook failed to start: {msg}"));
        }
        End::Failed(msg) | End::Lost(msg) => {
            r.status = Status::Error;
            r.error = Some(msg.clone());
        }
        End::Signaled(sig) => {
            r.status = Status::Error;
            r.error = Some(format!("terminated by signal {sig}"));
            r.verdict.system_message = cap_text(stderr);
        }
        End::Exited(2) => {
            if can_block {
                let reason = if stderr.is_empty() {
                    format!("blocked by {} (exit 2)", h.id)
                } else {
                    stderr.to_string()
                };
                r.verdict.decision = Some(block_decision(ev.spec));
                r.verdict.reason = Some(reason);
                r.verdict.source = VerdictSource::ExitCode;
            }
        }
        End::Exited(0) => {
            let out = f.stdout.text.trim();
            if out.starts_with('{') {
                match crate::json::from_output(out) {
                    Ok(Value::Object(obj)) => apply_json(&obj, name, can_block, &mut r, &mut step_chain),
                    _ => {
                        r.status = Status::Error;
                        r.error = Some("stdout is not valid JSON".into());
                    }
                }
            }
        }
        End::Exited(code) => {
            r.status = Status::Error;
            r.error = Some(match stderr.lines().next() {
                Some(l) => format!("exit {code}: {l}"),
                None => format!("exit {code}, no stderr"),
            });
            r.verdict.system_message = cap_text(stderr);
        }
    }
    if let Some(e) = &r.error {
        r.warnings.push(format!("hook {}: {e}", h.id));
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, chain: step_chain, ..Step::of(r) }
}

fn apply_json(
    obj: &Map<String, Value>,
    name: &str,
    can_block: bool,
    r: &mut Reading,
    chain: &mut Vec<(String, Value)>,
) {
    let v = &mut r.verdict;
    v.source = VerdictSource::Json;
    let s = |k: &str| obj.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
    if let Some(m) = s("systemMessage") {
        v.system_message = cap_text(m);
    }
    if matches!(name, "Stop" | "UserPromptSubmit") && can_block {
        let blocks = s("decision") == Some("block") || obj.get("continue") == Some(&Value::Bool(false));
        if blocks {
            v.decision = Some(Decision::Block);
            v.reason = s("reason").or_else(|| s("stopReason")).map(str::to_string);
        }
    }
    let Some(hso) = obj.get("hookSpecificOutput").and_then(Value::as_object) else { return };
    let hs = |k: &str| hso.get(k).and_then(Value::as_str).map(str::trim).filter(|t| !t.is_empty());
    if name == "PreToolUse" {
        let d = match hs("permissionDecision") {
            Some("allow") => Some(Decision::Allow),
            Some("deny") => Some(Decision::Deny),
            Some("ask") => Some(Decision::Ask),
            _ => None,
        };
        if d.is_some() {
            v.decision = d;
            v.reason = hs("permissionDecisionReason").map(str::to_string);
        }
    }
    if let Some(u) = hso.get("updatedInput").filter(|u| u.is_object()) {
        v.updated_input = Some(u.clone());
        chain.push(("tool_input".into(), u.clone()));
    }
    if let Some(m) = hso.get("modifiedResult").and_then(Value::as_str) {
        v.updated_tool_output = Some(Value::String(m.to_string()));
        chain.push(("tool_response".into(), Value::String(m.to_string())));
    }
    if let Some(c) = hs("additionalContext") {
        v.additional_context = cap_text(c);
    }
}
