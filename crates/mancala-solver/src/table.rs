//! The solver's transposition table: exact bounds on a position's value, keyed by an
//! exact (collision-free) position number, shareable between threads.
//!
//! # Layout
//!
//! An entry is one 64-bit word, and eight entries make a bucket of one 64-byte cache
//! line, so a probe reads one line from memory and a store chooses among eight
//! entries. A position number `k` of `K` bits is first scrambled by a bijection of
//! `0..2^K` (multiplying by an odd constant modulo `2^K`); the top bits of the result
//! choose the bucket and the entry keeps only the other bits, the *quotient*. Bucket
//! and quotient together give back the scrambled number and so the position: a match
//! is never a different position. (Kalah(6,4)'s numbers have 41 bits; with 2^23
//! buckets the quotient is 18 bits, the rest of the word holds the bounds.)
//!
//! One word an entry also makes sharing safe without locks: a word is read and written
//! whole, so a reader sees one writer's entry or another's, never a mix.

use std::sync::atomic::{AtomicU64, Ordering};

use bytemuck::Zeroable;

use crate::huge_pages;
use crate::prefetch::prefetch;

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

/// Bits of an entry for each bound, stored plus [`BOUND_BIAS`]: every gain of a board
/// of at most 255 seeds, and never zero, so that a used entry is never the empty word.
const BOUND_BITS: u32 = 9;
const BOUND_BIAS: i16 = 256;
/// Bits for the best move (houses 0 to 7, or none).
const MOVE_BITS: u32 = 4;
const NO_MOVE_BITS: u64 = (1 << MOVE_BITS) - 1;
/// Bits for the work, which saturates.
const WORK_BITS: u32 = 6;
/// Bits before the quotient.
const FIELD_BITS: u32 = 2 * BOUND_BITS + MOVE_BITS + WORK_BITS;
/// The most bits a quotient can have.
pub(crate) const QUOTIENT_BITS: u32 = 64 - FIELD_BITS;

impl Bounds {
    /// The entry for these bounds under `quotient`.
    fn pack(self, quotient: u64) -> u64 {
        let bound = |v: i16| u64::from((v + BOUND_BIAS) as u16);
        let mv = if self.mv == NO_MOVE {
            NO_MOVE_BITS
        } else {
            u64::from(self.mv)
        };
        let work = u64::from(self.work.min((1 << WORK_BITS) - 1));
        bound(self.lo)
            | bound(self.hi) << BOUND_BITS
            | mv << (2 * BOUND_BITS)
            | work << (2 * BOUND_BITS + MOVE_BITS)
            | quotient << FIELD_BITS
    }

    fn unpack(entry: u64) -> Bounds {
        let field = |shift: u32, bits: u32| (entry >> shift) & ((1 << bits) - 1);
        let bound = |shift| field(shift, BOUND_BITS) as i16 - BOUND_BIAS;
        let mv = field(2 * BOUND_BITS, MOVE_BITS);
        Bounds {
            lo: bound(0),
            hi: bound(BOUND_BITS),
            mv: if mv == NO_MOVE_BITS {
                NO_MOVE
            } else {
                mv as u8
            },
            work: field(2 * BOUND_BITS + MOVE_BITS, WORK_BITS) as u8,
        }
    }
}

/// Entries a bucket.
const WAYS: usize = 8;

/// One cache line of entries; an empty entry is zero.
#[derive(Zeroable)]
#[repr(C, align(64))]
struct Bucket([AtomicU64; WAYS]);

/// A table of [`Bounds`] in buckets of eight one-word entries (see the module's
/// documentation).
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    /// Bits of the scrambled numbers: of the position numbers, or more for a table
    /// with more buckets than there are numbers.
    bits: u32,
    /// Bits of the bucket index.
    index_bits: u32,
}

/// Bytes per entry.
pub(crate) const ENTRY_BYTES: usize = 8;

/// Scrambles the position numbers (odd, so a bijection modulo any power of two).
const SCRAMBLE: u64 = 0x9E37_79B9_7F4A_7C15;

impl Table {
    /// Buckets in a table of at most `bytes` bytes for numbers of `key_bits` bits: a
    /// power of two, at least 16, and enough that the quotients fit their bits.
    fn buckets_for(bytes: usize, key_bits: u32) -> usize {
        let want = (bytes / (WAYS * ENTRY_BYTES)).max(16);
        let fit = 1 << key_bits.saturating_sub(QUOTIENT_BITS);
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        n.max(fit)
    }

    /// Bytes [`Table::new`] allocates when asked for `bytes` for numbers of `key_bits`
    /// bits.
    pub fn bytes_for(bytes: usize, key_bits: u32) -> usize {
        Table::buckets_for(bytes, key_bits) * WAYS * ENTRY_BYTES
    }

    /// A table of at most `bytes` bytes (a power of two buckets, at least 16) for
    /// position numbers below `2^key_bits` (at most 62 bits); larger than `bytes` only
    /// when that few buckets would leave quotients of more than [`QUOTIENT_BITS`].
    pub fn new(bytes: usize, key_bits: u32) -> Table {
        assert!(key_bits <= 62, "position numbers of at most 62 bits");
        let n = Table::buckets_for(bytes, key_bits);
        let index_bits = n.trailing_zeros();
        Table {
            buckets: huge_pages::vec_zeroed(n),
            bits: key_bits.max(index_bits),
            index_bits,
        }
    }

    /// Bytes held by the table.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * WAYS * ENTRY_BYTES
    }

    /// The bucket and the quotient of `key`.
    #[inline]
    fn place(&self, key: u64) -> (&Bucket, u64) {
        let scrambled = key.wrapping_mul(SCRAMBLE) & (u64::MAX >> (64 - self.bits));
        let quotient_bits = self.bits - self.index_bits;
        let index = (scrambled >> quotient_bits) as usize;
        let quotient = scrambled & ((1 << quotient_bits) - 1);
        (&self.buckets[index], quotient)
    }

    /// Starts loading the bucket of `key` into the cache, so that a probe soon after
    /// does not wait for main memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.place(key).0);
    }

    /// The bounds stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Bounds> {
        let (bucket, quotient) = self.place(key);
        bucket
            .0
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .find(|&e| e != 0 && e >> FIELD_BITS == quotient)
            .map(Bounds::unpack)
    }

    /// Stores bounds for `key`, intersected with any bounds already stored for it (both
    /// are proofs), replacing the entry of the bucket that took least work otherwise
    /// (an empty one first).
    #[inline]
    pub fn store(&self, key: u64, mut b: Bounds) {
        let (bucket, quotient) = self.place(key);
        // The entry to replace: the first of least rank, an empty one ranking 0 and a
        // used one its work + 1.
        let (mut target, mut least) = (0, u16::MAX);
        for (j, e) in bucket.0.iter().enumerate() {
            let entry = e.load(Ordering::Relaxed);
            let rank = if entry == 0 {
                0
            } else {
                let old = Bounds::unpack(entry);
                if entry >> FIELD_BITS == quotient {
                    b.lo = b.lo.max(old.lo);
                    b.hi = b.hi.min(old.hi);
                    b.work = b.work.max(old.work);
                    if b.mv == NO_MOVE {
                        b.mv = old.mv;
                    }
                    target = j;
                    break;
                }
                u16::from(old.work) + 1
            };
            if rank < least {
                (target, least) = (j, rank);
            }
        }
        bucket.0[target].store(b.pack(quotient), Ordering::Relaxed);
    }
}
#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    fn bounds() -> impl Strategy<Value = Bounds> {
        (-255i16..=255, 0i16..=510, 0u8..=8, any::<u8>()).prop_map(|(lo, width, mv, work)| Bounds {
            lo,
            hi: (lo + width).min(255),
            mv: if mv == 8 { NO_MOVE } else { mv },
            work,
        })
    }

    proptest! {
        /// Whatever the width of the numbers, a probe finds only bounds stored for that
        /// very number (no false hits from keys sharing a bucket), the number just
        /// stored is always found, and in a table with room for everything every
        /// number keeps the intersection of all its bounds.
        #[test]
        fn probes_return_only_what_was_stored_for_that_key(
            key_bits in 1u32..=44,
            ops in proptest::collection::vec((any::<u64>(), bounds()), 1..300),
            roomy in any::<bool>(),
        ) {
            let bytes = if roomy { 1 << 16 } else { 0 };
            let table = Table::new(bytes, key_bits);
            // Few distinct keys, some of them repeated, all below 2^key_bits.
            let mask = u64::MAX >> (64 - key_bits);
            let mut stored: HashMap<u64, Vec<Bounds>> = HashMap::new();
            for &(raw, b) in &ops {
                let key = (raw % 97).wrapping_mul(0x2545_F491_4F6C_DD1D) & mask;
                table.store(key, b);
                stored.entry(key).or_default().push(b);
                let found = table.probe(key);
                prop_assert!(found.is_some(), "the key just stored is missing");
            }
            for (&key, all) in &stored {
                let lo = all.iter().map(|b| b.lo).max().unwrap();
                let hi = all.iter().map(|b| b.hi).min().unwrap();
                match table.probe(key) {
                    Some(b) => {
                        prop_assert!(all.iter().any(|s| s.lo == b.lo) && b.lo <= lo);
                        prop_assert!(all.iter().any(|s| s.hi == b.hi) && b.hi >= hi);
                        if roomy {
                            prop_assert_eq!((b.lo, b.hi), (lo, hi));
                        }
                    }
                    None => prop_assert!(!roomy, "a key was lost from a roomy table"),
                }
            }
            // A key never stored is never found.
            let absent = (0..=mask.min(1000)).find(|k| !stored.contains_key(k));
            if let Some(k) = absent {
                prop_assert_eq!(table.probe(k), None);
            }
        }
    }

    #[test]
    fn stores_and_intersects_bounds() {
        let t = Table::new(1 << 16, 41);
        assert_eq!(t.bytes(), 1 << 16);
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

    /// Numbers wider than a small table's quotients allow get a larger table.
    #[test]
    fn wide_numbers_get_enough_buckets() {
        assert_eq!(Table::bytes_for(1 << 20, 41), 1 << 20);
        let wide = Table::bytes_for(1 << 20, 62);
        assert_eq!(wide, (1 << (62 - QUOTIENT_BITS)) * WAYS * ENTRY_BYTES);
    }
}
