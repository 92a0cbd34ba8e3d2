//! The little state a dispatcher keeps across fires (protocol.md §5.10, §5.11): `once`
//! records, Stop-guard counters and async queues, each keyed by session and bounded. Each sits
//! behind its own lock so fires of different kinds contend as little as possible.

use crate::catalog::{EventSpec, GuardReset};
use crate::result::{FireResult, Outcome};
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::sync::Mutex;

/// Keys kept for `once` and the Stop guard (§5.12).
const MAX_KEYS: usize = 10_000;
/// Async queue bounds per session (§5.12).
const QUEUE_ENTRIES: usize = 32;
const QUEUE_BYTES: usize = 64 * 1024;

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

#[derive(Debug, Default)]
struct Queue {
    items: VecDeque<Queued>,
    bytes: usize,
    dropped: usize,
}

#[derive(Debug)]
pub struct Sessions {
    once: Mutex<Lru<String, HashSet<usize>>>,
    stop: Mutex<Lru<(String, String), u32>>,
    queues: Mutex<HashMap<String, Queue>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sessions {
    pub fn new() -> Sessions {
        Sessions {
            once: Mutex::new(Lru::new(MAX_KEYS)),
            stop: Mutex::new(Lru::new(MAX_KEYS)),
            queues: Mutex::new(HashMap::new()),
        }
    }

    /// Whether the session has queued async output.
    pub fn has_queue(&self, session: &str) -> bool {
        lock(&self.queues).contains_key(session)
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

    pub fn enqueue(&self, session: &str, item: Queued) {
        let mut queues = lock(&self.queues);
        let q = queues.entry(session.to_string()).or_default();
        q.bytes += item.context.as_ref().map_or(0, String::len);
        q.items.push_back(item);
        while q.items.len() > QUEUE_ENTRIES || (q.bytes > QUEUE_BYTES && q.items.len() > 1) {
            if let Some(old) = q.items.pop_front() {
                q.bytes -= old.context.as_ref().map_or(0, String::len);
                q.dropped += 1;
            }
        }
    }

    /// Takes what finished for the session since its last fire: items in completion order and
    /// how many were dropped for space.
    pub fn drain(&self, session: &str) -> (Vec<Queued>, usize) {
        let mut queues = lock(&self.queues);
        match queues.remove(session) {
            Some(q) => (q.items.into(), q.dropped),
            None => (Vec::new(), 0),
        }
    }

    /// `SessionEnd`: forget everything about the session.
    pub fn forget(&self, session: &str) {
        lock(&self.once).remove_where(|s| s == session);
        lock(&self.stop).remove_where(|(s, _)| s == session);
        lock(&self.queues).remove(session);
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

/// Hands a fire what its session's async hooks left since the last one (§5.10).
pub fn attach_async(result: &mut FireResult, queued: Vec<Queued>, dropped: usize) {
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

    #[test]
    fn lru_evicts_the_least_recently_used_key() {
        let mut l: Lru<u32, u32> = Lru::new(2);
        *l.get_mut_or_insert(&1, || 0) = 1;
        *l.get_mut_or_insert(&2, || 0) = 2;
        l.get_mut_or_insert(&1, || 0);
        l.get_mut_or_insert(&3, || 0);
        assert!(l.get(&1).is_some() && l.get(&2).is_none() && l.get(&3).is_some());
    }
}
