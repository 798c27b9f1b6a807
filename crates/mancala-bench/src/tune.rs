//! `mancala bench tune`: fits the evaluation's weights to the results of self-play
//! games, by logistic regression of each position's result on its terms.

use std::io::Write;

use clap::Args;
use mancala_core::{Game, Move, Side};
use mancala_engine::{Limits, MAX_PLIES, Searcher, features};
use nalgebra::{SMatrix, SVector};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

use mancala_cli::RulesArgs;

/// The evaluation's terms, in the order of `features`.
const TERMS: [&str; N] = ["store", "row", "mobility", "reach", "threat", "claim"];

/// How many terms the evaluation has.
const N: usize = 6;

type Vector = SVector<f64, N>;
type Matrix = SMatrix<f64, N, N>;

/// Only the store term: the model the fit is compared with.
const STORE_ONLY: [bool; N] = {
    let mut used = [false; N];
    used[0] = true;
    used
};

/// Arguments of `mancala bench tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Self-play games
    #[arg(long, default_value_t = 2000)]
    games: u32,
    /// Plies each move of the self-play games searches
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Random plies at the start of each game (for variety; their positions are not used)
    #[arg(long, default_value_t = 8)]
    opening_plies: u32,
    /// Units of the store weight: the other weights are given on the same scale
    #[arg(long, default_value_t = 4)]
    store: i32,
    /// Seed of the random openings
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A position's terms for its player to move, and that player's result (1 a win, 0.5
/// a draw, 0 a loss).
struct Sample {
    terms: [f64; N],
    result: f64,
}

#[derive(Serialize)]
struct Tuned {
    games: u32,
    positions: usize,
    /// Logistic coefficients per unit of each term.
    coefficients: Vec<(String, f64)>,
    /// The weights, on the scale of `store` units per store seed.
    weights: Vec<(String, i32)>,
    /// The same as player options, e.g. for `alphabeta:`.
    spec: String,
    /// Mean log-loss of the fitted model, and of the store term alone fitted.
    log_loss: f64,
    log_loss_store_only: f64,
}

pub fn tune(args: &TuneArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let samples: Vec<Sample> = (0..args.games)
        .into_par_iter()
        .flat_map_iter(|i| self_play(rules, args, i))
        .collect();
    anyhow::ensure!(!samples.is_empty(), "the games gave no positions to fit");
    let all = fit(&samples, &[true; N]);
    let store_only = fit(&samples, &STORE_ONLY);
    anyhow::ensure!(all[0] > 0.0, "the store term did not come out positive");
    let scale = f64::from(args.store) / all[0];
    let weights: Vec<(String, i32)> = TERMS
        .iter()
        .zip(&all)
        .map(|(t, w)| ((*t).to_owned(), (w * scale).round() as i32))
        .collect();
    let spec = weights
        .iter()
        .map(|(t, w)| format!("{t}={w}"))
        .collect::<Vec<_>>()
        .join(",");
    let tuned = Tuned {
        games: args.games,
        positions: samples.len(),
        coefficients: TERMS.iter().map(|t| (*t).to_owned()).zip(all).collect(),
        weights,
        spec,
        log_loss: log_loss(&samples, &all),
        log_loss_store_only: log_loss(&samples, &store_only),
    };
    serde_json::to_writer(&mut *out, &tuned)?;
    writeln!(out)?;
    Ok(())
}

/// One self-play game: random opening plies, then a fixed-depth search for each move;
/// every position after the opening, labelled with the result.
fn self_play(rules: mancala_core::Rules, args: &TuneArgs, index: u32) -> Vec<Sample> {
    let mut rng = SmallRng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9) ^ u64::from(index));
    let mut searcher = Searcher::new(1);
    let mut game = Game::new(rules);
    let mut seen: Vec<([f64; N], Side)> = Vec::new();
    while !game.is_over() && game.ply() < MAX_PLIES {
        let moves = game.legal_moves();
        let mv: Move = if game.ply() < args.opening_plies as usize {
            moves[rng.random_range(0..moves.len())]
        } else {
            let pos = game.position();
            seen.push((features(pos).map(f64::from), pos.to_move()));
            searcher.search(&game, Limits::depth(args.depth)).best
        };
        game.play(mv).expect("legal");
    }
    let Some(outcome) = game.outcome() else {
        return Vec::new();
    };
    seen.into_iter()
        .map(|(terms, side)| Sample {
            terms,
            result: match outcome.winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            },
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn predict(s: &Sample, w: &[f64; N]) -> f64 {
    sigmoid(s.terms.iter().zip(w).map(|(x, w)| x * w).sum())
}

fn log_loss(samples: &[Sample], w: &[f64; N]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = predict(s, w).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    sum / samples.len() as f64
}

/// Logistic regression without an intercept (the evaluation is antisymmetric: a
/// position scores for one player what it scores against the other), by Newton's
/// method with a little ridge, over the terms `used` (the others keep weight 0).
fn fit(samples: &[Sample], used: &[bool; N]) -> [f64; N] {
    let mask = Vector::from_fn(|i, _| f64::from(u8::from(used[i])));
    let mut w = Vector::zeros();
    for _ in 0..25 {
        let mut grad = Vector::zeros();
        let mut hess = Matrix::identity() * (1e-6 * samples.len() as f64);
        for s in samples {
            let x = Vector::from(s.terms).component_mul(&mask);
            let p = sigmoid(w.dot(&x));
            grad += x * (p - s.result);
            hess += x * x.transpose() * (p * (1.0 - p));
        }
        // An unused term's row and column are zero but for the ridge: its step is 0.
        let Some(step) = hess.cholesky().map(|c| c.solve(&grad)) else {
            break;
        };
        w -= step;
        if step.amax() < 1e-9 {
            break;
        }
    }
    w.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results drawn from a known logistic model come back out of the fit.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = [0.8, 0.2, 0.0, -0.3, 0.5, 0.4];
        let mut rng = SmallRng::seed_from_u64(3);
        let samples: Vec<Sample> = (0..20_000)
            .map(|_| {
                let terms = [(); N].map(|()| f64::from(rng.random_range(-6..=6)));
                let p = sigmoid(terms.iter().zip(&truth).map(|(x, w)| x * w).sum());
                let result = f64::from(u8::from(rng.random_bool(p)));
                Sample { terms, result }
            })
            .collect();
        let w = fit(&samples, &[true; N]);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.05, "{w:?} against {truth:?}");
        }
        let store_only = fit(&samples, &STORE_ONLY);
        assert_eq!(store_only[1..], [0.0; N - 1]);
        assert!(log_loss(&samples, &w) < log_loss(&samples, &store_only));
    }
}
