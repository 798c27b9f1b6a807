//! The transposition table: search results keyed by position, packed in one `u64` each.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use mancala_core::{Move, Position, Side};

use crate::Score;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (the search failed low).
    Upper = 1,
    /// The true value is at least the score (the search failed high).
    Lower = 2,
    /// The score is the value at the stored depth.
    Exact = 3,
}

/// One table entry, unpacked.
///
/// Packed into 64 bits: 32 bits of key check, a 16-bit score, an 8-bit depth, a 2-bit
/// bound and a 5-bit move (0 for none).
///
/// ```
/// use mancala_core::Move;
/// use mancala_engine::{Bound, Entry, Score};
/// let e = Entry { check: 0xDEAD_BEEF, score: Score::from_margin(-5), depth: 14,
///                 bound: Bound::Lower, mv: Move::new(16) };
/// assert_eq!(Entry::unpack(e.pack()), Some(e));
/// assert_eq!(Entry::unpack(0), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The upper 32 bits of the position key.
    pub check: u32,
    /// The score from the point of view of the player to move.
    pub score: Score,
    /// The depth searched (plies), at most 255.
    pub depth: u8,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// The best move found, if any.
    pub mv: Option<Move>,
}

impl Entry {
    /// The entry as one `u64` (never 0).
    #[must_use]
    pub fn pack(&self) -> u64 {
        let score = self.score.raw() as i16 as u16;
        let mv = self.mv.map_or(0, |m| u64::from(m.house()));
        u64::from(self.check)
            | u64::from(score) << 32
            | u64::from(self.depth) << 48
            | (self.bound as u64) << 56
            | mv << 58
    }

    /// The entry packed by [`Entry::pack`]; `None` for an empty slot (0).
    #[must_use]
    pub fn unpack(bits: u64) -> Option<Entry> {
        let bound = match (bits >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            check: bits as u32,
            score: Score::from_raw(i32::from((bits >> 32) as u16 as i16)),
            depth: (bits >> 48) as u8,
            bound,
            mv: Move::new(((bits >> 58) & 31) as u8),
        })
    }
}

/// A 64-bit key for a position: houses, stores and the player to move.
#[inline]
#[must_use]
pub fn position_key(pos: &Position) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut x = u64::from(pos.store(Side::South)) << 17 | (pos.to_move() as u64) << 16;
    // Claimed houses change what every later sowing does (0 in games without claims).
    let [a, b] = pos.claims().map(|t| u64::from(t.map_or(0, Move::house)));
    x |= a << 40 | b << 48;
    // Four 16-bit houses per word.
    for side in Side::BOTH {
        for chunk in pos.houses(side).chunks(4) {
            let mut w = 0u64;
            for &c in chunk {
                w = w << 16 | u64::from(c);
            }
            x = (x ^ w).wrapping_mul(K).rotate_left(29);
        }
        x = x.wrapping_add(K);
    }
    // Finalizer (splitmix64).
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ x >> 31
}

/// A fixed-size table of two-entry buckets: the first slot keeps the deeper result,
/// the second always takes the newest.
///
/// The slots are atomic words so that the threads of a parallel search can share one
/// table ([`TranspositionTable::shared`]): each entry is read and written whole, so a
/// thread sees another's entry or the one before it, never a mix. Relaxed loads and
/// stores cost what plain ones do. Cloning copies the table; sharing does not.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Arc<[AtomicU64]>,
    mask: usize,
}

impl Clone for TranspositionTable {
    fn clone(&self) -> TranspositionTable {
        TranspositionTable {
            slots: self
                .slots
                .iter()
                .map(|s| AtomicU64::new(s.load(Ordering::Relaxed)))
                .collect(),
            mask: self.mask,
        }
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (rounded down to a power of two; at least 1 MiB).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let bytes = (megabytes.max(1) << 20).min(1 << 34);
        // The largest power of two not above the size asked for.
        let n = (bytes / 8 + 1).next_power_of_two() / 2;
        let slots: Arc<[AtomicU64]> = (0..n).map(|_| AtomicU64::new(0)).collect();
        // Touch every page now, so that the first search does not pay for the page
        // faults (the zero is hidden from the optimiser, which would drop the stores).
        let zero = std::hint::black_box(0u64);
        for s in slots.iter().step_by(512) {
            s.store(zero, Ordering::Relaxed);
        }
        TranspositionTable {
            slots,
            mask: n / 2 - 1,
        }
    }

    /// The same table, not a copy: stores through either are seen by both (the threads
    /// of a parallel search).
    #[must_use]
    pub fn shared(&self) -> TranspositionTable {
        TranspositionTable {
            slots: Arc::clone(&self.slots),
            mask: self.mask,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for s in self.slots.iter() {
            s.store(0, Ordering::Relaxed);
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    /// The entry for `key`, if the table holds one.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        let check = (key >> 32) as u32;
        // Compare the check bits before unpacking (an empty slot is 0 and unpacks to
        // `None`, so a zero check never matches it).
        let [deep, recent] = [
            self.slots[b].load(Ordering::Relaxed),
            self.slots[b + 1].load(Ordering::Relaxed),
        ];
        if deep as u32 == check {
            if let Some(e) = Entry::unpack(deep) {
                return Some(e);
            }
        }
        if recent as u32 == check {
            return Entry::unpack(recent);
        }
        None
    }

    /// Stores a result for `key` (depth saturates at 255).
    #[inline]
    pub fn store(&self, key: u64, score: Score, depth: u32, bound: Bound, mv: Option<Move>) {
        let b = self.bucket(key);
        let entry = Entry {
            check: (key >> 32) as u32,
            score,
            depth: depth.min(255) as u8,
            bound,
            mv,
        };
        let deep = Entry::unpack(self.slots[b].load(Ordering::Relaxed));
        let replace_deep = match deep {
            None => true,
            Some(old) => old.check == entry.check || old.depth <= entry.depth,
        };
        let slot = if replace_deep { b } else { b + 1 };
        self.slots[slot].store(entry.pack(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    #[test]
    fn the_table_keeps_entries_by_key() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Score::heuristic(8), 3, Bound::Exact, None);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound),
            (Score::heuristic(8), 3, Bound::Exact)
        );
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn position_keys_tell_positions_apart() {
        use mancala_core::{Move, Position, Rules};
        let p = Position::new(Rules::kalah(6, 4));
        let q = p.play(Move::new(1).unwrap()).unwrap();
        assert_ne!(position_key(&p), position_key(&q));
        assert_eq!(
            position_key(&p),
            position_key(&Position::new(Rules::kalah(6, 4)))
        );
    }
}
