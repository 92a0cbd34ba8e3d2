//! The `auggie` dialect (Augment Auggie 0.36.0, observed: `docs/dialects.md`, "auggie"):
//! Claude Code's settings shape in `/etc/augment/settings.json` (managed, outranking every
//! other scope), `~/.augment/settings.json`, `.augment/settings.json` and
//! `.augment/settings.local.json`, with what the recordings showed to differ in code: timeouts
//! in milliseconds, `PromptSubmit` for the prompt event, unanchored case-sensitive matchers and
//! a `*` matcher that disables the whole document (`config.rs`), Auggie's own stdin
//! (`payload.rs`), its reading of the answers, where only PreToolUse can block and most of
//! Claude Code's outputs do nothing (`reading.rs`), and a fold in which an exit-2 hook's stderr
//! is the reason shown. `AUGMENT_*` variables; the session token the CLI hands every hook
//! (`AUGMENT_SESSION_AUTH`) is removed from the hook's environment.

mod answer;
mod config;
mod install;
mod payload;
mod reading;

use super::Profile;
use super::family::{Anchoring, Family, Member, ToolNames};
use super::{Finished, FireEvent, HostEnv, NativeEvent, Step, TimeUnit, ev, verdicts};
use crate::catalog::{Dialect, EventSpec};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use crate::verdict::VerdictSource;
use serde_json::Value;
use std::borrow::Cow;

/// The `auggie` dialect.
pub struct AuggieRules;

/// Auggie's events (observed). Its `PostToolUse` also fires for failed calls; only PreToolUse
/// can block: a Stop block, a PromptSubmit exit 2 and a PostToolUse `decision: "block"` were
/// all seen to change nothing.
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse", "PostToolUseFailure"], false),
    ev("Stop", &["Stop"], false),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("Notification", &["Notification"], false),
    ev("PromptSubmit", &["UserPromptSubmit"], false),
];

/// Claude Code's tool names and Auggie's for the same tools (the recordings' `launch-process`
/// and `view`): a host firing `Bash` reaches a hook whose matcher says `launch-process`.
const TOOLS: ToolNames = &[("Bash", &["launch-process"]), ("Read", &["view"])];

/// The variable holding Auggie's session token, which no hook gets from hookwire.
const SESSION_TOKEN: &str = "AUGMENT_SESSION_AUTH";

/// What this dialect is, as data.
static PROFILE: Profile = Profile {
    dialect: Dialect::Auggie,
    files: "`/etc/augment/settings.json` (managed), `~/.augment/settings.json`, `.augment/settings.json`, `.augment/settings.local.json`",
    shape: "Claude Code's, with `PromptSubmit`",
    differs: "timeouts in milliseconds, `PromptSubmit`, unanchored matchers and `*` disabling the file, its own stdin, only PreToolUse blocks, `AUGMENT_*` variables",
    timeout_unit: TimeUnit::Milliseconds,
    host_env: HostEnv::AllBut(&[SESSION_TOKEN]),
    native_events: Some(EVENTS),
    fold_summary: "parallel: every matched hook runs at once; deny > allow, an exit-2 hook's stderr before any JSON reason",
    // Not observed: the 60,000 ms every other millisecond dialect uses.
    default_timeout_s: Some(60.0),
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(|m, r| super::family::write(&FAMILY, m, r)),
    ..Profile::BASE
};

static FAMILY: Family = Family {
    profile: &PROFILE,
    dirs: &[".augment", "augment"],
    anchoring: Anchoring::Unanchored,
    tools: TOOLS,
    project_dir_vars: &["AUGMENT_PROJECT_DIR"],
    ..Family::BASE
};

impl Member for AuggieRules {
    fn family(&self) -> &'static Family {
        &FAMILY
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        if config::disabled_by_star(doc, cx, p, warnings)? {
            return Ok(());
        }
        FAMILY.read_config(doc, cx, p, events, warnings)
    }

    /// Claude Code's fold, but of a deny by exit 2 and a deny by JSON Auggie showed only the
    /// exit-2 hook's stderr, whichever was configured first: the reason is the first exit-2
    /// deny's when there is one.
    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        let all = verdicts(steps);
        let mut folded = crate::fold::fold(&all);
        let by_exit = all.iter().find(|v| {
            v.source == VerdictSource::ExitCode && v.decision.is_some() && v.decision == folded.decision
        });
        if let Some(v) = by_exit {
            folded.reason = v.reason.clone();
        }
        folded
    }

    /// `AUGMENT_PROJECT_DIR`, `AUGMENT_CONVERSATION_ID`, `AUGMENT_HOOK_EVENT` and, on tool
    /// events, `AUGMENT_TOOL_NAME`.
    fn vars(&self, _h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        let mut vars = FAMILY.vars(ev);
        vars.push(("AUGMENT_CONVERSATION_ID".into(), payload::conversation_id(ev.current).to_string()));
        vars.push(("AUGMENT_HOOK_EVENT".into(), payload::event_name(ev.spec).to_string()));
        if ev.spec.tool_event {
            vars.push(("AUGMENT_TOOL_NAME".into(), crate::matcher::tool_name(ev.current).to_string()));
        }
        vars
    }

    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::bytes(ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}
