//! Togyz Kumalak in the referee: hand-worked examples of each rule (as `docs/rules.md`
//! states them), then random games on several boards that must keep every seed and end.

use mancala_referee::{Ending, Finish, Kind, Referee, Table};

/// A Togyz Kumalak position from its parts, on as many houses as `rows[0]` has.
fn position(
    rows: [&[u32]; 2],
    banked: [u32; 2],
    tuzdyks: [Option<usize>; 2],
    to_move: usize,
) -> Table {
    let mut table = Table::new(Kind::TogyzKumalak, rows[0].len(), 0);
    table.rows = rows.map(<[u32]>::to_vec);
    table.banked = banked;
    table.tuzdyks = tuzdyks;
    table.to_move = to_move;
    table
}

/// `table` after player `table.to_move` plays house `k`.
fn after(table: &Table, k: usize) -> Table {
    let mut next = table.clone();
    next.play(k);
    next
}

#[test]
fn a_single_seed_moves_on_to_the_next_house() {
    let start = position([&[1, 0, 3, 1], &[1, 2, 1, 1]], [0, 0], [None, None], 0);
    // House 1's one seed goes to house 2; house 1 is left empty.
    let t = after(&start, 1);
    assert_eq!(t.rows, [vec![0, 1, 3, 1], vec![1, 2, 1, 1]]);
    assert_eq!((t.banked, t.to_move), ([0, 0], 1));
    // From the last house it crosses to the opponent's house 1, making 2: captured.
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![1, 0, 3, 0], vec![0, 2, 1, 1]]);
    assert_eq!(t.banked, [2, 0]);
}

#[test]
fn a_sowing_of_nine_starts_in_the_house_it_empties() {
    let mut game = Referee::new(Kind::TogyzKumalak, 9, 9);
    game.play(1);
    // One seed back into house 1, one into each of houses 2 to 9.
    let t = game.table();
    assert_eq!(t.rows[0], [1, 10, 10, 10, 10, 10, 10, 10, 10]);
    assert_eq!(t.rows[1], [9; 9]);
    assert_eq!((t.banked, t.to_move), ([0, 0], 1));
    assert_eq!(game.finish(), None);
}

#[test]
fn an_even_number_in_the_last_house_on_the_opponents_row_is_captured() {
    // Opening with house 9: one seed back into it, eight into the opponent's houses 1
    // to 8; the last makes house 8 hold 10, all captured.
    let mut game = Referee::new(Kind::TogyzKumalak, 9, 9);
    game.play(9);
    let t = game.table();
    assert_eq!(t.rows[0], [9, 9, 9, 9, 9, 9, 9, 9, 1]);
    assert_eq!(t.rows[1], [10, 10, 10, 10, 10, 10, 10, 0, 9]);
    assert_eq!(t.banked, [10, 0]);
    // Every opening move but house 1 ends that way, in the opponent's house k - 1.
    let start = Table::new(Kind::TogyzKumalak, 9, 9);
    assert_eq!(start.effect(1).captured, 0);
    for k in 2..=9 {
        assert_eq!(start.effect(k).captured, 10, "house {k}");
    }
    // Only the last house counts: house 1 of the opponent also reaches 2, and stays.
    let start = position([&[0, 0, 0, 3], &[1, 1, 3, 0]], [0, 0], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![0, 0, 0, 1], vec![2, 0, 3, 0]]);
    assert_eq!(t.banked, [2, 0]);
}

#[test]
fn no_capture_on_the_movers_own_row_or_of_an_odd_number() {
    // House 1's two seeds: one back into it, one into house 2, making 2: the own row.
    let start = position([&[2, 1, 0, 0], &[1, 1, 1, 1]], [0, 0], [None, None], 0);
    let t = after(&start, 1);
    assert_eq!(t.rows, [vec![1, 2, 0, 0], vec![1, 1, 1, 1]]);
    assert_eq!(t.banked, [0, 0]);
    // Five seeds from house 4 end in the opponent's house 4, making 5: nothing.
    let start = position([&[0, 0, 0, 5], &[1, 1, 1, 4]], [0, 0], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![0, 0, 0, 1], vec![2, 2, 2, 5]]);
    assert_eq!(t.banked, [0, 0]);
}

#[test]
fn three_in_the_last_house_make_it_the_movers_tuzdyk() {
    // House 4's two seeds: one back into it, one into the opponent's house 1, making 3.
    let start = position([&[1, 1, 1, 2], &[2, 1, 1, 1]], [0, 0], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![1, 1, 1, 1], vec![0, 1, 1, 1]]);
    assert_eq!(t.banked, [3, 0]);
    assert_eq!(t.tuzdyks, [Some(1), None]);
    // The tuzdyk is empty, so its row's owner cannot play it.
    assert_eq!(t.moves(), [2, 3, 4]);
    // The opponent's house H - 1 may be a tuzdyk (only house H may not).
    let start = position([&[0, 0, 0, 4], &[1, 1, 2, 2]], [0, 0], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![0, 0, 0, 1], vec![2, 2, 0, 2]]);
    assert_eq!((t.banked, t.tuzdyks), ([3, 0], [Some(3), None]));
}

#[test]
fn no_second_tuzdyk() {
    // As above, but the mover already owns the opponent's house 2: the 3 seeds stay.
    let start = position([&[1, 1, 1, 2], &[2, 0, 1, 1]], [4, 0], [Some(2), None], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![1, 1, 1, 1], vec![3, 0, 1, 1]]);
    assert_eq!(t.banked, [4, 0]);
    assert_eq!(t.tuzdyks, [Some(2), None]);
}

#[test]
fn no_tuzdyk_in_the_opponents_last_house() {
    // Five seeds from house 4: back into it, then the opponent's houses 1 to 4; the
    // last makes house 4 (the opponent's Hth) hold 3: nothing happens.
    let start = position([&[0, 0, 0, 5], &[1, 1, 1, 2]], [0, 0], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![0, 0, 0, 1], vec![2, 2, 2, 3]]);
    assert_eq!((t.banked, t.tuzdyks), ([0, 0], [None, None]));
    // Nor on the full board: the opponent's house 9.
    let mut rows = [vec![0; 9], vec![1; 9]];
    rows[0][8] = 10;
    rows[1][8] = 2;
    let start = position([&rows[0], &rows[1]], [0, 0], [None, None], 0);
    let t = after(&start, 9);
    assert_eq!(t.rows[1], [2, 2, 2, 2, 2, 2, 2, 2, 3]);
    assert_eq!((t.banked, t.tuzdyks), ([0, 0], [None, None]));
}

#[test]
fn no_tuzdyk_with_the_number_of_the_opponents_tuzdyk() {
    // The opponent owns the mover's house 2; the last seed makes the opponent's house 2
    // hold 3: the same number, so nothing happens.
    let start = position([&[1, 0, 1, 3], &[1, 2, 1, 1]], [0, 3], [None, Some(2)], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![1, 0, 1, 1], vec![2, 3, 1, 1]]);
    assert_eq!((t.banked, t.tuzdyks), ([0, 3], [None, Some(2)]));
    // With the opponent's tuzdyk in the mover's house 3 instead, house 2 is claimed.
    let start = position([&[1, 1, 0, 3], &[1, 2, 1, 1]], [0, 3], [None, Some(3)], 0);
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![1, 1, 0, 1], vec![2, 0, 1, 1]]);
    assert_eq!((t.banked, t.tuzdyks), ([3, 3], [Some(2), Some(3)]));
}

#[test]
fn a_seed_sown_into_a_tuzdyk_goes_to_its_owners_store() {
    // Player 1 owns player 2's house 2; player 2 owns player 1's house 3.
    let start = position(
        [&[1, 5, 0, 1], &[1, 0, 1, 1]],
        [3, 3],
        [Some(2), Some(3)],
        0,
    );
    // Five seeds from house 2: back into it, then house 3 (player 2's tuzdyk: to player
    // 2's store), house 4, the opponent's house 1, and house 2 (player 1's tuzdyk: to
    // player 1's store). Every seed counts as a step; the last, in a tuzdyk, captures
    // nothing (the opponent's house 1 now holds 2, but the last seed is not there).
    let t = after(&start, 2);
    assert_eq!(t.rows, [vec![1, 1, 0, 2], vec![2, 0, 1, 1]]);
    assert_eq!((t.banked, t.to_move), ([4, 4], 1));
    // Player 2 sows into player 1's tuzdyk on player 2's own row: it goes to player 1.
    let t = after(&t, 1);
    assert_eq!(t.rows, [vec![1, 1, 0, 2], vec![1, 0, 1, 1]]);
    assert_eq!(t.banked, [5, 4]);
}

#[test]
fn the_game_ends_when_a_store_holds_more_than_half() {
    // Ten seeds in all; the mover has captured 4, and the last seed captures 2 more.
    let start = position([&[0, 0, 0, 2], &[1, 1, 1, 1]], [4, 0], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.banked, [6, 0]);
    let finish = Finish {
        ending: Ending::MoreThanHalf(0),
        scores: [6, 0],
        taken_from_rows: [0, 0],
        left_to_nobody: 4,
    };
    assert_eq!(t.finish(), Some(finish));
    assert_eq!(finish.winner(), Some(0));
    // Exactly half for one player alone does not end it.
    let start = position([&[0, 0, 0, 2], &[1, 1, 1, 1]], [3, 1], [None, None], 0);
    let t = after(&start, 4);
    assert_eq!(t.banked, [5, 1]);
    assert_eq!((t.finish(), t.to_move), (None, 1));
}

#[test]
fn a_player_with_no_seeds_to_move_ends_the_game_and_the_opponent_takes_their_row() {
    let start = position([&[0, 0, 0, 1], &[0, 1, 1, 0]], [4, 3], [None, None], 0);
    // Player 1 empties their own row: the game goes on, player 2 has seeds to move.
    let t = after(&start, 4);
    assert_eq!(t.rows, [vec![0, 0, 0, 0], vec![1, 1, 1, 0]]);
    assert_eq!((t.finish(), t.to_move), (None, 1));
    // Player 2 gives them none back: player 1 cannot move, and player 2 takes the 3
    // seeds on their own row.
    let t = after(&t, 3);
    assert_eq!(t.rows, [vec![0, 0, 0, 0], vec![1, 1, 0, 1]]);
    let finish = t.finish().unwrap();
    assert_eq!(
        finish,
        Finish {
            ending: Ending::NoSeedsToMove(0),
            scores: [4, 6],
            taken_from_rows: [0, 3],
            left_to_nobody: 0,
        }
    );
    assert_eq!(finish.winner(), Some(1));
    // The same after a capture takes the last seeds of the player to move.
    let start = position([&[2, 0, 0, 1], &[1, 0, 0, 0]], [2, 4], [None, None], 0);
    let finish = after(&start, 4).finish().unwrap();
    assert_eq!(finish.ending, Ending::NoSeedsToMove(1));
    assert_eq!((finish.scores, finish.taken_from_rows), ([6, 4], [2, 0]));
}

#[test]
fn eighty_one_each_is_a_draw() {
    // The full board, 162 seeds: player 1 has 79 and captures 2; player 2 has 81.
    let mut rows = [vec![0; 9], vec![0; 9]];
    rows[0][8] = 1;
    rows[1][0] = 1;
    let start = position([&rows[0], &rows[1]], [79, 81], [None, None], 0);
    assert_eq!(start.finish(), None);
    let finish = after(&start, 9).finish().unwrap();
    assert_eq!(
        finish,
        Finish {
            ending: Ending::HalfEach,
            scores: [81, 81],
            taken_from_rows: [0, 0],
            left_to_nobody: 0,
        }
    );
    assert_eq!(finish.winner(), None);
}

#[test]
fn one_house_of_two_seeds_ends_by_repetition() {
    // One house of two seeds a side has one move at every turn, and the start comes
    // back after two of them (2|2 -> 1|3 -> 2|2): the project's repetition rule ends
    // it there, each player taking their own row.
    let mut game = Referee::new(Kind::TogyzKumalak, 1, 2);
    let start = game.table().clone();
    game.play(1);
    assert_eq!(game.table().rows, [vec![1], vec![3]]);
    assert_eq!(game.finish(), None);
    game.play(1);
    assert_eq!(game.table(), &start);
    let finish = game.finish().unwrap();
    assert_eq!(finish.ending, Ending::Repetition);
    assert_eq!(finish.scores, [2, 2]);
}

/// A xorshift generator: deterministic games with no dependency.
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Checks what must hold in every position of a game of `seeds` seeds in all.
fn check(game: &Referee, seeds: u32, context: &dyn Fn() -> String) {
    let t = game.table();
    let on_board = t.row_total(0) + t.row_total(1);
    assert_eq!(on_board + t.banked[0] + t.banked[1], seeds, "{}", context());
    let tuzdyks = game.tuzdyks();
    assert_eq!(tuzdyks, t.tuzdyks);
    for (p, tuzdyk) in tuzdyks.into_iter().enumerate() {
        if let Some(j) = tuzdyk {
            assert!(j < t.houses, "a tuzdyk in house H: {}", context());
            assert_eq!(
                t.rows[1 - p][j - 1],
                0,
                "a tuzdyk with seeds: {}",
                context()
            );
        }
    }
    if tuzdyks[0].is_some() {
        assert_ne!(
            tuzdyks[0],
            tuzdyks[1],
            "same-numbered tuzdyks: {}",
            context()
        );
    }
    match game.finish() {
        None => {
            let me = t.to_move;
            let full: Vec<usize> = (1..=t.houses).filter(|&k| t.rows[me][k - 1] > 0).collect();
            assert_eq!(game.moves(), full, "{}", context());
            assert!(!full.is_empty(), "{}", context());
            assert!(2 * t.banked[0] <= seeds && 2 * t.banked[1] <= seeds);
        }
        Some(finish) => {
            let [a, b] = finish.scores;
            assert_eq!(a + b + finish.left_to_nobody, seeds, "{}", context());
            assert!(game.moves().is_empty());
        }
    }
}

#[test]
fn random_games_keep_every_seed_and_end() {
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut endings = Vec::new();
    let mut with_tuzdyk = 0;
    for (houses, seeds) in [
        (9, 9),
        (1, 1),
        (2, 3),
        (3, 4),
        (5, 2),
        (6, 6),
        (7, 5),
        (16, 64),
    ] {
        let total = 2 * houses as u32 * seeds;
        for _ in 0..50 {
            let mut game = Referee::new(Kind::TogyzKumalak, houses, seeds);
            let mut moves = Vec::new();
            loop {
                let context = || format!("{houses}x{seeds} after {moves:?}: {:?}", game.table());
                check(&game, total, &context);
                if let Some(finish) = game.finish() {
                    endings.push(finish.ending);
                    break;
                }
                assert!(moves.len() < 10_000, "no end in sight: {}", context());
                let legal = game.moves();
                let before = game.tuzdyks();
                let k = legal[rng.below(legal.len())];
                game.play(k);
                moves.push(k);
                for (p, owned) in before.into_iter().enumerate() {
                    if owned.is_some() {
                        assert_eq!(game.tuzdyks()[p], owned, "a tuzdyk moved");
                    }
                }
            }
            if game.tuzdyks() != [None, None] {
                with_tuzdyk += 1;
            }
        }
    }
    // The random games reach both usual endings and claim tuzdyks.
    assert!(endings.iter().any(|e| matches!(e, Ending::MoreThanHalf(_))));
    assert!(
        endings
            .iter()
            .any(|e| matches!(e, Ending::NoSeedsToMove(_)))
    );
    assert!(with_tuzdyk > 100, "{with_tuzdyk} games with a tuzdyk");
}
