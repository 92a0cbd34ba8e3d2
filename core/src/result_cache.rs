//! Results a hook's configuration lets the engine reuse for a while (Kiro CLI's
//! `cache_ttl_seconds`: a context hook such as `git status` need not run on every prompt). Only
//! an exit 0 is kept, keyed by the hook and the SHA-256 of the exact bytes it was given: a
//! cached answer is never reused for another input, so a guard's earlier "allow" cannot let a
//! different command through (Kiro keys its cache by the hook alone; `docs/dialects.md`).
//! Bounded: at most [`MAX_ENTRIES`] results, the oldest dropped first.

use crate::runner::{End, RunResult};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Results kept at once, over every hook of a dispatcher.
pub const MAX_ENTRIES: usize = 1024;

/// What one cached run is keyed by: the hook (its index in configuration order) and its stdin.
pub type Key = (usize, [u8; 32]);

#[derive(Default)]
pub struct ResultCache {
    entries: Mutex<HashMap<Key, Cached>>,
}

struct Cached {
    until: Instant,
    at: Instant,
    run: RunResult,
}

impl ResultCache {
    /// The key of hook `index` given `stdin`.
    pub fn key(index: usize, stdin: &[u8]) -> Key {
        (index, Sha256::digest(stdin).into())
    }

    /// A fresh result for `key`, with its age.
    pub fn get(&self, key: &Key) -> Option<(RunResult, Duration)> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        entries.get(key).filter(|c| c.until > now).map(|c| (c.run.clone(), now - c.at))
    }

    /// Keeps `run` for `ttl` when it is an exit 0 (Kiro caches successful results only).
    pub fn put(&self, key: Key, ttl: Duration, run: &RunResult) {
        if run.end != End::Exited(0) || ttl.is_zero() {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        entries.retain(|_, c| c.until > now);
        if entries.len() >= MAX_ENTRIES
            && let Some(oldest) = entries.iter().min_by_key(|(_, c)| c.at).map(|(k, _)| *k)
        {
            entries.remove(&oldest);
        }
        let until = now.checked_add(ttl).unwrap_or(now + Duration::from_secs(86_400 * 365));
        entries.insert(key, Cached { until, at: now, run: run.clone() });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::Text;

    fn run(code: i32) -> RunResult {
        RunResult {
            end: End::Exited(code),
            stdout: Text { text: "ctx".into(), ..Text::default() },
            stderr: Text::default(),
            duration: Duration::ZERO,
            http_status: None,
        }
    }

    #[test]
    fn only_an_exit_0_is_kept_and_only_for_the_same_input() {
        let cache = ResultCache::default();
        cache.put(ResultCache::key(1, b"a"), Duration::from_secs(60), &run(0));
        cache.put(ResultCache::key(2, b"a"), Duration::from_secs(60), &run(2));
        assert!(cache.get(&ResultCache::key(1, b"a")).is_some());
        assert!(cache.get(&ResultCache::key(1, b"b")).is_none());
        assert!(cache.get(&ResultCache::key(2, b"a")).is_none());
    }

    #[test]
    fn the_cache_never_holds_more_than_its_bound() {
        let cache = ResultCache::default();
        for i in 0..MAX_ENTRIES + 10 {
            cache.put(ResultCache::key(i, b"x"), Duration::from_secs(60), &run(0));
        }
        assert_eq!(cache.entries.lock().unwrap().len(), MAX_ENTRIES);
    }
}
