//! Property tests: undo restores the exact game, redo replays exactly what was undone.

use mancala_core::{Rules, Side, Variant};
use mancala_session::{Seat, Session};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = Rules> {
    (0..3usize, 1u8..=6, 1u8..=4).prop_map(|(v, h, s)| Rules::new(Variant::ALL[v], h, s).unwrap())
}

fn seats() -> impl Strategy<Value = [bool; 2]> {
    (any::<bool>(), any::<bool>()).prop_map(|(a, b)| [a, b])
}

/// Plays moves chosen by `picks` (an index into the legal moves) until they run out or
/// the game ends.
fn play_some(s: &mut Session, picks: &[usize]) {
    for &p in picks {
        let legal = s.legal_moves();
        if legal.is_empty() {
            break;
        }
        s.play(legal[p % legal.len()]).unwrap();
    }
}

fn session(rules: Rules, humans: [bool; 2]) -> Session {
    let seat = |human: bool| {
        if human {
            Seat::Human
        } else {
            Seat::computer("random").unwrap()
        }
    };
    Session::new(rules)
        .with_seat(Side::South, seat(humans[0]))
        .with_seat(Side::North, seat(humans[1]))
}

proptest! {
    #[test]
    fn undo_move_restores_every_earlier_game_and_redo_replays(
        rules in rules(),
        picks in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let mut s = Session::new(rules);
        let mut games = vec![s.game().clone()];
        for &p in &picks {
            let legal = s.legal_moves();
            if legal.is_empty() { break; }
            s.play(legal[p % legal.len()]).unwrap();
            games.push(s.game().clone());
        }
        let end = s.clone();
        for g in games.iter().rev().skip(1) {
            prop_assert!(s.undo_move());
            prop_assert_eq!(s.game(), g);
            prop_assert_eq!(s.records().len(), g.ply());
        }
        prop_assert!(!s.undo_move());
        for g in games.iter().skip(1) {
            prop_assert!(s.redo_move());
            prop_assert_eq!(s.game(), g);
        }
        prop_assert!(!s.redo_move());
        prop_assert_eq!(s.records(), end.records());
    }

    #[test]
    fn undo_by_turns_is_undone_by_redo(
        rules in rules(),
        humans in seats(),
        picks in prop::collection::vec(any::<usize>(), 0..40),
        undos in 1usize..6,
    ) {
        let mut s = session(rules, humans);
        play_some(&mut s, &picks);
        let end = s.clone();
        let mut snapshots = Vec::new();
        for _ in 0..undos {
            snapshots.push(s.game().clone());
            let n = s.undo();
            if n == 0 {
                snapshots.pop();
                break;
            }
            // Against a computer, undo lands where a person is to move.
            if humans[0] != humans[1] {
                prop_assert!(s.human_to_move());
            }
        }
        for g in snapshots.iter().rev() {
            prop_assert!(s.redo() > 0);
            prop_assert_eq!(s.game(), g);
        }
        prop_assert_eq!(s.game(), end.game());
        prop_assert_eq!(s.records(), end.records());
        prop_assert!(!s.can_redo());
    }

    #[test]
    fn records_replay_the_game(
        rules in rules(),
        picks in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let mut s = Session::new(rules);
        play_some(&mut s, &picks);
        let mut p = *s.game().start();
        for (i, r) in s.records().iter().enumerate() {
            prop_assert_eq!(r.ply, i);
            prop_assert_eq!(r.before, p);
            prop_assert_eq!(r.side, p.to_move());
            let (next, report) = p.play_with_report(r.mv).unwrap();
            prop_assert_eq!(report, r.report);
            prop_assert_eq!(r.after, next);
            prop_assert_eq!(&r.sowing, &p.sowing(r.mv).unwrap());
            p = next;
        }
        prop_assert_eq!(&p, s.position());
    }
}
