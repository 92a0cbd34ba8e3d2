//! The `devin-cli` dialect (Cognition's Devin CLI; agents-2.md §1, docs.devin.ai "Hooks"):
//! Claude Code's hooks with the events at the root of `.devin/hooks.v1.json` (no `hooks` key)
//! [d]; the `.claude/` settings files it also reads keep theirs [d]. Seven events [d]; command
//! and prompt handlers [d]; timeouts in seconds [d]; a matcher is a regex on `tool_name` [d],
//! tested unanchored (hookwire's choice: the documentation says "regex" and nothing about
//! anchors); blocking by exit 2 or `decision: "block"`, any other non-zero exit an error that
//! blocks nothing [d], which is Claude Code's reading. Its tools are `exec` and `edit` [d]:
//! since Claude Code's hooks "work automatically" [d], Claude Code's `Bash`, `Edit` and `Write`
//! and Devin's names reach each other's matchers both ways.

use super::family::{Anchoring, Family, Member, ToolNames};
use super::{NativeEvent, Profile, ev};
use crate::catalog::{Dialect, HandlerType};

/// The `devin-cli` dialect.
pub struct DevinCliRules;

static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], true),
    ev("PermissionRequest", &["PermissionRequest"], true),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], true),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
];

/// Claude Code's tool names and Devin's, both ways.
const TOOLS: ToolNames = &[
    ("Bash", &["exec"]),
    ("Edit", &["edit"]),
    ("Write", &["edit"]),
    ("MultiEdit", &["edit"]),
    ("exec", &["Bash"]),
    ("edit", &["Edit", "Write", "MultiEdit"]),
];

static PROFILE: Profile = Profile {
    dialect: Dialect::DevinCli,
    files: "`.devin/hooks.v1.json` (events at the root), the user's Devin config, `.claude/` settings",
    shape: "event → matcher groups → handlers, at the document's root",
    differs: "events at the root of `hooks.v1.json`, seven events, tools `exec` and `edit`, unanchored regex matchers, command and prompt handlers only",
    native_events: Some(EVENTS),
    // Not documented: Claude Code's variable, which the Claude Code hooks it runs expect.
    sets_project_dir: true,
    answer: Some(answer),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

static FAMILY: Family = Family {
    profile: &PROFILE,
    dirs: &[".devin"],
    anchoring: Anchoring::Unanchored,
    tools: TOOLS,
    root_events: true,
    handler_types: Some(&[HandlerType::Command, HandlerType::Prompt]),
    ..Family::BASE
};

impl Member for DevinCliRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }
}

/// A result in Devin CLI's own answer form, for the bridge: Claude Code's, which it reads.
fn answer(a: &crate::dialect::answering::Answering<'_>) -> crate::dialect::answering::Answer {
    crate::dialect::claude_code::answer::answer_as("Devin CLI", a)
}
