//! The `qwen-code` dialect: Qwen Code 0.24.4 as observed (agents-2.md §0, `docs/dialects.md`, "qwen-code").
//! A Gemini CLI fork that reads Claude Code's settings shape, event names, stdin keys and
//! answers, read here by Claude Code's pieces. What is Qwen's own, and code here:
//!
//! - a command hook's `timeout` below 1000 is seconds, 1000 or more milliseconds
//!   (`config.rs`; the documentation says milliseconds only);
//! - groups may say `sequential: true` (one hook at a time, a deny stops nothing) and handlers
//!   carry `env` (`config.rs`);
//! - the matcher is searched anywhere, case-sensitively, also under Qwen's names for the tool
//!   (`Bash` and `Shell` reach `run_shell_command`);
//! - PreToolUse's `updatedInput` and `additionalContext` are ignored, exit 2 blocks only with
//!   stderr, PostToolUse cannot block (`reading.rs`);
//! - `QWEN_PROJECT_DIR` and `GEMINI_PROJECT_DIR` beside `CLAUDE_PROJECT_DIR`.

mod answer;
mod config;
mod install;
mod native;
mod reading;
mod tools;
mod write;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, NativeEvent, Step, Strategy, ev, native};
use crate::catalog::Dialect;
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use serde_json::Value;
use std::borrow::Cow;

/// The `qwen-code` dialect.
pub struct QwenCodeRules;

/// Qwen's events (observed firing, or documented for 0.24): Claude Code's names, and three of
/// its own. PostToolUse is not a blocking event in Qwen (a block is ignored, observed).
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("PostToolBatch", &["PostToolBatch"], false),
    ev("PermissionRequest", &["PermissionRequest"], true),
    ev("PermissionDenied", &["PermissionDenied"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], true),
    ev("StopFailure", &["StopFailure"], false),
    ev("SubagentStart", &["SubagentStart"], false),
    ev("SubagentStop", &["SubagentStop"], true),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("Notification", &["Notification"], false),
    ev("PreCompact", &["PreCompact"], false),
    ev("MessageDisplay", &["MessageDisplay"], false),
    native("SessionDelete", false),
    native("TodoCreated", false),
    native("TodoCompleted", false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::QwenCode,
    files: "`hooks` in `~/.qwen/settings.json`, `.qwen/settings.json`, `.qwen/settings.local.json`",
    shape: "Claude Code's, with `sequential` groups and handler `env`",
    differs: "a timeout below 1000 is seconds, from 1000 milliseconds; matchers searched anywhere with Qwen's tool names; PreToolUse `updatedInput`/`additionalContext` ignored; `sequential` groups; `QWEN_PROJECT_DIR`",
    native_events: Some(EVENTS),
    fold_summary: "parallel (one at a time, every hook running, when a matched hook's group is `sequential`); verdicts fold by precedence in configuration order",
    timeout_unit: super::TimeUnit::SecondsBelow1000,
    dedup: super::Dedup::Command,
    sets_project_dir: true,
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
    handler_env: super::settings::SequentialEnv::env_of,
    ..Profile::BASE
};

impl DialectRules for QwenCodeRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_json_like() { file.in_dir(".qwen") } else { Claim::No }
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

    /// Observed: hooks of one event run in parallel; a `sequential: true` group runs its
    /// hooks one at a time, and a deny stops nothing (the next hook still runs).
    /// Qwen's payload with Claude Code's tool names, for the bridge (`native.rs`).
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }

    fn strategy_for(&self, selected: &[&Handler]) -> Strategy {
        super::settings::SequentialEnv::strategy(selected)
    }

    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        let mut vars = vec![
            ("QWEN_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
            ("GEMINI_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
        ];
        vars.extend(super::settings::SequentialEnv::env(h));
        vars
    }

    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        super::claude_code::payload(ev)
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}
