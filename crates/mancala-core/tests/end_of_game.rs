//! One test per way a game can end, each stated as docs/rules.md says
//! it, with the reason, where the seeds left on the board go (the sweep), and the
//! result.

use mancala_core::{
    EndReason, EndRule, Game, GameEnd, Move, Position, RuleOptions, Rules, Side, Variant,
};

fn mv(h: u8) -> Move {
    Move::new(h).unwrap()
}

/// A position with these rows and banked seeds, `to_move` to move.
fn setup(rules: Rules, south: &[u16], north: &[u16], stores: [u16; 2], to_move: Side) -> Position {
    Position::from_parts(rules, [south, north], stores, to_move).unwrap()
}

/// Plays `moves` from the start of `rules`, in a game (so that repetition counts).
fn game(rules: Rules, moves: &[u8]) -> Game {
    let mut game = Game::new(rules);
    for &h in moves {
        game.play(mv(h)).unwrap();
    }
    game
}

fn end_of(p: &Position) -> GameEnd {
    p.end().unwrap_or_else(|| panic!("the game goes on\n{p}"))
}

// ---------------------------------------------------------------- Kalah

/// "The player to move has no seeds": the game ends, and the seeds left in the other
/// player's houses count for that player.
#[test]
fn kalah_ends_when_the_player_to_move_has_no_seeds() {
    let p = setup(
        Rules::kalah(3, 1),
        &[0, 0, 0],
        &[1, 1, 0],
        [1, 3],
        Side::South,
    );
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::NoSeeds(Side::South));
    assert_eq!(end.sweep, [0, 2]);
    assert_eq!(end.unclaimed, 0);
    assert_eq!(end.outcome.scores, [1, 5]);
    assert_eq!(end.outcome.winner, Some(Side::North));
}

/// Under the default end rule an empty row does not end the game while its owner is
/// not the one to move.
#[test]
fn kalah_an_empty_row_of_the_player_waiting_does_not_end_the_game() {
    let p = setup(
        Rules::kalah(3, 1),
        &[0, 0, 0],
        &[1, 1, 0],
        [1, 3],
        Side::North,
    );
    assert!(p.end().is_none());
}

/// "With `--end-rule either-side-empty`, either side is empty": the game ends even
/// with the other player to move, who takes the seeds in their own houses.
#[test]
fn kalah_either_side_empty_ends_with_the_other_player_to_move() {
    let rules = Rules::kalah(3, 1).with_options(RuleOptions {
        end_rule: EndRule::EitherSideEmpty,
        ..RuleOptions::default()
    });
    let p = setup(rules, &[0, 0, 0], &[1, 1, 0], [1, 3], Side::North);
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::SideEmpty(Side::South));
    assert_eq!(end.sweep, [0, 2]);
    assert_eq!(end.outcome.scores, [1, 5]);
}

/// A Kalah game that ends level is a draw.
#[test]
fn kalah_level_scores_are_a_draw() {
    let p = setup(Rules::kalah(2, 2), &[0, 0], &[2, 1], [4, 1], Side::South);
    let end = end_of(&p);
    assert_eq!((end.outcome.scores, end.outcome.winner), ([4, 4], None));
}

// ---------------------------------------------------------------- Oware

/// "A player has more than half the seeds": the game ends at once, and the seeds left
/// on the board belong to nobody.
#[test]
fn oware_more_than_half_captured_ends_the_game_and_the_rest_is_nobodys() {
    let p = setup(
        Rules::oware(3, 4),
        &[1, 1, 0],
        &[2, 1, 0],
        [13, 6],
        Side::North,
    );
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::Majority(Side::South));
    assert_eq!(end.sweep, [0, 0]);
    assert_eq!(end.unclaimed, 5);
    assert_eq!(end.outcome.scores, [13, 6]);
    assert_eq!(end.outcome.winner, Some(Side::South));
}

/// "Both exactly half": a draw. (Only from a set-up position: a capture never takes
/// the opponent's whole row, so the board is never empty in play.)
#[test]
fn oware_half_each_is_a_draw() {
    let p = setup(Rules::oware(1, 1), &[0], &[0], [1, 1], Side::South);
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::HalfEach);
    assert_eq!((end.outcome.scores, end.outcome.winner), ([1, 1], None));
}

/// One player with exactly half has not won: play goes on.
#[test]
fn oware_one_player_at_exactly_half_plays_on() {
    let p = setup(
        Rules::oware(3, 2),
        &[0, 1, 0],
        &[0, 0, 1],
        [6, 4],
        Side::South,
    );
    assert!(p.end().is_none());
    assert_eq!(p.legal_moves().len(), 1);
}

/// The case the issue found: Ann captures exactly half (6 of 12), her row is empty,
/// and Bob, to move, cannot give her any seeds. "If there is none, the game ends and
/// each player takes the seeds on their own row": Bob takes his last seed, 6-6.
#[test]
fn oware_exactly_half_and_no_way_to_feed_each_takes_their_row() {
    let g = game(Rules::oware(3, 2), &[2, 2, 3, 3, 3, 2, 2, 3, 3]);
    let end = g.end().unwrap();
    assert_eq!(end.reason, EndReason::CannotFeed(Side::North));
    assert_eq!(g.position().stores(), [6, 5]);
    assert_eq!(end.sweep, [0, 1]);
    assert_eq!(end.unclaimed, 0);
    assert_eq!((end.outcome.scores, end.outcome.winner), ([6, 6], None));
}

/// "No move can feed an empty opponent": each takes their own row.
#[test]
fn oware_cannot_feed_each_takes_their_row() {
    let p = setup(
        Rules::oware(3, 4),
        &[1, 1, 0],
        &[0, 0, 0],
        [11, 11],
        Side::South,
    );
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::CannotFeed(Side::South));
    assert_eq!(end.sweep, [2, 0]);
    assert_eq!(end.outcome.scores, [13, 11]);
}

/// The player to move has no seeds (only from a set-up position: the opponent must
/// feed them): as with no move, each takes their own row.
#[test]
fn oware_no_seeds_to_move_each_takes_their_row() {
    let p = setup(
        Rules::oware(3, 4),
        &[0, 0, 0],
        &[2, 1, 0],
        [10, 11],
        Side::South,
    );
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::NoSeeds(Side::South));
    assert_eq!(end.sweep, [0, 3]);
    assert_eq!(end.outcome.scores, [10, 14]);
}

/// "A position repeats since the last capture": each takes their own row. Two seeds
/// chase each other round a 2-house board and the start comes back after four moves.
#[test]
fn oware_repetition_each_takes_their_row() {
    let start = setup(Rules::oware(2, 4), &[1, 0], &[1, 0], [7, 7], Side::South);
    let mut g = Game::from_position(start);
    for h in [1, 1, 2, 2] {
        assert!(g.end().is_none());
        g.play(mv(h)).unwrap();
    }
    let end = g.end().unwrap();
    assert_eq!(end.reason, EndReason::Repetition);
    assert_eq!(end.sweep, [1, 1]);
    assert_eq!((end.outcome.scores, end.outcome.winner), ([8, 8], None));
}

/// The standard board, from the issue: the replay ends with player 2 at exactly half
/// (24 of 48) and player 1, to move, unable to feed; player 1's four seeds make it a
/// 24-24 draw.
#[test]
fn oware_standard_board_exactly_half_is_a_draw_when_the_rows_are_taken() {
    let moves = "4 3 6 3 1 1 6 1 3 1 5 1 6 1 1 5 6 3 3 5 1 2 6 5 4 1 5 1 6 1 3 4 6 5 5 2 2 2 4 \
                 4 6 1 5 1 6 1 3 6 6 3 3 6 4 2 5 1 1 3 2 5 2 4 3 2 2 4 3 5 4 3 5 4 6 6 1 3 2 4 \
                 3 1 5 2 6 1 4 1 5 2 6 5 1 3 2 2 3 3 4 1 5 2 6 4 2 5 3 3 4 4 5 5 6 6";
    let moves: Vec<u8> = moves
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    let g = game(Rules::oware(6, 4), &moves);
    let end = g.end().unwrap();
    assert_eq!(g.position().stores(), [20, 24]);
    assert_eq!(end.reason, EndReason::CannotFeed(Side::South));
    assert_eq!(end.sweep, [4, 0]);
    assert_eq!((end.outcome.scores, end.outcome.winner), ([24, 24], None));
}

// ---------------------------------------------------------------- simplified Oware

/// "At most two seeds remain; they belong to nobody."
#[test]
fn simplified_two_seeds_left_belong_to_nobody() {
    let p = setup(
        Rules::oware_simplified(2, 2),
        &[1, 0],
        &[0, 1],
        [4, 2],
        Side::South,
    );
    let end = end_of(&p);
    assert_eq!(end.reason, EndReason::FewSeedsLeft);
    assert_eq!((end.sweep, end.unclaimed), ([0, 0], 2));
    assert_eq!(end.outcome.scores, [4, 2]);
}

/// The project's addition: a position that comes round again since the last capture
/// ends the game. One house of four seeds each repeats from the first move (after the
/// third move the board and the player to move are those after the first): 0-0, a draw.
#[test]
fn simplified_repetition_from_the_start_is_a_draw() {
    let g = game(Rules::oware_simplified(1, 4), &[1, 1, 1]);
    let end = g.end().unwrap();
    assert_eq!(end.reason, EndReason::Repetition);
    assert_eq!((end.sweep, end.unclaimed), ([0, 0], 8));
    assert_eq!((end.outcome.scores, end.outcome.winner), ([0, 0], None));
    assert!(g.legal_moves().is_empty());
}

/// At a repetition the seeds on the board count for nobody, as at the normal end, so
/// the captures decide. Player 1 has captured 2; the board then cycles: A1 4 / B1 4,
/// then 2 / 6, then 5 / 3, then 2 / 6 again with player 2 to move.
#[test]
fn simplified_repetition_the_captures_decide() {
    let start = setup(
        Rules::oware_simplified(1, 5),
        &[4],
        &[4],
        [2, 0],
        Side::South,
    );
    let mut g = Game::from_position(start);
    for _ in 0..3 {
        g.play(mv(1)).unwrap();
    }
    let end = g.end().unwrap();
    assert_eq!(g.position().houses(Side::South), &[2]);
    assert_eq!(end.reason, EndReason::Repetition);
    assert_eq!(
        (end.outcome.scores, end.outcome.winner),
        ([2, 0], Some(Side::South))
    );
}

/// Kalah has no repetition rule (no Kalah position can come round again).
#[test]
fn only_the_oware_variants_have_a_repetition_rule() {
    assert!(!Variant::Kalah.has_repetition_rule());
    assert!(Variant::Oware.has_repetition_rule());
    assert!(Variant::OwareSimplified.has_repetition_rule());
}
