//! `mancala bench accuracy` and `mancala bench threads`: figures behind the strength
//! tables of docs/ladder.md, as JSON lines (scripts/strength.sh runs them).

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use mancala_core::{Game, Position, Rules};
use mancala_engine::{Limits, Mcts, MctsLimits, PlayerSpec, Searcher};
use mancala_match::PREPARE_WITHIN;
use mancala_solver::{SolveConfig, Solver};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use mancala_cli::RulesArgs;

/// Arguments of `mancala bench accuracy`.
#[derive(Args, Debug)]
pub struct AccuracyArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Positions to test, each drawn by random moves from the start until at most
    /// --max-seeds seeds are in play (with at least two legal moves)
    #[arg(long, default_value_t = 300)]
    positions: u32,
    /// The most seeds in play in a position
    #[arg(long, default_value_t = 20)]
    max_seeds: u16,
    /// Seed of the random moves
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The players to test (each a player spec)
    #[arg(required = true, value_name = "SPEC")]
    players: Vec<PlayerSpec>,
}

/// Arguments of `mancala bench threads`.
#[derive(Args, Debug)]
pub struct ThreadsArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Threads of the parallel search
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Time per search, in milliseconds
    #[arg(long, default_value_t = 500)]
    ms: u64,
    /// Positions searched, each after 8 random plies from the start
    #[arg(long, default_value_t = 20)]
    positions: u32,
}

#[derive(Serialize)]
struct AccuracyFigures {
    player: String,
    positions: usize,
    /// Moves that keep the position's exact value (the final margin).
    exact: usize,
    share: f64,
    /// Moves that keep the position's result (win, draw or loss), if not its margin:
    /// a search that has proven a win plays a winning move, not always the largest.
    result_kept: usize,
    result_share: f64,
    seconds: f64,
}

#[derive(Serialize)]
struct ThreadFigures {
    search: &'static str,
    threads: usize,
    /// Nodes (alpha-beta) or simulations (MCTS) a second, all threads together.
    per_sec: f64,
    /// Alpha-beta: the average depth completed.
    depth: f64,
}

/// A position with at most `max_seeds` in play and two legal moves or more, by random
/// moves from the start; `None` when a game ends first.
fn small_position(rules: Rules, max_seeds: u16, rng: &mut SmallRng) -> Option<Position> {
    let mut pos = Position::new(rules);
    while !pos.is_over() {
        let moves = pos.legal_moves();
        if pos.seeds_in_play() <= max_seeds && moves.len() >= 2 {
            return Some(pos);
        }
        pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    None
}

/// How often each player's move keeps the exact value of small positions.
pub fn accuracy(args: &AccuracyArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut solver = Solver::new(SolveConfig::default());
    let mut tests = Vec::new();
    while tests.len() < args.positions as usize {
        let Some(pos) = small_position(rules, args.max_seeds, &mut rng) else {
            continue;
        };
        let game = Game::from_position(pos);
        let solution = solver.solve(&game)?;
        tests.push((game, solution));
    }
    for spec in &args.players {
        // Measures the player it becomes: its endgame table built first (and kept
        // alive by `ready` for the players below to share), not timed.
        let mut ready = spec.build(rules, args.seed)?;
        if !ready.prepare(PREPARE_WITHIN) {
            eprintln!("{spec}: not ready after {PREPARE_WITHIN:?}, measured as it is");
        }
        let start = Instant::now();
        let (mut exact, mut result_kept) = (0, 0);
        for (game, solution) in &tests {
            let mut player = spec.build(rules, args.seed)?;
            let mv = player.choose(game).mv;
            let value = solution.value_of(mv);
            exact += usize::from(value == Some(solution.value));
            result_kept += usize::from(value.map(i32::signum) == Some(solution.value.signum()));
        }
        let figures = AccuracyFigures {
            player: spec.to_string(),
            positions: tests.len(),
            exact,
            share: exact as f64 / tests.len() as f64,
            result_kept,
            result_share: result_kept as f64 / tests.len() as f64,
            seconds: start.elapsed().as_secs_f64(),
        };
        serde_json::to_writer(&mut *out, &figures)?;
        writeln!(out)?;
    }
    Ok(())
}

/// Nodes (alpha-beta) and simulations (MCTS) a second on one thread and on several.
pub fn threads(args: &ThreadsArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut games = Vec::new();
    while games.len() < args.positions as usize {
        let mut game = Game::new(rules);
        for _ in 0..8 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())])?;
        }
        if !game.is_over() {
            games.push(game);
        }
    }
    let time = Duration::from_millis(args.ms);
    for threads in [1, args.threads] {
        let (mut nodes, mut depth, mut secs) = (0u64, 0u64, 0f64);
        for game in &games {
            let r = Searcher::new(16).search_threads(game, Limits::time(time), threads);
            nodes += r.nodes;
            depth += u64::from(r.depth);
            secs += r.elapsed.as_secs_f64();
        }
        let figures = ThreadFigures {
            search: "alphabeta",
            threads,
            per_sec: nodes as f64 / secs,
            depth: depth as f64 / games.len() as f64,
        };
        serde_json::to_writer(&mut *out, &figures)?;
        writeln!(out)?;
        let (mut sims, start) = (0u64, Instant::now());
        for game in &games {
            let limits = MctsLimits {
                sims: None,
                time: Some(time),
            };
            sims += Mcts::new(limits, 1)
                .with_threads(threads)
                .search(game.position())
                .1;
        }
        let figures = ThreadFigures {
            search: "mcts",
            threads,
            per_sec: sims as f64 / start.elapsed().as_secs_f64(),
            depth: 0.0,
        };
        serde_json::to_writer(&mut *out, &figures)?;
        writeln!(out)?;
    }
    Ok(())
}
