//! The `antigravity` dialect: Google's Antigravity CLI (`agy`), Gemini CLI's successor for
//! consumer users (agents-2.md §2.3; mostly third-party facts, see `docs/dialects.md`).
//!
//! - `hooks.json` in `~/.gemini/antigravity-cli/`, `~/.gemini/config/` and the project's
//!   `.agents/`, whose top level holds **named hooks** with `enabled` and their events; matcher
//!   groups on PreToolUse and PostToolUse, flat handlers elsewhere; timeouts integer seconds
//!   (`config.rs`). Where Antigravity drops a whole file for one bad key, hookwire keeps the
//!   rest with a warning;
//! - events PreToolUse, PostToolUse, Stop, SessionStart and its own PreInvocation and
//!   PostInvocation (native-only);
//! - camelCase stdin `{conversationId, stepIdx, toolCall{name, args}}` with its tool names
//!   (`payload.rs`, `tools.rs`); a host's own payloads are recognised by their keys
//!   (`native.rs`);
//! - both answer forms, `allowTool`/`denyReason` and `decision`/`reason`; PreToolUse fails
//!   closed (`reading.rs`).

mod answer;
mod config;
mod install;
mod native;
mod payload;
mod reading;
mod tools;
mod write;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, NativeEvent, Step, Switches, ev, native};
use crate::catalog::Dialect;
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use serde_json::Value;
use std::borrow::Cow;

/// The `antigravity` dialect.
pub struct AntigravityRules;

/// Its events. PreInvocation (before a model call) and PostInvocation (after it) have no
/// canonical counterpart; Stop continues the agent with `decision: "continue"`.
static EVENTS: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("Stop", &["Stop"], true),
    ev("SessionStart", &["SessionStart"], false),
    native("PreInvocation", false),
    native("PostInvocation", false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Antigravity,
    files: "`~/.gemini/antigravity-cli/hooks.json`, `~/.gemini/config/hooks.json`, `.agents/hooks.json`",
    shape: "named hooks → event → matcher groups (tool events) or handlers",
    differs: "named hooks with `enabled`, camelCase stdin (`conversationId`, `toolCall`) with its tool names, `allowTool`/`denyReason` or `decision` answers, PreToolUse fails closed on any unclear answer, integer-second timeouts",
    native_events: Some(EVENTS),
    default_timeout_s: Some(60.0),
    native_payloads: true,
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for AntigravityRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Its own directory (`antigravity-cli/`), the `config/` of `~/.gemini/` and a project's
    /// `.agents/`, JSON only; elsewhere a document of named hooks: no `hooks` key, and a value
    /// that is an object with `enabled` or one of its events.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if !file.is_json_like() {
            return Claim::No;
        }
        let config = if file.in_dir(".gemini") == Claim::No { Claim::No } else { file.in_dir("config") };
        let named = file.json().is_some_and(|m| {
            !m.contains_key("hooks")
                && m.values().filter_map(Value::as_object).any(|h| {
                    h.get("enabled").is_some_and(Value::is_boolean)
                        || h.keys().any(|k| PROFILE.native_event(k).is_some())
                })
        });
        let content = if named { Claim::Content } else { Claim::No };
        file.in_dir("antigravity-cli").max(file.in_dir(".agents")).max(config).max(content)
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

    /// Antigravity's `hooks.json` has no switches: every top-level key is a hook's name.
    fn switches(
        &self,
        _doc: &Value,
        _base: &str,
        _p: &Parse,
        _warnings: &mut ConfigWarnings,
    ) -> Result<Switches, ConfigError> {
        Ok(Switches::default())
    }

    /// Antigravity's own payload (`toolCall`, `conversationId`), fired under its event's name.
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }

    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::payload(h, ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::json;

    #[test]
    fn odd_documents_are_errors_inline_and_never_panic() {
        for bad in [
            json!([]),
            json!({"h": 1}),
            json!({"h": {"enabled": 1}}),
            json!({"h": {"PreToolUse": {}}}),
            json!({"h": {"PreToolUse": [1]}}),
            json!({"h": {"PreToolUse": [{"hooks": 1}]}}),
            json!({"h": {"PreToolUse": [{"matcher": 5, "hooks": []}]}}),
            json!({"h": {"Stop": [{"type": "agent", "command": "x"}]}}),
            json!({"h": {"Stop": [{"command": "x", "timeout": 0}]}}),
            json!({"h": {"Stop": [{"command": "x", "timeout": 1e300}]}}),
        ] {
            let config =
                json!({"dialect": "antigravity", "sources": [{"scope": "user", "settings": bad.clone()}]});
            assert!(Dispatcher::from_value(config).is_err(), "{bad}");
        }
    }

    #[test]
    fn thousands_of_named_hooks_load_and_a_fire_runs_only_the_matching_ones() {
        let mut named = serde_json::Map::new();
        for i in 0..2_000 {
            let group =
                json!({"matcher": format!("tool{i}"), "hooks": [{"type": "command", "command": "exit 0"}]});
            named.insert(format!("h{i}"), json!({"PreToolUse": [group]}));
        }
        let config = json!({"dialect": "antigravity", "sources": [{"scope": "user", "settings": named}]});
        let d = Dispatcher::from_value(config).unwrap();
        let r = d.fire(&json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "tool7", "tool_input": {}}));
        assert_eq!(r.unwrap().to_json().matches("\"hook\":").count(), 1);
    }
}
