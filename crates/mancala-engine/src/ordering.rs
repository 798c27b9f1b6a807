//! Move ordering: which moves the search tries first.

use mancala_core::{Move, MoveReport, Position, Variant};

/// History scores: how often each house caused a cutoff, per player.
#[derive(Clone, Debug, Default)]
pub struct History {
    table: [[u32; mancala_core::MAX_HOUSES]; 2],
}

impl History {
    /// Records that `mv` by player `side` (0 or 1) cut off a search of `depth` plies.
    #[inline]
    pub fn reward(&mut self, side: usize, mv: Move, depth: u32) {
        let h = &mut self.table[side][mv.index()];
        *h = h.saturating_add(depth * depth);
        if *h > 1 << 20 {
            for row in &mut self.table {
                for v in row {
                    *v /= 2;
                }
            }
        }
    }

    /// The history score of `mv` by player `side`.
    #[inline]
    #[must_use]
    pub fn get(&self, side: usize, mv: Move) -> u32 {
        self.table[side][mv.index()]
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }
}

/// The ordering key of a move (higher first; the key uses the low 59 bits): the transposition-table move, then
/// moves that give the mover another turn (Kalah), then captures by size, then the
/// history score.
#[inline]
#[must_use]
pub fn order_key(report: MoveReport, is_tt_move: bool, history: u32) -> u64 {
    (u64::from(is_tt_move) << 58)
        | (u64::from(report.ended_in_store) << 57)
        | (u64::from(report.captured.min(4095)) << 40)
        | u64::from(history.min(u32::MAX >> 2))
}

/// What playing `mv` in `pos` would report ([`MoveReport`]), without playing it where
/// arithmetic can say: in Kalah always (where the last seed lands follows from the
/// house and its seeds); in Oware when the sowing does not go round the board. Other
/// moves are played on a copy. `mv` must be legal.
///
/// ```
/// use mancala_core::{Move, Position, Rules};
/// use mancala_engine::predict;
/// let p = Position::new(Rules::kalah(6, 4));
/// for mv in p.legal_moves() {
///     assert_eq!(predict(&p, mv), p.play_with_report(mv).unwrap().1);
/// }
/// ```
#[inline]
#[must_use]
pub fn predict(pos: &Position, mv: Move) -> MoveReport {
    match pos.variant() {
        Variant::Kalah => predict_kalah(pos, mv),
        Variant::Oware => predict_oware(pos, mv).unwrap_or_else(|| played(pos, mv)),
        Variant::OwareSimplified | Variant::TogyzKumalak => played(pos, mv),
    }
}

fn played(pos: &Position, mv: Move) -> MoveReport {
    let mut c = *pos;
    c.play_unchecked(mv)
}

/// Kalah: counted along one lap from the mover's house 1 (own houses `0..h`, the
/// store `h`, the opponent's houses `h + 1..=2h`), the seed dropped `k`-th from house
/// `i` lands at `(i + k) mod (2h + 1)`.
#[inline]
fn predict_kalah(pos: &Position, mv: Move) -> MoveReport {
    let h = pos.houses_per_side();
    let me = pos.to_move();
    let own = pos.houses(me);
    let i = mv.index();
    let n = usize::from(own[i]);
    let lap = 2 * h + 1;
    let last = lap_position(i + n, lap);
    // Without branches, as in the rules' own play: which moves capture or earn
    // another turn is unpredictable. House 0 stands in for the landing house when the
    // last seed is not on the own row (no capture then).
    let ended_in_store = last == h;
    let lands_own = last < h;
    let landing = if lands_own { last } else { 0 };
    // The landing house held nothing (the origin was emptied) and got only the last
    // seed: at most one lap.
    let before = if landing == i { 0 } else { own[landing] };
    // The facing house's place on the lap is 2h - landing, reached by the
    // (2h - landing - i)-th seed.
    let reached = u16::from(n >= 2 * h - landing - i);
    let taken = pos.houses(me.opponent())[h - 1 - landing] + reached;
    let captures = lands_own
        & (before == 0)
        & (n <= lap)
        & ((taken > 0) | pos.rules().options().empty_capture);
    MoveReport {
        captured: u16::from(captures) * (taken + 1),
        ended_in_store,
    }
}

/// `k mod lap`, without the division when `k` is below two laps (almost every move:
/// a hardware division costs more than the rest of [`predict_kalah`]).
#[inline]
fn lap_position(k: usize, lap: usize) -> usize {
    if k < lap {
        k
    } else if k < 2 * lap {
        k - lap
    } else {
        k % lap
    }
}

/// Oware without a lap (fewer seeds than the other houses): the sowing covers the
/// cells after the origin round the ring of both rows, one seed each.
#[inline]
fn predict_oware(pos: &Position, mv: Move) -> Option<MoveReport> {
    let h = pos.houses_per_side();
    let me = pos.to_move();
    let i = mv.index();
    let n = usize::from(pos.houses(me)[i]);
    if n >= 2 * h - 1 {
        return None;
    }
    let mut report = MoveReport::default();
    // Seeds for the own houses after the origin, then the opponent's row.
    let to_own = h - 1 - i;
    if n <= to_own {
        return Some(report);
    }
    let reach = (n - to_own).min(h); // opponent's houses 0..reach got a seed
    if n - to_own > h {
        // The last seed is back on the own row.
        return Some(report);
    }
    let theirs = pos.houses(me.opponent());
    let mut taken = 0;
    for &c in theirs[..reach].iter().rev() {
        let after = c + 1;
        if !(2..=3).contains(&after) {
            break;
        }
        taken += after;
    }
    // A grand slam (every seed of the opponent's row) captures nothing.
    if taken > 0 && taken < pos.row_sum(me.opponent()) + reach as u16 {
        report.captured = taken;
    }
    Some(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_keys_rank_the_table_move_extra_turns_captures_history() {
        use mancala_core::MoveReport;
        let quiet = MoveReport::default();
        let extra = MoveReport {
            ended_in_store: true,
            captured: 0,
        };
        let capture = MoveReport {
            ended_in_store: false,
            captured: 5,
        };
        assert!(order_key(quiet, true, 0) > order_key(extra, false, 1000));
        assert!(order_key(extra, false, 0) > order_key(capture, false, 1000));
        assert!(order_key(capture, false, 0) > order_key(quiet, false, 1000));
    }
}
