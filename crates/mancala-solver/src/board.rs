//! The Kalah solver's board: the houses packed one byte each into a `u128`, seen from
//! the player to move, with moves played by table lookups and whole-word arithmetic.

use mancala_core::{EndRule, Position, Rules};

/// The most houses a side the solver handles: both rows must fit one `u128`.
pub(crate) const MAX_SOLVER_HOUSES: usize = 8;

/// The houses from the mover's point of view, one byte each: the mover's house `i` in
/// byte `i` (`0..h`), the opponent's house `i` in byte `h + i`; bytes from `2h` on are
/// zero. No house can overflow: a [`Shape`] allows at most 255 seeds in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Board(pub u128);

impl Board {
    /// The seeds in byte `i`.
    #[inline]
    pub fn cell(self, i: usize) -> u8 {
        (self.0 >> (8 * i)) as u8
    }

    /// The board with byte `i` set to `n` (which was zero).
    #[inline]
    #[must_use]
    pub fn with_cell(self, i: usize, n: u8) -> Board {
        Board(self.0 | u128::from(n) << (8 * i))
    }
}

/// One move's effect: the board after it (from the next mover's side), what the mover
/// banked, and whether they move again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub board: Board,
    pub gain: i32,
    pub extra: bool,
}

impl Step {
    /// The mover's gain through this move, from `child`, the gain of the board after
    /// it for whoever moves there: the mover again after an extra turn, else the
    /// opponent.
    #[inline]
    pub fn gain_with(&self, child: i32) -> i32 {
        if self.extra {
            self.gain + child
        } else {
            self.gain - child
        }
    }
}

/// Where a partial lap of `r` seeds from house `i` leaves its seeds, precomputed.
#[derive(Clone, Copy, Debug, Default)]
struct Sowing {
    /// One in each byte that receives a seed.
    add: u128,
    /// Seeds into the mover's store (0 or 1).
    banked: u8,
    /// Where the last seed lands: a house of the mover's row, or [`IN_STORE`], or
    /// [`ON_THEIR_ROW`].
    last: u8,
}

const IN_STORE: u8 = 0xFE;
const ON_THEIR_ROW: u8 = 0xFF;

/// The game-independent parts: board size, rules, position numbering, sowing tables.
#[derive(Clone, Debug)]
pub(crate) struct Shape {
    pub h: usize,
    pub empty_capture: bool,
    pub either_side_empty: bool,
    /// `comb[j][p] = C(p + j, j + 1)` (for `p <= max`, else 0): the combinatorial
    /// number system over the bars between houses (see [`Shape::key`]). A full row of
    /// 256 lets a byte index it without a bounds check.
    comb: Vec<[u64; 256]>,
    max: usize,
    /// `sowings[i * (2h + 1) + r]`: a partial lap of `r` seeds from house `i`.
    sowings: Vec<Sowing>,
    /// Bits of the position numbers: all are below `2^key_bits`.
    pub key_bits: u32,
    /// One seed in every house.
    ones: u128,
    /// The mover's row (`0xFF` bytes).
    row: u64,
}

impl Shape {
    /// The shape for `rules` and at most `max_seeds` seeds in play, or `None` when the
    /// board has more than [`MAX_SOLVER_HOUSES`] houses a side, a house could overflow
    /// a byte, or the position numbers would not fit 62 bits.
    pub fn new(rules: Rules, max_seeds: usize) -> Option<Shape> {
        let h = rules.houses();
        let positions = positions_bound(2 * h, max_seeds)?;
        if h > MAX_SOLVER_HOUSES || max_seeds > usize::from(u8::MAX) || positions >= 1 << 62 {
            return None;
        }
        let mut comb = vec![[0u64; 256]; 2 * h];
        for (j, row) in comb.iter_mut().enumerate() {
            for (p, c) in row.iter_mut().enumerate().take(max_seeds + 1) {
                *c = binomial((p + j) as u64, (j + 1) as u64)?;
            }
        }
        let lap = 2 * h + 1;
        let mut sowings = vec![Sowing::default(); h * lap];
        for i in 0..h {
            for r in 1..lap {
                // The slots after house i in sowing order: the rest of the mover's row,
                // the store, the opponent's row, then the mover's row from the start.
                let mut s = Sowing::default();
                for k in 1..=r {
                    let slot = (i + k) % lap;
                    if slot < h {
                        s.add |= 1 << (8 * slot);
                        s.last = slot as u8;
                    } else if slot == h {
                        s.banked = 1;
                        s.last = IN_STORE;
                    } else {
                        s.add |= 1 << (8 * (slot - 1));
                        s.last = ON_THEIR_ROW;
                    }
                }
                sowings[i * lap + r] = s;
            }
        }
        let ones = (0..2 * h).fold(0u128, |m, k| m | 1 << (8 * k));
        Some(Shape {
            h,
            empty_capture: rules.options().empty_capture,
            either_side_empty: rules.options().end_rule == EndRule::EitherSideEmpty,
            comb,
            max: max_seeds,
            sowings,
            key_bits: key_bits(positions),
            ones,
            row: (0..h).fold(0u64, |m, k| m | 0xFF << (8 * k)),
        })
    }

    /// Whether positions with `seeds` in play can be numbered by this shape.
    pub fn covers(&self, seeds: usize) -> bool {
        seeds <= self.max
    }

    /// The board of `pos` from the point of view of its player to move.
    pub fn board(&self, pos: &Position) -> Board {
        let me = pos.to_move();
        let mine = pos.houses(me).iter();
        let theirs = pos.houses(me.opponent()).iter();
        mine.chain(theirs)
            .enumerate()
            .fold(Board(0), |b, (i, &n)| b.with_cell(i, n as u8))
    }

    /// An exact number for the board: the rank of the house counts among all boards
    /// with at most `max` seeds (bars of a stars-and-bars picture, ranked in the
    /// combinatorial number system). Distinct boards get distinct numbers, and the
    /// boards with at most `n` seeds get exactly the numbers `0..C(n + 2h, 2h)`.
    #[inline]
    pub fn key(&self, b: Board) -> u64 {
        // Every byte of the product is the sum of the bytes up to it (no carries: at
        // most 255 seeds).
        let prefix = b.0.wrapping_mul(u128::MAX / 0xFF);
        // Byte by byte through each half (shifting a `u128` by a variable amount is
        // several instructions; a `u64` by 8 is one).
        let (low, high) = self.comb.split_at(self.comb.len().min(8));
        let sum_bytes = |rows: &[[u64; 256]], mut bytes: u64| {
            let mut sum = 0;
            for row in rows {
                sum += row[usize::from(bytes as u8)];
                bytes >>= 8;
            }
            sum
        };
        sum_bytes(low, prefix as u64) + sum_bytes(high, (prefix >> 64) as u64)
    }

    /// Seeds on the mover's row.
    #[inline]
    pub fn mine(&self, b: Board) -> u32 {
        row_sum(b.0 as u64 & self.row)
    }

    /// Seeds on the opponent's row.
    #[inline]
    pub fn theirs(&self, b: Board) -> u32 {
        row_sum((b.0 >> (8 * self.h)) as u64 & self.row)
    }

    /// Plays house `i` (0-based, the mover's, not empty) on `b`.
    #[inline]
    pub fn play(&self, b: Board, i: usize) -> Step {
        let h = self.h;
        let lap = 2 * h + 1;
        let n = usize::from(b.cell(i));
        let mut c = b.0 - ((n as u128) << (8 * i));
        let full = n / lap;
        let s = self.sowings[i * lap + n % lap];
        c += self.ones * full as u128 + s.add;
        let mut gain = (full + usize::from(s.banked)) as i32;
        // A whole number of laps ends in the emptied house itself.
        let last = if n % lap == 0 { i as u8 } else { s.last };
        let extra = last == IN_STORE;
        if usize::from(last) < h {
            let j = usize::from(last);
            if (c >> (8 * j)) as u8 == 1 {
                let facing = 2 * h - 1 - j;
                let taken = (c >> (8 * facing)) as u8;
                if taken > 0 || self.empty_capture {
                    gain += i32::from(taken) + 1;
                    c &= !(0xFF << (8 * j) | 0xFF << (8 * facing));
                }
            }
        }
        if !extra {
            let bits = 8 * h;
            c = (c >> bits | c << bits) & (self.ones * 0xFF);
        }
        Step {
            board: Board(c),
            gain,
            extra,
        }
    }

    /// The gain of `b` for its mover if the game is over there, else `None`.
    #[inline]
    pub fn terminal(&self, b: Board) -> Option<i32> {
        let mine = self.mine(b);
        if mine == 0 || self.either_side_empty {
            let theirs = self.theirs(b);
            if mine == 0 || theirs == 0 {
                return Some(mine as i32 - theirs as i32);
            }
        }
        None
    }
}

/// The sum of the bytes of `x` (at most 255).
#[inline]
fn row_sum(x: u64) -> u32 {
    (x.wrapping_mul(u64::MAX / 0xFF) >> 56) as u32
}

/// `C(n, k)`, or `None` if it does not fit 64 bits.
fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
        if r > u128::from(u64::MAX) {
            return None;
        }
    }
    Some(r as u64)
}

/// The bits numbers below `positions` need.
pub(crate) fn key_bits(positions: u64) -> u32 {
    64 - positions.saturating_sub(1).leading_zeros()
}

/// How many boards of `cells` houses hold at most `seeds` seeds: `C(seeds + cells,
/// cells)`, an upper bound on the positions a solve can meet; `None` beyond 64 bits.
pub(crate) fn positions_bound(cells: usize, seeds: usize) -> Option<u64> {
    binomial((seeds + cells) as u64, cells as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::{Move, RuleOptions};
    use proptest::prelude::*;

    /// The solver's board of `pos` after `mv`, through the rules core.
    fn core_step(shape: &Shape, pos: &Position, mv: usize) -> (Board, i32, bool) {
        let me = pos.to_move();
        let mut next = *pos;
        next.play_unchecked(Move::from_index(mv));
        let banked = |p: &Position| i32::from(p.store(me)) - i32::from(p.store(me.opponent()));
        let gain = banked(&next) - banked(pos);
        let extra = next.to_move() == me && !next.is_over();
        (shape.board(&next), gain, extra)
    }

    proptest! {
        /// Playing on the packed board agrees with the rules core, move by move, along
        /// random games (before the core's end-of-game sweep).
        #[test]
        fn packed_moves_match_the_rules_core(
            h in 1usize..=8,
            s in 1u8..=8,
            empty_capture in any::<bool>(),
            choices in proptest::collection::vec(0usize..8, 0..60),
        ) {
            let options = RuleOptions { empty_capture, ..RuleOptions::default() };
            let rules = Rules::kalah(h as u8, s).with_options(options);
            let shape = Shape::new(rules, 2 * h * usize::from(s));
            prop_assume!(shape.is_some(), "numbers beyond 62 bits");
            let shape = shape.unwrap();
            let mut pos = Position::new(rules);
            for c in choices {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[c % moves.len()].index();
                let step = shape.play(shape.board(&pos), mv);
                let (board, gain, extra) = core_step(&shape, &pos, mv);
                let mut next = pos;
                next.play_unchecked(Move::from_index(mv));
                if next.is_over() {
                    break; // the core has swept the rows into the stores
                }
                prop_assert_eq!(step.board, board);
                prop_assert_eq!(step.gain, gain);
                prop_assert_eq!(step.extra, extra);
                pos = next;
            }
        }
    }

    #[test]
    fn keys_number_the_boards_densely() {
        let shape = Shape::new(Rules::kalah(2, 1), 4).unwrap();
        let mut keys = Vec::new();
        for a in 0..=4u8 {
            for b in 0..=4 - a {
                for c in 0..=4 - a - b {
                    for d in 0..=4 - a - b - c {
                        let board = Board(0)
                            .with_cell(0, a)
                            .with_cell(1, b)
                            .with_cell(2, c)
                            .with_cell(3, d);
                        keys.push(shape.key(board));
                    }
                }
            }
        }
        keys.sort_unstable();
        let expected: Vec<u64> = (0..positions_bound(4, 4).unwrap()).collect();
        assert_eq!(keys, expected);
    }
}
