//! The `iflow` dialect (iFlow CLI; agents-2.md §1, platform.iflow.cn "Hooks"): Claude Code's
//! settings shape in `~/.iflow/settings.json` and `.iflow/settings.json` [s], nine events [s]
//! of which `SetUpEnvironment` (at session start, while the environment is set up) is its own,
//! Claude Code's matchers [s], and the tool's name and arguments also in the environment,
//! `IFLOW_TOOL_NAME` and `IFLOW_TOOL_ARGS` [s]. Unverified, hookwire's choices: timeouts in
//! seconds with Claude Code's defaults, `CLAUDE_PROJECT_DIR` for the project.

mod install;

use super::family::{Family, Member};
use super::{FireEvent, NativeEvent, Profile, ev, native};
use crate::catalog::Dialect;
use serde_json::Value;

/// The `iflow` dialect.
pub struct IflowRules;

static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], true),
    native("SetUpEnvironment", false),
    ev("Stop", &["Stop"], true),
    ev("SubagentStop", &["SubagentStop"], true),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Notification", &["Notification"], false),
];

static PROFILE: Profile = Profile {
    dialect: Dialect::Iflow,
    files: "`~/.iflow/settings.json`, `.iflow/settings.json`",
    shape: "Claude Code's",
    differs: "nine events with its own `SetUpEnvironment`, `IFLOW_TOOL_NAME` and `IFLOW_TOOL_ARGS` in the environment",
    native_events: Some(EVENTS),
    sets_project_dir: true,
    answer: Some(answer),
    install: Some(&install::INSTALL),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

/// `IFLOW_TOOL_NAME` and `IFLOW_TOOL_ARGS` (the compact JSON of `tool_input`) on tool events.
fn tool_vars(ev: &FireEvent<'_>) -> Vec<(String, String)> {
    if !ev.spec.tool_event {
        return Vec::new();
    }
    let args = ev.current.get("tool_input").map(Value::to_string).unwrap_or_default();
    vec![
        ("IFLOW_TOOL_NAME".into(), crate::matcher::tool_name(ev.current).to_string()),
        ("IFLOW_TOOL_ARGS".into(), args),
    ]
}

static FAMILY: Family =
    Family { profile: &PROFILE, dirs: &[".iflow"], extra_vars: tool_vars, ..Family::BASE };

impl Member for IflowRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }
}

/// A result in iFlow CLI's own answer form, for the bridge: Claude Code's, which it reads.
fn answer(a: &crate::dialect::answering::Answering<'_>) -> crate::dialect::answering::Answer {
    crate::dialect::claude_code::answer::answer_as("iFlow CLI", a)
}
