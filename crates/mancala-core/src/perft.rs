//! Counting move sequences: the standard check that move generation is right.

use crate::Position;

/// The number of distinct legal move sequences of exactly `depth` plies from `position`.
///
/// A ply is one sowing, so a Kalah extra turn is a ply of its own. A sequence that
/// reaches a finished game before its last ply is not counted; in both Oware variants
/// that includes a position repeating since the last capture (history before `position`
/// is not known).
/// The last ply is counted in bulk from the move list.
///
/// ```
/// use mancala_core::{perft, Position, Rules};
/// let start = Position::new(Rules::kalah(6, 4));
/// assert_eq!(perft(&start, 1), 6);
/// // House 3 ends in the store: player 1 moves again with 5 moves; the other 5
/// // moves each leave player 2 with 6.
/// assert_eq!(perft(&start, 2), 5 * 6 + 5);
/// ```
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    if position.variant().has_repetition_rule() {
        let mut since_capture = vec![*position];
        perft_with_history(position, depth, &mut since_capture)
    } else {
        perft_plain(position, depth)
    }
}

fn perft_plain(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let mut next = *position;
                next.play_unchecked(mv);
                perft_plain(&next, depth - 1)
            })
            .sum(),
    }
}

/// Perft that applies the repetition rule: `since_capture` holds the positions since the
/// last capture along the current line, `position` last.
fn perft_with_history(position: &Position, depth: u32, since_capture: &mut Vec<Position>) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => {
            let mut count = 0;
            for mv in position.legal_moves() {
                let mut next = *position;
                next.play_unchecked(mv);
                if next.stores() != position.stores() {
                    let mut fresh = vec![next];
                    count += perft_with_history(&next, depth - 1, &mut fresh);
                } else if !since_capture.contains(&next) {
                    since_capture.push(next);
                    count += perft_with_history(&next, depth - 1, since_capture);
                    since_capture.pop();
                }
            }
            count
        }
    }
}
