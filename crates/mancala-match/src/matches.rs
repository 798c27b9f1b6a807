//! Bot-against-bot matches: many games in parallel, and their statistics.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use mancala_core::{Game, Outcome, Rules, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

use mancala_engine::{Limits, MAX_PLIES, PlayerError, Score, Searcher};

use crate::{Contestant, Seated};

/// What to play: two players, how many games, and how.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The rules of every game.
    pub rules: Rules,
    /// The player the statistics are about (`--p1`).
    pub p1: Contestant,
    /// Their opponent (`--p2`).
    pub p2: Contestant,
    /// Games to play.
    pub games: u32,
    /// Seeds the players and the openings.
    pub seed: u64,
    /// Play every odd-numbered game with the seats exchanged (`p1` moving second).
    pub swap: bool,
    /// Random plies played before the players take over, the same for both games of a
    /// swapped pair: variety for deterministic players (0 for none).
    pub opening_plies: u32,
    /// Balanced openings: redraw a random opening until a search of
    /// [`BALANCE_DEPTH`] plies scores it within this many seeds either way, so that
    /// no pair of games starts from a position one seat wins whoever sits there
    /// (`None`: take the first opening drawn).
    pub balanced: Option<u32>,
}

/// The depth of the search that judges whether an opening is balanced.
pub const BALANCE_DEPTH: u32 = 12;

/// Openings drawn at most per game pair; if none is balanced, the most balanced one
/// seen is played.
pub const BALANCE_TRIES: u32 = 200;

/// One finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's number, from 0.
    pub index: u32,
    /// Where `p1` sat.
    pub p1_side: Side,
    /// How it ended.
    pub outcome: Outcome,
    /// Plies played, the opening included.
    pub plies: usize,
    /// The side whose external engine failed (no legal move in time): it loses, and
    /// [`GameResult::outcome`] gives all the seeds to the other side.
    pub forfeit: Option<Side>,
}

impl GameResult {
    /// `p1`'s final score minus `p2`'s.
    #[must_use]
    pub fn p1_margin(&self) -> i32 {
        self.outcome.margin_for(self.p1_side)
    }

    /// `p1`'s points: 1 for a win, 1/2 for a draw, 0 for a loss.
    #[must_use]
    pub fn p1_points(&self) -> f64 {
        match self.p1_margin().signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }
    }
}

/// The statistics of a match, from `p1`'s point of view wherever it sat.
///
/// ```
/// use mancala_core::{Outcome, Side};
/// use mancala_match::{GameResult, MatchStats};
/// let game = |i, side, scores| GameResult {
///     index: i, p1_side: side, outcome: Outcome::from_scores(scores), plies: 30, forfeit: None,
/// };
/// let stats = MatchStats::from_results(vec![
///     game(0, Side::South, [30, 18]),
///     game(1, Side::North, [30, 18]),
///     game(2, Side::South, [24, 24]),
///     game(3, Side::North, [10, 38]),
/// ]);
/// assert_eq!((stats.p1_wins, stats.p2_wins, stats.draws), (2, 1, 1));
/// assert_eq!(stats.score_rate(), 0.625);
/// assert_eq!(stats.average_margin(), (12.0 - 12.0 + 0.0 + 28.0) / 4.0);
/// let (lo, hi) = stats.confidence_interval();
/// assert!(lo < 0.625 && 0.625 < hi);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Every game, in game order.
    pub results: Vec<GameResult>,
    /// Games `p1` won.
    pub p1_wins: u32,
    /// Games `p2` won.
    pub p2_wins: u32,
    /// Drawn games.
    pub draws: u32,
}

impl MatchStats {
    /// The statistics of these games.
    #[must_use]
    pub fn from_results(mut results: Vec<GameResult>) -> MatchStats {
        results.sort_by_key(|r| r.index);
        let mut s = MatchStats::default();
        for r in &results {
            match r.p1_margin().signum() {
                1 => s.p1_wins += 1,
                0 => s.draws += 1,
                _ => s.p2_wins += 1,
            }
        }
        s.results = results;
        s
    }

    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.results.len() as u32
    }

    /// `p1`'s points per game (a draw counts 1/2); 0.5 for an empty match.
    #[must_use]
    pub fn score_rate(&self) -> f64 {
        if self.results.is_empty() {
            return 0.5;
        }
        self.results.iter().map(GameResult::p1_points).sum::<f64>() / self.results.len() as f64
    }

    /// `p1`'s average final margin in seeds.
    #[must_use]
    pub fn average_margin(&self) -> f64 {
        if self.results.is_empty() {
            return 0.0;
        }
        self.results
            .iter()
            .map(|r| f64::from(r.p1_margin()))
            .sum::<f64>()
            / self.results.len() as f64
    }

    /// A 95% confidence interval for the score rate: the Wilson score interval, with a
    /// draw counted as half a win.
    ///
    /// Unlike the normal approximation, it never has zero width (three wins out of three
    /// still leave room for a weaker player: 43.9% to 100%) and it stays within 0..=1.
    /// An empty match says nothing: 0 to 1.
    ///
    /// ```
    /// use mancala_core::{Outcome, Side};
    /// use mancala_match::{GameResult, MatchStats};
    /// let win = |i| GameResult {
    ///     index: i, p1_side: Side::South, outcome: Outcome::from_scores([30, 18]),
    ///     plies: 30, forfeit: None,
    /// };
    /// let (lo, hi) = MatchStats::from_results((0..3).map(win).collect()).confidence_interval();
    /// assert!((lo - 0.4385).abs() < 1e-3 && hi == 1.0);
    /// ```
    #[must_use]
    pub fn confidence_interval(&self) -> (f64, f64) {
        const Z: f64 = 1.96;
        let n = self.results.len() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let p = self.score_rate();
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// How many games `p1` played as player 1 (moving first from the rules' start) and
    /// how many as player 2: with `--swap` and an odd number of games the halves differ.
    #[must_use]
    pub fn p1_seats(&self) -> (u32, u32) {
        let first = self
            .results
            .iter()
            .filter(|r| r.p1_side == Side::South)
            .count() as u32;
        (first, self.games() - first)
    }
}

/// A well-mixed seed for game `index`, stream `stream` of a match seeded with `seed`:
/// the match seeds its players (streams 1 and 2) and its openings (stream 3) this way,
/// so that a game can be replayed alone.
///
/// ```
/// use mancala_match::sub_seed;
/// assert_eq!(sub_seed(1, 0, 1), sub_seed(1, 0, 1));
/// assert_ne!(sub_seed(1, 0, 1), sub_seed(1, 0, 2));
/// ```
#[must_use]
pub fn sub_seed(seed: u64, index: u32, stream: u64) -> u64 {
    let mut x = seed ^ (u64::from(index) << 8 | stream).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ x >> 29
}

/// The opening of game pair `pair`: `opening_plies` random plies, redrawn until
/// balanced when the match asks for it.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_engine::{Score, Searcher, Limits};
/// use mancala_match::{opening, MatchConfig, BALANCE_DEPTH};
/// let config = MatchConfig {
///     rules: Rules::kalah(6, 4),
///     p1: "greedy".parse().unwrap(),
///     p2: "random".parse().unwrap(),
///     games: 2,
///     seed: 1,
///     swap: true,
///     opening_plies: 4,
///     balanced: Some(1),
/// };
/// let game = opening(&config, 0);
/// assert_eq!(game.ply(), 4);
/// let r = Searcher::new(1).search(&game, Limits::depth(BALANCE_DEPTH));
/// assert!(r.score.raw().abs() <= Score::SEED);
/// ```
#[must_use]
pub fn opening(config: &MatchConfig, pair: u32) -> Game {
    opening_from(config, &Game::new(config.rules), pair)
}

/// The opening of game pair `pair` as [`opening`] draws it, but from `start` (a
/// position, or the end of a recorded game) instead of the rules' start.
#[must_use]
pub fn opening_from(config: &MatchConfig, start: &Game, pair: u32) -> Game {
    let mut rng = SmallRng::seed_from_u64(sub_seed(config.seed, pair, 3));
    let draw = |rng: &mut SmallRng| {
        let mut game = start.clone();
        for _ in 0..config.opening_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            game.play(mv).expect("a legal move");
        }
        game
    };
    let Some(margin) = config.balanced else {
        return draw(&mut rng);
    };
    let limit = i32::try_from(margin)
        .unwrap_or(i32::MAX / Score::SEED)
        .saturating_mul(Score::SEED);
    let mut searcher = Searcher::new(1);
    let mut best: Option<(i32, Game)> = None;
    for _ in 0..BALANCE_TRIES {
        let game = draw(&mut rng);
        if game.is_over() {
            continue;
        }
        searcher.clear();
        let value = searcher
            .search(&game, Limits::depth(BALANCE_DEPTH))
            .score
            .raw()
            .abs();
        if value <= limit {
            return game;
        }
        if best.as_ref().is_none_or(|(v, _)| value < *v) {
            best = Some((value, game));
        }
    }
    best.map_or_else(|| draw(&mut rng), |(_, game)| game)
}

/// Plays game `index` of the match.
///
/// # Errors
/// When a player cannot be built (unknown name, bad option, wrong variant, human).
pub fn play_match_game(config: &MatchConfig, index: u32) -> Result<GameResult, PlayerError> {
    play_match_game_from(config, &Game::new(config.rules), index).map(|played| played.result)
}

/// One game of a match, whole.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// How it ended.
    pub result: GameResult,
    /// The game from the match's start, as far as it was played.
    pub game: Game,
    /// Why an external engine lost by forfeit, naming it.
    pub forfeit: Option<String>,
}

/// How many of `games` repeat an earlier one move for move with `p1` in the same seat:
/// deterministic players (`greedy`, the searches at a fixed depth) from the same start
/// play the same game again, and a match of copies measures one game, not many.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_match::{MatchConfig, play_match_game_from, repeated_games};
/// let config = MatchConfig {
///     rules: Rules::kalah(4, 3), p1: "greedy".parse().unwrap(), p2: "greedy".parse().unwrap(),
///     games: 3, seed: 1, swap: false, opening_plies: 0, balanced: None,
/// };
/// let start = mancala_core::Game::new(config.rules);
/// let games: Vec<_> = (0..3).map(|i| play_match_game_from(&config, &start, i).unwrap()).collect();
/// assert_eq!(repeated_games(&games), 2);
/// ```
#[must_use]
pub fn repeated_games(games: &[MatchGame]) -> u32 {
    let mut seen = std::collections::HashSet::new();
    games
        .iter()
        .filter(|g| !seen.insert((g.result.p1_side, g.game.moves())))
        .count() as u32
}

/// Plays game `index` of the match from `start` (a position, or the end of a recorded
/// game) instead of the rules' start, and returns the game with its result, so that it
/// can be written down. From the rules' start it is exactly [`play_match_game`]'s game.
///
/// An external engine that fails during the game (no legal move in time, a garbled
/// reply, an exit) loses it by forfeit: see [`GameResult::forfeit`] and
/// [`MatchGame::forfeit`].
///
/// # Errors
/// When a player cannot be built or an external engine started, or one of the suite's
/// players plays an illegal move.
pub fn play_match_game_from(
    config: &MatchConfig,
    start: &Game,
    index: u32,
) -> Result<MatchGame, PlayerError> {
    let p1_side = if config.swap && index % 2 == 1 {
        Side::North
    } else {
        Side::South
    };
    let mut p1 = config
        .p1
        .seat(config.rules, sub_seed(config.seed, index, 1))?;
    let mut p2 = config
        .p2
        .seat(config.rules, sub_seed(config.seed, index, 2))?;
    let pair = if config.swap { index / 2 } else { index };
    let mut game = opening_from(config, start, pair);
    let mut forfeit = None;
    while !game.is_over() && game.ply() < MAX_PLIES {
        let side = game.position().to_move();
        let player = if side == p1_side { &mut p1 } else { &mut p2 };
        match player.choose(&game) {
            Ok(choice) => {
                game.play(choice.mv).map_err(|e| PlayerError::Option {
                    player: player.name(),
                    message: format!("played an illegal move {}: {e}", choice.mv),
                })?;
            }
            Err(e) => {
                forfeit = Some((side, format!("{} forfeits: {e}", player.name())));
                break;
            }
        }
    }
    let outcome = match forfeit {
        Some((loser, _)) => forfeit_outcome(&game, loser),
        None => game
            .outcome()
            .unwrap_or_else(|| Outcome::from_scores(game.position().final_scores())),
    };
    let result = GameResult {
        index,
        p1_side,
        outcome,
        plies: game.ply(),
        forfeit: forfeit.as_ref().map(|(side, _)| *side),
    };
    Ok(MatchGame {
        result,
        game,
        forfeit: forfeit.map(|(_, why)| why),
    })
}

/// A loss for `loser` that no board could give: every seed to the other side.
fn forfeit_outcome(game: &Game, loser: Side) -> Outcome {
    let total = game.rules().total_seeds();
    let mut scores = [total, total];
    scores[loser.index()] = 0;
    Outcome::from_scores(scores)
}

/// Both players of a match seated once, before its games: an error if either cannot be
/// (a person, a bad option, an engine that does not start), and otherwise each given
/// up to [`PREPARE_WITHIN`] for what it builds in the background (an endgame table), so
/// that the first games measure the same player as the last. Hold them while the games
/// are played: what they built stays for the games' players to share.
///
/// # Errors
/// A [`PlayerError`] for the first player that cannot be seated.
pub fn ready_players(config: &MatchConfig) -> Result<[Seated; 2], PlayerError> {
    let seat = |spec: &Contestant| {
        if spec.is_human() {
            return Err(PlayerError::Option {
                player: spec.to_string(),
                message: "a match is between computer players".to_owned(),
            });
        }
        let mut seated = spec.seat(config.rules, config.seed)?;
        // Not ready in time: the games start anyway, the player weaker at first.
        seated.prepare(PREPARE_WITHIN);
        Ok(seated)
    };
    Ok([seat(&config.p1)?, seat(&config.p2)?])
}

/// How long [`ready_players`] waits for each player's background work (a 16-seed
/// Kalah table takes a few seconds on two cores; far longer means something is wrong,
/// and the match goes on without it).
pub const PREPARE_WITHIN: Duration = Duration::from_secs(120);

/// Plays the match: all games in parallel on rayon's thread pool (all cores), calling
/// `progress` with each finished game and the number finished so far.
///
/// # Errors
/// When a player cannot be built; checked before any game starts.
///
/// ```
/// use mancala_core::Rules;
/// use mancala_match::{run_match, MatchConfig};
/// let config = MatchConfig {
///     rules: Rules::kalah(6, 4),
///     p1: "greedy".parse().unwrap(),
///     p2: "random".parse().unwrap(),
///     games: 20,
///     seed: 1,
///     swap: true,
///     opening_plies: 0,
///     balanced: None,
/// };
/// let stats = run_match(&config, |_, _| {}).unwrap();
/// assert_eq!(stats.games(), 20);
/// assert!(stats.score_rate() > 0.5);
/// ```
pub fn run_match<F>(config: &MatchConfig, progress: F) -> Result<MatchStats, PlayerError>
where
    F: Fn(&GameResult, u32) + Sync,
{
    let ready = ready_players(config)?;
    let done = AtomicU32::new(0);
    let results = (0..config.games)
        .into_par_iter()
        .map(|i| {
            let r = play_match_game(config, i)?;
            progress(&r, done.fetch_add(1, Ordering::Relaxed) + 1);
            Ok(r)
        })
        .collect::<Result<Vec<_>, PlayerError>>()?;
    drop(ready);
    Ok(MatchStats::from_results(results))
}
