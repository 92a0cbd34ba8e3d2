//! The dispatcher: a loaded configuration plus the little state kept across fires, and the
//! fire itself (protocol.md §5.1) as a pipeline, one module per stage:
//!
//! `event` (the typed head) → `select` (which handlers run) → `launch` (each hook's process
//! or task) → `batches` (run them by the envelope dialect's strategy; each dialect reads its
//! hooks) → `fold` (the dialect's) → `session` (Stop guard, async queue) → `result`.
//!
//! A fire that runs nothing is answered by `nomatch` from the same head and selector, without
//! building the event's tree. This module holds no stage's rules; it wires them in order.

use crate::batches::{self, Chosen, Fire};
use crate::catalog::{self, Dialect, EventSpec, HandlerType, Shell};
use crate::config::Config;
use crate::config::{Action, CommandSpec, Handler, RunMode};
use crate::dialect::{self, Finished, FireEvent, NativeFire, Step, TimeoutContext};
use crate::envfile;
use crate::error::{ConfigError, EventError};
use crate::event::Head;
use crate::inprocess::{self, Registered, Registry};
use crate::launch::{self, FireContext, Prepared, Shells};
use crate::logs;
use crate::nomatch;
use crate::result::{FireResult, Outcome};
use crate::runner::{self, Cancel, End, Job, Slots};
use crate::select::{self, Subject};
use crate::session::{self, Queued, Sessions};
use crate::turn_end;
use crate::verdict::{self, Verdict};
use serde_json::Value;
use std::borrow::Cow;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

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
    shells: Shells,
    slots: Slots,
    sessions: Sessions,
    /// Cancels async hooks when the dispatcher is dropped.
    async_cancel: Cancel,
    /// Async hooks running now (their threads), signalled when one ends.
    async_running: (Mutex<usize>, Condvar),
    /// A host that fires once and exits (`Dispatcher::set_one_shot`).
    one_shot: AtomicBool,
    /// The results of fires that run nothing, made once at load.
    prepared: nomatch::Prepared,
    /// What the host registered after load: callbacks and function hooks (issue 8).
    registry: RwLock<Registry>,
    /// Results hooks may reuse for a while (`Handler::cache_ttl`).
    cache: crate::result_cache::ResultCache,
}

pub use crate::inprocess::FunctionHook;

impl nomatch::SessionProbe for Inner {
    fn has_state(&self, session: &str, eid: usize) -> bool {
        self.sessions.has_queue(session)
            || self.sessions.has_deferred(session)
            || (session::touches_stop_guard(catalog::spec(eid)) && self.sessions.has_stop_counts())
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
        let v = crate::json::value_from_str(config_json).map_err(|e| ConfigError::from_json(&e))?;
        Self::from_value(v)
    }

    /// As [`Dispatcher::new`], from bytes that must be UTF-8.
    pub fn from_bytes(config: &[u8]) -> Result<Self, ConfigError> {
        let s = crate::error::config_text(config)?;
        Self::new(s)
    }

    /// As [`Dispatcher::new`], from a parsed value.
    pub fn from_value(config: Value) -> Result<Self, ConfigError> {
        let config = crate::load::config(config)?;
        logs::loaded(&config);
        Ok(Dispatcher {
            inner: Arc::new(Inner {
                shells: Shells::resolve(&config),
                slots: Slots::new(config.limits.max_parallel),
                sessions: Sessions::new(),
                async_cancel: Cancel::new(),
                async_running: (Mutex::new(0), Condvar::new()),
                one_shot: AtomicBool::new(false),
                prepared: nomatch::Prepared::new(&config),
                registry: RwLock::new(Registry::default()),
                cache: crate::result_cache::ResultCache::default(),
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

    /// Whether `name` is an event this dispatcher can fire: a canonical name, or a native name
    /// of a dialect the configuration uses (§3.1). A fire of any other name runs nothing.
    pub fn knows_event(&self, name: &str) -> bool {
        crate::select::event_id(&self.inner.config, name).is_some()
    }

    /// The event names [`Dispatcher::knows_event`] accepts, canonical ones first: for a host
    /// that suggests the name a user meant.
    pub fn event_names(&self) -> Vec<&'static str> {
        let config = &self.inner.config;
        let mut names: Vec<&'static str> = (0..crate::catalog::count())
            .map(crate::catalog::spec)
            .filter(|s| s.native_of.is_none())
            .map(|s| s.name)
            .collect();
        for d in config.all_dialects() {
            for e in d.rules().profile().native_events.unwrap_or(&[]) {
                if !names.contains(&e.name) {
                    names.push(e.name);
                }
            }
        }
        names
    }

    /// Every problem the load found, in the order found, with its class and place: what
    /// `hookwire validate` reports. A [`Severity::NeverRuns`](crate::Severity::NeverRuns) problem is something the engine
    /// skips (a handler that can never run); the rest is advice. Results carry the same texts
    /// as warnings (§2.9).
    pub fn load_problems(&self) -> &[crate::config::LoadProblem] {
        &self.inner.config.warnings.problems
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
        self.fire_text(event_json, None)
    }

    /// `fire_json` and `fire_json_with`: the fast answer when nothing runs (from the text, or
    /// for a large event from its one parse), else the full fire.
    fn fire_text(&self, event_json: &str, cancel: Option<&CancelToken>) -> Result<String, EventError> {
        // Nothing runs on a no-match fire, so there is nothing to cancel either.
        let may_answer = !cancel.is_some_and(CancelToken::is_cancelled);
        let small = event_json.len() < nomatch::TEXT_HEAD_MAX;
        if may_answer
            && small
            && let Some(answer) = self.answer_without_running(event_json)
        {
            return Ok(answer);
        }
        let (v, clip) = crate::json::event_from_str(event_json).map_err(|e| EventError::from_json(&e))?;
        if may_answer
            && !small
            && let Some(answer) = self.answer_parsed(&v)
        {
            return Ok(answer);
        }
        let cancel = cancel.map(|c| &*c.0);
        let mut result = self.inner.fire_cancellable(Some(event_json), &v, &self.inner, cancel)?;
        result.warnings.extend(clip.map(|c| c.warning()));
        // The parsed event goes before the result text is written: for a 1 MiB event the text
        // then reuses its memory rather than raising the fire's peak by another MiB (which made
        // the allocator hand back and re-fault the heap on every fire, figure 4b, issue 20).
        drop(v);
        let text = result.to_json();
        // Nothing sees these outcomes again: their large buffers serve the next fire.
        for o in result.outcomes.into_iter().chain(result.async_outcomes) {
            crate::buffer_pool::give(o.stdout.into_bytes());
            crate::buffer_pool::give(o.stderr.into_bytes());
        }
        Ok(text)
    }

    /// The result of firing `event_json` when that fire would run nothing and change no
    /// session state (no group matches, no function hook, no async output or Stop-guard count
    /// to update); `None` when only [`Dispatcher::fire_json`] can answer. Never runs, spawns or
    /// blocks, so a binding may call it on its host's event-loop thread and start a worker
    /// only for fires that run hooks. `Some` is exactly what `fire_json` would return.
    pub fn answer_without_running(&self, event_json: &str) -> Option<String> {
        nomatch::try_answer(&self.inner.config, &self.inner.prepared, event_json, &*self.inner)
    }

    /// [`Dispatcher::answer_without_running`] for an event already parsed (a large event's fire
    /// parses it once).
    pub(crate) fn answer_parsed(&self, event: &Value) -> Option<String> {
        nomatch::try_answer_parsed(&self.inner.config, &self.inner.prepared, event, &*self.inner)
    }

    /// As [`Dispatcher::fire_json`], but `cancel` can end the fire early from another thread:
    /// running hooks are killed (group `SIGTERM`, then `SIGKILL`), hooks not yet started never
    /// start, and their outcomes say `cancelled`. The result is still a result.
    pub fn fire_json_with(&self, event_json: &str, cancel: &CancelToken) -> Result<String, EventError> {
        self.fire_text(event_json, Some(cancel))
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
        let Some(eid) = catalog::lookup(&hook.event) else {
            return Err(ConfigError::invalid("/event", format!("unknown event {:?}", hook.event)));
        };
        let spec = catalog::spec(eid);
        let matcher = match spec.match_on {
            catalog::MatchOn::Nothing => crate::matcher::Matcher::All,
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
            Dialect::DEFAULT,
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
        let s = crate::error::event_text(event)?;
        self.fire_json(s)
    }

    /// Fires one event given as a value; hooks get its compact serialisation.
    pub fn fire(&self, event: &Value) -> Result<FireResult, EventError> {
        self.inner.fire(None, event, &self.inner)
    }

    /// For a host that fires once and then exits (the `hookwire` command, a per-event bridge),
    /// where no later fire can carry what an async hook says (protocol.md §5.10): with `true`,
    /// an async hook's finished outcome is logged (`hook.verdict`) and not queued, and each fire
    /// that starts one warns that its context, message and `asyncRewake` output reach no one.
    /// Such a host calls [`Dispatcher::wait_async`] before it exits (dropping the dispatcher
    /// kills the hooks still running). Off by default: a long-lived host gets the output on the
    /// session's next fire.
    pub fn set_one_shot(&self, one_shot: bool) {
        self.inner.one_shot.store(one_shot, Ordering::Relaxed);
    }

    /// Waits until no async hook started by this dispatcher is running, or `timeout` passes
    /// (`None`: no limit; each hook is bounded by its own timeout, protocol.md §5.5). Returns
    /// whether none is running. A long-lived host need not call it: dropping the dispatcher
    /// kills the async hooks still running and returns at once.
    pub fn wait_async(&self, timeout: Option<Duration>) -> bool {
        let (count, ended) = &self.inner.async_running;
        let deadline = timeout.map(|t| Instant::now() + t);
        let mut running = count.lock().unwrap_or_else(|e| e.into_inner());
        while *running > 0 {
            running = match deadline {
                None => ended.wait(running).unwrap_or_else(|e| e.into_inner()),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return false;
                    }
                    ended.wait_timeout(running, left).unwrap_or_else(|e| e.into_inner()).0
                }
            };
        }
        true
    }
}

#[cfg(test)]
impl Dispatcher {
    /// Whether the fast path answers this event text without the full fire.
    pub(crate) fn answers_fast(&self, event_json: &str) -> bool {
        self.answer_without_running(event_json).is_some()
    }
}

/// What the async branch of a fire needs to know about it.
struct AsyncStart<'a> {
    eid: usize,
    spec: &'static EventSpec,
    event: &'a Value,
    /// The host's own payload of the agent, when `event` was made from it.
    native: Option<NativeFire<'a>>,
    session: &'a str,
    fire_id: u64,
    /// The session's Stop-guard count before this fire, on Stop-like events (0 elsewhere).
    loop_count: u32,
    /// When the fire started running hooks (payloads that carry a time use this one instant).
    at: std::time::SystemTime,
    /// The turn ends now: hooks deferred to it run (`RunMode::TurnEnd`); otherwise they are
    /// recorded for the session's turn end.
    turn_end: bool,
}

impl Inner {
    fn registry(&self) -> RwLockReadGuard<'_, Registry> {
        self.registry.read().unwrap_or_else(|e| e.into_inner())
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
        // An agent's own payload (a host emulating Copilot) fires as the canonical event it
        // stands for; its hooks still get the host's bytes (`FireEvent::native`).
        let translated = dialect::canonical_of(&self.config, event);
        let (event, raw, native) = match &translated {
            Some((d, canonical)) => (canonical, None, Some(NativeFire { dialect: *d, event, raw })),
            None => (event, raw, None),
        };
        let head = Head::from_value(event)?;
        let name = head.name.as_ref();
        let (session, agent) = (head.session_id.as_ref(), head.agent_id.as_ref());
        let logging = logs::active();
        let (fire_id, clock) = if logging { (logs::fire_id(), logs::clock()) } else { (0, None) };
        if logging {
            logs::fire_start(fire_id, name, session);
        }
        // The result names the event as the host fired it.
        let fired = native.and_then(|n| n.get("hook_event_name")).and_then(Value::as_str);
        let mut result = FireResult::empty(fired.unwrap_or(name));
        let (queued, losses) = self.sessions.drain(session);
        result.warnings.extend(self.config.warnings.global.iter().cloned());

        let Some(eid) = select::event_id(&self.config, name) else {
            if name == "__hookwire_test_panic__" && std::env::var_os("HOOKWIRE_TEST_PANIC").is_some() {
                panic!("test panic requested through HOOKWIRE_TEST_PANIC");
            }
            result.warnings.push(format!("unknown event \"{name}\""));
            session::attach_async(&mut result, queued, losses);
            if logging {
                logs::unknown_event(fire_id, name);
                logs::fire_done(fire_id, result.as_logged(), clock);
            }
            return Ok(result);
        };
        let spec = catalog::spec(eid);
        result.warnings.extend(self.config.warnings.per_event[eid].iter().cloned());

        let subject = Subject { eid, spec, head: &head, event: Some(event) };
        let (picked, skipped) = {
            let registry = self.registry();
            select::for_fire(
                &self.config,
                &subject,
                &registry,
                &self.sessions,
                &|| self.project_dir(event),
                fire_id,
            )
        };
        result.warnings.extend(skipped);
        if spec.name == turn_end::TURN_END && self.sessions.has_deferred(session) {
            self.run_turn_end(event, session, fire_id, me, cancel, &mut result);
        }
        if !picked.is_empty() {
            let t = TimeoutContext::new(
                spec,
                self.config.rules,
                &self.config.limits,
                picked.iter().map(|h| &**h),
            );
            let chosen: Vec<Chosen<'_>> = picked
                .into_iter()
                .map(|h| {
                    let timeout_s = h.dialect.rules().timeout_s(&h, &t);
                    logs::selected(fire_id, &self.config, &h, timeout_s);
                    Chosen { h, timeout_s }
                })
                .collect();
            let loop_count = if spec.stop_like { self.sessions.stop_count(session, agent) } else { 0 };
            let at = std::time::SystemTime::now();
            let fire =
                AsyncStart { eid, spec, event, native, session, fire_id, loop_count, at, turn_end: false };
            self.run_chosen(&chosen, &self.project_dir(event), fire, raw, me, cancel, &mut result);
        }
        session::attach_async(&mut result, queued, losses);
        session::stop_guard(
            &self.sessions,
            spec,
            (session, agent),
            self.config.dialect.rules().profile().context_continues_stop,
            self.config.limits.stop_block_cap,
            &mut result,
        );
        if spec.name == "SessionEnd" {
            self.sessions.forget(session);
        }
        crate::json::clip::refuse_marked_rewrites(&mut result);
        if logging {
            logs::fire_done(fire_id, result.as_logged(), clock);
        }
        Ok(result)
    }

    /// Launches the chosen hooks (async ones on their own threads), runs the rest in batches,
    /// and folds their readings into the result.
    #[allow(clippy::too_many_arguments)]
    fn run_chosen(
        &self,
        chosen: &[Chosen<'_>],
        project_dir: &str,
        fire: AsyncStart<'_>,
        raw: Option<&str>,
        me: &Arc<Inner>,
        cancel: Option<&Cancel>,
        result: &mut FireResult,
    ) {
        let (cwd, cwd_warning) = hook_cwd(fire.event);
        result.warnings.extend(cwd_warning);
        let host_env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
        let env_dir = envfile::FireDir::default();
        let registry = self.registry();
        let cx = FireContext {
            config: &self.config,
            shells: &self.shells,
            registry: &registry,
            project_dir,
            cwd: &cwd,
            host_env: &host_env,
            env_dir: &env_dir,
            fire_id: fire.fire_id,
            cache: &self.cache,
        };
        // Async hooks start first, on their own threads, with the original event.
        let mut async_outcomes: Vec<Option<Outcome>> = vec![None; chosen.len()];
        let launch = Instant::now();
        let original = FireEvent {
            spec: fire.spec,
            rules: self.config.rules,
            original: fire.event,
            current: fire.event,
            raw,
            carried: &[],
            project_dir,
            loop_count: fire.loop_count,
            at: fire.at,
            native: fire.native,
        };
        let one_shot = self.one_shot.load(Ordering::Relaxed);
        let mut one_shot_notes = Vec::new();
        for (k, c) in
            chosen.iter().enumerate().filter(|(_, c)| c.h.mode == RunMode::TurnEnd && !fire.turn_end)
        {
            if one_shot {
                one_shot_notes.push(format!(
                    "hook {} waits for the session's turn end (its next Stop), but this host fires once: it will not run",
                    c.h.id
                ));
            }
            self.sessions.defer(fire.session, (fire.eid, c.h.index), fire.event);
            async_outcomes[k] =
                Some(Outcome::deferred(&c.h, launch::command_text(&self.config, &c.h, project_dir)));
        }
        for (k, c) in chosen.iter().enumerate().filter(|(_, c)| c.h.mode.is_async()) {
            if one_shot {
                one_shot_notes.push(one_shot_note(&c.h));
            }
            let started = Outcome::started(&c.h, launch::command_text(&self.config, &c.h, project_dir));
            match launch::prepare(&cx, &c.h, c.timeout_s, launch, &original, false).prepared {
                Prepared::Run(job, _) => self.start_async(me, &c.h, c.timeout_s, job, &fire, started.clone()),
                Prepared::Failed(why) => logs::spawn_failed(fire.fire_id, &c.h.id, &why),
                Prepared::InProcess(_) => {}
            }
            async_outcomes[k] = Some(started);
        }
        let runs_now = |mode: RunMode| mode == RunMode::Sync || (mode == RunMode::TurnEnd && fire.turn_end);
        let sync: Vec<usize> = (0..chosen.len()).filter(|k| runs_now(chosen[*k].h.mode)).collect();
        let envelope = self.config.dialect.rules();
        let selected: Vec<&Handler> = sync.iter().map(|&k| &*chosen[k].h).collect();
        let batch_fire = Fire {
            spec: fire.spec,
            rules: self.config.rules,
            event: fire.event,
            raw,
            strategy: envelope.strategy_for(&selected),
            loop_count: fire.loop_count,
            at: fire.at,
            native: fire.native,
            slots: &self.slots,
            cancel,
        };
        let ran = batches::run(&cx, &batch_fire, chosen, &sync);
        result.warnings.extend(ran.warnings);
        let outcomes = ran.outcomes.into_iter().zip(async_outcomes).filter_map(|(s, a)| s.or(a));
        result.outcomes.extend(outcomes);
        let steps: Vec<&Step> = ran.steps.iter().flatten().collect();
        let mut folded = envelope.fold(fire.spec, &steps);
        logs::folded(fire.fire_id, fire.spec.name, &folded, steps.len());
        let fold_warnings = std::mem::take(&mut folded.warnings);
        result.apply(folded);
        for (k, v) in ran.env {
            result.env.insert(k, Value::String(v));
        }
        result.warnings.extend(ran.hook_warnings.into_iter().flatten());
        result.warnings.extend(batches::lost_warning(chosen, &ran.steps));
        result.warnings.extend(fold_warnings);
        result.warnings.extend(one_shot_notes);
    }

    /// The session's turn ends (`turn_end.rs`): each hook deferred to it runs once, with the
    /// events recorded for it, and its outcome, warnings and context join the `Stop` result.
    fn run_turn_end(
        &self,
        stop: &Value,
        session: &str,
        fire_id: u64,
        me: &Arc<Inner>,
        cancel: Option<&Cancel>,
        result: &mut FireResult,
    ) {
        let (batches, dropped) = self.sessions.take_deferred(session);
        if dropped > 0 {
            result.warnings.push(turn_end::dropped_note(dropped));
        }
        let project_dir = self.project_dir(stop);
        for ((eid, index), events) in batches {
            let groups = &self.config.events[eid];
            let Some(h) = groups.iter().flat_map(|g| &g.handlers).find(|h| h.index == index) else {
                continue;
            };
            let spec = catalog::spec(eid);
            let event = turn_end::batch_event(stop, spec, events);
            let t = TimeoutContext::new(spec, self.config.rules, &self.config.limits, std::iter::once(h));
            let chosen = [Chosen { h: Cow::Borrowed(h), timeout_s: h.dialect.rules().timeout_s(h, &t) }];
            let at = std::time::SystemTime::now();
            let fire = AsyncStart {
                eid,
                spec,
                event: &event,
                native: None,
                session,
                fire_id,
                loop_count: 0,
                at,
                turn_end: true,
            };
            let mut run = FireResult::empty(spec.name);
            self.run_chosen(&chosen, &project_dir, fire, None, me, cancel, &mut run);
            turn_end::merge(result, run);
        }
    }

    fn project_dir(&self, event: &Value) -> String {
        match (&self.config.project_dir, event.get("cwd").and_then(Value::as_str)) {
            (Some(p), _) => p.to_string_lossy().into_owned(),
            (None, Some(cwd)) if !cwd.is_empty() => cwd.to_string(),
            _ => process_cwd().to_string_lossy().into_owned(),
        }
    }

    /// Starts an async hook on its own thread; its outcome is queued for the session (§5.10).
    /// `template` is the hook's outcome as the fire reports it (`status: async`).
    fn start_async(
        &self,
        me: &Arc<Inner>,
        h: &Handler,
        timeout_s: f64,
        job: Job<'_>,
        fire: &AsyncStart<'_>,
        template: Outcome,
    ) {
        let inner = Arc::clone(me);
        let job = Job { stdin: Cow::Owned(job.stdin.into_owned()), ..job };
        let event = fire.event.clone();
        let (spec, session, fire_id, at) = (fire.spec, fire.session.to_string(), fire.fire_id, fire.at);
        let (loop_count, project_dir) = (fire.loop_count, inner.project_dir(&event));
        let (index, rewake) = (h.index, h.mode == RunMode::AsyncRewake);
        let running = AsyncRunning::start(me);
        let spawned = std::thread::Builder::new().name("hookwire-async".into()).spawn(move || {
            let _running = running;
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
            let view = FireEvent {
                spec,
                rules: inner.config.rules,
                original: &event,
                current: &event,
                raw: None,
                carried: &[],
                project_dir: &project_dir,
                loop_count,
                at,
                // The hook's stdin was made before it started; its reading needs only the fire.
                native: None,
            };
            let finished = Finished { end: &run.end, stdout: &run.stdout, stderr: &run.stderr, timeout_s };
            // Async hooks never fail closed, and their decisions never take effect (§5.10).
            let mut step = dialect::read(h, &view, &finished);
            if step.reading.verdict.source == verdict::VerdictSource::Failure {
                step.reading.verdict = Verdict::default();
            }
            let reading = step.reading;
            let mut texts: Vec<String> = Vec::new();
            let woke = rewake && run.end == End::Exited(2);
            if woke {
                let src = if run.stderr.text.trim().is_empty() { &run.stdout.text } else { &run.stderr.text };
                let output = verdict::cap_text(src.trim());
                // Claude Code 2.1.332: the reminder starts with `rewakeMessage`, the output follows.
                let prefix = h.rewake.as_ref().and_then(|r| r.message.as_deref());
                texts.extend(match (prefix, output) {
                    (Some(p), Some(o)) => Some(format!("{p}\n{o}")),
                    (Some(p), None) => Some(p.to_string()),
                    (None, o) => o,
                });
            } else {
                texts.extend(reading.verdict.additional_context.clone());
                texts.extend(reading.verdict.system_message.clone());
            }
            let mut o = template;
            o.fill(run, &reading);
            if woke {
                o.rewake = h.rewake.clone();
            }
            logs::verdict(fire_id, o.as_logged());
            // A one-shot host has no next fire: the outcome was logged just above, and ends here.
            if !inner.one_shot.load(Ordering::Relaxed) {
                let context =
                    crate::fold::join_texts(crate::fold::CONTEXT_SEPARATOR, texts.iter().map(String::as_str));
                inner.sessions.enqueue(&session, Queued { context, outcome: o });
            }
        });
        // No thread could be started: the hook is dropped unstarted (nothing to kill or queue),
        // and the count it took is given back with the closure.
        drop(spawned);
    }
}

/// One running async hook in its dispatcher's count (`Dispatcher::wait_async`); the count
/// falls when this is dropped, however the hook's thread ends.
struct AsyncRunning(Arc<Inner>);

impl AsyncRunning {
    fn start(inner: &Arc<Inner>) -> AsyncRunning {
        *inner.async_running.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        AsyncRunning(Arc::clone(inner))
    }
}

impl Drop for AsyncRunning {
    fn drop(&mut self) {
        let (count, ended) = &self.0.async_running;
        *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        ended.notify_all();
    }
}

/// The warning a one-shot host's fire carries for each async hook it starts (§5.10).
fn one_shot_note(h: &Handler) -> String {
    let id = &h.id;
    if h.mode == RunMode::AsyncRewake {
        format!(
            "async hook {id} runs to completion after this result, but this host fires once: \
             asyncRewake cannot wake the agent (an exit 2 reaches no later fire); its output is logged, not delivered"
        )
    } else {
        format!(
            "async hook {id} runs to completion after this result, but this host fires once: \
             its additionalContext and systemMessage reach no later fire; its output is logged, not delivered"
        )
    }
}

fn process_cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

/// The event's `cwd` when it is a directory, else the host's (§3.3).
fn hook_cwd(event: &Value) -> (PathBuf, Option<String>) {
    match event.get("cwd").and_then(Value::as_str) {
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

#[allow(dead_code)]
fn _assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Dispatcher>();
}
