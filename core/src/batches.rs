//! Running the synchronous hooks of one fire (protocol.md §5.1 steps 7–9, §9.0): in batches,
//! the strategy of the envelope's dialect chosen once. A parallel fire is one batch of every
//! hook; a sequential one is a batch per hook in configuration order, where a chaining dialect
//! sees the rewrites of the hooks before it and a halting strategy stops after a block. Within
//! a batch, in-process handlers start on their threads and processes run on this one, each
//! under its own deadline from the batch's start.

use crate::catalog::{EventSpec, Rules};
use crate::config::Handler;
use crate::config::Knobs;
use crate::dialect::{self, Finished, FireEvent, Step, Strategy};
use crate::envfile;
use crate::inprocess;
use crate::launch::{self, FireContext, Launched, Prepared};
use crate::logs::{self, SkipReason};
use crate::result::Outcome;
use crate::result_cache::{Key, ResultCache};
use crate::runner::{self, Cancel, End, RunResult, Slots, Text};
use serde_json::Value;
use std::borrow::Cow;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The j-cli chain's budget, checked before each hook (§9.4).
const CHAIN_BUDGET: Duration = Duration::from_secs(30);

/// One handler chosen for this fire, with its effective timeout.
pub struct Chosen<'a> {
    /// Borrowed from the configuration, or owned for a function the host registered.
    pub h: Cow<'a, Handler>,
    pub timeout_s: f64,
}

/// The event of the fire, as the batches read it.
pub struct Fire<'a> {
    pub spec: &'static EventSpec,
    pub rules: Rules,
    pub event: &'a Value,
    /// The host's exact text, when it gave text.
    pub raw: Option<&'a str>,
    pub strategy: Strategy,
    /// The session's Stop-guard count before this fire (`FireEvent::loop_count`).
    pub loop_count: u32,
    /// When the fire started (every hook's `FireEvent::at`).
    pub at: std::time::SystemTime,
    /// The host's own payload of the agent (`FireEvent::native`).
    pub native: Option<crate::dialect::NativeFire<'a>>,
    pub slots: &'a Slots,
    pub cancel: Option<&'a Cancel>,
}

/// What the batches leave for the fold and the result, per chosen hook (by index).
pub struct Ran {
    pub steps: Vec<Option<Step>>,
    pub outcomes: Vec<Option<Outcome>>,
    /// Variables the hooks' `CLAUDE_ENV_FILE`s set, in order.
    pub env: Vec<(String, String)>,
    /// Each hook's own warnings (in configuration order), then the fire's.
    pub hook_warnings: Vec<Vec<String>>,
    pub warnings: Vec<String>,
}

/// Runs the hooks at `sync` (indices into `chosen`).
pub fn run(cx: &FireContext<'_>, fire: &Fire<'_>, chosen: &[Chosen<'_>], sync: &[usize]) -> Ran {
    let n = chosen.len();
    let mut ran = Ran {
        steps: vec![None; n],
        outcomes: vec![None; n],
        env: Vec::new(),
        hook_warnings: vec![Vec::new(); n],
        warnings: Vec::new(),
    };
    let fire_start = Instant::now();
    let batches: Vec<&[usize]> =
        if fire.strategy.one_at_a_time() { sync.chunks(1).collect() } else { vec![sync] };
    let mut current: Cow<'_, Value> = Cow::Borrowed(fire.event);
    let mut carried: Vec<Knobs> = Vec::new();
    let mut rewritten = false;
    // Why the hooks of the batches not run were skipped, and from which batch on.
    let mut stopped: Option<(usize, SkipReason)> = None;
    for (b, &batch) in batches.iter().enumerate() {
        let Some(&first) = batch.first() else { continue };
        if fire.strategy.one_at_a_time() {
            let id = &chosen[first].h.id;
            if fire.cancel.is_some_and(Cancel::is_cancelled) {
                ran.warnings.push(format!("fire cancelled by the host before hook {id} started"));
                stopped = Some((b, SkipReason::Cancelled));
                break;
            }
            if fire.strategy == Strategy::Chain && fire_start.elapsed() > CHAIN_BUDGET {
                ran.warnings.push(format!(
                    "hook {id}: the chain's {} s budget is spent; the remaining hooks are skipped",
                    CHAIN_BUDGET.as_secs()
                ));
                stopped = Some((b, SkipReason::ChainBudget));
                break;
            }
        }
        let view = |h: &Handler| {
            let chains = h.dialect.rules().profile().chains;
            FireEvent {
                spec: fire.spec,
                rules: fire.rules,
                original: fire.event,
                current: if chains { &current } else { fire.event },
                raw: if chains && rewritten { None } else { fire.raw },
                carried: if chains { &carried } else { &[] },
                project_dir: cx.project_dir,
                loop_count: fire.loop_count,
                at: fire.at,
                native: fire.native,
            }
        };
        // Each batch's deadlines start when it does: sequential hooks never share one.
        let start = Instant::now();
        let launched: Vec<Launched<'_>> = batch
            .iter()
            .map(|&k| {
                let c = &chosen[k];
                let want_env_file =
                    fire.spec.has_env_file(fire.rules) && c.h.dialect.rules().profile().env_file;
                let mut l = launch::prepare(cx, &c.h, c.timeout_s, start, &view(&c.h), want_env_file);
                if let Prepared::Failed(why) = &l.prepared {
                    logs::spawn_failed(cx.fire_id, &c.h.id, why);
                }
                ran.hook_warnings[k].append(&mut l.warnings);
                l
            })
            .collect();
        let (results, keys) = run_or_reuse(cx, chosen, batch, launched, fire, &mut ran.hook_warnings);
        let mut halt = false;
        for ((&k, (run, env_file, env)), key) in batch.iter().zip(results).zip(keys) {
            let Some(run) = run else { continue };
            let c = &chosen[k];
            if let (Some(key), Some(ttl)) = (key, c.h.cache_ttl) {
                cx.cache.put(key, ttl, &run);
            }
            let v = view(&c.h);
            let finished =
                Finished { end: &run.end, stdout: &run.stdout, stderr: &run.stderr, timeout_s: c.timeout_s };
            let step = dialect::read(&c.h, &v, &finished);
            let command = launch::command_text(cx.config, &c.h, cx.project_dir);
            ran.hook_warnings[k].extend(step.reading.warnings.iter().cloned());
            if let Some(path) = env_file {
                merge_env_file(cx, &path, &run, &env, &c.h, &mut ran.env, &mut ran.hook_warnings[k]);
            }
            let outcome = Outcome::finished(&c.h, command, run, &step.reading);
            logs::verdict(cx.fire_id, outcome.as_logged());
            ran.outcomes[k] = Some(outcome);
            halt |= step.halt && fire.strategy.halts();
            ran.steps[k] = Some(step);
        }
        // Rewrites reach the hooks of later batches (sequential strategies only have those).
        for &k in batch {
            let Some(step) = &ran.steps[k] else { continue };
            if !chosen[k].h.dialect.rules().profile().chains {
                continue;
            }
            for (field, value) in &step.chain {
                if let Some(obj) = current.to_mut().as_object_mut() {
                    obj.insert(field.clone(), value.clone());
                    rewritten = true;
                }
            }
            if step.own.is_set() {
                carried.push(step.own.clone());
            }
        }
        if halt {
            stopped = Some((b + 1, SkipReason::Halted));
            break;
        }
    }
    if let Some((from, why)) = stopped {
        for &k in batches[from..].iter().copied().flatten() {
            logs::skipped(cx.fire_id, cx.config, &chosen[k].h, why);
        }
    }
    ran
}

type BatchResult = (Option<RunResult>, Option<PathBuf>, Vec<(OsString, OsString)>);

/// Runs one batch, except the hooks whose exit 0 on these very stdin bytes may be reused
/// (`Handler::cache_ttl`): those get their cached run, with a warning that says so. Also gives,
/// per hook, the key under which a fresh run is to be kept (`None`: not kept, or reused).
fn run_or_reuse(
    cx: &FireContext<'_>,
    chosen: &[Chosen<'_>],
    batch: &[usize],
    launched: Vec<Launched<'_>>,
    fire: &Fire<'_>,
    warnings: &mut [Vec<String>],
) -> (Vec<BatchResult>, Vec<Option<Key>>) {
    let mut reused = Vec::with_capacity(batch.len());
    let mut keys = Vec::with_capacity(batch.len());
    let mut to_run = Vec::new();
    for (&k, l) in batch.iter().zip(launched) {
        let h = &chosen[k].h;
        let key = match (&h.cache_ttl, &l.prepared) {
            (Some(_), Prepared::Run(job, _)) => Some(ResultCache::key(h.index, &job.stdin)),
            _ => None,
        };
        let hit = key.as_ref().and_then(|key| cx.cache.get(key));
        if let Some((_, age)) = &hit {
            warnings[k].push(format!(
                "hook {}: its result of {:.1} s ago on the same input is reused (cached for {} s)",
                h.id,
                age.as_secs_f64(),
                h.cache_ttl.map_or(0, |t| t.as_secs())
            ));
            reused.push(Some(hit.map(|(run, _)| run)));
            keys.push(None);
        } else {
            to_run.push(l);
            reused.push(None);
            keys.push(key);
        }
    }
    let mut ran = run_batch(to_run, fire).into_iter();
    let results = reused
        .into_iter()
        .map(|hit| match hit {
            Some(run) => (run, None, Vec::new()),
            None => ran.next().unwrap_or((None, None, Vec::new())),
        })
        .collect();
    (results, keys)
}

/// Runs one batch: in-process tasks on their threads, processes on this one, all at once.
fn run_batch(launched: Vec<Launched<'_>>, fire: &Fire<'_>) -> Vec<BatchResult> {
    enum Slot {
        Job(Option<PathBuf>),
        Task(usize),
        Failed(String),
    }
    let mut jobs = Vec::new();
    let mut tasks = Vec::new();
    let mut slots = Vec::new();
    for l in launched {
        let slot = match l.prepared {
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
        slots.push((slot, l.env));
    }
    let pending = (!tasks.is_empty()).then(|| inprocess::start(tasks));
    let mut runs =
        if jobs.is_empty() { Vec::new() } else { runner::run(&jobs, fire.slots, fire.cancel) }.into_iter();
    let mut answers: Vec<Option<RunResult>> =
        pending.map(|p| p.wait(fire.cancel)).unwrap_or_default().into_iter().map(Some).collect();
    slots
        .into_iter()
        .map(|(slot, env)| match slot {
            Slot::Job(env_file) => (runs.next(), env_file, env),
            Slot::Task(i) => (answers.get_mut(i).and_then(Option::take), None, env),
            Slot::Failed(why) => (Some(failed_run(why)), None, env),
        })
        .collect()
}

fn failed_run(why: String) -> RunResult {
    RunResult {
        end: End::SpawnFailed(why),
        stdout: Text::default(),
        stderr: Text::default(),
        duration: Duration::ZERO,
        http_status: None,
    }
}

/// Reads, deletes and merges one hook's `CLAUDE_ENV_FILE` (§3.4).
fn merge_env_file(
    cx: &FireContext<'_>,
    path: &Path,
    run: &RunResult,
    env: &[(OsString, OsString)],
    h: &Handler,
    merged: &mut Vec<(String, String)>,
    warnings: &mut Vec<String>,
) {
    let cap = cx.config.limits.max_output_bytes;
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
    let lookup = |name: &str| launch::lookup(env, name);
    let (assign, warns) = envfile::parse(&text, &h.id, merged, &lookup, cap);
    merged.extend(assign);
    warnings.extend(warns);
}

/// The fire's one warning about hooks whose exit status was lost (issue 14): which hooks, and
/// the cause (the same for all of them in practice: the host's `SIGCHLD` disposition).
pub fn lost_warning(chosen: &[Chosen<'_>], steps: &[Option<Step>]) -> Option<String> {
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
