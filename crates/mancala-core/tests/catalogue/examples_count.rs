//! Worked examples of the games that capture by count: each a constructed position
//! that shows one rule of the game's source, played through the description engine.

use mancala_core::Side::{North, South};

use crate::example::Example;

/// The examples, one or more a game.
pub const EXAMPLES: &[Example] = &[
    Example {
        game: "adidada",
        shows: "Schönhärl (via Ludii): a last seed making 3 over there captures, with the 2 \
                before it",
        before: (&[4, 4, 4, 4, 4, 2], &[1, 2, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[0, 0, 4, 4, 4, 4], [12, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "alitev",
        shows: "And (via Ludii): a last seed making 1 captures, with the 3 and the 1 sown \
                just before it",
        before: (&[3, 3, 3, 0, 2, 0], &[3, 3, 3, 3, 3, 3], 0),
        to_move: South,
        moves: &[3],
        after: (&[3, 3, 0, 0, 0, 0], &[3, 3, 3, 3, 3, 3], [12, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "awari",
        shows: "Herskovits (via Ludii): a last seed making 3 on the opponent's row captures, \
                with the 2 just before it",
        before: (&[4, 4, 4, 4, 3, 4], &[1, 2, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[5],
        after: (&[4, 4, 4, 4, 0, 5], &[0, 0, 4, 4, 4, 4], [11, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "bohnenspiel",
        shows: "Jahn (via Ludii): a last bean making 4 in the mover's own row captures, with \
                the 2 before it; the empty house before that stops the run",
        before: (&[2, 1, 3, 6, 6, 6], &[6, 6, 6, 6, 6, 6], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 0, 6, 6, 6], &[6, 6, 6, 6, 6, 6], [18, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "enindji",
        shows: "Béart (via Ludii): a last seed making 4 goes to the owner of the house, here \
                the opponent",
        before: (&[4, 4, 4, 4, 4, 1], &[3, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[0, 4, 4, 4, 4, 4], [4, 4]),
        then: North,
        over: false,
    },
    Example {
        game: "woli",
        shows: "Béart (via Ludii): sowing clockwise, a last seed making 3 on the opponent's \
                row captures, with the 2 sown just before it",
        before: (&[2, 6, 6, 6, 6, 6], &[6, 6, 6, 6, 2, 1], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 6, 6, 6, 6, 6], &[6, 6, 6, 6, 0, 0], [18, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "fondji",
        shows: "Béart (via Ludii): a last seed making 3 in the mover's own row captures, with \
                the 2 before it",
        before: (&[2, 1, 2, 4, 4, 4], &[4, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 0, 4, 4, 4], &[4, 4, 4, 4, 4, 4], [12, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "halusa",
        shows: "Hyde (via Ludii): a last seed making an even count in the mover's row \
                captures, with the even house before it",
        before: (&[2, 1, 3, 6, 6, 6], &[6, 6, 6, 6, 6, 6], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 0, 6, 6, 6], &[6, 6, 6, 6, 6, 6], [18, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "halusa",
        shows: "Hyde (via Ludii): an even count made on the opponent's row captures nothing",
        before: (&[6, 6, 6, 6, 6, 1], &[1, 6, 6, 6, 6, 6], 0),
        to_move: South,
        moves: &[6],
        after: (&[6, 6, 6, 6, 6, 0], &[2, 6, 6, 6, 6, 6], [10, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "mankala-niebuhr",
        shows: "Niebuhr (via Ludii): a last seed making 2 captures, with the 4 before it",
        before: (&[6, 6, 6, 6, 6, 2], &[3, 1, 6, 6, 6, 6], 0),
        to_move: South,
        moves: &[6],
        after: (&[6, 6, 6, 6, 6, 0], &[0, 0, 6, 6, 6, 6], [18, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "khrour",
        shows: "Béart (via Ludii): a last seed making an occupied house hold 2 captures it",
        before: (&[1, 1], &[1, 3], 0),
        to_move: South,
        moves: &[2],
        after: (&[1, 0], &[0, 3], [12, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "kpo",
        shows: "Culin (via Ludii): a last seed making 3 captures that house only, not the 2 \
                before it",
        before: (&[4, 4, 4, 4, 4, 2], &[1, 2, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[2, 0, 4, 4, 4, 4], [10, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "mangala-turkey",
        shows: "And (via Ludii): a last seed making 1 in the mover's own row captures, with \
                the 3 before it",
        before: (&[2, 2, 0, 5, 5, 5, 5], &[5, 5, 5, 5, 5, 5, 5], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 0, 5, 5, 5, 5], &[5, 5, 5, 5, 5, 5, 5], [15, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "micro-wari",
        shows: "Deledicq and Popova (via Mancala World): a last seed dropped into an empty \
                house over there is captured, each way; then the player to move has no seeds \
                and the game is over",
        before: (&[0, 1], &[0, 1], 0),
        to_move: South,
        moves: &[2, 2],
        after: (&[0, 0], &[0, 0], [3, 1]),
        then: South,
        over: true,
    },
    Example {
        game: "ntyenge",
        shows: "Trilles (via Ludii): a last seed making 4 captures that house, not the 2 \
                sown before it",
        before: (&[4, 4, 4, 4, 4, 4, 4, 2], &[1, 3, 4, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[8],
        after: (
            &[4, 4, 4, 4, 4, 4, 4, 0],
            &[2, 0, 4, 4, 4, 4, 4, 4],
            [10, 0],
        ),
        then: North,
        over: false,
    },
    Example {
        game: "ouril",
        shows: "Braz Dias and Braz Dias (via Ludii): a capture of 3 and the 2 before it brings \
                the mover to 25 seeds, which wins",
        before: (&[4, 4, 4, 4, 3, 2], &[1, 2, 4, 0, 0, 0], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 3, 0], &[0, 0, 4, 0, 0, 0], [25, 0]),
        then: North,
        over: true,
    },
    Example {
        game: "oware",
        shows: "The Abapa rules (Oware Society): a move that would capture every seed of the \
                opponent's row is played and captures nothing",
        before: (&[4, 4, 4, 4, 4, 2], &[1, 2, 0, 0, 0, 0], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[2, 3, 0, 0, 0, 0], [23, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "oware-simplified",
        shows: "The course's simplified Oware: every seed that turns an opponent's 1 into 2 \
                captures, so one move captures twice",
        before: (&[4, 4, 4, 4, 4, 2], &[1, 1, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[0, 0, 4, 4, 4, 4], [12, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "togyzkumalak",
        shows: "The federation's rules: sowing starts in the emptied house, and the last seed \
                making an even count over there captures it",
        before: (
            &[9, 9, 9, 9, 9, 9, 9, 9, 2],
            &[9, 9, 9, 9, 9, 9, 9, 9, 9],
            0,
        ),
        to_move: South,
        moves: &[9],
        after: (
            &[9, 9, 9, 9, 9, 9, 9, 9, 1],
            &[0, 9, 9, 9, 9, 9, 9, 9, 9],
            [17, 0],
        ),
        then: North,
        over: false,
    },
    Example {
        game: "wari-ashanti",
        shows: "Cardinall (via Ludii): a last seed making 6 on the opponent's row captures \
                the six",
        before: (&[4, 4, 4, 4, 4, 1], &[5, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[0, 4, 4, 4, 4, 4], [8, 0]),
        then: North,
        over: false,
    },
];

#[test]
fn the_count_capture_examples_hold() {
    for example in EXAMPLES {
        example.check();
    }
}
