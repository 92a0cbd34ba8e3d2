//! The `kimi-cli` dialect: Kimi CLI 1.52.0 as observed (agents-2.md §0, `docs/dialects.md`, "kimi-cli").
//! Claude Code's event names, stdin keys and answers, but not its settings shape and only a
//! sliver of its answers:
//!
//! - TOML: a flat `[[hooks]]` list of `{event, command, matcher, timeout}` in
//!   `~/.kimi/config.toml`; no groups, no project file (`config.rs`);
//! - a timeout is an integer of seconds, 1 to 600, default 30; an unknown event or a
//!   fractional timeout makes Kimi refuse to start, hookwire warns and skips that hook;
//! - the matcher is searched anywhere, case-sensitively, with no tool-name aliases; `*` is an
//!   invalid regex (the hook never runs); on UserPromptSubmit it is searched in the prompt;
//! - only exit 2 (stderr) and `hookSpecificOutput.permissionDecision: "deny"` have any effect,
//!   on the events that can block; PostToolUse is not waited for (`reading.rs`);
//! - hooks run in parallel, deduplicated by command; the first blocking hook in configuration
//!   order gives the reason (Claude Code's fold does that);
//! - no variables of its own, no `CLAUDE_PROJECT_DIR`.

mod answer;
mod config;
mod install;
mod reading;
mod write;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, NativeEvent, Step, ev};
use crate::catalog::Dialect;
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use serde_json::Value;
use std::borrow::Cow;

/// The `kimi-cli` dialect.
pub struct KimiCliRules;

/// Kimi's thirteen events (its `HookDef`), Claude Code's names. PostToolUse and
/// PostToolUseFailure are fire-and-forget; blocks count on PreToolUse, UserPromptSubmit and
/// Stop (observed) and SubagentStop (unverified, chosen as Claude Code's).
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], true),
    ev("StopFailure", &["StopFailure"], false),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("SubagentStart", &["SubagentStart"], false),
    ev("SubagentStop", &["SubagentStop"], true),
    ev("PreCompact", &["PreCompact"], false),
    ev("PostCompact", &["PostCompact"], false),
    ev("Notification", &["Notification"], false),
];

/// Claude Code's tool names and Kimi CLI's for the same tools, for the bridge only: `Shell`
/// observed (541); the others are Kimi CLI 1.52's tool classes, unverified as hook payloads.
const TOOLS: super::family::ToolNames = &[
    ("Bash", &["Shell"]),
    ("Read", &["ReadFile"]),
    ("Write", &["WriteFile"]),
    ("Edit", &["StrReplaceFile"]),
    ("WebSearch", &["SearchWeb"]),
    ("WebFetch", &["FetchURL"]),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::KimiCli,
    files: "`[[hooks]]` in `~/.kimi/config.toml` (no project file)",
    shape: "a flat list of `{event, matcher, command, timeout}`",
    syntax: super::Syntax::Toml,
    differs: "TOML `[[hooks]]` flat list; only exit 2 and `permissionDecision: \"deny\"` have effect; PostToolUse not waited for; matchers searched anywhere (prompt text on UserPromptSubmit), `*` invalid; dedup by command; no project-dir variable",
    native_events: Some(EVENTS),
    dedup: super::Dedup::Command,
    default_timeout_s: Some(30.0),
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for KimiCliRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Its directory (`.kimi/`, or `.kimi-code/` of newer builds), TOML only.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_toml() { file.in_dir(".kimi").max(file.in_dir(".kimi-code")) } else { Claim::No }
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

    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        super::claude_code::payload(ev)
    }

    /// Kimi's payload naming its own tool (`Shell`) as Claude Code's, for the bridge. Its
    /// matchers never translate (observed: `Bash` does not match `Shell`); the bridge must, or a
    /// user's `Bash` guard would never meet Kimi's shell.
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        super::with_claude_code_tool(&PROFILE, name, event, |t| super::claude_code_name_in(TOOLS, t))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}
