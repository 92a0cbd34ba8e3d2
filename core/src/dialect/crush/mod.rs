//! The `crush` dialect: Crush (Charm) as the recorded source build runs it (agents-2.md §2.7,
//! `docs/dialects.md`, "crush"; the documentation describes a design the build does not have):
//!
//! - `hooks` in `crush.json` (user `~/.config/crush/crush.json`, project `crush.json`): a flat
//!   list per event of `{matcher, command, timeout, name}`; **only PreToolUse fires**, the event
//!   key normalised case-insensitively without `_` (`pre_tool_use`); seconds, default 30
//!   (`config.rs`);
//! - matchers: a Go regexp searched anywhere in Crush's tool name, case-sensitive (`bash`
//!   matches, `Bash` does not); a host's Claude Code names reach Crush's (`tools.rs`);
//! - stdin `{event, session_id, cwd, tool_name, tool_input}` and `CRUSH_*` variables
//!   (`payload.rs`);
//! - answers: exit 2 denies with stderr, exit 49 halts, Crush's JSON keys or Claude Code's
//!   `hookSpecificOutput` (`reading.rs`);
//! - hooks run in parallel, deduplicated by command; deny wins with every reason joined, halt is
//!   sticky, `updated_input` patches merge in configuration order (`fold.rs`).

mod answer;
mod config;
mod fold;
mod install;
mod native;
mod payload;
mod reading;
mod tools;
mod write;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, NativeEvent, Step, Switches, ev};
use crate::catalog::{Dialect, EventSpec};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use serde_json::Value;
use std::borrow::Cow;

/// The `crush` dialect.
pub struct CrushRules;

/// The one event the recorded build fires. Other Claude Code names are accepted by Crush and
/// never fire (`config.rs` warns).
static EVENTS: &[NativeEvent] = &[ev("PreToolUse", &["PreToolUse"], true)];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Crush,
    files: "`hooks` in `~/.config/crush/crush.json`, `crush.json`, `.crush.json`",
    shape: "event → flat list of hooks",
    differs: "only PreToolUse; a flat list per event in `crush.json`; unanchored Go regexps on Crush's tool names (`bash`); exit 2 denies, exit 49 or `halt` halts; its own JSON keys or Claude Code's `hookSpecificOutput`; every deny reason joined; `updated_input` merged; dedup by command; `CRUSH_*` variables",
    native_events: Some(EVENTS),
    fold_summary: "parallel: every matched hook runs at once; any deny wins with every deny reason joined by newlines in configuration order, a halt is sticky, updated_input patches merge in configuration order, contexts join by newlines (dropped on a deny)",
    dedup: super::Dedup::Command,
    default_timeout_s: Some(30.0),
    native_payloads: true,
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for CrushRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Crush's configuration file by its name (`crush.json`, `.crush.json`), and any JSON file
    /// in its user directory (`~/.config/crush/`).
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if !file.is_json_like() {
            return Claim::No;
        }
        let named = file.name().is_some_and(|n| n == "crush.json" || n == ".crush.json");
        file.in_dir(".config/crush").max(if named { Claim::Syntax } else { Claim::No })
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

    /// The recorded build has no switch (the documented `disable_hooks` is not read).
    fn switches(
        &self,
        _doc: &Value,
        _base: &str,
        _p: &Parse,
        _warnings: &mut ConfigWarnings,
    ) -> Result<Switches, ConfigError> {
        Ok(Switches::default())
    }

    /// Crush's own stdin (it has `event` where Claude Code has `hook_event_name`).
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }

    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        fold::fold(steps)
    }

    fn vars(&self, _h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        payload::vars(ev)
    }

    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::payload(ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::{Value, json};

    fn crush(settings: Value) -> Result<Dispatcher, crate::error::ConfigError> {
        Dispatcher::from_value(
            json!({"dialect": "crush", "sources": [{"scope": "user", "settings": settings}]}),
        )
    }

    #[test]
    fn many_entries_and_odd_values_load_without_panicking_and_bad_ones_are_refused_inline() {
        let entries: Vec<Value> = (0..1_000)
            .map(|i| json!({"command": format!("exit {i}"), "matcher": format!("tool{i}|(a+)+$"), "timeout": i + 1}))
            .collect();
        let d = crush(json!({"hooks": {"PreToolUse": entries}})).unwrap();
        let event =
            json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Zzz", "tool_input": {}});
        let r: Value = serde_json::from_str(&d.fire(&event).unwrap().to_json()).unwrap();
        assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0));
        for bad in [
            json!({"hooks": []}),
            json!({"hooks": {"PreToolUse": {}}}),
            json!({"hooks": {"PreToolUse": [1]}}),
            json!({"hooks": {"PreToolUse": [{"command": ""}]}}),
            json!({"hooks": {"PreToolUse": [{"command": "x", "timeout": -1}]}}),
            json!({"hooks": {"PreToolUse": [{"command": "x", "matcher": 5}]}}),
        ] {
            assert!(crush(bad.clone()).is_err(), "{bad}");
        }
    }
}
