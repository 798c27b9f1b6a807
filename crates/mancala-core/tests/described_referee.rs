//! The description engine (`Described`) against the referee's naive second model of
//! descriptions (`mancala_referee::DescribedGame`, which shares no code with core):
//! random games of every description in `games/` on its standard board and on random
//! ones, and of random valid descriptions (relay sowing, both directions, start
//! patterns, every capture kind, claims). After every move the legal moves, the
//! position, the mover's captures, whether the move ended in the store, and the end
//! (its scores, by the end rules or by repetition) must agree.

use std::collections::HashSet;

use mancala_core::described::Described;
use mancala_core::description::{
    Capture, CaptureKind, Claim, Description, Direction, Empty, EmptyFacing, First, GrandSlam,
    Leftover, NoMove, Relay, Row, Taker, Timing,
};
use mancala_core::{Move, Position, Rules, Side, Variant};
use mancala_referee::DescribedGame;
use mancala_referee::rulebook::{CaptureRule, ClaimRule, Laps, Rulebook, Whose};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The referee's reading of `d` on a board of `houses` houses of `seeds` seeds (or the
/// description's start pattern).
fn rulebook(d: &Description, houses: usize, seeds: u8) -> Rulebook {
    let whose = |row: Row| match row {
        Row::Opponent => Whose::Opponent,
        Row::Own => Whose::Own,
        Row::Either => Whose::Either,
    };
    let capture = |c: &Capture| match c.kind {
        CaptureKind::Count => CaptureRule::Count {
            counts: c.counts.iter().map(|&n| u32::from(n)).collect(),
            even: c.even,
            whose: whose(c.row),
            each_seed: c.timing == Timing::EachSeed,
            run: c.run,
            grand_slam_captures: c.grand_slam == GrandSlam::Captures,
            owner_takes: c.by == Taker::Owner,
        },
        CaptureKind::Across => CaptureRule::Across {
            lone_seed_taken: c.empty_facing == EmptyFacing::TakeSowingSeed,
        },
        CaptureKind::Next => CaptureRule::Next {
            whose: whose(c.row),
            facing: c.facing,
        },
    };
    let start = if d.board.start.is_empty() {
        vec![u32::from(seeds); houses]
    } else {
        d.board.start.iter().map(|&n| u32::from(n)).collect()
    };
    Rulebook {
        houses,
        start,
        own_store: d.sowing.own_store,
        direction: match d.sowing.direction {
            Direction::Anticlockwise => mancala_referee::rulebook::Direction::Anticlockwise,
            Direction::Clockwise => mancala_referee::rulebook::Direction::Clockwise,
            Direction::ByCount => mancala_referee::rulebook::Direction::OddClockwise,
        },
        first_into_origin: d.sowing.first == First::Origin,
        skip_origin: d.sowing.skip_origin,
        laps: match d.sowing.relay {
            Relay::None => Laps::Single,
            Relay::Last => Laps::FromLast,
            Relay::Next => Laps::FromNext,
        },
        max_laps: d.sowing.max_laps.into(),
        extra_turn: d.turn.extra_turn,
        must_feed: d.turn.must_feed,
        pass: d.turn.no_move == NoMove::Pass,
        captures: d.capture.iter().map(capture).collect(),
        claim: d.claim.as_ref().map(|c: &Claim| ClaimRule {
            count: c.count.into(),
            not_last_house: c.not_last_house,
            not_mirror: c.not_mirror,
        }),
        majority: d.end.majority,
        either_row_empty: d.end.empty == Empty::EitherSide,
        seeds_left: d.end.seeds_left.into(),
        leftover: match d.end.leftover {
            Leftover::OwnRow => mancala_referee::rulebook::Leftover::OwnRow,
            Leftover::OwnRowUnlessDecided => {
                mancala_referee::rulebook::Leftover::OwnRowUnlessDecided
            }
            Leftover::Nobody => mancala_referee::rulebook::Leftover::Nobody,
        },
        repetition: d.end.repetition,
    }
}

/// Core's position in the referee's terms: rows, stores, claims, player to move.
fn same_position(pos: &Position, game: &DescribedGame) -> bool {
    let board = game.board();
    let row = |side: Side| -> Vec<u32> { pos.houses(side).iter().map(|&n| n.into()).collect() };
    let claimed = pos
        .claims()
        .map(|t| t.map(|mv: Move| usize::from(mv.house())));
    row(Side::South) == board.rows[0]
        && row(Side::North) == board.rows[1]
        && pos.stores().map(u32::from) == board.banked
        && claimed == board.claimed
        && pos.to_move().index() == board.to_move
}

/// A move: mostly random, sometimes the fullest house (long relay sowings) or the
/// biggest capture.
fn choose(engine: &Described, pos: &Position, moves: &[Move], rng: &mut SmallRng) -> Move {
    let any = moves[rng.random_range(0..moves.len())];
    match rng.random_range(0..4) {
        0 => *moves
            .iter()
            .max_by_key(|&&m| pos.seeds(pos.to_move(), m))
            .unwrap(),
        1 => *moves
            .iter()
            .max_by_key(|&&m| engine.play(&mut pos.clone(), m, &mut Vec::new()).captured)
            .unwrap(),
        _ => any,
    }
}

/// Plays one random game of `d` on `houses` x `seeds` under both; the plies played.
fn compare_game(d: &Description, houses: u8, seeds: u8, rng: &mut SmallRng) -> usize {
    let engine = Described::new(d);
    let rules = Rules::new(Variant::Oware, houses, seeds).unwrap();
    let mut pos = engine.start_position(rules);
    let mut game = DescribedGame::new(rulebook(d, houses.into(), seeds));
    let mut since_capture: HashSet<Position> = HashSet::new();
    let context = |pos: &Position| format!("{} ({houses}x{seeds}) at {}", d.key, pos.to_notation());
    assert!(same_position(&pos, &game), "start of {}", context(&pos));
    for ply in 0..400 {
        if engine.is_over(&pos) {
            let finish = game
                .finish()
                .unwrap_or_else(|| panic!("referee goes on: {}", context(&pos)));
            let scores = engine.final_scores(&pos).map(u32::from);
            assert_eq!(
                (finish.scores, finish.repetition),
                (scores, false),
                "{}",
                context(&pos)
            );
            return ply;
        }
        if d.end.repetition && !since_capture.insert(pos) {
            let finish = game
                .finish()
                .unwrap_or_else(|| panic!("no repetition: {}", context(&pos)));
            let scores = engine.repetition_scores(&pos).unwrap().map(u32::from);
            assert_eq!(
                (finish.scores, finish.repetition),
                (scores, true),
                "{}",
                context(&pos)
            );
            return ply;
        }
        assert_eq!(game.finish(), None, "referee ended: {}", context(&pos));
        let moves: Vec<Move> = engine.legal_moves(&pos).iter().copied().collect();
        let houses_of = |m: &[Move]| m.iter().map(|m| usize::from(m.house())).collect::<Vec<_>>();
        assert_eq!(
            houses_of(&moves),
            game.moves(),
            "legal moves, {}",
            context(&pos)
        );
        let mv = choose(&engine, &pos, &moves, rng);
        let before = pos;
        let report = engine.play(&mut pos, mv, &mut Vec::new());
        let played = game.play(mv.house().into());
        let what = format!("{mv} from {}", context(&before));
        assert!(
            same_position(&pos, &game),
            "{what}: core {} referee {:?}",
            pos.to_notation(),
            game.board()
        );
        assert_eq!(
            u32::from(report.captured),
            played.captured,
            "captures of {what}"
        );
        assert_eq!(report.ended_in_store, played.ended_in_store, "{what}");
        if pos.stores() != before.stores() {
            since_capture.clear();
        }
    }
    400
}

/// Every description file in `games/`, read as the program reads it.
fn shipped() -> Vec<Description> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            Description::from_toml(&text, &p.display().to_string())
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect()
}

/// The boards a game is played on: its standard one, then random ones it allows.
fn board(d: &Description, n: usize, rng: &mut SmallRng) -> (u8, u8) {
    let b = &d.board;
    if n == 0 || !b.start.is_empty() {
        return (b.houses, b.seeds.max(1));
    }
    let houses = rng.random_range(b.min_houses..=b.max_houses.min(8).max(b.min_houses));
    let seeds = rng.random_range(1..=b.max_seeds.min(8));
    (houses, seeds)
}

#[test]
fn every_shipped_description_plays_as_the_referee_reads_it() {
    let mut rng = SmallRng::seed_from_u64(52);
    let games = shipped();
    assert!(games.len() >= 4);
    for d in &games {
        let mut plies = 0;
        for n in 0..120 {
            let (houses, seeds) = board(d, n % 3, &mut rng);
            plies += compare_game(d, houses, seeds, &mut rng);
        }
        assert!(plies > 1000, "{}: only {plies} plies compared", d.key);
    }
}

/// A random description the check accepts (drawn until one is).
fn random_description(rng: &mut SmallRng) -> Description {
    loop {
        let mut d = Description::builtin("oware").unwrap();
        d.key = "random".into();
        let relay = [Relay::None, Relay::Last, Relay::Next][rng.random_range(0..3)];
        let small = relay != Relay::None;
        d.board.houses = rng.random_range(1..=if small { 4 } else { 6 });
        d.board.seeds = rng.random_range(1..=if small { 3 } else { 5 });
        d.board.stores = rng.random_bool(0.5);
        if rng.random_ratio(1, 4) {
            let h = d.board.houses;
            d.board.start = (0..h).map(|_| rng.random_range(0..=4)).collect();
            d.board.start[0] = d.board.start[0].max(1);
            (d.board.seeds, d.board.min_houses, d.board.max_houses) = (0, h, h);
        }
        let s = &mut d.sowing;
        s.own_store = d.board.stores && rng.random_bool(0.7);
        s.first = if rng.random_ratio(1, 4) {
            First::Origin
        } else {
            First::Next
        };
        s.skip_origin = rng.random_bool(0.3);
        s.direction = [
            Direction::Anticlockwise,
            Direction::Clockwise,
            Direction::ByCount,
        ][rng.random_range(0..3)];
        s.relay = relay;
        s.max_laps = if relay == Relay::None || (s.own_store && rng.random_bool(0.5)) {
            0
        } else {
            rng.random_range(1..=30)
        };
        d.turn.extra_turn = s.own_store && rng.random_bool(0.5);
        d.turn.must_feed = rng.random_bool(0.3);
        d.turn.no_move = if rng.random_bool(0.3) {
            NoMove::Pass
        } else {
            NoMove::Ends
        };
        d.capture = (0..rng.random_range(0..3))
            .map(|_| random_capture(rng))
            .collect();
        d.claim = (!d.board.stores && rng.random_ratio(1, 4)).then(|| Claim {
            word: "claim".into(),
            count: rng.random_range(1..=4),
            not_last_house: rng.random_bool(0.5),
            not_mirror: rng.random_bool(0.5),
        });
        d.end.majority = rng.random_bool(0.5);
        d.end.empty = if rng.random_bool(0.3) {
            Empty::EitherSide
        } else {
            Empty::MoverCannotMove
        };
        d.end.seeds_left = if rng.random_bool(0.2) {
            rng.random_range(1..=3)
        } else {
            0
        };
        d.end.leftover = [
            Leftover::OwnRow,
            Leftover::OwnRowUnlessDecided,
            Leftover::Nobody,
        ][rng.random_range(0..3)];
        d.end.repetition =
            !s.own_store || s.direction == Direction::ByCount || rng.random_bool(0.3);
        if d.check().is_ok() {
            return d;
        }
    }
}

fn random_capture(rng: &mut SmallRng) -> Capture {
    let row = [Row::Opponent, Row::Own, Row::Either][rng.random_range(0..3)];
    let mut c = Capture {
        kind: CaptureKind::Count,
        counts: Vec::new(),
        even: false,
        row,
        timing: Timing::Last,
        run: false,
        grand_slam: GrandSlam::Captures,
        empty_facing: EmptyFacing::NoCapture,
        by: Taker::Mover,
        facing: false,
    };
    match rng.random_range(0..3) {
        0 => {
            c.counts = (1..=4).filter(|_| rng.random_bool(0.4)).collect();
            c.even = c.counts.is_empty() || rng.random_ratio(1, 5);
            c.timing = if rng.random_ratio(1, 3) {
                Timing::EachSeed
            } else {
                Timing::Last
            };
            c.run = rng.random_bool(0.4);
            c.grand_slam = if rng.random_bool(0.5) {
                GrandSlam::NoCapture
            } else {
                GrandSlam::Captures
            };
            c.by = if rng.random_ratio(1, 3) {
                Taker::Owner
            } else {
                Taker::Mover
            };
        }
        1 => {
            c.kind = CaptureKind::Across;
            c.row = Row::Opponent;
            c.empty_facing = if rng.random_bool(0.5) {
                EmptyFacing::TakeSowingSeed
            } else {
                EmptyFacing::NoCapture
            };
        }
        _ => {
            c.kind = CaptureKind::Next;
            c.facing = rng.random_bool(0.5);
        }
    }
    c
}

#[test]
fn random_descriptions_play_as_the_referee_reads_them() {
    let mut rng = SmallRng::seed_from_u64(5152);
    let mut plies = 0;
    for _ in 0..3000 {
        let d = random_description(&mut rng);
        let (houses, seeds) = (d.board.houses, d.board.seeds.max(1));
        plies += compare_game(&d, houses, seeds, &mut rng);
    }
    assert!(plies > 30_000, "only {plies} plies compared");
}
