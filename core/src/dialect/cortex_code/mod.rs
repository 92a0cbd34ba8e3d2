//! The `cortex-code` dialect (Snowflake Cortex Code CLI; agents-2.md §1, Snowflake's "Cortex
//! Code CLI Settings" and agent SDK "Hooks"): Claude Code's settings shape in
//! `~/.snowflake/cortex/settings.json` and the global `~/.snowflake/cortex/hooks.json` [d],
//! plus the project's [s]; eleven events [s]: the ten the SDK names [d] and SessionStart;
//! Claude Code's matchers [s]. Unverified, hookwire's choices: timeouts in seconds with Claude
//! Code's defaults, `CLAUDE_PROJECT_DIR` for the project, the project's files in `.cortex/`.

use super::family::{Family, Member};
use super::{NativeEvent, Profile, ev};
use crate::catalog::Dialect;

/// The `cortex-code` dialect.
pub struct CortexCodeRules;

static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], true),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], true),
    ev("SubagentStart", &["SubagentStart"], false),
    ev("SubagentStop", &["SubagentStop"], true),
    ev("PreCompact", &["PreCompact"], false),
    ev("Notification", &["Notification"], false),
    ev("PermissionRequest", &["PermissionRequest"], true),
    ev("SessionStart", &["SessionStart"], false),
];

static PROFILE: Profile = Profile {
    dialect: Dialect::CortexCode,
    files: "`~/.snowflake/cortex/settings.json`, `~/.snowflake/cortex/hooks.json`, the project's `.cortex/settings.json`",
    shape: "Claude Code's",
    differs: "`~/.snowflake/cortex/` files and eleven events (no SessionEnd); otherwise unverified and read as Claude Code",
    native_events: Some(EVENTS),
    sets_project_dir: true,
    answer: Some(answer),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

static FAMILY: Family = Family { profile: &PROFILE, dirs: &[".snowflake", ".cortex"], ..Family::BASE };

impl Member for CortexCodeRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }
}

/// A result in Cortex Code's own answer form, for the bridge: Claude Code's, which it reads.
fn answer(a: &crate::dialect::answering::Answering<'_>) -> crate::dialect::answering::Answer {
    crate::dialect::claude_code::answer::answer_as("Cortex Code", a)
}
