//! The little state a dispatcher keeps across fires (protocol.md §5.10, §5.11): `once`
//! records, Stop-guard counters and async queues, each keyed by session and bounded. Each sits
//! behind its own lock so fires of different kinds contend as little as possible.

use crate::catalog::{EventSpec, GuardReset};
use crate::result::{FireResult, Outcome};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Keys kept for `once` and the Stop guard (§5.12).
const MAX_KEYS: usize = 10_000;
/// Async queue bounds per session (§5.12): entries, and the bytes everything queued holds
/// (each outcome whole: its captured output, texts and JSON, not only its context).
const QUEUE_ENTRIES: usize = 32;
const QUEUE_BYTES: usize = 64 * 1024;
/// Sessions whose async output waits for their next fire, kept at once (least recently used
/// first out): with [`QUEUE_BYTES`] each, at most 64 MiB queued per dispatcher.
const QUEUE_SESSIONS: usize = 1024;
/// Warnings kept per session about what its queue cut or dropped; the rest are counted.
const LOSS_NOTES: usize = 8;
/// Events kept per deferred hook and session until its turn ends (`RunMode::TurnEnd`): past
/// it the oldest go, with a warning at the turn's end.
const DEFERRED_EVENTS: usize = 64;
/// Bytes of deferred events kept per session (their JSON text); past it the oldest go.
const DEFERRED_BYTES: usize = 256 * 1024;

/// A map that forgets its least recently used key past `cap`.
#[derive(Debug)]
pub struct Lru<K, V> {
    map: HashMap<K, (V, u64)>,
    tick: u64,
    cap: usize,
}

impl<K: Hash + Eq + Clone, V> Lru<K, V> {
    pub fn new(cap: usize) -> Self {
        Lru { map: HashMap::new(), tick: 0, cap }
    }
    pub fn get_mut_or_insert(&mut self, key: &K, make: impl FnOnce() -> V) -> &mut V {
        self.tick += 1;
        let tick = self.tick;
        if !self.map.contains_key(key) {
            if self.map.len() >= self.cap
                && let Some(old) = self.map.iter().min_by_key(|(_, (_, t))| *t).map(|(k, _)| k.clone())
            {
                self.map.remove(&old);
            }
            self.map.insert(key.clone(), (make(), tick));
        }
        let entry = self.map.get_mut(key).expect("the key was inserted just above");
        entry.1 = tick;
        &mut entry.0
    }
    pub fn get(&self, key: &K) -> Option<&V> {
        self.map.get(key).map(|(v, _)| v)
    }
    pub fn contains_key(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }
    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.map.remove(key).map(|(v, _)| v)
    }
    pub fn remove_where(&mut self, pred: impl Fn(&K) -> bool) {
        self.map.retain(|k, _| !pred(k));
    }
}

/// One async hook's finished contribution, queued for its session.
#[derive(Debug, Clone)]
pub struct Queued {
    pub context: Option<String>,
    pub outcome: Outcome,
}

impl Queued {
    /// The bytes this entry holds, everything counted (the queue's charge for it).
    fn held_bytes(&self) -> usize {
        std::mem::size_of::<Option<String>>()
            + self.context.as_ref().map_or(0, String::capacity)
            + self.outcome.held_bytes()
    }

    /// Frees at least `want` bytes when it can, from what can go without losing the hook's
    /// context or how it ended: its captured stdout, then stderr (each cut at a character
    /// boundary, `*_truncated` set), then its verdict's JSON values (never applied for an async
    /// hook, §5.10). Returns the bytes freed.
    fn shed(&mut self, want: usize) -> usize {
        let before = self.held_bytes();
        let o = &mut self.outcome;
        let mut left = want;
        for (text, cut) in
            [(&mut o.stdout, &mut o.stdout_truncated), (&mut o.stderr, &mut o.stderr_truncated)]
        {
            if left == 0 || text.is_empty() {
                continue;
            }
            let mut keep = text.len().saturating_sub(left);
            while !text.is_char_boundary(keep) {
                keep -= 1;
            }
            left = left.saturating_sub(text.len() - keep);
            text.truncate(keep);
            text.shrink_to_fit();
            *cut = true;
        }
        if left > 0 {
            let v = &mut o.verdict;
            (v.updated_input, v.updated_tool_output, v.extra) = (None, None, Map::new());
        }
        before - self.held_bytes()
    }
}

/// What a session's queue cut or dropped since its last fire, for that fire's warnings.
#[derive(Debug, Default)]
struct Losses {
    notes: Vec<String>,
    unnoted: usize,
}

impl Losses {
    fn note(&mut self, text: String) {
        if self.notes.len() < LOSS_NOTES {
            self.notes.push(text);
        } else {
            self.unnoted += 1;
        }
    }

    fn into_warnings(mut self) -> Vec<String> {
        if self.unnoted > 0 {
            self.notes
                .push(format!("{} more async hook results were cut or dropped for space", self.unnoted));
        }
        self.notes
    }
}

#[derive(Debug, Default)]
struct Queue {
    items: VecDeque<Queued>,
    bytes: usize,
    losses: Losses,
}

/// The events a session's turn-end hooks wait for (`RunMode::TurnEnd`), per hook (its event id
/// and configuration index), in the order they were fired.
#[derive(Debug, Default)]
struct Deferred {
    hooks: Vec<(HookKey, VecDeque<(Value, usize)>)>,
    bytes: usize,
    dropped: usize,
}

/// A deferred hook: the event id it was configured under and its configuration index.
pub type HookKey = (usize, usize);

/// One turn-end hook's batch: the hook and the events recorded for it, oldest first.
pub type TurnEndBatch = (HookKey, Vec<Value>);

#[derive(Debug)]
pub struct Sessions {
    once: Mutex<Lru<String, HashSet<usize>>>,
    stop: Mutex<Lru<(String, String), u32>>,
    queues: Mutex<Lru<String, Queue>>,
    deferred: Mutex<Lru<String, Deferred>>,
    /// Set by the first deferred event: until then no fire looks at `deferred` (a dispatcher
    /// without turn-end hooks pays one atomic load).
    any_deferred: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sessions {
    pub fn new() -> Sessions {
        Sessions {
            once: Mutex::new(Lru::new(MAX_KEYS)),
            stop: Mutex::new(Lru::new(MAX_KEYS)),
            queues: Mutex::new(Lru::new(QUEUE_SESSIONS)),
            deferred: Mutex::new(Lru::new(QUEUE_SESSIONS)),
            any_deferred: AtomicBool::new(false),
        }
    }

    /// Records `event` for the turn-end hook `hook` (event id, configuration index) of the
    /// session, within the session's bounds ([`DEFERRED_EVENTS`] a hook, [`DEFERRED_BYTES`] in
    /// all; the oldest go first, counted for the turn's warning).
    pub fn defer(&self, session: &str, hook: HookKey, event: &Value) {
        let size = event.to_string().len();
        self.any_deferred.store(true, Ordering::Relaxed);
        let mut all = lock(&self.deferred);
        let d = all.get_mut_or_insert(&session.to_string(), Deferred::default);
        let at = match d.hooks.iter().position(|(k, _)| *k == hook) {
            Some(at) => at,
            None => {
                d.hooks.push((hook, VecDeque::new()));
                d.hooks.len() - 1
            }
        };
        d.hooks[at].1.push_back((event.clone(), size));
        d.bytes += size;
        if d.hooks[at].1.len() > DEFERRED_EVENTS
            && let Some((_, n)) = d.hooks[at].1.pop_front()
        {
            (d.bytes, d.dropped) = (d.bytes - n, d.dropped + 1);
        }
        while d.bytes > DEFERRED_BYTES {
            let Some(events) = d.hooks.iter_mut().map(|(_, e)| e).max_by_key(|e| e.len()) else { break };
            let Some((_, n)) = events.pop_front() else { break };
            (d.bytes, d.dropped) = (d.bytes - n, d.dropped + 1);
        }
    }

    /// Whether the session has events waiting for its turn's end.
    pub fn has_deferred(&self, session: &str) -> bool {
        self.any_deferred.load(Ordering::Relaxed) && lock(&self.deferred).contains_key(&session.to_string())
    }

    /// Takes the session's turn-end batches, in the order their hooks were first deferred, and
    /// how many older events were dropped for space.
    pub fn take_deferred(&self, session: &str) -> (Vec<TurnEndBatch>, usize) {
        match lock(&self.deferred).remove(&session.to_string()) {
            Some(d) => {
                let batches = d.hooks.into_iter().map(|(k, e)| (k, e.into_iter().map(|(v, _)| v).collect()));
                (batches.filter(|(_, e): &(_, Vec<Value>)| !e.is_empty()).collect(), d.dropped)
            }
            None => (Vec::new(), 0),
        }
    }

    /// Whether the session has queued async output.
    pub fn has_queue(&self, session: &str) -> bool {
        lock(&self.queues).contains_key(&session.to_string())
    }

    /// Whether any Stop-guard count is kept at all (a cheap check before building keys).
    pub fn has_stop_counts(&self) -> bool {
        !lock(&self.stop).map.is_empty()
    }

    /// Whether a `once` handler already ran for this session.
    pub fn ran_once(&self, session: &str, handler: usize) -> bool {
        lock(&self.once).get(&session.to_string()).is_some_and(|s| s.contains(&handler))
    }

    pub fn mark_once(&self, session: &str, handler: usize) {
        lock(&self.once).get_mut_or_insert(&session.to_string(), HashSet::new).insert(handler);
    }

    /// Counts one Stop result for the key. Returns `Some(count)` when the continuation goes
    /// over `cap` (and the count restarts), `None` otherwise.
    pub fn stop_result(&self, key: (String, String), continuation: bool, cap: u32) -> Option<u32> {
        let mut stop = lock(&self.stop);
        let count = stop.get_mut_or_insert(&key, || 0);
        if !continuation {
            *count = 0;
            return None;
        }
        *count += 1;
        if cap != 0 && *count > cap {
            let over = *count;
            *count = 0;
            return Some(over);
        }
        None
    }

    /// The consecutive continuations counted so far for the key (0 when none): what a fire
    /// about to run sees, before its own result is counted.
    pub fn stop_count(&self, session: &str, agent: &str) -> u32 {
        let key = (session.to_string(), agent.to_string());
        lock(&self.stop).get(&key).copied().unwrap_or(0)
    }

    /// Progress for the key (a tool ran, or the user spoke): the Stop count restarts.
    pub fn stop_progress(&self, session: &str, agent: Option<&str>) {
        let mut stop = lock(&self.stop);
        match agent {
            Some(a) => {
                let key = (session.to_string(), a.to_string());
                if stop.get(&key).is_some() {
                    *stop.get_mut_or_insert(&key, || 0) = 0;
                }
            }
            None => stop.remove_where(|(s, _)| s == session),
        }
    }

    /// Queues a finished async hook for its session's next fire, within the session's bounds
    /// (§5.10): everything the entry holds is counted. Room is made by cutting captured output
    /// before dropping any outcome (the newcomer's first, then the queued ones', oldest first);
    /// whole outcomes go, oldest first, only when the rest still does not fit. Every cut and
    /// drop becomes a warning of the next fire naming the hook and the bytes.
    pub fn enqueue(&self, session: &str, mut item: Queued) {
        // Captured output may sit in a larger pooled buffer: the queue keeps only the text.
        item.outcome.stdout.shrink_to_fit();
        item.outcome.stderr.shrink_to_fit();
        let mut queues = lock(&self.queues);
        let q = queues.get_mut_or_insert(&session.to_string(), Queue::default);
        let hook = item.outcome.hook.clone();
        let room = QUEUE_BYTES.saturating_sub(q.bytes);
        let size = item.held_bytes();
        if size > room {
            let cut = item.shed(size - room);
            if cut > 0 {
                q.losses.note(cut_note(&hook, cut));
            }
        }
        let size = item.held_bytes();
        if size > QUEUE_BYTES {
            q.losses.note(drop_note(&hook, size));
            return;
        }
        let mut over = (q.bytes + size).saturating_sub(QUEUE_BYTES);
        for old in q.items.iter_mut() {
            if over == 0 {
                break;
            }
            let cut = old.shed(over);
            if cut > 0 {
                q.losses.note(cut_note(&old.outcome.hook, cut));
            }
            q.bytes -= cut;
            over = over.saturating_sub(cut);
        }
        q.bytes += size;
        q.items.push_back(item);
        while q.items.len() > QUEUE_ENTRIES || q.bytes > QUEUE_BYTES {
            let Some(old) = q.items.pop_front() else { break };
            let size = old.held_bytes();
            q.bytes -= size;
            q.losses.note(drop_note(&old.outcome.hook, size));
        }
    }

    /// Takes what finished for the session since its last fire: items in completion order, and
    /// the warnings about what was cut or dropped for space.
    pub fn drain(&self, session: &str) -> (Vec<Queued>, Vec<String>) {
        match lock(&self.queues).remove(&session.to_string()) {
            Some(q) => (q.items.into(), q.losses.into_warnings()),
            None => (Vec::new(), Vec::new()),
        }
    }

    /// `SessionEnd`: forget everything about the session.
    pub fn forget(&self, session: &str) {
        lock(&self.once).remove_where(|s| s == session);
        lock(&self.stop).remove_where(|(s, _)| s == session);
        lock(&self.queues).remove(&session.to_string());
        lock(&self.deferred).remove(&session.to_string());
    }
}

/// The Stop guard (§5.11), applied to a finished fire's result: progress restarts the count of
/// the events the catalogue marks; a Stop-like result that continues the turn (a block, or
/// additional context where `context_continues` says so) is counted, and past `cap` in a row
/// the continuation is dropped so that the turn can end.
pub fn stop_guard(
    sessions: &Sessions,
    spec: &EventSpec,
    (session, agent): (&str, &str),
    context_continues: bool,
    cap: u32,
    result: &mut FireResult,
) {
    match spec.resets_stop_guard {
        GuardReset::Agent => sessions.stop_progress(session, Some(agent)),
        GuardReset::Session => sessions.stop_progress(session, None),
        GuardReset::No => {}
    }
    if !spec.stop_like {
        return;
    }
    let continuation = result.decision == Some(crate::verdict::Decision::Block)
        || (context_continues && result.additional_context.is_some());
    if let Some(n) = sessions.stop_result((session.to_string(), agent.to_string()), continuation, cap) {
        result.decision = None;
        result.reason = None;
        result.additional_context = None;
        result.warnings.push(format!(
            "Stop hooks blocked {n} consecutive times; letting the turn end (stop_block_cap = {cap})"
        ));
    }
}

/// Whether a fire of `spec` touches the Stop guard's state.
pub fn touches_stop_guard(spec: &EventSpec) -> bool {
    spec.stop_like || spec.resets_stop_guard != GuardReset::No
}

fn cut_note(hook: &str, bytes: usize) -> String {
    format!(
        "async hook {hook}: {bytes} bytes of its output were cut to fit the session's async queue ({QUEUE_BYTES} bytes)"
    )
}

fn drop_note(hook: &str, bytes: usize) -> String {
    format!(
        "async hook {hook}: its result ({bytes} bytes) was dropped: the session's async queue was full \
         ({QUEUE_ENTRIES} entries, {QUEUE_BYTES} bytes)"
    )
}

/// Hands a fire what its session's async hooks left since the last one (§5.10), with the
/// queue's warnings about what did not fit.
pub fn attach_async(result: &mut FireResult, queued: Vec<Queued>, losses: Vec<String>) {
    result.warnings.extend(losses);
    let texts = queued.iter().filter_map(|q| q.context.as_deref());
    if let Some(joined) = crate::fold::join_texts(crate::fold::CONTEXT_SEPARATOR, texts) {
        result.pending_context = Some(joined);
    }
    result.async_outcomes = queued.into_iter().map(|q| q.outcome).collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ninth_continuation_goes_over_a_cap_of_eight_and_restarts() {
        let s = Sessions::new();
        let key = || ("s".to_string(), String::new());
        for _ in 0..8 {
            assert_eq!(s.stop_result(key(), true, 8), None);
        }
        assert_eq!(s.stop_result(key(), true, 8), Some(9));
        assert_eq!(s.stop_result(key(), true, 8), None);
    }

    #[test]
    fn cap_zero_never_overrides() {
        let s = Sessions::new();
        for _ in 0..50 {
            assert_eq!(s.stop_result(("s".into(), String::new()), true, 0), None);
        }
    }

    #[test]
    fn progress_restarts_the_count() {
        let s = Sessions::new();
        let key = || ("s".to_string(), String::new());
        for _ in 0..8 {
            s.stop_result(key(), true, 8);
        }
        s.stop_progress("s", None);
        assert_eq!(s.stop_result(key(), true, 8), None);
    }

    fn queued(hook: &str, context: &str, output: usize) -> Queued {
        let mut outcome = Outcome::sample("o".repeat(output), "e".repeat(output));
        outcome.hook = hook.to_string();
        Queued { context: Some(context.to_string()), outcome }
    }

    fn held(s: &Sessions, session: &str) -> usize {
        lock(&s.queues).get(&session.to_string()).map_or(0, |q| q.bytes)
    }

    #[test]
    fn a_queued_outcome_is_counted_whole_and_its_output_cut_to_fit() {
        let s = Sessions::new();
        s.enqueue("s", queued("noisy", "keep me", 2 << 20));
        assert!(held(&s, "s") <= QUEUE_BYTES, "{} bytes held", held(&s, "s"));
        let (items, warnings) = s.drain("s");
        let o = &items[0].outcome;
        assert_eq!(items[0].context.as_deref(), Some("keep me"));
        assert!(o.held_bytes() <= QUEUE_BYTES && o.stdout_truncated && o.stderr_truncated);
        assert!(o.stdout.len() + o.stderr.len() > QUEUE_BYTES / 2, "more cut than needed");
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("async hook noisy: ")
                && warnings[0].contains(" bytes of its output were cut")
        );
    }

    #[test]
    fn output_goes_before_any_context_and_whole_results_go_oldest_first() {
        let s = Sessions::new();
        for k in 0..10 {
            s.enqueue("s", queued(&format!("quiet{k}"), "ctx", 0));
        }
        s.enqueue("s", queued("noisy", "loud ctx", 1 << 20));
        let (items, _) = s.drain("s");
        assert_eq!(items.len(), 11);
        assert!(items.iter().all(|q| q.context.is_some()));
        for k in 0..QUEUE_ENTRIES + 2 {
            s.enqueue("s", queued(&format!("h{k}"), "ctx", 0));
        }
        let (items, warnings) = s.drain("s");
        assert_eq!(items.len(), QUEUE_ENTRIES);
        assert_eq!(items[0].outcome.hook, "h2");
        assert!(
            warnings[0].starts_with("async hook h0: its result (")
                && warnings[1].starts_with("async hook h1: ")
        );
    }

    #[test]
    fn a_session_bound_keeps_the_most_recently_used_queues() {
        let s = Sessions::new();
        for k in 0..QUEUE_SESSIONS + 10 {
            s.enqueue(&format!("s{k}"), queued("h", "", 0));
        }
        assert_eq!(lock(&s.queues).map.len(), QUEUE_SESSIONS);
        assert!(!s.has_queue("s9") && s.has_queue("s10") && s.has_queue(&format!("s{}", QUEUE_SESSIONS + 9)));
    }

    #[test]
    fn lru_evicts_the_least_recently_used_key() {
        let mut l: Lru<u32, u32> = Lru::new(2);
        *l.get_mut_or_insert(&1, || 0) = 1;
        *l.get_mut_or_insert(&2, || 0) = 2;
        l.get_mut_or_insert(&1, || 0);
        l.get_mut_or_insert(&3, || 0);
        assert!(l.get(&1).is_some() && l.get(&2).is_none() && l.get(&3).is_some());
    }

    #[test]
    fn deferred_events_are_kept_per_hook_in_order_and_taken_once() {
        let s = Sessions::new();
        s.defer("s", (3, 7), &serde_json::json!({"n": 1}));
        s.defer("s", (3, 9), &serde_json::json!({"n": 2}));
        s.defer("s", (3, 7), &serde_json::json!({"n": 3}));
        s.defer("other", (3, 7), &serde_json::json!({"n": 4}));
        let (batches, dropped) = s.take_deferred("s");
        let n = |b: &TurnEndBatch| b.1.iter().map(|e| e["n"].as_i64().unwrap()).collect::<Vec<_>>();
        assert_eq!(batches.iter().map(|b| b.0).collect::<Vec<_>>(), [(3, 7), (3, 9)]);
        assert_eq!((n(&batches[0]), n(&batches[1]), dropped), (vec![1, 3], vec![2], 0));
        assert!(!s.has_deferred("s") && s.take_deferred("s").0.is_empty());
        assert!(s.has_deferred("other"));
    }

    #[test]
    fn a_long_turn_keeps_the_most_recent_deferred_events_within_bounds() {
        let s = Sessions::new();
        for n in 0..(DEFERRED_EVENTS + 10) {
            s.defer("s", (1, 1), &serde_json::json!({"n": n}));
        }
        let (batches, dropped) = s.take_deferred("s");
        assert_eq!((batches[0].1.len(), dropped), (DEFERRED_EVENTS, 10));
        assert_eq!(batches[0].1[0]["n"], 10);
        // Large events: the bytes bound holds across hooks.
        let big = serde_json::json!({"x": "y".repeat(40 * 1024)});
        for k in 0..20 {
            s.defer("s", (1, k), &big);
        }
        let kept: usize = lock(&s.deferred).get(&"s".to_string()).map_or(0, |d| d.bytes);
        assert!(kept <= DEFERRED_BYTES, "{kept} bytes kept");
        let (batches, dropped) = s.take_deferred("s");
        assert!(dropped > 0 && batches.iter().map(|b| b.1.len()).sum::<usize>() == 20 - dropped);
    }

    #[test]
    fn session_end_forgets_deferred_events() {
        let s = Sessions::new();
        s.defer("s", (1, 1), &serde_json::json!({}));
        s.forget("s");
        assert!(!s.has_deferred("s"));
    }
}
