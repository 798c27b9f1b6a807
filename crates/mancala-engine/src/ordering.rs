//! Move ordering: which moves the search tries first.

use mancala_core::{Move, MoveReport};

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

/// The ordering key of a move (higher first; the key uses the low 59 bits): the
/// transposition-table move, then moves that give the mover another turn (extra turns), then
/// captures by size, then the history score. The report comes from
/// [`Position::predict`](mancala_core::Position::predict), which each variant answers
/// by arithmetic where it can.
#[inline]
#[must_use]
pub fn order_key(report: MoveReport, is_tt_move: bool, history: u32) -> u64 {
    (u64::from(is_tt_move) << 58)
        | (u64::from(report.ended_in_store) << 57)
        | (u64::from(report.captured.min(4095)) << 40)
        | u64::from(history.min(u32::MAX >> 2))
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
