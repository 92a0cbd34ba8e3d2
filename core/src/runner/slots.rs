//! The `max_parallel` cap (protocol.md §5.7): hook processes running at once across all fires
//! of one dispatcher. Acquiring never blocks: a fire's loop re-checks on its next turn, so a
//! wait for a slot always stays inside the hook's own deadline.

use std::sync::Mutex;

#[derive(Debug)]
pub struct Slots {
    used: Mutex<usize>,
    cap: usize,
}

impl Slots {
    pub fn new(cap: usize) -> Slots {
        Slots { used: Mutex::new(0), cap: cap.max(1) }
    }

    pub fn try_acquire(&self) -> bool {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if *used < self.cap {
            *used += 1;
            true
        } else {
            false
        }
    }

    pub fn release(&self) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(1);
    }
}
