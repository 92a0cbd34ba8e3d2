//! The `copilot-cli` dialect: GitHub Copilot CLI 1.0.102 as observed (agents-2.md §0, §2.1,
//! `docs/dialects.md`, "copilot-cli"), and its cloud agent. What is Copilot's own:
//!
//! - `{"version": 1, "hooks": {event: [entry]}}` files (`~/.copilot/hooks/*.json`,
//!   `.github/hooks/*.json`, the policy directory) and the same map inline under `hooks` in its
//!   settings files; flat entries with `bash`, `powershell`, `command` or `exec` + `args`,
//!   `cwd`, `env`, `timeoutSec` (`config.rs`);
//! - **two styles chosen by how the event name is spelled**: a camelCase name (`preToolUse`)
//!   gets Copilot's own payload (`sessionId`, `toolName`, `toolArgs`, no event name) and flat
//!   answers; a PascalCase name (`PreToolUse`) gets Claude Code's snake_case keys and tool
//!   names (`payload.rs`, `reading.rs`, [`Style`]);
//! - hooks run one at a time in configuration order (camelCase entries of a file before its
//!   PascalCase ones), the first deny ends the fire, `modifiedArgs` chains and the last rewrite
//!   wins (the sequential fold, `fold::first_block`);
//! - exit 2 denies preToolUse and permissionRequest (its stderr reaches nobody); any other
//!   failure of a preToolUse hook denies, a timeout never does (`reading.rs`);
//! - camelCase matchers are regexes anchored on Copilot's own tool names (`bash`, `view`);
//!   PascalCase ones are Claude Code's, on either name (`matcher.rs`, `tools.rs`);
//! - a host emulating Copilot fires its camelCase payloads with `hook_event_name` added
//!   (`native.rs`).

mod answer;
mod config;
mod install;
mod matcher;
mod native;
mod payload;
mod reading;
mod tools;
mod write;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, HostEnv, NativeEvent, Step, Strategy, Switches, ev, native};
use crate::catalog::{Dialect, EventSpec, Scope};
use crate::config::{ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use serde_json::Value;
use std::borrow::Cow;

/// A handler's timeout when its entry names none (documented), in seconds.
const DEFAULT_TIMEOUT_S: f64 = 30.0;

/// How an entry's event name was spelled, which decides its payload, answers and matcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// `preToolUse`: Copilot's own camelCase payload and flat answers.
    Camel,
    /// `PreToolUse`: Claude Code's keys and tool names.
    Pascal,
}

impl Style {
    /// The style of an event name as written.
    pub fn of(name: &str) -> Style {
        if name.starts_with(|c: char| c.is_ascii_lowercase()) { Style::Camel } else { Style::Pascal }
    }
}

/// A Copilot handler's settings beyond the common fields.
#[derive(Debug)]
pub(crate) struct CopilotKnobs {
    pub style: Style,
    /// `COPILOT_HOOK_DIR`: the directory of the hooks file (absent for inline settings).
    pub hook_dir: Option<String>,
    /// The entry's `env`, merged into its environment.
    pub env: Vec<(String, String)>,
}

/// The `copilot-cli` dialect.
pub struct CopilotCliRules;

/// Copilot's events: its camelCase names (documented and observed) and the PascalCase names
/// it also accepts for Claude Code compatibility. `userPromptTransformed` and `errorOccurred`
/// are its own.
static EVENTS: &[NativeEvent] = &[
    ev("sessionStart", &["SessionStart"], false),
    ev("sessionEnd", &["SessionEnd"], false),
    ev("userPromptSubmitted", &["UserPromptSubmit"], true),
    native("userPromptTransformed", false),
    ev("preToolUse", &["PreToolUse"], true),
    ev("permissionRequest", &["PermissionRequest"], true),
    ev("postToolUse", &["PostToolUse"], true),
    ev("postToolUseFailure", &["PostToolUseFailure"], false),
    ev("preCompact", &["PreCompact"], false),
    ev("agentStop", &["Stop"], true),
    ev("subagentStart", &["SubagentStart"], false),
    ev("subagentStop", &["SubagentStop"], true),
    native("errorOccurred", false),
    ev("notification", &["Notification"], false),
    ev("SessionStart", &["SessionStart"], false),
    ev("SessionEnd", &["SessionEnd"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PermissionRequest", &["PermissionRequest"], true),
    ev("PostToolUse", &["PostToolUse"], true),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("PreCompact", &["PreCompact"], false),
    ev("Stop", &["Stop"], true),
    ev("SubagentStart", &["SubagentStart"], false),
    ev("SubagentStop", &["SubagentStop"], true),
    ev("Notification", &["Notification"], false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::CopilotCli,
    files: "`~/.copilot/hooks/*.json`, `.github/hooks/*.json`, `/etc/github-copilot/policy.d/*.json`, `hooks` in `~/.copilot/settings.json` and `.github/copilot/settings(.local).json`",
    shape: "event → flat list of hooks (`version: 1`)",
    differs: "camelCase events get Copilot's own payload and flat answers, PascalCase ones Claude Code's; one hook at a time, the first deny ends the fire, `modifiedArgs` chains; exit 2 denies without its stderr; a failing preToolUse hook denies, a timeout never does; anchored matchers on Copilot's tool names",
    document_keys: &["version", "disableAllHooks"],
    native_events: Some(EVENTS),
    strategy: Strategy::Chain,
    fold_summary: "chain: one hook at a time in configuration order, each seeing the arguments rewritten before it; the first deny ends the fire; the last rewrite wins",
    chains: true,
    sets_project_dir: true,
    // The CLI keeps its model provider's settings from every hook (observed).
    host_env: HostEnv::AllBut(&["COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_API_KEY", "COPILOT_OFFLINE"]),
    // policy → user → project → plugins (documented; observed user before project).
    scope_order: [Scope::Managed, Scope::User, Scope::Project, Scope::Local, Scope::Plugin, Scope::Session],
    default_timeout_s: Some(DEFAULT_TIMEOUT_S),
    native_payloads: true,
    answer: Some(answer::answer),
    install: Some(&install::INSTALL),
    directory: Some(super::listing::list),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for CopilotCliRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Files in `.github/hooks/`, `.copilot/hooks/`, `.github/copilot/` and the policy
    /// directory; the content of a `.copilot/settings.json` is Copilot's too.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        // A hooks directory itself (the CLI's `validate .github/hooks`).
        if let Some(dir) = file.directory() {
            let ours = [".github/hooks", ".copilot/hooks", "github-copilot/policy.d"]
                .iter()
                .any(|d| dir.ends_with(d));
            return if ours { Claim::Directory(dir.len()) } else { Claim::No };
        }
        if !file.is_json_like() {
            return Claim::No;
        }
        let dirs = [".github/hooks", ".copilot/hooks", ".github/copilot", ".copilot", "policy.d"];
        dirs.iter().map(|d| file.in_dir(d)).max().unwrap_or(Claim::No)
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        if super::listing::is_listing(doc) {
            // A hooks directory, as `listing::list` listed it.
            return super::listing::read_each(doc, cx, events, warnings, config::read);
        }
        config::read(doc, cx, p, events, warnings)
    }

    /// A file's `disableAllHooks: true` turns off that file's hooks only (observed), which its
    /// reader does: no switch reaches the other files.
    fn switches(
        &self,
        _doc: &Value,
        _base: &str,
        _p: &Parse,
        _warnings: &mut ConfigWarnings,
    ) -> Result<Switches, ConfigError> {
        Ok(Switches::default())
    }

    fn canonical(&self, name: &str, event: &Value) -> Option<Value> {
        native::canonical(name, event)
    }

    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        crate::fold::first_block(&super::verdicts(steps))
    }

    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        payload::vars(h, ev)
    }

    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload::payload(h, style_of(h), ev))
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        reading::read(h, style_of(h), ev, f)
    }
}

/// The style of a Copilot handler.
fn style_of(h: &Handler) -> Style {
    h.knobs.get::<CopilotKnobs>().map_or_else(|| Style::of(&h.native), |k| k.style)
}
