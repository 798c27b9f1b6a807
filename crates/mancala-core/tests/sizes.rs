//! Search and MCTS trees hold positions by the million: a game from a description must
//! not make every position bigger than the hand-written games made it.

use mancala_core::{Position, Rules, Variant};

#[test]
fn a_described_game_keeps_rules_and_positions_small() {
    assert_eq!(std::mem::size_of::<Variant>(), 4);
    assert_eq!(std::mem::size_of::<Rules>(), 8);
    let position = std::mem::size_of::<Position>();
    assert!(position <= 88, "{position}");
}
