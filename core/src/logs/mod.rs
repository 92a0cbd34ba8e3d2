//! What hookwire logs (issue 16; the vocabulary is docs/logging.md): one function per event,
//! so each event's name, level, target and field names are written down once, here, and the
//! pipeline calls them where the work already happens. The events are `tracing` events; any
//! `tracing` subscriber receives them, and [`sink`] hands them to a host's logger.
//!
//! Every function is a `tracing` macro underneath: while nothing listens at its level it costs
//! one atomic load, and its fields are never computed. The functions are `#[cold]`, and the
//! paths a no-match fire takes call them only after one [`active`] check, so they add one
//! atomic load and no code to the hot path. Hook stdout and stderr, payloads and
//! hook-written reasons appear only at TRACE, because they may hold secrets. This module
//! decides nothing and changes nothing: a fire runs the same with logging on or off.
//!
//! It sits low in the layers (core/tests/layering.rs): it reads the configuration and verdict
//! types, and the stages above it hand it what it cannot import (an outcome as a [`HookEnd`]).

pub mod sink;

use crate::config::{Config, Handler};
use crate::fold::Folded;
use crate::verdict::{Decision, Status, Verdict};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tracing::level_filters::LevelFilter;
use tracing::{Level, debug, enabled, info, trace, warn};

/// Loading a configuration.
pub const LOAD: &str = "hookwire::load";
/// One fire: its start, its fold, its end.
pub const FIRE: &str = "hookwire::fire";
/// One hook of a fire: chosen or skipped, spawned, exited, read.
pub const HOOK: &str = "hookwire::hook";

static NEXT_FIRE: AtomicU64 = AtomicU64::new(1);

/// Whether anything listens to anything: the one check (an atomic load) the hot paths make
/// before calling the functions below, which are `#[cold]` and check their own level.
#[inline]
pub fn active() -> bool {
    LevelFilter::current() != LevelFilter::OFF
}

/// A number shared by every event of one fire, counting fires in the process from 1; 0 when
/// nothing was listening as the fire began (no number is drawn then).
pub fn fire_id() -> u64 {
    if active() { NEXT_FIRE.fetch_add(1, Ordering::Relaxed) } else { 0 }
}

/// Whether `hook.skipped` is listened to: then the fire also considers the groups whose
/// matcher fails (and the no-match fast path steps aside), so every skip is told.
pub fn explains_skips() -> bool {
    enabled!(target: HOOK, Level::DEBUG)
}

/// The clock of `fire.done`'s `duration_ms`, read only when someone listens (at INFO, the
/// level of a `fire.done` that ran hooks).
pub fn clock() -> Option<Instant> {
    enabled!(target: FIRE, Level::INFO).then(Instant::now)
}

/// Milliseconds since `t`, at 0.1 ms, for `duration_ms`.
fn millis_since(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 10_000.0).round() / 10.0
}

/// How a source is named in records: its label (`project .claude/settings.json`), or `host`
/// for a function the host registered.
fn source<'a>(config: &'a Config, h: &Handler) -> &'a str {
    config.sources.get(h.source).map_or("host", |s| s.label.as_str())
}

/// `load.done` and one `load.warning` per load warning.
#[cold]
pub fn loaded(config: &Config) {
    debug!(
        target: LOAD,
        event = "load.done",
        dialect = config.dialect.as_str(),
        sources = config.sources.len(),
        handlers = config.events.iter().flatten().map(|g| g.handlers.len()).sum::<usize>(),
        warnings = config.warnings.global.len() + config.warnings.per_event.iter().map(Vec::len).sum::<usize>(),
        "configuration loaded"
    );
    if enabled!(target: LOAD, Level::WARN) {
        let w = &config.warnings;
        for warning in w.global.iter().chain(w.per_event.iter().flatten()) {
            warn!(target: LOAD, event = "load.warning", warning = warning.as_str(), "configuration warning: {warning}");
        }
    }
}

/// `fire.start`.
#[cold]
pub fn fire_start(fire_id: u64, name: &str, session: &str) {
    debug!(
        target: FIRE,
        event = "fire.start",
        fire_id,
        hook_event_name = name,
        session_id = session,
        "fire {name} started"
    );
}

/// `fire.done` of a fire answered by the no-match fast path (no hook ran, nothing changed).
#[cold]
pub fn fire_done_fast(name: &str, session: &str) {
    debug!(
        target: FIRE,
        event = "fire.done",
        fire_id = fire_id(),
        hook_event_name = name,
        session_id = session,
        hooks = 0,
        fast_path = true,
        "fire {name}: no hook matches"
    );
}

/// What `fire.done` tells of a fire's result.
pub struct FireEnd<'a> {
    pub name: &'a str,
    pub decision: Option<Decision>,
    pub continue_: bool,
    /// Outcomes of this fire (async ones included, as started).
    pub hooks: usize,
    pub warnings: usize,
}

/// `fire.done`: INFO when hooks ran, DEBUG when none did.
#[cold]
pub fn fire_done(fire_id: u64, r: FireEnd<'_>, started: Option<Instant>) {
    let duration_ms = started.map(millis_since);
    let decision = r.decision.map(|d| d.as_str());
    let (name, hooks) = (r.name, r.hooks);
    if hooks == 0 {
        debug!(
            target: FIRE,
            event = "fire.done",
            fire_id,
            hook_event_name = name,
            hooks,
            warnings = r.warnings,
            duration_ms,
            fast_path = false,
            "fire {name}: no hook ran"
        );
        return;
    }
    info!(
        target: FIRE,
        event = "fire.done",
        fire_id,
        hook_event_name = name,
        decision,
        stop = !r.continue_,
        hooks,
        warnings = r.warnings,
        duration_ms,
        fast_path = false,
        "fire {name}: {hooks} hook(s) ran, decision {}",
        decision.unwrap_or("none")
    );
}

/// `fire.unknown_event`: a name no loaded dialect knows; nothing runs.
#[cold]
pub fn unknown_event(fire_id: u64, name: &str) {
    debug!(target: FIRE, event = "fire.unknown_event", fire_id, hook_event_name = name, "unknown event {name:?}");
}

/// `hook.selected`.
#[cold]
pub fn selected(fire_id: u64, config: &Config, h: &Handler, timeout_s: f64) {
    debug!(
        target: HOOK,
        event = "hook.selected",
        fire_id,
        hook_id = h.id.as_str(),
        hook_type = h.ty.as_str(),
        source = source(config, h),
        mode = h.mode.as_str(),
        timeout_s,
        "hook {} will run",
        h.id
    );
}

/// Why a hook did not run, as the field `skip_reason` spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipReason {
    /// A selection rule (matcher, `if`, `once`).
    Rule(&'static str),
    /// Another hook of the fire runs the same command (dedup, §2.7).
    Duplicate,
    /// A `prompt`, `agent` or `mcp_tool` handler without a host callback.
    NoCallback,
    /// The fire was cancelled before the hook started.
    Cancelled,
    /// A sequential strategy stopped after a blocking hook.
    Halted,
    /// The j-cli chain's time budget ran out.
    ChainBudget,
}

impl SkipReason {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Rule(r) => r,
            SkipReason::Duplicate => "duplicate",
            SkipReason::NoCallback => "no_host_callback",
            SkipReason::Cancelled => "cancelled",
            SkipReason::Halted => "halted",
            SkipReason::ChainBudget => "chain_budget",
        }
    }
}

/// `hook.skipped`.
#[cold]
pub fn skipped(fire_id: u64, config: &Config, h: &Handler, why: SkipReason) {
    debug!(
        target: HOOK,
        event = "hook.skipped",
        fire_id,
        hook_id = h.id.as_str(),
        hook_type = h.ty.as_str(),
        source = source(config, h),
        skip_reason = why.as_str(),
        "hook {} skipped: {}",
        h.id,
        why.as_str()
    );
}

/// `hook.input` (TRACE): the payload a hook gets on stdin.
#[cold]
pub fn input(fire_id: u64, hook_id: &str, payload: &[u8]) {
    trace!(
        target: HOOK,
        event = "hook.input",
        fire_id,
        hook_id,
        payload = %String::from_utf8_lossy(payload),
        "hook {hook_id} input"
    );
}

/// Which fire and hook a process belongs to, for the runner's events.
#[derive(Debug, Clone, Default)]
pub struct Tag {
    pub fire_id: u64,
    pub hook_id: String,
}

/// `hook.spawned`.
#[cold]
pub fn spawned(tag: &Tag, pid: i32, program: &std::path::Path) {
    debug!(
        target: HOOK,
        event = "hook.spawned",
        fire_id = tag.fire_id,
        hook_id = tag.hook_id.as_str(),
        pid,
        program = %program.display(),
        "hook {} spawned, pid {pid}",
        tag.hook_id
    );
}

/// `hook.spawn_failed`: the hook could not be started (or, for an in-process handler,
/// prepared). The reason is hookwire's (`not found on PATH: x`), never the hook's.
#[cold]
pub fn spawn_failed(fire_id: u64, hook_id: &str, reason: &str) {
    debug!(
        target: HOOK,
        event = "hook.spawn_failed",
        fire_id,
        hook_id,
        reason,
        "hook {hook_id} could not be started: {reason}"
    );
}

/// `hook.exited`: the leader was reaped (its pipes may still drain for up to 100 ms); no
/// code nor signal when its status was lost.
#[cold]
pub fn exited(tag: &Tag, pid: i32, exit_code: Option<i32>, signal: Option<i32>, started: Option<Instant>) {
    debug!(
        target: HOOK,
        event = "hook.exited",
        fire_id = tag.fire_id,
        hook_id = tag.hook_id.as_str(),
        pid,
        exit_code,
        signal,
        duration_ms = started.map(millis_since),
        "hook {} exited",
        tag.hook_id
    );
}

/// `hook.timed_out` or `hook.cancelled`: the hook's group gets `SIGTERM` now (`started`), or
/// it never got a slot.
#[cold]
pub fn killed(tag: &Tag, pid: i32, started: bool, cancelled: bool) {
    let (event, what) =
        if cancelled { ("hook.cancelled", "cancelled") } else { ("hook.timed_out", "timed out") };
    debug!(
        target: HOOK,
        event,
        fire_id = tag.fire_id,
        hook_id = tag.hook_id.as_str(),
        pid = started.then_some(pid),
        started,
        "hook {} {what}",
        tag.hook_id
    );
}

/// What `hook.verdict` and `hook.output` tell of one hook's outcome (borrowed from it).
pub struct HookEnd<'a> {
    pub hook: &'a str,
    pub ty: &'a str,
    pub status: Status,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub http_status: Option<u16>,
    pub timed_out: bool,
    pub duration_ms: f64,
    pub verdict: &'a Verdict,
    pub stdout: &'a str,
    pub stderr: &'a str,
    pub error: Option<&'a str>,
}

/// `hook.verdict`: how the hook ended and what its dialect read. WARN when it failed (error,
/// timeout, spawn failure), else DEBUG. Then `hook.output` (TRACE) with what the hook said.
#[cold]
pub fn verdict(fire_id: u64, o: HookEnd<'_>) {
    let failed = matches!(o.status, Status::Error | Status::TimedOut | Status::SpawnFailed);
    let decision = o.verdict.decision.map(|d| d.as_str());
    macro_rules! verdict_at {
        ($level:ident) => {
            $level!(
                target: HOOK,
                event = "hook.verdict",
                fire_id,
                hook_id = o.hook,
                hook_type = o.ty,
                status = o.status.as_str(),
                exit_code = o.exit_code,
                signal = o.signal,
                http_status = o.http_status,
                timed_out = o.timed_out,
                decision,
                stop = !o.verdict.continue_,
                verdict_source = o.verdict.source.as_str(),
                duration_ms = o.duration_ms,
                "hook {}: {}, decision {}",
                o.hook,
                o.status.as_str(),
                decision.unwrap_or("none")
            )
        };
    }
    if failed {
        verdict_at!(warn);
    } else {
        verdict_at!(debug);
    }
    trace!(
        target: HOOK,
        event = "hook.output",
        fire_id,
        hook_id = o.hook,
        stdout = o.stdout,
        stderr = o.stderr,
        reason = o.verdict.reason.as_deref(),
        error = o.error,
        "hook {} output",
        o.hook
    );
}

/// `fire.fold`: the dialect's fold of the hooks' verdicts.
#[cold]
pub fn folded(fire_id: u64, name: &str, f: &Folded, hooks: usize) {
    let decision = f.decision.map(|d| d.as_str());
    debug!(
        target: FIRE,
        event = "fire.fold",
        fire_id,
        hook_event_name = name,
        hooks,
        decision,
        stop = !f.continue_,
        "fire {name}: {hooks} verdict(s) folded to {}",
        decision.unwrap_or("none")
    );
}

#[cfg(test)]
mod tests {
    use crate::verdict::{Decision, Status, VerdictSource};

    fn json<T: serde::Serialize>(v: T) -> String {
        serde_json::to_value(v).unwrap().as_str().unwrap().to_string()
    }

    #[test]
    fn fields_spell_decisions_statuses_and_sources_as_the_result_json_does() {
        use Decision::*;
        for d in [Allow, Deny, Ask, Defer, Block] {
            assert_eq!(d.as_str(), json(d));
        }
        use Status::*;
        for s in [Ok, Error, TimedOut, SpawnFailed, Async, Cancelled] {
            assert_eq!(s.as_str(), json(s));
        }
        use VerdictSource::*;
        for v in [Json, Text, ExitCode, Failure, None] {
            assert_eq!(v.as_str(), json(v));
        }
    }
}
