//! Worked examples of the games with stores that sowing passes through (Kalah and its
//! relatives): each a constructed position that shows one rule of the game's source.

use mancala_core::Side::{North, South};

use crate::example::Example;

/// The examples, one or more a game.
pub const EXAMPLES: &[Example] = &[
    Example {
        game: "kalah",
        shows: "The standard rules: a last seed in the mover's empty house captures itself \
                and the seeds facing it",
        before: (&[1, 0, 4, 4, 4, 4], &[4, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 4, 4, 4, 4], &[4, 4, 4, 4, 0, 4], [12, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "kalah",
        shows: "The standard rules: a last seed in the mover's store gives another turn",
        before: (&[4, 4, 4, 4, 4, 4], &[4, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[3],
        after: (&[4, 4, 0, 5, 5, 5], &[4, 4, 4, 4, 4, 4], [1, 0]),
        then: South,
        over: false,
    },
];

#[test]
fn the_store_examples_hold() {
    for example in EXAMPLES {
        example.check();
    }
}
