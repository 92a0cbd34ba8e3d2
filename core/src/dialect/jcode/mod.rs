//! The `jcode` dialect at fire time (protocol.md §9.1): CC's payload, `JCODE_*` variables,
//! exit 0 JSON only, `continue: false` as a block on Stop and UserPromptSubmit, chained
//! `updatedInput`/`modifiedResult`, and the sequential stop-at-first-block fold (shared by ok).

mod answer;
mod install;
mod matcher;
mod payload;
mod reading;
mod write;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::settings::SettingsShape;
use super::{DialectRules, NativeEvent, Strategy, ev, verdicts};
use super::{Finished, FireEvent, Step};
use crate::catalog::{Dialect, EventId, EventSpec, HandlerType, Rules};
use crate::config::Handler;
use crate::config::RunMode;
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use crate::matcher::GroupMatcher;
use serde_json::Value;
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
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
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
        payload::vars(h, ev)
    }
    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        super::claude_code::payload(ev)
    }
    /// jcode's payload naming one of its own tools (`execute`, `run_shell`) as Claude Code's,
    /// for the bridge.
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        super::with_claude_code_tool(&PROFILE, name, event, matcher::claude_code_name)
    }
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}
