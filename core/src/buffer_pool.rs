//! Large byte buffers kept from one fire for the next: a hook's captured output and the
//! result text written from it. A hook that prints a large answer (a `cat` of a 1 MiB event)
//! needs a buffer of that size, and so does the result carrying it; a fresh one is 256 page
//! faults, and whether the allocator hands back warm memory depends on everything else the
//! host allocated (glibc maps a large block afresh or trims its heap by thresholds that move
//! with the host's own history: the same fire took 2 or 262 faults). The bare loop a host
//! would write keeps its buffers; so does this pool (figure 4b, issue 20).
//!
//! One pool for the process, since a result text outlives its dispatcher: the C ABI gives the
//! text's buffer back when the host frees it (`hooks_free`). At most [`KEPT`] buffers, each at
//! most [`MAX`] bytes, so a process that once saw large output keeps at most 16 MiB.

use std::sync::Mutex;

/// Buffers kept at most: a fire's output and its result text, for a couple of fires at once.
const KEPT: usize = 4;
/// Below this a buffer is not worth keeping: a capture starts small and only grows past it.
pub const MIN: usize = 64 * 1024;
/// Above this a buffer is dropped rather than kept.
const MAX: usize = 4 << 20;

/// The process's pool.
static SHARED: BufferPool = BufferPool::new();

/// [`BufferPool::take`] from the process's pool.
pub fn take(need: usize) -> Vec<u8> {
    SHARED.take(need)
}

/// [`BufferPool::give`] to the process's pool.
pub fn give(b: Vec<u8>) {
    SHARED.give(b)
}

/// How many buffers the process's pool keeps now.
pub fn kept() -> usize {
    SHARED.kept()
}

#[derive(Debug)]
pub struct BufferPool {
    kept: Mutex<Vec<Vec<u8>>>,
}

impl BufferPool {
    const fn new() -> BufferPool {
        BufferPool { kept: Mutex::new(Vec::new()) }
    }

    /// How many buffers are kept now.
    pub fn kept(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// An empty buffer with room for at least `need` bytes: for a need of at least [`MIN`],
    /// the smallest kept one that has it, so a smaller need leaves the large buffers to large
    /// ones; else a fresh one (growing a kept buffer would copy its old bytes for nothing).
    pub fn take(&self, need: usize) -> Vec<u8> {
        if need < MIN {
            return Vec::with_capacity(need);
        }
        let kept = {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            let fits = kept.iter().enumerate().filter(|(_, b)| b.capacity() >= need);
            let best = fits.min_by_key(|(_, b)| b.capacity()).map(|(i, _)| i);
            best.map(|i| kept.swap_remove(i))
        };
        kept.unwrap_or_else(|| Vec::with_capacity(need))
    }

    /// Keeps `b` for a later `take` when it is worth it: while there is room, or in place of
    /// the smallest kept buffer when `b` is larger.
    pub fn give(&self, mut b: Vec<u8>) {
        if !(MIN..=MAX).contains(&b.capacity()) {
            return;
        }
        b.clear();
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < KEPT {
            kept.push(b);
        } else if let Some(smallest) = kept.iter_mut().min_by_key(|k| k.capacity())
            && smallest.capacity() < b.capacity()
        {
            *smallest = b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(capacity: usize) -> Vec<u8> {
        let mut b = Vec::with_capacity(capacity);
        b.extend_from_slice(b"old");
        b
    }

    #[test]
    fn keeps_a_few_mid_sized_buffers_and_hands_them_back_empty() {
        let pool = BufferPool::new();
        pool.give(Vec::with_capacity(10)); // too small to keep
        pool.give(Vec::with_capacity(MAX + 1)); // too large to keep
        for _ in 0..KEPT + 1 {
            pool.give(buffer(1 << 20));
        }
        assert_eq!(pool.kept(), KEPT);
        // A small need gets a small fresh buffer and leaves the kept ones alone.
        assert!(pool.take(100).capacity() < MIN);
        assert_eq!(pool.kept(), KEPT);
        let b = pool.take(MIN);
        assert!(b.is_empty() && b.capacity() >= 1 << 20);
        assert_eq!(pool.kept(), KEPT - 1);
        // Nothing kept is large enough: a fresh buffer, and the kept ones stay.
        let fresh = pool.take(2 << 20);
        assert!(fresh.capacity() >= 2 << 20);
        assert_eq!(pool.kept(), KEPT - 1);
    }

    #[test]
    fn a_take_gets_the_smallest_buffer_that_fits_and_a_larger_give_displaces_the_smallest() {
        let pool = BufferPool::new();
        let sizes = [MIN, 2 * MIN, 4 * MIN, 8 * MIN];
        for size in sizes {
            pool.give(buffer(size));
        }
        let fit = pool.take(MIN + 1).capacity();
        assert!((2 * MIN..4 * MIN).contains(&fit), "{fit}");
        pool.give(buffer(2 * MIN));
        // Full: a larger buffer takes the smallest one's place, a smaller one is dropped.
        pool.give(buffer(16 * MIN));
        pool.give(buffer(MIN));
        let mut caps: Vec<usize> = (0..KEPT).map(|_| pool.take(MIN).capacity()).collect();
        caps.sort_unstable();
        assert!(caps[0] >= 2 * MIN && caps[KEPT - 1] >= 16 * MIN, "{caps:?}");
        assert_eq!(pool.kept(), 0);
    }
}
