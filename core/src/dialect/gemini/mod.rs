//! The `gemini` dialect (Google Gemini CLI; agents.md §3): Claude Code's three-level settings
//! shape with Gemini's own event and tool names, JSON with comments, timeouts in milliseconds,
//! `hooksConfig` switches, dedup by `name` and `command`, a re-serialised payload with a
//! `timestamp`, JSON read whatever the exit code, and a parallel fold that turns sequential and
//! chaining when a selected handler sits in a `sequential: true` group.
//!
//! One module per job: `config.rs` reads a settings document and its switches, `matcher.rs`
//! matches groups, `tools.rs` translates Claude Code's tool names, `payload.rs` shapes stdin,
//! `reading.rs` reads one hook, `fold.rs` folds a fire. This folder never runs a process.

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

use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, Strategy, Switches, Syntax, ev, native};
use super::{Finished, FireEvent, Step};
use super::{Profile, TimeUnit};
use crate::catalog::EventSpec;
use crate::catalog::{Dialect, Scope};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use serde_json::Value;
use std::borrow::Cow;

/// Gemini's default timeout (agents.md §3.1): 60,000 ms.
const DEFAULT_TIMEOUT_S: f64 = 60.0;

/// The `gemini` dialect.
pub struct GeminiRules;

/// Gemini's event names (agents.md §3.1) and the catalogue events they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("BeforeTool", &["PreToolUse"], true),
    ev("AfterTool", &["PostToolUse", "PostToolUseFailure"], true),
    ev("BeforeAgent", &["UserPromptSubmit"], true),
    ev("AfterAgent", &["Stop"], true),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("PreCompress", &["PreCompact"], false),
    ev("Notification", &["Notification"], false),
    native("BeforeModel", true),
    native("AfterModel", false),
    native("BeforeToolSelection", false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Gemini,
    files: "`~/.gemini/settings.json`, `.gemini/settings.json`, system settings (JSON with comments)",
    shape: "Claude Code's, with Gemini's event names and `sequential` groups",
    differs: "its own event and tool names, timeouts in milliseconds, JSON with comments, `hooksConfig` switches, dedup by name and command, every reason joined",
    syntax: Syntax::Jsonc,
    timeout_unit: TimeUnit::Milliseconds,
    document_keys: &["hooksConfig"],
    native_events: Some(EVENTS),
    fold_summary: "parallel (one at a time, chaining rewrites, when a matched hook's group is `sequential`); deny > ask > allow, every reason joined",
    // Sequential fires chain `tool_input`, `prompt` and `llm_request` (a parallel fire is one
    // batch, so nothing is chained there).
    chains: true,
    dedup: super::Dedup::NameAndCommand,
    // Session first, then project before user (Gemini ranks project > user > system >
    // extensions).
    scope_order: [Scope::Session, Scope::Project, Scope::Local, Scope::User, Scope::Managed, Scope::Plugin],
    default_timeout_s: Some(DEFAULT_TIMEOUT_S),
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    write: Some(write::write),
    handler_env: super::settings::SequentialEnv::env_of,
    ..Profile::BASE
};

impl DialectRules for GeminiRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Files in `.gemini/`, and JSON with `hooksConfig` or an event only Gemini CLI names.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if !file.is_json_like() {
            return Claim::No;
        }
        let own_event =
            |name: &&str| EVENTS.iter().any(|e| e.name == *name && crate::catalog::lookup(name).is_none());
        let content = file.json().is_some_and(|m| m.contains_key("hooksConfig"))
            || file.json_events().iter().any(own_event);
        file.in_dir(".gemini").max(if content { Claim::Content } else { Claim::No })
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        super::settings::read_document(self, doc, cx, p, events, warnings)
    }

    /// Gemini's payload with Claude Code's event and tool names (`native.rs`).
    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }

    fn switches(
        &self,
        doc: &Value,
        base: &str,
        p: &Parse,
        warnings: &mut ConfigWarnings,
    ) -> Result<Switches, ConfigError> {
        config::switches(doc, base, p, warnings)
    }

    /// Parallel unless a selected handler belongs to a `sequential: true` group: then every
    /// hook of the fire, one at a time in configuration order, and a deny stops nothing.
    fn strategy_for(&self, selected: &[&Handler]) -> Strategy {
        super::settings::SequentialEnv::strategy(selected)
    }

    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        fold::fold(steps)
    }

    /// `GEMINI_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`, then the handler's own `env`.
    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        let mut vars = vec![
            ("GEMINI_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
            ("CLAUDE_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
        ];
        vars.extend(super::settings::SequentialEnv::env(h));
        vars
    }

    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::bytes(h, ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, ev, f)
    }
}

#[cfg(test)]
mod tests;
