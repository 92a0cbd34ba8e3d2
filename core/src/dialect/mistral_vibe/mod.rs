//! The `mistral-vibe` dialect: Mistral Vibe 3.0.3 as observed (agents-2.md §2.8,
//! `docs/dialects.md`, "mistral-vibe"), where it contradicts Vibe's documentation:
//!
//! - TOML `[[hooks]]` in `.vibe/hooks.toml` (project, trusted only) and `~/.vibe/hooks.toml`:
//!   `{name, type, command, match, timeout, strict}`, project first, a project entry winning
//!   over a user entry of the same `name` (`config.rs`);
//! - three events, `pre_tool`, `post_tool`, `post_agent`; a Claude Code name as `type` skips
//!   that entry;
//! - `match`: an fnmatch glob or `re:` regex, whole name, case-insensitive, against the bare or
//!   the namespaced tool name (`bash`, `file_system.bash`), or the agent's name on `post_agent`
//!   (`matcher.rs`, `tools.rs`);
//! - stdin: Vibe's keys, `hook_event_name` its own event name, `tool_name` namespaced, in
//!   Python's `json.dumps` spelling (`payload.rs`);
//! - answers: exit 0 with `{"decision": "allow"|"deny", "reason", "system_message",
//!   "hook_specific_output": {"tool_input" | "additional_context"}}`; everything else (exit 2
//!   included) fails open unless `strict` (`reading.rs`);
//! - one hook at a time, the first deny stopping the chain, rewrites chaining (`fold.rs`).

mod answer;
mod config;
mod fold;
mod install;
mod matcher;
mod native;
mod payload;
mod reading;
mod tools;
mod write;

use super::Profile;
use super::Syntax;
use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, NativeEvent, Step, Strategy, Switches, ev};
use crate::catalog::{Dialect, EventSpec, Scope};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use serde_json::Value;
use std::borrow::Cow;

/// The `mistral-vibe` dialect.
pub struct MistralVibeRules;

/// Vibe's three events (its `HookType`). `post_tool` runs for failed tools too (observed:
/// `tool_status: "failure"`). A post_tool deny replaces the tool result with its reason; a
/// post_agent deny makes the reason a user message and calls the model again.
static EVENTS: &[NativeEvent] = &[
    ev("pre_tool", &["PreToolUse"], true),
    ev("post_tool", &["PostToolUse", "PostToolUseFailure"], true),
    ev("post_agent", &["Stop"], true),
];

/// Vibe's default hook timeout (`_DEFAULT_HOOK_TIMEOUT`), seconds.
const DEFAULT_TIMEOUT_S: f64 = 60.0;

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::MistralVibe,
    files: "`.vibe/hooks.toml` (trusted projects), `~/.vibe/hooks.toml`",
    shape: "a flat list of `[[hooks]]` `{name, type, command, match, timeout, strict}`",
    differs: "TOML `[[hooks]]` with three events (`pre_tool`, `post_tool`, `post_agent`); glob or `re:` matchers, whole name, case-insensitive, on namespaced tool names; exit 2 fails open, only `{\"decision\": \"deny\"}` denies; `strict` fails closed; one at a time, the first deny stops, rewrites chain; project before user, a project entry wins by `name`",
    syntax: Syntax::Toml,
    native_events: Some(EVENTS),
    strategy: Strategy::Chain,
    fold_summary: "chain: one hook at a time in configuration order (project, then user), each seeing the tool input rewritten before it; the first deny ends the chain and gives the reason",
    chains: true,
    dedup: super::Dedup::Name,
    scope_order: [Scope::Managed, Scope::Project, Scope::Local, Scope::User, Scope::Plugin, Scope::Session],
    default_timeout_s: Some(DEFAULT_TIMEOUT_S),
    native_payloads: true,
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for MistralVibeRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// `hooks.toml` in `.vibe/`.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_toml() { file.in_dir(".vibe") } else { Claim::No }
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

    /// `hooks.toml` has no switch.
    fn switches(
        &self,
        _doc: &Value,
        _base: &str,
        _p: &Parse,
        _warnings: &mut ConfigWarnings,
    ) -> Result<Switches, ConfigError> {
        Ok(Switches::default())
    }

    /// Vibe's own stdin, fired under its own event name.
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }

    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        fold::fold(steps)
    }

    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::payload(&h.native, ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::{Value, json};

    fn vibe(settings: Value) -> Result<Dispatcher, crate::error::ConfigError> {
        Dispatcher::from_value(
            json!({"dialect": "mistral-vibe", "sources": [{"scope": "user", "settings": settings}]}),
        )
    }

    #[test]
    fn a_file_of_fifty_thousand_named_entries_loads_with_one_name_check_each() {
        let mut entries: Vec<Value> = (0..50_000)
            .map(|i| json!({"name": format!("h{i}"), "type": "post_agent", "command": "exit 0"}))
            .collect();
        entries.push(json!({"name": "h7", "type": "post_agent", "command": "exit 0"}));
        let config = json!({"dialect": "mistral-vibe", "sources": [{"scope": "user", "path": "/nonexistent"},
                            {"scope": "user", "settings": {"hooks": entries}}]});
        let d = Dispatcher::from_value(config).unwrap();
        assert!(d.load_warnings().iter().any(|w| w.contains("Duplicate hook name: 'h7'")));
    }

    #[test]
    fn many_entries_and_odd_values_load_without_panicking_and_bad_ones_are_refused_inline() {
        let entries: Vec<Value> = (0..1_000)
            .map(|i| json!({"name": format!("h{i}"), "type": "pre_tool", "command": "exit 0", "match": format!("re:t{i}(a+)+"), "timeout": 0.5}))
            .collect();
        let d = vibe(json!({"hooks": entries})).unwrap();
        let event =
            json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Zzz", "tool_input": {}});
        let r: Value = serde_json::from_str(&d.fire(&event).unwrap().to_json()).unwrap();
        assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0));
        for bad in [
            json!({"hooks": {}}),
            json!({"hooks": ["x"]}),
            json!({"hooks": [{"name": "a", "type": "pre_tool"}]}),
            json!({"hooks": [{"name": "a", "type": "pre_tool", "command": "x", "strict": "yes"}]}),
            json!({"hooks": [{"name": "a", "type": "pre_tool", "command": "x", "timeout": "1"}]}),
        ] {
            assert!(vibe(bad.clone()).is_err(), "{bad}");
        }
        // A glob of many stars stays a bounded regex.
        let stars = "*".repeat(10_000);
        assert!(
            vibe(json!({"hooks": [{"name": "s", "type": "pre_tool", "command": "x", "match": stars}]}))
                .is_ok()
        );
    }
}
