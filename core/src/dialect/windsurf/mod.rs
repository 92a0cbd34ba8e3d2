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

mod answer;
mod config;
mod install;
mod kind;
mod matcher;
mod native;
mod payload;
mod reading;
mod tools;
mod write;

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
    native_payloads: true,
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
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

    /// Windsurf's own payload (`tool_info`), fired under its event's name (`native.rs`).
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
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
    h.knobs
        .get::<WindsurfKnobs>()
        .map(|k| k.kind)
        .or_else(|| Kind::of(&h.native))
        .unwrap_or(Kind::PreRunCommand)
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::{Value, json};

    fn windsurf(hooks: Value) -> Result<Dispatcher, crate::error::ConfigError> {
        Dispatcher::from_value(
            json!({"dialect": "windsurf", "sources": [{"scope": "user", "settings": {"hooks": hooks}}]}),
        )
    }

    fn fire(d: &Dispatcher, event: Value) -> Value {
        serde_json::from_str(&d.fire(&event).unwrap().to_json()).unwrap()
    }

    #[test]
    fn a_file_listing_thousands_of_hooks_of_one_event_loads_the_first_256_with_a_warning() {
        let dir = std::env::temp_dir().join(format!("hookwire-windsurf-many-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("hooks.json");
        let many: Vec<Value> = (0..5_000).map(|_| json!({"command": "exit 0"})).collect();
        std::fs::write(&file, json!({"hooks": {"pre_run_command": many}}).to_string()).unwrap();
        let config = json!({"dialect": "windsurf", "limits": {"default_timeout_s": 5},
                            "sources": [{"scope": "user", "path": file}]});
        let d = Dispatcher::from_value(config).unwrap();
        assert!(
            d.load_warnings().iter().any(|w| w.contains("lists 5000 hooks; only the first 256 are read")),
            "{:?}",
            d.load_warnings()
        );
        let r = fire(
            &d,
            json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
                                "tool_input": {"command": "ls"}}),
        );
        assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(256));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn odd_documents_are_errors_inline_and_never_panic() {
        for bad in [
            json!([]),
            json!("x"),
            json!({"pre_run_command": {}}),
            json!({"pre_run_command": [1]}),
            json!({"pre_run_command": [{"command": 5}]}),
            json!({"pre_run_command": [{"command": "x", "show_output": "yes"}]}),
            json!({"pre_run_command": [{"command": "x", "working_directory": []}]}),
        ] {
            assert!(windsurf(bad.clone()).is_err(), "{bad}");
        }
        let d = windsurf(json!({"post_setup_worktree": [{"command": "exit 0"}]})).unwrap();
        // A native fire whose fields have hostile types reaches no hook and breaks nothing.
        let r = fire(
            &d,
            json!({"hook_event_name": "pre_run_command", "tool_info": {"command_line": {"a": [1]}},
                                "trajectory_id": 7}),
        );
        assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0));
    }
}
