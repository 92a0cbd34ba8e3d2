//! Output buffers kept from one fire for the next. A hook that prints a large answer (a `cat`
//! of a 1 MiB event) needs a buffer of that size; a fresh one is 256 page faults, and whether
//! the allocator hands back warm memory depends on everything else the host allocated. The
//! bare loop a host would write keeps its buffer; so does this pool, for the result-text path
//! (`Dispatcher::fire_json`), whose outcomes are dropped once their text is written (figure
//! 4b, issue 20).
//!
//! Held per dispatcher: at most [`KEPT`] buffers, each at most [`MAX`] bytes, so a dispatcher
//! that once saw large output keeps at most a few MiB.

use std::sync::Mutex;

/// Buffers kept at most.
const KEPT: usize = 2;
/// Below this a buffer is not worth keeping: a capture starts small and only grows past it.
pub const MIN: usize = 64 * 1024;
/// Above this a buffer is dropped rather than kept.
const MAX: usize = 4 << 20;

#[derive(Debug, Default)]
pub struct OutputBuffers {
    kept: Mutex<Vec<Vec<u8>>>,
}

impl OutputBuffers {
    /// How many buffers are kept now.
    #[cfg(test)]
    pub fn kept(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// An empty buffer with room for at least `need` bytes: a kept one when there is one.
    pub fn take(&self, need: usize) -> Vec<u8> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut b = kept.unwrap_or_default();
        b.reserve_exact(need);
        b
    }

    /// Keeps `b` for a later `take` when it is worth it and there is room.
    pub fn give(&self, mut b: Vec<u8>) {
        if !(MIN..=MAX).contains(&b.capacity()) {
            return;
        }
        b.clear();
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < KEPT {
            kept.push(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_few_mid_sized_buffers_and_hands_them_back_empty() {
        let pool = OutputBuffers::default();
        pool.give(Vec::with_capacity(10)); // too small to keep
        pool.give(Vec::with_capacity(MAX + 1)); // too large to keep
        for _ in 0..KEPT + 1 {
            let mut b = Vec::with_capacity(1 << 20);
            b.extend_from_slice(b"old");
            pool.give(b);
        }
        assert_eq!(pool.kept(), KEPT);
        let b = pool.take(100);
        assert!(b.is_empty() && b.capacity() >= 1 << 20);
        let _ = pool.take(1);
        let fresh = pool.take(5000);
        assert!(fresh.capacity() >= 5000 && fresh.capacity() < MIN);
    }
}
