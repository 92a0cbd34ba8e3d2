//! The `open-plugins` dialect (the Open Plugins hooks specification, open-plugins.com, as Goose
//! implements it: `block/goose` `crates/goose/src/hooks/mod.rs`; agents-2.md §2.9). A plugin's
//! `hooks/hooks.json` in Claude Code's shape; the core events, the extended ones (four of them
//! native: `BeforeReadFile`, `AfterFileEdit`, `BeforeShellExecution`, `AfterShellExecution`)
//! and Goose's `PreToolUseResult`; unknown events are ignored (hookwire warns). What is code:
//!
//! - the matcher, an unanchored regex tested against the event's "matcher context" (the tool
//!   name, the file path of the file events, the command of the shell events): the native
//!   events' catalogue rows name the field, so Claude Code's matcher value is that context;
//! - the handler's `on_failure: "block"` (Claude Code's `onFailure`), honoured on PreToolUse
//!   only, and `${PLUGIN_ROOT}` in commands, replaced by the plugin's root as text, also set
//!   as `PLUGIN_ROOT` in the environment (`config.rs`);
//! - stdin, Goose's context object (`payload.rs`);
//! - the reading, where stdout is only a decision channel (`reading.rs`);
//! - hooks run one at a time and the first block ends the fire (Goose's blocking chain).

mod answer;
mod config;
mod native;
mod payload;
mod reading;

use super::claim::{Claim, FileHint};
use super::family::{Anchoring, Family, Member};
use super::{Finished, FireEvent, NativeEvent, Profile, Step, ev, native, verdicts};
use crate::catalog::{Dialect, EventSpec, HandlerType};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use serde_json::Value;
use std::borrow::Cow;

/// The `open-plugins` dialect.
pub struct OpenPluginsRules;

/// The specification's core and extended events and Goose's `PreToolUseResult`. Blocking:
/// PreToolUse and Stop (Goose's blocking chain), the two `Before…` events and
/// UserPromptSubmit (hookwire's choice where Goose's code does not say).
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], true),
    ev("SubagentStart", &["SubagentStart"], false),
    ev("SubagentStop", &["SubagentStop"], false),
    native("BeforeReadFile", true),
    native("AfterFileEdit", false),
    native("BeforeShellExecution", true),
    native("AfterShellExecution", false),
    native("PreToolUseResult", false),
];

/// Goose's default timeout (`DEFAULT_HOOK_TIMEOUT_SECS`).
const DEFAULT_TIMEOUT_S: f64 = 30.0;

static PROFILE: Profile = Profile {
    dialect: Dialect::OpenPlugins,
    files: "a plugin's `hooks/hooks.json`",
    shape: "Claude Code's",
    differs: "file and shell events matched on the path or command, `${PLUGIN_ROOT}`, `on_failure`, Goose's stdin, stdout only for decisions, one hook at a time stopping at the first block",
    native_events: Some(EVENTS),
    strategy: super::Strategy::SequentialStop,
    fold_summary: super::SEQUENTIAL_STOP,
    default_timeout_s: Some(DEFAULT_TIMEOUT_S),
    answer: Some(answer::answer),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

/// Its settings as the family reads them: unanchored regex matchers, command handlers only.
static FAMILY: Family = Family {
    profile: &PROFILE,
    anchoring: Anchoring::Unanchored,
    handler_types: Some(&[HandlerType::Command]),
    ..Family::BASE
};

impl Member for OpenPluginsRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }

    /// JSON naming an event only the specification has (`BeforeShellExecution`, ...). A
    /// plugin's `hooks/hooks.json` is also Claude Code's, which keeps it by default.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        let own = |name: &&str| EVENTS.iter().any(|e| e.name == *name && e.native_only.is_some());
        if file.is_json_like() && file.json_events().iter().any(own) { Claim::Content } else { Claim::No }
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        config::read(&FAMILY, doc, cx, p, events, warnings)
    }

    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        crate::fold::first_block(&verdicts(steps))
    }

    fn vars(&self, h: &Handler, _ev: &FireEvent<'_>) -> Vec<(String, String)> {
        config::plugin_root(h).map(|r| vec![("PLUGIN_ROOT".to_string(), r.to_string())]).unwrap_or_default()
    }

    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::bytes(ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }

    /// Goose's hook context as the canonical event (`native.rs`), for the bridge.
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }
}
