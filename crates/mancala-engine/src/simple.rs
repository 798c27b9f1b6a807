//! The simple bots: random, fewest, most, the best-move-first robot, and greedy.

use mancala_core::{Game, Move, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::{Choice, Player};

/// Plays a uniformly random legal move. Seeded, so a game can be reproduced.
///
/// ```
/// use mancala_core::{Game, Rules};
/// use mancala_engine::{Player, RandomPlayer};
/// let game = Game::new(Rules::oware(6, 4));
/// let a = RandomPlayer::new(3).choose(&game);
/// let b = RandomPlayer::new(3).choose(&game);
/// assert_eq!(a, b);
/// ```
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    seed: u64,
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player with this seed.
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            seed,
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        format!("random(seed={})", self.seed)
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let moves = game.legal_moves();
        Choice::new(moves[self.rng.random_range(0..moves.len())])
    }
}

/// Picks, among the legal moves, one whose house holds the fewest (or most) seeds;
/// ties are broken at random.
fn pick_by_count(game: &Game, rng: &mut SmallRng, prefer_fewer: bool) -> Move {
    let p = game.position();
    let me = p.to_move();
    let moves = game.legal_moves();
    let key = |mv: &Move| {
        let n = p.seeds(me, *mv);
        if prefer_fewer { n } else { u16::MAX - n }
    };
    let best = moves
        .iter()
        .map(key)
        .min()
        .expect("a game in progress has a move");
    let ties: Vec<Move> = moves.iter().copied().filter(|m| key(m) == best).collect();
    ties[rng.random_range(0..ties.len())]
}

/// Sows the legal house with the fewest seeds (the Oware assignment's bot).
///
/// ```
/// use mancala_core::{Game, Move, Rules};
/// use mancala_engine::{Fewest, Player};
/// let mut game = Game::new(Rules::oware(6, 4));
/// game.play(Move::new(1).unwrap()).unwrap();
/// game.play(Move::new(1).unwrap()).unwrap();
/// // Player 1's houses are now 0, 5, 5, 5, 5, 4 (player 2's sowing stayed on its own
/// // row): the fewest among the legal moves is house 6.
/// assert_eq!(Fewest::new(0).choose(&game).mv.house(), 6);
/// ```
#[derive(Clone, Debug)]
pub struct Fewest {
    rng: SmallRng,
}

impl Fewest {
    /// The bot, with a seed for breaking ties.
    #[must_use]
    pub fn new(seed: u64) -> Fewest {
        Fewest {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for Fewest {
    fn name(&self) -> String {
        "fewest".into()
    }

    fn choose(&mut self, game: &Game) -> Choice {
        Choice::new(pick_by_count(game, &mut self.rng, true))
    }
}

/// Sows the legal house with the most seeds (the Oware assignment's bot).
#[derive(Clone, Debug)]
pub struct Most {
    rng: SmallRng,
}

impl Most {
    /// The bot, with a seed for breaking ties.
    #[must_use]
    pub fn new(seed: u64) -> Most {
        Most {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for Most {
    fn name(&self) -> String {
        "most".into()
    }

    fn choose(&mut self, game: &Game) -> Choice {
        Choice::new(pick_by_count(game, &mut self.rng, false))
    }
}

/// The classic best-move-first robot of the Auckland Kalah assignment (Kalah only).
///
/// In priority order, lowest-numbered house first: a move that leads to an extra move,
/// then one that leads to a capture (taking seeds from a non-empty opposite house),
/// then the first legal move. Its [`Choice::reason`] is the wording of the
/// specifications: `leads to an extra move`, `leads to a capture`,
/// `is the first legal move`.
#[derive(Clone, Copy, Debug)]
pub struct Robot;

impl Player for Robot {
    fn name(&self) -> String {
        "robot".into()
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let p = *game.position();
        let moves = game.legal_moves();
        let reports: Vec<_> = moves
            .iter()
            .map(|&mv| (mv, p.play_with_report(mv).expect("legal move").1))
            .collect();
        let pick = |mv: Move, reason: &str| Choice {
            mv,
            reason: Some(reason.to_owned()),
        };
        if let Some(&(mv, _)) = reports.iter().find(|(_, r)| r.ended_in_store) {
            return pick(mv, "leads to an extra move");
        }
        // A capture takes the opponent's seeds: more than the capturing seed itself.
        if let Some(&(mv, _)) = reports.iter().find(|(_, r)| r.captured > 1) {
            return pick(mv, "leads to a capture");
        }
        pick(moves[0], "is the first legal move")
    }
}

/// Plays the move that gains the most seeds this turn (store or captures), following
/// the mover's extra turns; ties go to the lowest-numbered house.
///
/// ```
/// use mancala_core::{Game, Rules};
/// use mancala_engine::{Greedy, Player};
/// // From the Kalah start, house 3 reaches the store and house 6 then banks one more
/// // seed: two seeds, more than any single move.
/// let game = Game::new(Rules::kalah(6, 4));
/// assert_eq!(Greedy.choose(&game).mv.house(), 3);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Greedy;

/// How many moves of one turn (a chain of extra turns) greedy looks through.
const GREEDY_CHAIN_LIMIT: u32 = 6;

/// The most `p`'s mover can bank in the rest of this turn, and the move that does it.
fn best_gain(p: &Position, depth: u32) -> (u16, Option<Move>) {
    let me = p.to_move();
    let mut best = (0, None);
    for mv in p.legal_moves() {
        let mut next = *p;
        next.play_unchecked(mv);
        let mut gain = next.store(me) - p.store(me);
        if depth > 1 && !next.is_over() && next.to_move() == me {
            gain += best_gain(&next, depth - 1).0;
        }
        if best.1.is_none() || gain > best.0 {
            best = (gain, Some(mv));
        }
    }
    best
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let (_, mv) = best_gain(game.position(), GREEDY_CHAIN_LIMIT);
        Choice::new(mv.expect("a game in progress has a move"))
    }
}
