//! Worked examples of the games that sow in laps (relay sowing) or clockwise: each a
//! constructed position that shows one rule of the game's source, played through the
//! description engine.

use mancala_core::Side::{North, South};

use crate::example::Example;

/// The examples, one or more a game.
pub const EXAMPLES: &[Example] = &[
    Example {
        game: "sungka",
        shows: "The CCMMLA entry: a last shell in an occupied house is sown on; the lap \
                ending in the mover's empty house takes it and the house facing it",
        before: (&[1, 2, 5, 5, 0, 5, 5], &[5, 5, 6, 5, 5, 5, 5], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 6, 6, 0, 5, 5], &[5, 5, 0, 5, 5, 5, 5], [46, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "sungka",
        shows: "The nativeph post: a player with no move passes (North here), and the game \
                ends when no shells are left in the houses",
        before: (&[0, 0, 0, 0, 0, 1, 0], &[0, 0, 0, 0, 0, 0, 0], 50),
        to_move: South,
        moves: &[6, 7],
        after: (&[0, 0, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 0, 0], [48, 50]),
        then: South,
        over: true,
    },
    Example {
        game: "congkak",
        shows: "The Congkak rules text: clockwise sowing through the store on the mover's \
                left gives another turn, and a last seed in an own empty house then \
                captures the facing house",
        before: (&[5, 2, 0, 1, 7, 7, 7], &[7, 7, 7, 7, 3, 7, 7], 0),
        to_move: South,
        moves: &[2, 4],
        after: (&[6, 0, 0, 0, 7, 7, 7], &[7, 7, 7, 7, 0, 7, 7], [29, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "ohvalhu",
        shows: "Mancala World's reading: the relay passes through the own store, and a lap \
                ending in an empty house over there captures nothing",
        before: (&[8, 8, 8, 8, 8, 8, 1, 3], &[8, 8, 0, 8, 8, 8, 8, 8], 0),
        to_move: South,
        moves: &[7],
        after: (
            &[8, 8, 8, 8, 8, 8, 0, 0],
            &[9, 9, 1, 8, 8, 8, 8, 8],
            [21, 0],
        ),
        then: North,
        over: false,
    },
    Example {
        game: "ayoayo",
        shows: "Mancala World (after Russ): the last seed lands in an occupied house and is \
                sown on; the lap ending in the mover's empty house captures it and the \
                facing house",
        before: (&[1, 1, 4, 0, 4, 4], &[4, 4, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 5, 0, 4, 4], &[4, 4, 0, 4, 4, 4], [15, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "ayoayo",
        shows: "Feeding (Mancala World, Wikipedia): North's move leaves North no seeds and \
                South no move that gives North any, so the game is over",
        before: (&[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 1], 20),
        to_move: North,
        moves: &[6],
        after: (&[0, 1, 1, 0, 0, 0], &[0, 0, 0, 0, 0, 0], [26, 20]),
        then: South,
        over: true,
    },
    Example {
        game: "endodoi",
        shows: "Wikipedia: the last seed lands in an occupied house and is sown on; the lap \
                ending in the mover's empty house captures it and the facing house",
        before: (
            &[1, 1, 4, 0, 4, 4, 4, 4, 4, 4, 4, 4],
            &[4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 4],
            0,
        ),
        to_move: South,
        moves: &[1],
        after: (
            &[0, 0, 5, 0, 4, 4, 4, 4, 4, 4, 4, 4],
            &[4, 4, 4, 4, 4, 4, 4, 4, 0, 4, 4, 4],
            [15, 0],
        ),
        then: North,
        over: false,
    },
    Example {
        game: "hufesay",
        shows: "Pankhurst (via Ludii): a lap ending in an occupied house goes on; the one \
                ending in the mover's empty house captures the house facing it",
        before: (&[1, 1, 4, 0, 4, 4], &[4, 4, 2, 4, 4, 4], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 0, 5, 0, 4, 4], &[4, 4, 0, 4, 4, 4], [15, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "pallanguzhi",
        shows: "The undiscoveredindiantreasures post: a seed making 4 in the mover's row \
                gives the four to its owner, and the last seed before an empty house takes \
                the house after it",
        before: (&[6, 6, 6, 6, 3, 3, 6], &[2, 0, 6, 6, 6, 6, 6], 0),
        to_move: South,
        moves: &[5],
        after: (&[6, 6, 6, 6, 0, 0, 7], &[3, 0, 0, 6, 6, 6, 6], [26, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "pallanguzhi",
        shows: "The undiscoveredindiantreasures post: a seed making 4 on the opponent's row \
                gives the four to the opponent, and a last seed before two empty houses \
                ends the turn",
        before: (&[6, 6, 6, 6, 6, 3, 6], &[3, 5, 0, 0, 6, 6, 6], 0),
        to_move: South,
        moves: &[6],
        after: (&[6, 6, 6, 6, 6, 0, 7], &[0, 6, 0, 0, 6, 6, 6], [19, 4]),
        then: North,
        over: false,
    },
    Example {
        game: "wouri",
        shows: "Béart (via Ludii): every house of the opponent's row made 4 is captured, and \
                a last seed in an occupied house is sown on until one lands in an empty house",
        before: (&[4, 4, 4, 4, 3, 2], &[3, 2, 0, 3, 0, 4], 0),
        to_move: South,
        moves: &[5],
        after: (&[4, 4, 4, 4, 0, 3], &[0, 0, 1, 0, 1, 4], [23, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "obridje",
        shows: "Murray (via Ludii): a house made 4 during the sowing goes to the owner of its \
                row, one to each player here",
        before: (&[4, 4, 4, 4, 3, 3], &[3, 0, 4, 4, 4, 4], 0),
        to_move: South,
        moves: &[5],
        after: (&[4, 4, 4, 4, 0, 0], &[0, 1, 4, 4, 4, 4], [11, 4]),
        then: North,
        over: false,
    },
    Example {
        game: "chungcajon",
        shows: "Culin (via Ludii): sowing clockwise, a lap ending in an occupied house goes \
                on through the store on the mover's left; the one ending in an empty house \
                ends the turn, with no capture",
        before: (&[7, 3, 1, 7, 7, 7, 7], &[7, 7, 7, 7, 7, 0, 7], 0),
        to_move: South,
        moves: &[3],
        after: (&[8, 0, 0, 7, 7, 7, 7], &[7, 7, 7, 7, 7, 1, 8], [18, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "chongka",
        shows: "Fritz (via Ludii): sowing clockwise, a lap ending in an occupied house goes \
                on, and the one ending in the mover's empty house captures across",
        before: (&[7, 7, 7, 0, 7, 1, 1], &[7, 7, 7, 5, 7, 7, 7], 0),
        to_move: South,
        moves: &[7],
        after: (&[7, 7, 7, 0, 8, 0, 0], &[7, 7, 7, 0, 7, 7, 7], [27, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "chongka",
        shows: "Fritz (via Ludii): a last seed in the store on the mover's left ends the \
                turn (no extra turn)",
        before: (&[1, 7, 7, 7, 7, 7, 7], &[7, 7, 7, 7, 7, 7, 7], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 7, 7, 7, 7, 7, 7], &[7, 7, 7, 7, 7, 7, 7], [7, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "galatjang",
        shows: "Matthes (via Ludii): a last seed in the store gives another sowing, which \
                ends in the mover's empty house and captures across",
        before: (&[7, 1, 0, 7, 7, 1], &[7, 7, 7, 3, 7, 7], 0),
        to_move: South,
        moves: &[6, 2],
        after: (&[7, 0, 0, 7, 7, 0], &[7, 7, 7, 0, 7, 7], [28, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "main-chongkak",
        shows: "Skeat (via Ludii): sowing clockwise into the store on the mover's left gives \
                another sowing, which captures across from the mover's empty house",
        before: (&[6, 2, 0, 1, 6, 6], &[6, 6, 6, 6, 6, 6], 0),
        to_move: South,
        moves: &[2, 4],
        after: (&[7, 0, 0, 0, 6, 6], &[6, 6, 6, 0, 6, 6], [23, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "whyo",
        shows: "Murray (via Ludii): a lap ending in an occupied house goes on, and the last \
                seed making 4 takes the four and ends the turn",
        before: (&[4, 4, 4, 4, 2, 2], &[2, 1, 1, 3, 4, 4], 0),
        to_move: South,
        moves: &[5],
        after: (&[4, 4, 4, 4, 0, 3], &[0, 2, 2, 0, 4, 4], [17, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "yovodji",
        shows: "Béart (via Ludii): a lap ending in an occupied house goes on; the next one \
                makes 2 over there and captures it with the 2 before it",
        before: (&[4, 4, 4, 4, 4, 1], &[3, 0, 0, 1, 1, 4], 0),
        to_move: South,
        moves: &[6],
        after: (&[4, 4, 4, 4, 4, 0], &[0, 1, 1, 0, 0, 4], [22, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "foji",
        shows: "Béart (via Ludii): sowing clockwise, a lap ending in an occupied house goes \
                on, and the one ending in the mover's empty house captures across",
        before: (&[0, 4, 1, 1, 4, 4], &[4, 4, 4, 4, 4, 3], 0),
        to_move: South,
        moves: &[4],
        after: (&[0, 5, 0, 0, 4, 4], &[4, 4, 4, 4, 4, 0], [15, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "bosh",
        shows: "Marin (via Ludii): the house after the last one is empty, so the house after \
                it is taken and the turn ends",
        before: (&[4, 4, 4, 1, 4], &[0, 3, 4, 4, 4], 0),
        to_move: South,
        moves: &[4],
        after: (&[4, 4, 4, 0, 5], &[0, 0, 4, 4, 4], [11, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "songo",
        shows: "Powell-Cotton, as Mancala World reads him: sowing to the left, a last seed \
                making 2 on the opponent's row captures, with the 4 just before it",
        before: (&[5, 3, 5, 5, 5, 5, 5], &[5, 5, 5, 5, 5, 1, 3], 0),
        to_move: South,
        moves: &[2],
        after: (&[6, 0, 5, 5, 5, 5, 5], &[5, 5, 5, 5, 5, 0, 0], [14, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "vai-lung-thlan",
        shows: "Shakespear (via Ludii): sowing clockwise, a last seed in an empty house is \
                captured with the single seed just before it",
        before: (&[2, 5, 5, 5, 5, 5], &[5, 5, 5, 5, 0, 0], 0),
        to_move: South,
        moves: &[1],
        after: (&[0, 5, 5, 5, 5, 5], &[5, 5, 5, 5, 0, 0], [15, 0]),
        then: North,
        over: false,
    },
    Example {
        game: "unee-tugalluulax",
        shows: "Mancala World (after Namzhildorzh): sowing clockwise, a last seed making 4 \
                in the mover's own row captures the four",
        before: (&[6, 3, 1], &[6, 6, 6], 0),
        to_move: South,
        moves: &[3],
        after: (&[6, 0, 0], &[6, 6, 6], [12, 0]),
        then: North,
        over: false,
    },
];

#[test]
fn the_relay_and_clockwise_examples_hold() {
    for example in EXAMPLES {
        example.check();
    }
}
