//! The dispatcher: a loaded configuration plus the little state kept across fires, and the
//! fire itself (protocol.md §5.1): select the handlers, prepare each hook's process, run them,
//! read their verdicts, fold, apply the Stop guard, and assemble the result.
//!
//! Each stage's rules live in their own module; this one only wires them in pipeline order.

use crate::config::{Action, CommandSpec, Config, Handler, HandlerType, Knobs, Rules, RunMode, Scope, Shell};
use crate::dialect::{self, Dialect, EnvPolicy, Finished, FireEvent, Step, Strategy};
use crate::envfile;
use crate::error::{ConfigError, EventError};
use crate::event::{self, EventSpec};
use crate::fold;
use crate::if_rule::IfMatch;
use crate::inprocess;
use crate::nomatch;
use crate::result::{FireResult, Outcome, millis};
use crate::runner::{self, Cancel, End, Job, Launch, Slots, Text};
use crate::session::{Queued, Sessions};
use crate::verdict::{self, Status, Verdict};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

/// Event fields that must have a given type when present (§3.1).
const STRING_FIELDS: &[&str] = &[
    "session_id",
    "transcript_path",
    "cwd",
    "permission_mode",
    "prompt_id",
    "agent_id",
    "agent_type",
    "tool_name",
    "tool_use_id",
    "source",
    "reason",
    "trigger",
    "notification_type",
    "prompt",
];

/// Cancels fires from another thread (`Dispatcher::fire_with`). Cheap to clone; `Send + Sync`.
/// Cancelling is permanent: a token cancels every fire it is passed to, before or after.
#[derive(Clone, Default)]
pub struct CancelToken(Arc<Cancel>);

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Ends the fires watching this token: running hooks are killed, the rest never start.
    pub fn cancel(&self) {
        self.0.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.is_cancelled()
    }
}

/// A loaded configuration, ready to fire events.
///
/// `Dispatcher` is `Send + Sync`: one dispatcher may be shared by any number of threads, and
/// their fires run at the same time, each with its own hook processes. It is immutable after
/// construction except for the per-session state of §5.10–5.11, which sits behind its own
/// locks. Dropping it kills running async hooks; fires in flight on other threads keep what
/// they need alive until they return.
pub struct Dispatcher {
    inner: Arc<Inner>,
}

struct Inner {
    config: Config,
    sh: Option<PathBuf>,
    bash: Option<PathBuf>,
    pwsh: Option<PathBuf>,
    slots: Slots,
    sessions: Sessions,
    /// Private directory for `CLAUDE_ENV_FILE`s, made on first need.
    /// Cancels async hooks when the dispatcher is dropped.
    async_cancel: Cancel,
    /// The results of fires that run nothing, made once at load.
    prepared: nomatch::Prepared,
    /// What the host registered after load: callbacks and function hooks (issue 8).
    registry: RwLock<Registry>,
}

/// Host callbacks per delegated handler type, and function hooks.
#[derive(Default)]
struct Registry {
    callbacks: HashMap<HandlerType, inprocess::CallbackFn>,
    functions: Vec<Registered>,
}

struct Registered {
    event: usize,
    matcher: crate::matcher::Matcher,
    /// Runs before the configured hooks instead of after them.
    first: bool,
    handler: Handler,
    f: inprocess::HookFn,
}

pub use crate::inprocess::FunctionHook;

impl nomatch::SessionProbe for Inner {
    fn has_state(&self, session: &str, eid: usize) -> bool {
        let spec = event::spec(eid);
        let touches_stop_guard =
            spec.stop_like || matches!(spec.name, "PreToolUse" | "PostToolUse" | "UserPromptSubmit");
        self.sessions.has_queue(session)
            || (touches_stop_guard && self.sessions.has_stop_counts())
            || self.registry().functions.iter().any(|r| r.event == eid)
    }
}

impl Drop for Dispatcher {
    fn drop(&mut self) {
        self.inner.async_cancel.cancel();
    }
}

impl Dispatcher {
    /// Parses and checks a configuration given as JSON text (either shape, protocol.md §2.1).
    pub fn new(config_json: &str) -> Result<Self, ConfigError> {
        let v: Value = crate::json::from_str(config_json).map_err(|e| ConfigError::from_json(&e))?;
        Self::from_value(v)
    }

    /// As [`Dispatcher::new`], from bytes that must be UTF-8.
    pub fn from_bytes(config: &[u8]) -> Result<Self, ConfigError> {
        let s = std::str::from_utf8(config).map_err(|e| ConfigError::Utf8(e.to_string()))?;
        Self::new(s)
    }

    /// As [`Dispatcher::new`], from a parsed value.
    pub fn from_value(config: Value) -> Result<Self, ConfigError> {
        let config = Config::load(&config)?;
        let host_path = std::env::var_os("PATH");
        let find = |name: &str| runner::resolve_program(name, host_path.as_deref(), Path::new("/")).ok();
        Ok(Dispatcher {
            inner: Arc::new(Inner {
                sh: find("sh"),
                bash: find("bash"),
                pwsh: find("pwsh"),
                slots: Slots::new(config.limits.max_parallel),
                sessions: Sessions::new(),
                async_cancel: Cancel::new(),
                prepared: nomatch::Prepared::new(&config),
                registry: RwLock::new(Registry::default()),
                config,
            }),
        })
    }

    pub(crate) fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Whether the handler at `index` already ran once for the session.
    pub(crate) fn ran_once(&self, session: &str, index: usize) -> bool {
        self.inner.sessions.ran_once(session, index)
    }

    /// Every load warning: the global ones, then those attached to one event (a result carries
    /// the global ones and its event's).
    pub fn load_warnings(&self) -> Vec<String> {
        let w = &self.inner.config.warnings;
        w.global.iter().chain(w.per_event.iter().flatten()).cloned().collect()
    }

    /// The envelope's dialect (`claude-code` unless set): it picks the fold strategy.
    pub fn dialect(&self) -> &'static str {
        self.inner.config.dialect.as_str()
    }

    /// Load warnings that concern the whole configuration (every result carries them too).
    pub fn warnings(&self) -> &[String] {
        &self.inner.config.warnings.global
    }

    /// Fires one event given as JSON text and returns the result JSON. Claude-code hooks get
    /// exactly these bytes on stdin.
    pub fn fire_json(&self, event_json: &str) -> Result<String, EventError> {
        if let Some(answer) =
            nomatch::try_answer(&self.inner.config, &self.inner.prepared, event_json, &*self.inner)
        {
            return Ok(answer);
        }
        let v: Value = crate::json::from_str(event_json).map_err(|e| EventError::from_json(&e))?;
        Ok(self.inner.fire(Some(event_json), &v, &self.inner)?.to_json())
    }

    /// As [`Dispatcher::fire_json`], but `cancel` can end the fire early from another thread:
    /// running hooks are killed (group `SIGTERM`, then `SIGKILL`), hooks not yet started never
    /// start, and their outcomes say `cancelled`. The result is still a result.
    pub fn fire_json_with(&self, event_json: &str, cancel: &CancelToken) -> Result<String, EventError> {
        // Nothing runs on a no-match fire, so there is nothing to cancel either.
        if !cancel.is_cancelled()
            && let Some(answer) =
                nomatch::try_answer(&self.inner.config, &self.inner.prepared, event_json, &*self.inner)
        {
            return Ok(answer);
        }
        let v: Value = crate::json::from_str(event_json).map_err(|e| EventError::from_json(&e))?;
        Ok(self.inner.fire_cancellable(Some(event_json), &v, &self.inner, Some(&cancel.0))?.to_json())
    }

    /// As [`Dispatcher::fire`], cancellable (see [`Dispatcher::fire_json_with`]).
    pub fn fire_with(&self, event: &Value, cancel: &CancelToken) -> Result<FireResult, EventError> {
        self.inner.fire_cancellable(None, event, &self.inner, Some(&cancel.0))
    }

    /// Registers the host's callback for one delegated handler type (`"prompt"`, `"agent"` or
    /// `"mcp_tool"`, §5.9), replacing an earlier one. Without a callback such handlers are
    /// skipped with a warning. The callback runs on a hookwire thread, under the handler's
    /// timeout, and may be called from many fires at once.
    pub fn set_host_callback(&self, handler_type: &str, f: inprocess::CallbackFn) -> Result<(), ConfigError> {
        let ty = match HandlerType::parse(handler_type) {
            Some(t @ (HandlerType::Prompt | HandlerType::Agent | HandlerType::McpTool)) => t,
            _ => {
                return Err(ConfigError::invalid(
                    "",
                    format!("callbacks exist for prompt, agent and mcp_tool handlers, not {handler_type:?}"),
                ));
            }
        };
        self.inner.registry.write().unwrap_or_else(|e| e.into_inner()).callbacks.insert(ty, f);
        Ok(())
    }

    /// Registers a function as a hook of one event, folded with the configured hooks in
    /// configuration order (after them unless `first`). It receives the event JSON and answers
    /// what a command hook would print on stdout; an `Err` is a non-blocking error unless
    /// `fail_closed`. Returns its hook id. Functions run on hookwire threads, concurrently with
    /// other hooks, and may be called from many fires at once.
    pub fn add_function_hook(&self, hook: FunctionHook, f: inprocess::HookFn) -> Result<String, ConfigError> {
        let Some(eid) = event::lookup(&hook.event) else {
            return Err(ConfigError::invalid("/event", format!("unknown event {:?}", hook.event)));
        };
        let spec = event::spec(eid);
        let matcher = match spec.match_on {
            event::MatchOn::Nothing => crate::matcher::Matcher::All,
            _ => crate::matcher::Matcher::compile(
                hook.matcher.as_deref(),
                self.inner.config.rules,
                spec.narrow_matcher,
            )
            .map_err(|why| ConfigError::invalid("/matcher", why))?,
        };
        if let Some(t) = hook.timeout_s
            && !crate::config::timeout_ok(t)
        {
            return Err(ConfigError::invalid("/timeout_s", "must be seconds ≥ 0.001"));
        }
        let mut reg = self.inner.registry.write().unwrap_or_else(|e| e.into_inner());
        let slot = reg.functions.len();
        let label = match &hook.name {
            Some(n) => format!("function({n})"),
            None => format!("function#{slot}"),
        };
        let id = format!("{label}:{}", spec.name);
        let mut handler = Handler::command(
            id.clone(),
            usize::MAX,
            CommandSpec::Shell { script: String::new(), shell: Shell::Sh },
            Dialect::ClaudeCode,
            spec.name,
        );
        handler.action = Action::Function(slot);
        handler.ty = HandlerType::Function;
        handler.index = usize::MAX - slot;
        handler.timeout_s = hook.timeout_s;
        handler.fail_closed = hook.fail_closed;
        reg.functions.push(Registered { event: eid, matcher, first: hook.first, handler, f });
        Ok(id)
    }

    /// As [`Dispatcher::fire_json`], from bytes that must be UTF-8.
    pub fn fire_bytes(&self, event: &[u8]) -> Result<String, EventError> {
        let s = std::str::from_utf8(event).map_err(|e| EventError::Utf8(e.to_string()))?;
        self.fire_json(s)
    }

    /// Fires one event given as a value; hooks get its compact serialisation.
    pub fn fire(&self, event: &Value) -> Result<FireResult, EventError> {
        self.inner.fire(None, event, &self.inner)
    }
}

/// One handler chosen for this fire, with what the fire computed for it.
struct Chosen<'a> {
    /// Borrowed from the configuration, or owned for a function the host registered.
    h: Cow<'a, Handler>,
    timeout_s: f64,
}

/// One hook's prepared run, or why it could not be prepared.
#[allow(clippy::large_enum_variant)]
enum Prepared {
    Run(Job, Option<PathBuf>),
    /// An http POST, a host callback or a registered function.
    InProcess(inprocess::Task),
    Failed(String),
}

fn validate(event: &Value) -> Result<&str, EventError> {
    let Some(obj) = event.as_object() else {
        return Err(EventError::invalid("", "an event must be a JSON object with a string hook_event_name"));
    };
    let name = match obj.get("hook_event_name") {
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(EventError::invalid("/hook_event_name", "hook_event_name must be a string")),
        None => {
            return Err(EventError::invalid("/hook_event_name", "an event needs a string hook_event_name"));
        }
    };
    for f in STRING_FIELDS {
        if let Some(v) = obj.get(*f)
            && !v.is_string()
            && !v.is_null()
        {
            return Err(EventError::invalid(format!("/{f}"), format!("{f} must be a string or null")));
        }
    }
    if let Some(v) = obj.get("tool_input")
        && !v.is_object()
        && !v.is_null()
    {
        return Err(EventError::invalid("/tool_input", "tool_input must be an object or null"));
    }
    if let Some(v) = obj.get("stop_hook_active")
        && !v.is_boolean()
        && !v.is_null()
    {
        return Err(EventError::invalid("/stop_hook_active", "stop_hook_active must be true, false or null"));
    }
    Ok(name)
}

fn str_field<'a>(event: &'a Value, key: &str) -> Option<&'a str> {
    event.get(key).and_then(Value::as_str)
}

impl Inner {
    fn registry(&self) -> RwLockReadGuard<'_, Registry> {
        self.registry.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The event id a fired name stands for: a canonical name, or a native name of a dialect
    /// the configuration uses (§3.1 "Names", §9.0).
    fn resolve(&self, name: &str) -> Option<usize> {
        if let Some(id) = event::lookup(name) {
            return Some(id);
        }
        let mut dialects = self.config.dialects.clone();
        dialects.push(self.config.dialect);
        dialects.into_iter().find_map(|d| d.event_ids(name).into_iter().next())
    }

    fn fire(&self, raw: Option<&str>, event: &Value, me: &Arc<Inner>) -> Result<FireResult, EventError> {
        self.fire_cancellable(raw, event, me, None)
    }

    fn fire_cancellable(
        &self,
        raw: Option<&str>,
        event: &Value,
        me: &Arc<Inner>,
        cancel: Option<&Cancel>,
    ) -> Result<FireResult, EventError> {
        let name = validate(event)?;
        let fire_start = Instant::now();
        let session = str_field(event, "session_id").unwrap_or("");
        let agent = str_field(event, "agent_id").unwrap_or("");
        let mut result = FireResult::empty(name);
        let (queued, dropped) = self.sessions.drain(session);

        let Some(eid) = self.resolve(name) else {
            if name == "__hookwire_test_panic__" && std::env::var_os("HOOKWIRE_TEST_PANIC").is_some() {
                panic!("test panic requested through HOOKWIRE_TEST_PANIC");
            }
            result.warnings.extend(self.config.warnings.global.iter().cloned());
            result.warnings.push(format!("unknown event \"{name}\""));
            attach_async(&mut result, queued, dropped);
            return Ok(result);
        };
        let spec = event::spec(eid);
        result.warnings.extend(self.config.warnings.global.iter().cloned());
        result.warnings.extend(self.config.warnings.per_event[eid].iter().cloned());

        let mut skipped = Vec::new();
        let chosen = self.select(eid, spec, event, session, &mut skipped);
        result.warnings.extend(skipped);
        if !chosen.is_empty() {
            self.run_chosen(&chosen, spec, event, raw, session, fire_start, me, cancel, &mut result);
        }
        attach_async(&mut result, queued, dropped);
        self.stop_guard(spec, session, agent, &mut result);
        if spec.name == "SessionEnd" {
            self.sessions.forget(session);
        }
        Ok(result)
    }

    /// §5.1 steps 2–6: matcher, `if`, dedup, `once`.
    fn select<'a>(
        &'a self,
        eid: usize,
        spec: &'static EventSpec,
        event: &Value,
        session: &str,
        warnings: &mut Vec<String>,
    ) -> Vec<Chosen<'a>> {
        let tool_name = str_field(event, "tool_name").unwrap_or("");
        let tool_input = event.get("tool_input");
        let mut picked: Vec<Cow<'a, Handler>> = Vec::new();
        for g in &self.config.events[eid] {
            if !g.matcher.matches(spec, event) {
                continue;
            }
            for h in &g.handlers {
                if h.has_if {
                    if !spec.tool_event {
                        continue;
                    }
                    if let Some(rule) = &h.if_rule {
                        match rule.check(tool_name, tool_input) {
                            IfMatch::Yes => {}
                            IfMatch::No => continue,
                            IfMatch::Undecided(why) => warnings.push(format!(
                                "hook {}: `if` rule {:?} cannot be decided for this command ({why}); the hook runs",
                                h.id,
                                rule.text()
                            )),
                        }
                    }
                }
                picked.push(Cow::Borrowed(h));
            }
        }
        {
            let reg = self.registry();
            if !reg.functions.is_empty() {
                let value = event::matcher_value(spec, event);
                let mut first = Vec::new();
                for r in reg.functions.iter().filter(|r| r.event == eid && r.matcher.matches(value)) {
                    if r.first {
                        first.push(Cow::Owned(r.handler.clone()));
                    } else {
                        picked.push(Cow::Owned(r.handler.clone()));
                    }
                }
                first.append(&mut picked);
                picked = first;
            }
            picked.retain(|h| {
                let delegated = matches!(h.action, Action::Delegated(_));
                if delegated && !reg.callbacks.contains_key(&h.ty) {
                    warnings.push(format!(
                        "hook {}: {} handler skipped: no host callback is registered",
                        h.id,
                        h.ty.as_str()
                    ));
                    return false;
                }
                true
            });
        }
        if picked.is_empty() {
            return Vec::new();
        }
        let project_dir = self.project_dir(event);
        let mut seen = HashSet::new();
        picked.retain(|h| h.dialect != Dialect::ClaudeCode || seen.insert(self.identity(h, &project_dir)));
        picked.retain(|h| !(h.once && self.sessions.ran_once(session, h.index)));
        for h in picked.iter().filter(|h| h.once) {
            self.sessions.mark_once(session, h.index);
        }
        self.timeouts(spec, picked)
    }

    /// Effective timeouts (§5.6), including the shared SessionEnd budget. Other dialects fixed
    /// theirs at load.
    fn timeouts<'a>(&self, spec: &EventSpec, picked: Vec<Cow<'a, Handler>>) -> Vec<Chosen<'a>> {
        let rules = self.config.rules;
        let cap = self.config.limits.default_timeout_s;
        let generic = cap.unwrap_or(match rules {
            Rules::Current => 600.0,
            Rules::Classic => 60.0,
        });
        let default = match (rules, spec.current_timeout_s) {
            (Rules::Current, Some(t)) => cap.map_or(t, |c| c.min(t)),
            _ => generic,
        };
        let budget = (spec.name == "SessionEnd" && rules == Rules::Current).then(|| {
            let largest = picked
                .iter()
                .filter(|h| h.dialect == Dialect::ClaudeCode)
                .filter_map(|h| h.timeout_s)
                .fold(1.5_f64, f64::max);
            largest.min(60.0)
        });
        picked
            .into_iter()
            .map(|h| {
                // Delegated prompt and agent handlers default to 30 and 60 s (§5.6).
                let typed = match h.ty {
                    HandlerType::Prompt => Some(cap.map_or(30.0, |c| c.min(30.0))),
                    HandlerType::Agent => Some(cap.map_or(60.0, |c| c.min(60.0))),
                    _ => None,
                };
                let t = match (h.dialect, budget) {
                    (Dialect::ClaudeCode, Some(b)) => h.timeout_s.or(typed).unwrap_or(b).min(b),
                    (Dialect::ClaudeCode, None) => h.timeout_s.or(typed).unwrap_or(default),
                    _ => h.timeout_s.unwrap_or(generic),
                };
                Chosen { h, timeout_s: t }
            })
            .collect()
    }

    fn project_dir(&self, event: &Value) -> String {
        match (&self.config.project_dir, str_field(event, "cwd")) {
            (Some(p), _) => p.to_string_lossy().into_owned(),
            (None, Some(cwd)) if !cwd.is_empty() => cwd.to_string(),
            _ => process_cwd().to_string_lossy().into_owned(),
        }
    }

    fn plugin_vars(&self, h: &Handler) -> (Option<&str>, Option<&str>) {
        match self.config.sources.get(h.source) {
            Some(s) => (s.plugin_root.as_deref(), s.plugin_data.as_deref()),
            None => (None, None),
        }
    }

    /// Dedup identity (§2.7): type + origin class + expanded command and args + shell.
    fn identity(&self, h: &Handler, project_dir: &str) -> String {
        let plugin = self.config.sources.get(h.source).filter(|s| s.scope == Scope::Plugin);
        let origin = plugin.and_then(|s| s.plugin_root.clone()).unwrap_or_default();
        let (root, data) = self.plugin_vars(h);
        let expand = |t: &str| expand_placeholders(t, project_dir, root, data, true);
        let cmd = match &h.action {
            Action::Command(CommandSpec::Shell { script, shell }) => {
                format!("shell:{shell:?}\0{}", expand(script))
            }
            Action::Command(CommandSpec::Exec { program, args }) => {
                let mut s = format!("exec\0{}", expand(program));
                for a in args {
                    s.push('\0');
                    s.push_str(&expand(a));
                }
                s
            }
            Action::Http(spec) => format!("http\0{}", expand(&spec.url)),
            Action::Delegated(v) => format!("delegated\0{v}"),
            Action::Function(slot) => format!("function\0{slot}"),
        };
        format!("{}\0{}\0{origin}\0{cmd}", h.ty.as_str(), plugin.is_some())
    }

    #[allow(clippy::too_many_arguments)]
    fn run_chosen(
        &self,
        chosen: &[Chosen<'_>],
        spec: &'static EventSpec,
        event: &Value,
        raw: Option<&str>,
        session: &str,
        fire_start: Instant,
        me: &Arc<Inner>,
        cancel: Option<&Cancel>,
        result: &mut FireResult,
    ) {
        let rules = self.config.rules;
        let project_dir = self.project_dir(event);
        let (cwd, cwd_warning) = hook_cwd(event);
        if let Some(w) = cwd_warning {
            result.warnings.push(w);
        }
        let host_env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
        let no_overrides = Map::new();
        let original =
            FireEvent { spec, rules, original: event, current: event, raw, overrides: &no_overrides };
        let strategy = self.config.dialect.strategy();
        // Deadlines count from here, not from the fire's start: selection is the engine's time,
        // not the hook's (a slow `if` evaluation once left a guard "not started").
        let launch = Instant::now();
        let env_dir = envfile::FireDir::default();
        let ctx = RunContext {
            project_dir: &project_dir,
            cwd: &cwd,
            host_env: &host_env,
            fire_start: launch,
            env_dir: &env_dir,
        };

        // Async hooks start first, on their own threads, with the original event.
        let mut slots_out: Vec<Option<Outcome>> = vec![None; chosen.len()];
        let mut steps: Vec<Option<Step>> = vec![None; chosen.len()];
        let mut hook_warnings: Vec<Vec<String>> = vec![Vec::new(); chosen.len()];
        let mut env_out: Vec<(String, String)> = Vec::new();
        for (k, c) in chosen.iter().enumerate() {
            if c.h.mode != RunMode::Sync {
                if let Prepared::Run(job, _) = self.prepare(c, &ctx, &original, false).0 {
                    self.start_async(me, &c.h, c.timeout_s, job, spec, event, session);
                }
                slots_out[k] = Some(async_outcome(&c.h, self.outcome_command(&c.h, &project_dir)));
            }
        }
        let sync: Vec<usize> = (0..chosen.len()).filter(|k| chosen[*k].h.mode == RunMode::Sync).collect();
        if strategy == Strategy::Parallel {
            enum Slot {
                Job(Option<PathBuf>),
                Task(usize),
                Failed(String),
            }
            let mut jobs = Vec::new();
            let mut tasks = Vec::new();
            let mut prepared = Vec::new();
            for &k in &sync {
                let want_env_file = spec.has_env_file(rules) && chosen[k].h.dialect == Dialect::ClaudeCode;
                let (p, env) = self.prepare(&chosen[k], &ctx, &original, want_env_file);
                let slot = match p {
                    Prepared::Run(job, env_file) => {
                        jobs.push(job);
                        Slot::Job(env_file)
                    }
                    Prepared::InProcess(task) => {
                        tasks.push(task);
                        Slot::Task(tasks.len() - 1)
                    }
                    Prepared::Failed(why) => Slot::Failed(why),
                };
                prepared.push((k, slot, env));
            }
            // In-process handlers start first on their own threads, then the processes run on
            // this one; both kinds overlap, each under its own deadline.
            let pending = (!tasks.is_empty()).then(|| inprocess::start(tasks));
            let mut runs = runner::run(&jobs, &self.slots, cancel).into_iter();
            let mut answers: Vec<Option<runner::RunResult>> =
                pending.map(|p| p.wait(cancel)).unwrap_or_default().into_iter().map(Some).collect();
            for (k, slot, env) in prepared {
                let (run, env_file) = match slot {
                    Slot::Job(env_file) => match runs.next() {
                        Some(run) => (run, env_file),
                        None => continue,
                    },
                    Slot::Task(i) => match answers.get_mut(i).and_then(Option::take) {
                        Some(run) => (run, None),
                        None => continue,
                    },
                    Slot::Failed(why) => (failed_run(why), None),
                };
                let (step, o) = self.finish_one(&chosen[k], &original, &run, &project_dir);
                hook_warnings[k].extend(step.reading.warnings.iter().cloned());
                if let Some(path) = env_file {
                    self.merge_env_file(&path, &run, &env, &chosen[k].h, &mut env_out, &mut hook_warnings[k]);
                }
                slots_out[k] = Some(o);
                steps[k] = Some(step);
            }
        } else {
            // One at a time in configuration order (§9.0); chaining dialects see earlier rewrites.
            let mut current = event.clone();
            let mut overrides = Map::new();
            let mut rewritten = false;
            for &k in &sync {
                let c = &chosen[k];
                if cancel.is_some_and(Cancel::is_cancelled) {
                    result
                        .warnings
                        .push(format!("fire cancelled by the host before hook {} started", c.h.id));
                    break;
                }
                if strategy == Strategy::Chain && fire_start.elapsed() > CHAIN_BUDGET {
                    result.warnings.push(format!(
                        "hook {}: the chain's {} s budget is spent; the remaining hooks are skipped",
                        c.h.id,
                        CHAIN_BUDGET.as_secs()
                    ));
                    break;
                }
                let chains = c.h.dialect.chains();
                let view = FireEvent {
                    spec,
                    rules,
                    original: event,
                    current: if chains { &current } else { event },
                    raw: if chains && rewritten { None } else { raw },
                    overrides: if chains { &overrides } else { &no_overrides },
                };
                // Each hook's deadline starts when it does: sequential hooks never share one.
                let local = RunContext { fire_start: Instant::now(), ..ctx };
                let want_env_file = spec.has_env_file(rules) && c.h.dialect == Dialect::ClaudeCode;
                let (p, env) = self.prepare(c, &local, &view, want_env_file);
                let (run, env_file) = match p {
                    Prepared::Run(job, env_file) => {
                        match runner::run(std::slice::from_ref(&job), &self.slots, cancel).pop() {
                            Some(run) => (run, env_file),
                            None => continue,
                        }
                    }
                    Prepared::InProcess(task) => match inprocess::start(vec![task]).wait(cancel).pop() {
                        Some(run) => (run, None),
                        None => continue,
                    },
                    Prepared::Failed(why) => (failed_run(why), None),
                };
                let (step, o) = self.finish_one(c, &view, &run, &project_dir);
                hook_warnings[k].extend(step.reading.warnings.iter().cloned());
                if let Some(path) = env_file {
                    self.merge_env_file(&path, &run, &env, &c.h, &mut env_out, &mut hook_warnings[k]);
                }
                if chains {
                    for (field, value) in &step.chain {
                        if let Some(obj) = current.as_object_mut() {
                            obj.insert(field.clone(), value.clone());
                            rewritten = true;
                        }
                    }
                    for (field, value) in &step.native {
                        overrides.insert(field.clone(), value.clone());
                    }
                }
                let halt = step.halt && strategy != Strategy::RunAll;
                slots_out[k] = Some(o);
                steps[k] = Some(step);
                if halt {
                    break;
                }
            }
        }
        result.outcomes.extend(slots_out.into_iter().flatten());
        let ran: Vec<&Step> = steps.iter().flatten().collect();
        let f = if strategy == Strategy::Parallel {
            fold::fold(&ran.iter().map(|s| &s.reading.verdict).collect::<Vec<_>>())
        } else {
            dialect::fold(self.config.dialect, &ran)
        };
        result.decision = f.decision;
        result.reason = f.reason;
        result.continue_ = f.continue_;
        result.stop_reason = f.stop_reason;
        result.updated_input = f.updated_input;
        result.updated_tool_output = f.updated_tool_output;
        result.additional_context = f.additional_context;
        result.system_message = f.system_message;
        result.suppress_output = f.suppress_output;
        result.extra = f.extra;
        for (k, v) in env_out {
            result.env.insert(k, Value::String(v));
        }
        result.warnings.extend(hook_warnings.into_iter().flatten());
        result.warnings.extend(lost_warning(chosen, &steps));
        result.warnings.extend(f.warnings);
    }

    /// Reads one finished hook in its dialect and builds its outcome.
    fn finish_one(
        &self,
        c: &Chosen<'_>,
        view: &FireEvent<'_>,
        run: &runner::RunResult,
        project_dir: &str,
    ) -> (Step, Outcome) {
        let finished =
            Finished { end: &run.end, stdout: &run.stdout, stderr: &run.stderr, timeout_s: c.timeout_s };
        let step = dialect::read(&c.h, view, &finished);
        let o = outcome(&c.h, self.outcome_command(&c.h, project_dir), run, &step.reading);
        (step, o)
    }

    /// Reads, deletes and merges one hook's `CLAUDE_ENV_FILE` (§3.4).
    fn merge_env_file(
        &self,
        path: &Path,
        run: &runner::RunResult,
        env: &[(OsString, OsString)],
        h: &Handler,
        merged: &mut Vec<(String, String)>,
        warnings: &mut Vec<String>,
    ) {
        let cap = self.config.limits.max_output_bytes;
        let text = envfile::read(path, cap);
        if matches!(run.end, End::TimedOut { .. }) {
            return;
        }
        let text = match text {
            Ok(text) => text,
            Err(why) => {
                warnings.push(format!("hook {}: CLAUDE_ENV_FILE ignored: {why}", h.id));
                return;
            }
        };
        let lookup =
            |name: &str| env.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_string_lossy().into_owned());
        let (assign, warns) = envfile::parse(&text, &h.id, merged, &lookup, cap);
        merged.extend(assign);
        warnings.extend(warns);
    }

    /// Builds one hook's process: environment (§3.4), argv (§5.2), payload, env file.
    fn prepare(
        &self,
        c: &Chosen<'_>,
        ctx: &RunContext<'_>,
        view: &FireEvent<'_>,
        want_env_file: bool,
    ) -> (Prepared, Vec<(OsString, OsString)>) {
        let h: &Handler = &c.h;
        let deadline = ctx.fire_start + Duration::from_secs_f64(c.timeout_s);
        // Layer 1: the base, by the dialect's policy.
        let mut env: Vec<(OsString, OsString)> = match h.dialect.env_policy() {
            EnvPolicy::Inherit if h.dialect == Dialect::ClaudeCode => ctx
                .host_env
                .iter()
                .filter(|(k, _)| {
                    let k = k.to_string_lossy();
                    !(k.starts_with("OTEL_") && k.contains("EXPORTER"))
                })
                .cloned()
                .collect(),
            EnvPolicy::Inherit => ctx.host_env.to_vec(),
            EnvPolicy::Empty => Vec::new(),
            EnvPolicy::Whitelist => {
                let allow: &[String] = match &h.knobs {
                    Knobs::Ub { env_allow } => env_allow,
                    _ => &[],
                };
                ctx.host_env.iter().filter(|(k, _)| allow.iter().any(|a| k == a.as_str())).cloned().collect()
            }
        };
        let set = |env: &mut Vec<(OsString, OsString)>, k: &str, v: OsString| {
            env.retain(|(n, _)| n != k);
            env.push((OsString::from(k), v));
        };
        // Layer 2: the top-level env; layer 3: the dialect's variables.
        for (k, v) in &self.config.env {
            set(&mut env, k, OsString::from(v));
        }
        for (k, v) in dialect::vars(h, view) {
            set(&mut env, &k, OsString::from(v));
        }
        // Layer 4: CLAUDE_PROJECT_DIR (claude-code, jcode) and plugin variables.
        if matches!(h.dialect, Dialect::ClaudeCode | Dialect::Jcode) {
            set(&mut env, "CLAUDE_PROJECT_DIR", OsString::from(ctx.project_dir));
        }
        let (root, data) = self.plugin_vars(h);
        if let Some(r) = root {
            set(&mut env, "CLAUDE_PLUGIN_ROOT", OsString::from(r));
        }
        if let Some(d) = data {
            set(&mut env, "CLAUDE_PLUGIN_DATA", OsString::from(d));
        }
        // Layer 5: CLAUDE_ENV_FILE.
        let mut env_file = None;
        if want_env_file {
            match ctx.env_dir.new_file() {
                Ok(p) => {
                    set(&mut env, "CLAUDE_ENV_FILE", p.clone().into_os_string());
                    env_file = Some(p);
                }
                Err(why) => return (Prepared::Failed(format!("cannot create CLAUDE_ENV_FILE: {why}")), env),
            }
        }
        let cwd = match &h.knobs {
            Knobs::Ok { cwd: Some(dir), .. } => ctx.cwd.join(dir),
            _ => ctx.cwd.to_path_buf(),
        };
        let path_var = env.iter().find(|(k, _)| k == "PATH").map(|(_, v)| v.clone());
        let payload = || -> Arc<[u8]> { Arc::from(dialect::payload(h, view)) };
        let command = match &h.action {
            Action::Command(c) => c,
            Action::Http(spec) => {
                let url = expand_placeholders(&spec.url, ctx.project_dir, root, data, false);
                if let Some(list) = &self.config.http_allowed_urls
                    && !inprocess::http::url_allowed(&url, list)
                {
                    return (Prepared::Failed(format!("URL not allowed: {url}")), env);
                }
                let lookup = |name: &str| {
                    env.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_string_lossy().into_owned())
                };
                let global = self.config.http_allowed_env_vars.as_deref();
                let headers: Vec<(String, String)> = spec
                    .headers
                    .iter()
                    .map(|(k, v)| {
                        (k.clone(), inprocess::http::interpolate(v, &spec.allowed_env_vars, global, &lookup))
                    })
                    .collect();
                let body = payload().to_vec();
                let max_output = self.config.limits.max_output_bytes;
                let work =
                    Box::new(move || inprocess::http::post(&url, &headers, body, deadline, max_output));
                return (Prepared::InProcess(inprocess::Task { work, deadline, max_output }), env);
            }
            Action::Delegated(handler) => {
                let Some(callback) = self.registry().callbacks.get(&h.ty).cloned() else {
                    return (
                        Prepared::Failed(format!(
                            "no host callback is registered for {} handlers",
                            h.ty.as_str()
                        )),
                        env,
                    );
                };
                let request = serde_json::json!({
                    "type": h.ty.as_str(),
                    "handler": handler,
                    "event": String::from_utf8_lossy(&payload()),
                    "timeout_s": c.timeout_s,
                });
                let (event_name, id) = (view.spec.name, h.id.clone());
                let work = Box::new(move || match callback(&request) {
                    Ok(reply) => match inprocess::callback_stdout(&reply, event_name, &id) {
                        Ok(text) => inprocess::Answer::text(text),
                        Err(why) => inprocess::Answer::failed(why),
                    },
                    Err(why) => inprocess::Answer::failed(format!("host callback failed: {why}")),
                });
                let max_output = self.config.limits.max_output_bytes;
                return (Prepared::InProcess(inprocess::Task { work, deadline, max_output }), env);
            }
            Action::Function(slot) => {
                let Some(f) = self.registry().functions.get(*slot).map(|r| r.f.clone()) else {
                    return (Prepared::Failed("the registered function is gone".into()), env);
                };
                let event_text = String::from_utf8_lossy(&payload()).into_owned();
                let work = Box::new(move || match f(&event_text) {
                    Ok(text) => inprocess::Answer::text(text),
                    Err(why) => inprocess::Answer::failed(format!("function hook failed: {why}")),
                });
                let max_output = self.config.limits.max_output_bytes;
                return (Prepared::InProcess(inprocess::Task { work, deadline, max_output }), env);
            }
        };
        let (program, args) = match command {
            CommandSpec::Shell { script, shell } => {
                let (interp, pre): (&Option<PathBuf>, &[&str]) = match shell {
                    Shell::Sh => (&self.sh, &["-c"]),
                    Shell::Bash => (&self.bash, &["-c"]),
                    Shell::Pwsh => (&self.pwsh, &["-NoProfile", "-NonInteractive", "-Command"]),
                };
                let Some(interp) = interp.clone() else {
                    let name = match shell {
                        Shell::Sh => "sh",
                        Shell::Bash => "bash",
                        Shell::Pwsh => "pwsh",
                    };
                    return (Prepared::Failed(format!("not found on PATH: {name}")), env);
                };
                let mut args: Vec<OsString> = pre.iter().map(OsString::from).collect();
                args.push(OsString::from(script));
                (interp, args)
            }
            CommandSpec::Exec { program, args } => {
                let expand = |t: &str| expand_placeholders(t, ctx.project_dir, root, data, false);
                let program = expand(program);
                match runner::resolve_program(&program, path_var.as_deref(), &cwd) {
                    Ok(p) => (p, args.iter().map(|a| OsString::from(expand(a))).collect()),
                    Err(why) => return (Prepared::Failed(why), env),
                }
            }
        };
        let payload: Arc<[u8]> = payload();
        let job = Job {
            launch: Launch { program, args, env: env.clone(), cwd },
            stdin: payload,
            deadline,
            max_output: self.config.limits.max_output_bytes,
        };
        (Prepared::Run(job, env_file), env)
    }

    fn outcome_command(&self, h: &Handler, project_dir: &str) -> String {
        match &h.action {
            Action::Http(spec) => format!("POST {}", spec.url),
            Action::Delegated(v) => inprocess::delegated_label(v),
            Action::Function(_) => format!("function {}", h.id),
            Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
            Action::Command(CommandSpec::Exec { program, args }) => {
                let (root, data) = self.plugin_vars(h);
                let expand = |t: &str| expand_placeholders(t, project_dir, root, data, false);
                std::iter::once(program)
                    .chain(args)
                    .map(|a| shell_quote(&expand(a)))
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        }
    }

    /// Starts an async hook on its own thread; its outcome is queued for the session (§5.10).
    #[allow(clippy::too_many_arguments)]
    fn start_async(
        &self,
        me: &Arc<Inner>,
        h: &Handler,
        timeout_s: f64,
        job: Job,
        spec: &'static EventSpec,
        event: &Value,
        session: &str,
    ) {
        let inner = Arc::clone(me);
        let event = event.clone();
        let session = session.to_string();
        let (index, rewake) = (h.index, h.mode == RunMode::AsyncRewake);
        let template = async_outcome(h, self.outcome_command(h, &self.project_dir(&event)));
        let spawned = std::thread::Builder::new().name("hookwire-async".into()).spawn(move || {
            let Some(h) =
                inner.config.events.iter().flatten().flat_map(|g| &g.handlers).find(|x| x.index == index)
            else {
                return;
            };
            let run = match runner::run(std::slice::from_ref(&job), &inner.slots, Some(&inner.async_cancel))
                .pop()
            {
                Some(run) => run,
                None => return,
            };
            let empty = Map::new();
            let view = FireEvent {
                spec,
                rules: inner.config.rules,
                original: &event,
                current: &event,
                raw: None,
                overrides: &empty,
            };
            let finished = Finished { end: &run.end, stdout: &run.stdout, stderr: &run.stderr, timeout_s };
            // Async hooks never fail closed, and their decisions never take effect (§5.10).
            let mut step = dialect::read(h, &view, &finished);
            if step.reading.verdict.source == verdict::VerdictSource::Failure {
                step.reading.verdict = Verdict::default();
            }
            let reading = step.reading;
            let mut texts: Vec<String> = Vec::new();
            if rewake && run.end == End::Exited(2) {
                let src = if run.stderr.text.trim().is_empty() { &run.stdout.text } else { &run.stderr.text };
                texts.extend(verdict::cap_text(src.trim()));
            } else {
                texts.extend(reading.verdict.additional_context.clone());
                texts.extend(reading.verdict.system_message.clone());
            }
            let mut o = template;
            fill_outcome(&mut o, &run, &reading);
            let context = if texts.is_empty() { None } else { Some(texts.join("\n\n")) };
            inner.sessions.enqueue(&session, Queued { context, outcome: o });
        });
        // No thread could be started: the hook is dropped unstarted (nothing to kill or queue).
        drop(spawned);
    }

    /// §5.11: count continuations of Stop-like results, override past the cap; progress
    /// restarts the count.
    fn stop_guard(&self, spec: &EventSpec, session: &str, agent: &str, result: &mut FireResult) {
        match spec.name {
            "PreToolUse" | "PostToolUse" => self.sessions.stop_progress(session, Some(agent)),
            "UserPromptSubmit" => self.sessions.stop_progress(session, None),
            _ => {}
        }
        if !spec.stop_like {
            return;
        }
        let context_continues =
            self.config.dialect == Dialect::ClaudeCode && result.additional_context.is_some();
        let continuation = result.decision == Some(verdict::Decision::Block) || context_continues;
        let cap = self.config.limits.stop_block_cap;
        if let Some(n) =
            self.sessions.stop_result((session.to_string(), agent.to_string()), continuation, cap)
        {
            result.decision = None;
            result.reason = None;
            result.additional_context = None;
            result.warnings.push(format!(
                "Stop hooks blocked {n} consecutive times; letting the turn end (stop_block_cap = {cap})"
            ));
        }
    }
}

/// The j-cli chain's budget, checked before each hook (§9.4).
const CHAIN_BUDGET: Duration = Duration::from_secs(30);

/// What every hook of one fire shares when it is prepared.
#[derive(Clone, Copy)]
struct RunContext<'a> {
    project_dir: &'a str,
    cwd: &'a Path,
    host_env: &'a [(OsString, OsString)],
    fire_start: Instant,
    /// Where this fire's env files are made; removed when the fire ends.
    env_dir: &'a envfile::FireDir,
}

fn failed_run(why: String) -> runner::RunResult {
    runner::RunResult {
        end: End::SpawnFailed(why),
        stdout: Text::default(),
        stderr: Text::default(),
        duration: Duration::ZERO,
        http_status: None,
    }
}

/// The fire's one warning about hooks whose exit status was lost (issue 14): which hooks, and
/// the cause (the same for all of them in practice: the host's `SIGCHLD` disposition).
fn lost_warning(chosen: &[Chosen<'_>], steps: &[Option<Step>]) -> Option<String> {
    let lost: Vec<(&str, &str)> = chosen
        .iter()
        .zip(steps)
        .filter_map(|(c, s)| Some((c.h.id.as_str(), s.as_ref()?.lost.as_deref()?)))
        .collect();
    let (_, why) = lost.first()?;
    let ids: Vec<&str> = lost.iter().map(|(id, _)| *id).collect();
    Some(format!(
        "{why} (hooks: {}); their verdicts come from their stdout JSON and failure policy only",
        ids.join(", ")
    ))
}

fn attach_async(result: &mut FireResult, queued: Vec<Queued>, dropped: usize) {
    if dropped > 0 {
        result
            .warnings
            .push(format!("{dropped} async hook results were dropped: the session queue was full"));
    }
    let texts: Vec<&str> = queued.iter().filter_map(|q| q.context.as_deref()).collect();
    if !texts.is_empty() {
        result.pending_context = Some(texts.join("\n\n"));
    }
    result.async_outcomes = queued.into_iter().map(|q| q.outcome).collect();
}

fn async_outcome(h: &Handler, command: String) -> Outcome {
    Outcome {
        hook: h.id.clone(),
        ty: h.ty.as_str().to_string(),
        command,
        status: Status::Async,
        exit_code: None,
        signal: None,
        http_status: None,
        timed_out: false,
        duration_ms: 0.0,
        stdout: String::new(),
        stderr: String::new(),
        stdout_truncated: false,
        stderr_truncated: false,
        stdout_lossy: false,
        stderr_lossy: false,
        status_message: h.status_message.clone(),
        verdict: Verdict::default(),
        error: None,
    }
}

fn outcome(h: &Handler, command: String, run: &runner::RunResult, reading: &verdict::Reading) -> Outcome {
    let mut o = async_outcome(h, command);
    fill_outcome(&mut o, run, reading);
    o
}

fn fill_outcome(o: &mut Outcome, run: &runner::RunResult, reading: &verdict::Reading) {
    o.status = reading.status;
    o.exit_code = match run.end {
        End::Exited(c) => Some(c),
        _ => None,
    };
    o.signal = match run.end {
        End::Signaled(s) => Some(s),
        _ => None,
    };
    o.timed_out = matches!(run.end, End::TimedOut { .. });
    o.http_status = run.http_status;
    o.duration_ms = millis(run.duration);
    o.stdout = run.stdout.text.clone();
    o.stderr = run.stderr.text.clone();
    o.stdout_truncated = run.stdout.truncated;
    o.stderr_truncated = run.stderr.truncated;
    o.stdout_lossy = run.stdout.lossy;
    o.stderr_lossy = run.stderr.lossy;
    o.verdict = reading.verdict.clone();
    o.error = reading.error.clone();
}

fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// The event's `cwd` when it is a directory, else the host's (§3.3).
fn hook_cwd(event: &Value) -> (PathBuf, Option<String>) {
    match str_field(event, "cwd") {
        Some(c) if !c.is_empty() => {
            let p = PathBuf::from(c);
            if p.is_dir() {
                (p, None)
            } else {
                let here = process_cwd();
                let w = format!("event: cwd {c:?} is not a directory; hooks run in {}", here.display());
                (here, Some(w))
            }
        }
        _ => (process_cwd(), None),
    }
}

/// Replaces `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_DATA}` as plain
/// strings; `bare` also replaces the forms without braces (dedup identity, §2.7).
fn expand_placeholders(t: &str, project: &str, root: Option<&str>, data: Option<&str>, bare: bool) -> String {
    if !t.contains('$') {
        return t.to_string();
    }
    let mut s = t.replace("${CLAUDE_PROJECT_DIR}", project);
    if let Some(r) = root {
        s = s.replace("${CLAUDE_PLUGIN_ROOT}", r);
    }
    if let Some(d) = data {
        s = s.replace("${CLAUDE_PLUGIN_DATA}", d);
    }
    if bare {
        s = s.replace("$CLAUDE_PROJECT_DIR", project);
        if let Some(r) = root {
            s = s.replace("$CLAUDE_PLUGIN_ROOT", r);
        }
        if let Some(d) = data {
            s = s.replace("$CLAUDE_PLUGIN_DATA", d);
        }
    }
    s
}

fn shell_quote(a: &str) -> String {
    if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c)) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

#[allow(dead_code)]
fn _assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Dispatcher>();
    let _ = HandlerType::Command;
    let _: Option<Map<String, Value>> = None;
}
