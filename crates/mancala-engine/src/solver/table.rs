//! The solver's transposition table: exact bounds on a position's value, keyed by an
//! exact (collision-free) position number, shareable between threads.

use std::sync::atomic::{AtomicU64, Ordering};

use super::huge_pages;
use super::prefetch::prefetch;

/// Bounds proved for one position: `lo <= value <= hi`, the best move found, and how
/// much work (log2 of nodes) the proof took, for replacement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub lo: i16,
    pub hi: i16,
    /// Index of the best move found (0-based house), or `NO_MOVE`.
    pub mv: u8,
    pub work: u8,
}

/// No best move known.
pub(crate) const NO_MOVE: u8 = 0xFF;

/// Marks a used slot, so that an empty slot never matches key 0.
const USED: u64 = 1 << 63;

impl Bounds {
    fn pack(self) -> u64 {
        USED | u64::from(self.lo as u16)
            | u64::from(self.hi as u16) << 16
            | u64::from(self.mv) << 32
            | u64::from(self.work) << 40
    }

    fn unpack(bits: u64) -> Option<Bounds> {
        (bits & USED != 0).then_some(Bounds {
            lo: bits as u16 as i16,
            hi: (bits >> 16) as u16 as i16,
            mv: (bits >> 32) as u8,
            work: (bits >> 40) as u8,
        })
    }
}

/// A table of [`Bounds`] in two-slot buckets.
///
/// Keys are exact position numbers (see `KalahSolver::key`), so a hit is never a
/// different position. Each slot is two atomic words, the key XOR the data and the
/// data, so that threads can share the table without locks: a slot torn by two writers
/// fails the key check (the lockless-hashing trick of chess engines).
pub(crate) struct Table {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

/// Bytes per slot.
pub(crate) const SLOT_BYTES: usize = 16;

impl Table {
    /// Slots in a table of at most `bytes` bytes: a power of two, at least 1024.
    fn slots_for(bytes: usize) -> usize {
        let want = (bytes / SLOT_BYTES).max(1024);
        if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        }
    }

    /// Bytes [`Table::new`] allocates when asked for `bytes`.
    pub fn bytes_for(bytes: usize) -> usize {
        Table::slots_for(bytes) * SLOT_BYTES
    }

    /// A table of at most `bytes` bytes (a power of two slots, at least 1024).
    pub fn new(bytes: usize) -> Table {
        let n = Table::slots_for(bytes);
        let slots = huge_pages::vec_zeroed(n);
        Table { slots, mask: n - 1 }
    }

    /// Bytes held by the table.
    pub fn bytes(&self) -> usize {
        self.slots.len() * SLOT_BYTES
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & self.mask & !1
    }

    #[inline]
    fn read(&self, i: usize) -> (u64, u64) {
        let [k, d] = &self.slots[i];
        let data = d.load(Ordering::Relaxed);
        (k.load(Ordering::Relaxed) ^ data, data)
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after
    /// does not wait for main memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(&self.slots[self.index(key)]);
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let i = self.index(key);
        for j in [i, i + 1] {
            let (k, data) = self.read(j);
            if k == key {
                return Bounds::unpack(data);
            }
        }
        None
    }

    /// Stores bounds for `key`, intersected with any bounds already stored for it (both
    /// are proofs), replacing the slot of the bucket that took less work otherwise.
    #[inline]
    pub fn store(&self, key: u64, mut b: Bounds) {
        let i = self.index(key);
        let mut target = i;
        let mut least = u8::MAX;
        for j in [i, i + 1] {
            let (k, data) = self.read(j);
            match Bounds::unpack(data) {
                Some(old) if k == key => {
                    b.lo = b.lo.max(old.lo);
                    b.hi = b.hi.min(old.hi);
                    b.work = b.work.max(old.work);
                    if b.mv == NO_MOVE {
                        b.mv = old.mv;
                    }
                    target = j;
                    break;
                }
                Some(old) => {
                    if old.work < least {
                        least = old.work;
                        target = j;
                    }
                }
                None => {
                    least = 0;
                    target = j;
                }
            }
        }
        let data = b.pack();
        let [k, d] = &self.slots[target];
        k.store(key ^ data, Ordering::Relaxed);
        d.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_intersects_bounds() {
        let t = Table::new(1 << 16);
        assert_eq!(t.probe(42), None);
        let b = Bounds {
            lo: -3,
            hi: 10,
            mv: 2,
            work: 5,
        };
        t.store(42, b);
        assert_eq!(t.probe(42), Some(b));
        t.store(
            42,
            Bounds {
                lo: -5,
                hi: 4,
                mv: NO_MOVE,
                work: 1,
            },
        );
        assert_eq!(
            t.probe(42),
            Some(Bounds {
                lo: -3,
                hi: 4,
                mv: 2,
                work: 5
            })
        );
        assert_eq!(t.probe(43), None);
    }
}
