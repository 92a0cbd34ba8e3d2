//! The `muse-code` dialect (Meta's Muse Code; agents-2.md §1 [s], and skillsaw's
//! `formats/muse.py`, verified against Muse Code 1.0.2 [s]): Claude Code's settings shape in
//! `.muse/hooks.json` (project), `~/.config/muse/settings.json` (user) and a managed file;
//! command handlers only; its own events `PreLLMCall`, `PostLLMCall`, `Interrupt` and
//! `SessionFork` beside Claude Code's; unknown events warned about and skipped. What is code:
//!
//! - a matcher applies on every event: on Stop or UserPromptSubmit, where Claude Code ignores
//!   it, a `Bash` matcher (tested against nothing) suppresses the hook; `""`, `*` or none
//!   match all;
//! - an `Interrupt` hook must be async: one configured synchronous runs asynchronously, with a
//!   warning (hookwire's reading of "must be async");
//! - a PostToolUseFailure hook may return `hookSpecificOutput.updatedInput`, a corrected input
//!   for a retry, which Claude Code's reading ignores there.
//!
//! Unverified, hookwire's choices: Claude Code's anchoring of plain names, timeouts in seconds
//! with Claude Code's defaults, `CLAUDE_PROJECT_DIR` for the project.

use super::claude_code::config::SettingsShape;
use super::family::{Family, Member};
use super::{DialectRules, Finished, FireEvent, NativeEvent, Profile, Step, ev, native};
use super::{TimeoutContext, claim};
use crate::catalog::{Dialect, EventId, EventSpec, HandlerType, Rules};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse, RunMode};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use crate::runner::End;
use serde_json::Value;
use std::borrow::Cow;

/// The `muse-code` dialect.
pub struct MuseCodeRules;

static EVENTS: &[NativeEvent] = &[
    ev("SessionStart", &["SessionStart"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PermissionRequest", &["PermissionRequest"], true),
    ev("PostToolUse", &["PostToolUse"], true),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    native("PreLLMCall", true),
    native("PostLLMCall", false),
    ev("PreCompact", &["PreCompact"], false),
    ev("PostCompact", &["PostCompact"], false),
    ev("SubagentStart", &["SubagentStart"], false),
    ev("SubagentStop", &["SubagentStop"], true),
    ev("Stop", &["Stop"], true),
    ev("SessionEnd", &["SessionEnd"], false),
    native("Interrupt", false),
    native("SessionFork", false),
];

static PROFILE: Profile = Profile {
    dialect: Dialect::MuseCode,
    files: "`.muse/hooks.json`, `~/.config/muse/settings.json`, a managed hooks file",
    shape: "Claude Code's",
    differs: "its own `PreLLMCall`, `PostLLMCall`, `Interrupt` (async only) and `SessionFork`, matchers on every event, command handlers only, a corrected retry input from PostToolUseFailure",
    native_events: Some(EVENTS),
    sets_project_dir: true,
    ..Profile::BASE
};

static FAMILY: Family = Family {
    profile: &PROFILE,
    dirs: &[".muse", "muse"],
    handler_types: Some(&[HandlerType::Command]),
    matcher_on_every_event: true,
    ..Family::BASE
};

/// The family's reading of a document, with Interrupt's hooks made asynchronous.
struct Shape;

impl SettingsShape for Shape {
    fn event_ids_of(&self, name: &str) -> Vec<EventId> {
        FAMILY.event_ids_of(name)
    }

    fn group_matcher(
        &self,
        raw: Option<&str>,
        spec: &EventSpec,
        rules: Rules,
    ) -> Result<GroupMatcher, String> {
        FAMILY.group_matcher(raw, spec, rules)
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        FAMILY.refuses(ty)
    }

    fn timing(
        &self,
        spec: &EventSpec,
        _rules: Rules,
        mode: RunMode,
        timeout: Option<f64>,
        warn: &mut dyn FnMut(String),
    ) -> (RunMode, Option<f64>) {
        if spec.name == "Interrupt" && mode == RunMode::Sync {
            warn(
                "Muse Code runs Interrupt hooks only asynchronously (`async: true`); runs asynchronously"
                    .into(),
            );
            return (RunMode::Async, timeout);
        }
        (mode, timeout)
    }
}

impl DialectRules for MuseCodeRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn claims(&self, file: &claim::FileHint<'_>) -> claim::Claim {
        FAMILY.claims(file)
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        super::claude_code::config::read_document(&Shape, doc, cx, p, events, warnings)
    }

    fn timeout_s(&self, h: &Handler, t: &TimeoutContext) -> f64 {
        FAMILY.timeout_s(h, t)
    }

    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        MemberOf.vars(h, ev)
    }

    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        MemberOf.payload(h, ev)
    }

    /// Claude Code's reading, and on PostToolUseFailure the corrected input of a retry.
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        let mut step = MemberOf.read(h, ev, f);
        if ev.spec.name == "PostToolUseFailure" && matches!(f.end, End::Exited(0)) {
            let json = crate::json::from_output(f.stdout.text.trim()).ok();
            let retry = json
                .as_ref()
                .and_then(|j| j.pointer("/hookSpecificOutput/updatedInput"))
                .filter(|u| u.is_object());
            if let Some(input) = retry {
                step.reading.verdict.updated_input = Some(input.clone());
                step.reading.verdict.finish();
            }
        }
        step
    }

    fn can_block(&self, spec: &EventSpec, rules: Rules) -> bool {
        FAMILY.can_block(spec, rules)
    }
}

/// The family's rules for what Muse Code does as Claude Code does.
struct MemberOf;

impl Member for MemberOf {
    fn family(&self) -> &'static Family {
        &FAMILY
    }
}
