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
//! - a handler carrying `if`, `condition`, `shell`, `once` or the `asyncRewake` keys is
//!   dropped, as Muse drops it after parsing it;
//! - a PostToolUseFailure hook may return `hookSpecificOutput.updatedInput`, a corrected input
//!   for a retry, which Claude Code's reading ignores there.
//!
//! Unverified, hookwire's choices: Claude Code's anchoring of plain names, timeouts in seconds
//! with Claude Code's defaults, `CLAUDE_PROJECT_DIR` for the project.

use super::family::{Family, Member};
use super::{Finished, FireEvent, NativeEvent, Profile, Step, ev, native};
use crate::catalog::{Dialect, HandlerType};
use crate::config::Handler;
use crate::runner::End;

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
    answer: Some(answer),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

static FAMILY: Family = Family {
    profile: &PROFILE,
    dirs: &[".muse", "muse"],
    handler_types: Some(&[HandlerType::Command]),
    matcher_on_every_event: true,
    async_only: &["Interrupt"],
    drops_handlers_with: &[
        "if",
        "condition",
        "shell",
        "once",
        "asyncRewake",
        "rewakeMessage",
        "rewakeSummary",
    ],
    ..Family::BASE
};

impl Member for MuseCodeRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }

    /// Claude Code's reading, and on PostToolUseFailure the corrected input of a retry.
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        let mut step = Dialect::ClaudeCode.rules().read(h, ev, f);
        if ev.spec.name == "PostToolUseFailure" && matches!(f.end, End::Exited(0)) {
            let json = crate::json::from_output(f.stdout.text.trim()).ok();
            let retry = json.as_ref().and_then(|j| j.pointer("/hookSpecificOutput/updatedInput"));
            if let Some(input) = retry.filter(|u| u.is_object()) {
                step.reading.verdict.updated_input = Some(input.clone());
                step.reading.verdict.finish();
            }
        }
        step
    }
}

/// A result in Muse Code's own answer form, for the bridge: Claude Code's, which it reads.
fn answer(a: &crate::dialect::answering::Answering<'_>) -> crate::dialect::answering::Answer {
    crate::dialect::claude_code::answer::answer_as("Muse Code", a)
}
