//! The positions threads are searching right now, so that a thread can leave one
//! another thread is already on for later (a simplified ABDADA, "alpha-beta
//! distribution with a depth-first search for asynchronous distributed algorithms").
//!
//! Two threads proving the same bound start at the same root and would search the same
//! tree in the same order. Instead, at a node whose first child failed to cut (so all
//! its children are likely to be searched), a thread defers a child that another thread
//! is searching and takes the next one; by the time it comes back to the deferred child,
//! the other thread has usually stored its bound in the shared table. Deferring only
//! reorders children: every child is still searched, so the results stay exact.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the set: many more than the positions two threads have on their paths
/// (a few dozen each), so that collisions are rare, and few enough to stay in the cache.
const SLOTS: usize = 1 << 14;

/// A lossy set of position numbers: a collision forgets a position (its searcher is
/// then not deferred to, which costs only some duplicated work).
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Default for Busy {
    fn default() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

impl Busy {
    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        let i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % SLOTS;
        &self.slots[i]
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key + 1, Ordering::Relaxed);
    }

    /// Unmarks `key`, unless another position has taken its slot since.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key + 1, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether `key` is marked as being searched.
    #[inline]
    pub fn contains(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_unmarks_positions() {
        let busy = Busy::default();
        assert!(!busy.contains(0));
        busy.enter(0);
        busy.enter(12345);
        assert!(busy.contains(0) && busy.contains(12345));
        assert!(!busy.contains(1));
        busy.leave(0);
        assert!(!busy.contains(0) && busy.contains(12345));
    }

    #[test]
    fn a_collision_forgets_the_older_position() {
        let busy = Busy::default();
        let a = 7;
        let b = (8..)
            .find(|&k| std::ptr::eq(busy.slot(k), busy.slot(a)))
            .unwrap();
        busy.enter(a);
        busy.enter(b);
        assert!(!busy.contains(a) && busy.contains(b));
        // Leaving the forgotten position does not unmark the one in its slot.
        busy.leave(a);
        assert!(busy.contains(b));
    }
}
