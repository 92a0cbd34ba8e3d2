//! Configuration: the plain CC settings shape or the envelope (protocol.md §2), each source
//! parsed into one typed model: handlers with their hook id, source and scope, matchers
//! compiled, switches and trust applied, in configuration order.
//!
//! Parsing happens once, when the dispatcher is built; the rest of the engine trusts these
//! types. This module never runs a hook.

mod fields;
pub(crate) mod sandbox_key;

use crate::catalog::{self, Dialect, EventId, HandlerType, Rules, Scope, Shell};
use crate::error::ConfigError;
use crate::if_rule::IfRule;
use crate::matcher::GroupMatcher;
use std::any::Any;
use std::path::PathBuf;
use std::sync::Arc;

pub(crate) use fields::{DocContext, FieldResult, Fields, escape};

/// Shortest timeout accepted anywhere (handlers of every dialect, `default_timeout_s`, function
/// hooks): 1 ms. Anything shorter (`timeout: 1e-300`) cannot start a process before its
/// deadline, so it is a configuration error rather than a hook that never runs.
pub const MIN_TIMEOUT_S: f64 = 0.001;

/// Whether `t` seconds is a usable timeout: finite and at least [`MIN_TIMEOUT_S`].
pub fn timeout_ok(t: f64) -> bool {
    t.is_finite() && t >= MIN_TIMEOUT_S
}

/// A command is a shell string or a program with argv, never both (§5.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandSpec {
    Shell { script: String, shell: Shell },
    Exec { program: String, args: Vec<String> },
}

/// What a handler does when it runs: one variant per kind of work (§2.4, §5.8, §5.9).
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A process (the runner's job).
    Command(CommandSpec),
    /// A POST of the event.
    Http(HttpSpec),
    /// `prompt`, `agent`, `mcp_tool`: handed to the host's callback with the handler object as
    /// configured.
    Delegated(serde_json::Value),
    /// A function the host registered on the dispatcher (its slot in the registry).
    Function(usize),
}

#[derive(Debug, Clone, PartialEq)]
pub struct HttpSpec {
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub allowed_env_vars: Vec<String>,
}

impl Action {
    pub fn command(&self) -> Option<&CommandSpec> {
        match self {
            Action::Command(c) => Some(c),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunMode {
    Sync,
    /// The fire does not wait; the outcome is queued for the session (§5.10).
    Async,
    /// Async, and an exit 2 queues its stderr as context.
    AsyncRewake,
    /// Deferred to the session's turn end (Kiro CLI's `only_when_turn_complete`): a fire that
    /// selects it records its event for the session (`turn_end.rs`), and the session's next
    /// `Stop` runs it once, synchronously, with every event recorded since.
    TurnEnd,
}

impl RunMode {
    /// `sync`, `async`, `async_rewake` or `turn_end` (the log field `mode`).
    pub fn as_str(self) -> &'static str {
        match self {
            RunMode::Sync => "sync",
            RunMode::Async => "async",
            RunMode::AsyncRewake => "async_rewake",
            RunMode::TurnEnd => "turn_end",
        }
    }

    /// The fire starts it and does not wait for it (§5.10).
    pub fn is_async(self) -> bool {
        matches!(self, RunMode::Async | RunMode::AsyncRewake)
    }
}

/// An `asyncRewake` hook's texts for the exit 2 that wakes the agent (protocol.md §2.4): the
/// model's system reminder starts with `message` and the hook's output follows; the user sees
/// `summary`. Claude Code 2.1.332 reads both; the official security-guidance plugin sets both.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Rewake {
    /// `rewakeMessage`: the prefix of the model's reminder; `null` when not configured (the
    /// hook's output alone reaches the model, as before 2.1.332).
    pub message: Option<String>,
    /// `rewakeSummary`, or `Stop hook feedback` when not configured: the one line the user sees.
    pub summary: String,
}

/// The user's line for a rewake without `rewakeSummary` (Claude Code 2.1.332's default).
pub const REWAKE_SUMMARY: &str = "Stop hook feedback";

/// One configured handler, ready to run.
#[derive(Debug, Clone)]
pub struct Handler {
    /// Hook id, `<scope>:<path>` (§2.6).
    pub id: String,
    /// Position in configuration order across all events; keys `once`.
    pub index: usize,
    pub source: usize,
    pub ty: HandlerType,
    pub action: Action,
    pub mode: RunMode,
    pub timeout_s: Option<f64>,
    pub once: bool,
    /// Set when the handler carries `if`, even one hookwire cannot parse further.
    pub has_if: bool,
    /// Shared by the handlers whose rules have the same text (compiled once per document).
    pub if_rule: Option<Arc<IfRule>>,
    pub fail_closed: bool,
    pub status_message: Option<String>,
    /// `asyncRewake` only: what Claude Code 2.1.332 shows when the hook exits 2
    /// (`rewakeMessage`, `rewakeSummary`), carried into the queued outcome.
    pub rewake: Option<Rewake>,
    /// The dialect of the handler's source: payload, environment and reading follow it.
    pub dialect: Dialect,
    /// The event name the handler was configured under, in its dialect's words.
    pub native: String,
    /// The handler's own name, where its dialect gives handlers one (Gemini's `name`): what a
    /// list of disabled hooks names (`Switches::disabled_names`), and part of its dedup identity.
    pub name: Option<String>,
    /// The directory it runs in, relative to the fire's (absolute = as it is); `None` = the
    /// fire's (ok's `cwd`, the directory of a Cursor hooks file).
    pub cwd: Option<std::path::PathBuf>,
    /// The host variables it may start with, when its configuration names them (ub's `env`);
    /// `None` = what its dialect's `Profile::host_env` gives.
    pub host_env: Option<Vec<String>>,
    /// How long an exit 0 of this hook is reused for the same input instead of running it
    /// again (Kiro CLI's `cache_ttl_seconds`, `result_cache.rs`); `None`: it always runs.
    pub cache_ttl: Option<std::time::Duration>,
    /// The confinement its process runs in (`sandbox/`); `None`: none. Set by the handler's
    /// `sandbox` key, or by the envelope's `sandbox` for project and local hooks.
    pub sandbox: Option<Arc<crate::sandbox::Policy>>,
    pub knobs: Knobs,
}

impl Handler {
    /// A command handler with the common defaults; dialect parsers fill in the rest.
    pub(crate) fn command(
        id: String,
        source: usize,
        command: CommandSpec,
        dialect: Dialect,
        native: &str,
    ) -> Handler {
        Handler {
            id,
            index: 0,
            source,
            ty: HandlerType::Command,
            action: Action::Command(command),
            mode: RunMode::Sync,
            timeout_s: None,
            once: false,
            has_if: false,
            if_rule: None,
            fail_closed: false,
            status_message: None,
            rewake: None,
            dialect,
            native: native.to_string(),
            name: None,
            cwd: None,
            host_env: None,
            cache_ttl: None,
            sandbox: None,
            knobs: Knobs::default(),
        }
    }
}

/// What a dialect's handler carries beyond the common fields (neocode's item id, j-cli's
/// `on_error`, Cursor's hook kind), and what one of its steps keeps (`Step::own`): a value of
/// the dialect's own type, which only that dialect reads back. The engine never looks inside,
/// so a dialect's state lives in its folder and a new dialect touches no shared type.
#[derive(Clone, Default)]
pub struct Knobs(Option<Arc<dyn Knob>>);

/// A type a dialect keeps as its handlers' [`Knobs`].
pub trait Knob: Any + std::fmt::Debug + Send + Sync {}
impl<T: Any + std::fmt::Debug + Send + Sync> Knob for T {}

impl Knobs {
    pub fn new(value: impl Knob) -> Knobs {
        Knobs(Some(Arc::new(value)))
    }

    /// Whether a value is held.
    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// The knobs as the dialect's type; `None` when the handler has none of that type.
    pub fn get<T: Knob>(&self) -> Option<&T> {
        let any: &dyn Any = self.0.as_deref()?;
        any.downcast_ref()
    }
}

impl std::fmt::Debug for Knobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => f.write_str("Knobs(none)"),
            Some(k) => k.fmt(f),
        }
    }
}

#[derive(Debug)]
pub struct Group {
    pub matcher: GroupMatcher,
    pub handlers: Vec<Handler>,
}

/// What the engine keeps of a source after loading.
#[derive(Debug, Clone)]
pub struct SourceInfo {
    pub scope: Scope,
    /// The scope part of hook ids: `user`, `plugin#1`, `plugin(name)`.
    pub id_label: String,
    /// How warnings name the source: `project .claude/settings.json`, `config`.
    pub label: String,
    /// Plugin root (`CLAUDE_PLUGIN_ROOT`) and data (`CLAUDE_PLUGIN_DATA`).
    pub plugin_root: Option<String>,
    pub plugin_data: Option<String>,
    /// The host's sandbox for every command hook of this source (the source entry's
    /// `sandbox` key): it replaces what the source's hooks say for themselves.
    pub sandbox: Option<Arc<crate::sandbox::Policy>>,
}

/// Runner limits (§2.2).
#[derive(Debug, Clone)]
pub struct Limits {
    pub default_timeout_s: Option<f64>,
    pub max_output_bytes: usize,
    pub max_parallel: usize,
    pub stop_block_cap: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { default_timeout_s: None, max_output_bytes: 1 << 20, max_parallel: 64, stop_block_cap: 8 }
    }
}

/// Load warnings: global ones, and those attached to one event (§2.9), as results carry them;
/// and every one of them as a [`LoadProblem`], with its class and place, for `validate`.
#[derive(Debug, Default)]
pub struct ConfigWarnings {
    pub global: Vec<String>,
    pub per_event: Vec<Vec<String>>,
    pub problems: Vec<LoadProblem>,
}

/// How bad a load problem is. The engine skips what can never run and goes on (Claude Code's
/// leniency, §2.9); `hookwire validate` calls that an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A hook, group, event or source that can never run: an unknown handler type or event
    /// name, a matcher that can never match, an entry dropped for a wrong field.
    NeverRuns,
    /// Advice: the hooks concerned still run (an ignored key, a suspicious timeout).
    Warning,
}

/// One problem found while loading a configuration, with where it is.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LoadProblem {
    pub severity: Severity,
    /// The event it concerns, when it concerns one.
    pub event: Option<&'static str>,
    /// A JSON pointer into the document that holds it (into the envelope for inline content,
    /// into the file for a file source); `None` when the problem has no one place.
    pub pointer: Option<String>,
    /// Where in the file, when the engine knows it without a pointer (a file that is not JSON).
    pub line: Option<u64>,
    pub column: Option<u64>,
    /// The same text as the warning in results.
    pub message: String,
}

impl ConfigWarnings {
    pub(crate) fn new() -> Self {
        ConfigWarnings {
            global: Vec::new(),
            per_event: (0..catalog::count()).map(|_| Vec::new()).collect(),
            problems: Vec::new(),
        }
    }

    /// Records a problem; results carry its message (global, or with its event's fires).
    pub(crate) fn add(&mut self, severity: Severity, event: Option<EventId>, pointer: &str, message: String) {
        match event {
            Some(id) => self.per_event[id].push(message.clone()),
            None => self.global.push(message.clone()),
        }
        self.problems.push(LoadProblem {
            severity,
            event: event.map(|id| catalog::spec(id).name),
            pointer: (!pointer.is_empty()).then(|| pointer.to_string()),
            line: None,
            column: None,
            message,
        });
    }

    /// Records one problem of something that belongs to several events (a group of Codex's
    /// `PostToolUse` runs on PostToolUse and PostToolUseFailure): results carry it on each
    /// event's fires, `validate` lists it once, under the first.
    pub(crate) fn add_for(&mut self, severity: Severity, events: &[EventId], pointer: &str, message: String) {
        let Some((&first, rest)) = events.split_first() else {
            return self.add(severity, None, pointer, message);
        };
        for &id in rest {
            self.per_event[id].push(message.clone());
        }
        self.add(severity, Some(first), pointer, message);
    }

    /// Advice: the hooks concerned still run.
    pub(crate) fn note(&mut self, event: Option<EventId>, pointer: &str, message: String) {
        self.add(Severity::Warning, event, pointer, message);
    }

    /// Something that can never run, skipped.
    pub(crate) fn never_runs(&mut self, event: Option<EventId>, pointer: &str, message: String) {
        self.add(Severity::NeverRuns, event, pointer, message);
    }
}

/// The strictness of one document: inline content fails, files degrade to warnings (§2.9).
pub struct Parse {
    pub strict: bool,
    pub label: String,
    /// The file the document was read from; `None` for inline content. A dialect that reads
    /// files of several syntaxes (Codex: `hooks.json` and `config.toml`) tells them apart by it.
    pub file: Option<PathBuf>,
}

impl Parse {
    /// A problem at `ptr`: an error for inline content, a warning (and the entity dropped) for
    /// a file.
    pub(crate) fn fail<T>(
        &self,
        warnings: &mut ConfigWarnings,
        ptr: &str,
        msg: impl Into<String>,
    ) -> Result<Option<T>, ConfigError> {
        let msg = msg.into();
        if self.strict {
            Err(ConfigError::invalid(ptr, msg))
        } else {
            warnings.never_runs(None, ptr, format!("{}: {msg} (at {ptr}); dropped", self.label));
            Ok(None)
        }
    }
}

/// One source as the trust gate saw it (protocol.md §2.8), an entry of the trust status's
/// `sources`: every project or local source, and a source of any other scope that the host
/// marked `"trusted": false`.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
#[schemars(rename = "TrustSource")] // its name in Go and TypeScript
pub struct TrustEntry {
    /// `project` or `local`, the scopes whose hooks run only when trusted; or another scope
    /// whose source says `"trusted": false`.
    #[schemars(extend("enum" = ["project", "local", "managed", "user", "plugin", "session"]))]
    pub scope: &'static str,
    /// The source as warnings name it, for example `project .claude/settings.json`.
    pub label: String,
    /// The file as configured; `null` for inline settings.
    pub path: Option<String>,
    /// The file resolved against `project_dir`; `null` for inline settings.
    pub resolved: Option<String>,
    /// The file's key in the trust store (relative to the project root when inside it);
    /// `null` for inline settings, without a readable `project_dir`, or for a scope the store
    /// does not govern (neither project nor local).
    pub key: Option<String>,
    /// `sha256:<64 hex digits>` of the bytes read; `null` for inline settings.
    pub digest: Option<String>,
    /// Whether this source's hooks run.
    pub trusted: bool,
    /// Why it is (not) trusted, for people.
    pub why: String,
}

/// A whole configuration, loaded.
#[derive(Debug)]
pub struct Config {
    pub rules: Rules,
    /// The envelope's dialect: the fire's fold strategy (§9.0).
    pub dialect: Dialect,
    /// Dialects of the loaded sources, for native event names (§3.1).
    pub dialects: Vec<Dialect>,
    /// The top-level `env` (layer 2 of §3.4).
    pub env: Vec<(String, String)>,
    pub project_dir: Option<PathBuf>,
    pub limits: Limits,
    pub sources: Vec<SourceInfo>,
    /// Groups per event, in configuration order.
    pub events: Vec<Vec<Group>>,
    /// The groups of each event by exact name and by distinct matcher (`group_index`): what
    /// a fire tests instead of every group.
    pub index: Vec<crate::group_index::GroupIndex>,
    pub warnings: ConfigWarnings,
    /// Every project or local source and its trust, and every other source marked
    /// `"trusted": false`.
    pub trust: Vec<TrustEntry>,
    /// The trust store consulted, if any.
    pub store: Option<PathBuf>,
    /// `http.allowed_urls` / `allowedHttpHookUrls` and `http.allowed_env_vars` /
    /// `httpHookAllowedEnvVars` (§5.8); `None` = no list.
    pub http_allowed_urls: Option<Vec<String>>,
    pub http_allowed_env_vars: Option<Vec<String>>,
}

impl Config {
    /// Every dialect the configuration uses: its sources', then the envelope's (which may
    /// repeat one of them). Native event names and native payloads are looked up in these.
    pub fn all_dialects(&self) -> impl Iterator<Item = Dialect> + '_ {
        self.dialects.iter().chain([&self.dialect]).copied()
    }
}
