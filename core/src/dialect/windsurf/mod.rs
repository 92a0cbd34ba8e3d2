//! The `windsurf` dialect: Windsurf's (Devin Desktop's) Cascade hooks (agents-2.md §2.4).
//!
//! - `hooks.json` at three levels, system (`/etc/windsurf/`), user (`~/.codeium/windsurf/`) and
//!   workspace (`.windsurf/`), run in that order; `{"hooks": {event: [{command, powershell,
//!   show_output, working_directory}]}}`, no matchers, no timeouts (`config.rs`);
//! - twelve snake_case events; the tool ones stand for Claude Code's PreToolUse and PostToolUse
//!   of one kind of tool each, and the event itself is the filter (`kind.rs`, `matcher.rs`);
//!   `pre_user_prompt` is UserPromptSubmit; the response and worktree events are native-only;
//! - stdin `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`
//!   (`payload.rs`);
//! - no JSON answers: exit 2 on a `pre_*` hook blocks with stderr, everything else fails open
//!   (`reading.rs`);
//! - one hook at a time, stopping at the first block (unverified: see `docs/dialects.md`).

mod config;
mod kind;
mod matcher;
mod native;
mod payload;
mod reading;
mod tools;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, SEQUENTIAL_STOP, Strategy, Switches, ev, native};
use super::{Finished, FireEvent, Step};
use crate::catalog::Dialect;
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use kind::Kind;
use serde_json::Value;
use std::borrow::Cow;

/// A handler's Windsurf settings beyond the common fields.
#[derive(Debug)]
pub(crate) struct WindsurfKnobs {
    /// The event the handler was configured under.
    pub kind: Kind,
    /// `show_output`: its stdout is shown to the user.
    pub show_output: bool,
}

/// The `windsurf` dialect.
pub struct WindsurfRules;

/// Its twelve events and what they stand for. Several share a canonical event: which of them
/// runs for a fire is the matcher's job (`matcher.rs`). Only the `pre_*` hooks block.
static EVENTS: &[NativeEvent] = &[
    ev("pre_read_code", &["PreToolUse"], true),
    ev("post_read_code", &["PostToolUse"], false),
    ev("pre_write_code", &["PreToolUse"], true),
    ev("post_write_code", &["PostToolUse"], false),
    ev("pre_run_command", &["PreToolUse"], true),
    ev("post_run_command", &["PostToolUse"], false),
    ev("pre_mcp_tool_use", &["PreToolUse"], true),
    ev("post_mcp_tool_use", &["PostToolUse"], false),
    ev("pre_user_prompt", &["UserPromptSubmit"], true),
    native("post_cascade_response", false),
    native("post_cascade_response_with_transcript", false),
    native("post_setup_worktree", false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Windsurf,
    files: "`/etc/windsurf/hooks.json` (system), `~/.codeium/windsurf/hooks.json`, `.windsurf/hooks.json`",
    shape: "event → flat list of hooks",
    differs: "snake_case events that each stand for one kind of tool (no matchers), stdin `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`, no JSON answers: only exit 2 on a `pre_*` hook blocks; one hook at a time",
    native_events: Some(EVENTS),
    strategy: Strategy::SequentialStop,
    fold_summary: SEQUENTIAL_STOP,
    ..Profile::BASE
};

impl DialectRules for WindsurfRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Its directories (`.windsurf/`, `windsurf/` of `/etc` and `~/.codeium`, `Windsurf/` of
    /// the macOS and Windows system files, `.codeium/` of the JetBrains plugin), and JSON whose
    /// events are all Windsurf's.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if !file.is_json_like() {
            return Claim::No;
        }
        let events = file.json_events();
        let own = !events.is_empty() && events.iter().all(|e| Kind::of(e).is_some());
        [".windsurf", "windsurf", "Windsurf", ".codeium"]
            .iter()
            .map(|d| file.in_dir(d))
            .fold(if own { Claim::Content } else { Claim::No }, Claim::max)
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

    /// Windsurf's `hooks.json` has no switches: `disableAllHooks` there is an unknown key.
    fn switches(
        &self,
        _doc: &Value,
        _base: &str,
        _p: &Parse,
        _warnings: &mut ConfigWarnings,
    ) -> Result<Switches, ConfigError> {
        Ok(Switches::default())
    }

    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::payload(kind_of(h), ev))
    }

    fn read(&self, h: &Handler, _ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, kind_of(h), f)
    }
}

/// The native event of a windsurf handler.
fn kind_of(h: &Handler) -> Kind {
    h.knobs.get::<WindsurfKnobs>().map(|k| k.kind).or_else(|| Kind::of(&h.native)).unwrap_or(Kind::PreRunCommand)
}
