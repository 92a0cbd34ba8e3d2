//! The `ok` dialect at fire time (protocol.md §9.3): a camelCase payload, exit codes only
//! (stdout never parsed), a timeout that blocks on gating events, and one line per failure:
//! `hook [<project|global>/<Event>] <command> — <block|warn|error>: <detail>`.

mod answer;
mod config;
mod matcher;
mod native;
mod payload;
mod reading;
mod write;

use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, Strategy, ev, verdicts};
use super::{Finished, FireEvent, Step};
use super::{Profile, TimeUnit};
use crate::catalog::Dialect;
use crate::catalog::EventSpec;
use crate::catalog::Scope;
use crate::config::Handler;
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use serde_json::Value;
use std::borrow::Cow;

/// A hook's knobs: the layer its lines name (`project` or `global`).
#[derive(Debug)]
pub(crate) struct OkKnobs {
    pub layer: &'static str,
}

/// The `ok` dialect.
pub struct OkRules;

/// Its event names and what they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Ok,
    files: "`.ok/` JSON files",
    shape: "event → flat list of hooks",
    differs: "timeouts in milliseconds, a flat list per event; one at a time, stopping at the first block",
    timeout_unit: TimeUnit::Milliseconds,
    native_events: Some(EVENTS),
    strategy: Strategy::SequentialStop,
    fold_summary: super::SEQUENTIAL_STOP,
    // Project hooks run before user hooks in ok (§9.3).
    scope_order: [Scope::Managed, Scope::Project, Scope::User, Scope::Local, Scope::Plugin, Scope::Session],
    answer: Some(answer::answer),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for OkRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_json_like() { file.in_dir(".ok") } else { Claim::No }
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
    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        crate::fold::first_block(&verdicts(steps))
    }
    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::payload(h, ev))
    }
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }

    /// The agent's own payload as the canonical event (`native.rs`), for the bridge.
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }
}
