//! The games of `mancala match`, kept whole: played from any start (the rules' start,
//! a position, or the end of a recorded game), so that they can be written as records.
//!
//! Each game is the engine's (`play_match_game_from`), so from the rules' start these
//! are exactly the games of [`run_match`](mancala_match::run_match): same openings,
//! same player seeds, hence the same statistics (a test checks it).

use mancala_core::{Game, Side};
use mancala_engine::{MAX_PLIES, PlayerError};
use mancala_match::{MatchConfig, MatchGame, play_match_game_from};
use mancala_session::{Record, Seat};
use rayon::prelude::*;

/// One game of a match, whole.
pub type PlayedGame = MatchGame;

/// Plays every game of the match from `start`, in parallel, calling `progress` after
/// each; the games in game order. The players must have been checked and prepared
/// (`mancala_match::ready_players`).
///
/// # Errors
/// When a player cannot be built or plays an illegal move.
pub fn play_games<F>(
    config: &MatchConfig,
    start: &Game,
    progress: F,
) -> Result<Vec<PlayedGame>, PlayerError>
where
    F: Fn() + Sync,
{
    (0..config.games)
        .into_par_iter()
        .map(|i| {
            let played = play_match_game_from(config, start, i)?;
            progress();
            Ok(played)
        })
        .collect()
}

/// The record of a game of the match: the players by their specs, the event and the
/// round (the game's number from 1), and a comment if it was stopped unfinished.
///
/// # Panics
/// If a player is an external engine, which a record has no seat for (the match
/// command refuses `--records` with one).
pub fn record_of(config: &MatchConfig, played: &PlayedGame) -> Record {
    let specs = match played.result.p1_side {
        Side::South => [&config.p1, &config.p2],
        Side::North => [&config.p2, &config.p1],
    };
    let mut record = Record::new(played.game.clone())
        .with_names(specs.map(ToString::to_string))
        .with_seats(
            specs.map(|s| Seat::from(s.spec().expect("no records with external engines").clone())),
        )
        .with_tag("Event", "mancala match")
        .expect("a free tag name")
        .with_tag("Round", (played.result.index + 1).to_string())
        .expect("a free tag name");
    if !played.game.is_over() {
        let text = format!("stopped after {MAX_PLIES} plies");
        record = record
            .with_comment(played.game.ply(), &text)
            .expect("a comment without braces");
    }
    record
}

#[cfg(test)]
mod tests {
    use mancala_core::Rules;
    use mancala_match::{MatchStats, run_match};

    use super::*;

    fn config(rules: Rules, swap: bool, opening_plies: u32, balanced: Option<u32>) -> MatchConfig {
        MatchConfig {
            rules,
            p1: "greedy".parse().unwrap(),
            p2: "random".parse().unwrap(),
            games: 6,
            seed: 7,
            swap,
            opening_plies,
            balanced,
        }
    }

    /// From the rules' start, the games are the engine's: the same results in order.
    #[test]
    fn the_games_from_the_start_are_the_engines() {
        for c in [
            config(Rules::kalah(6, 4), false, 0, None),
            config(Rules::kalah(4, 3), true, 4, None),
            config(Rules::oware(6, 4), true, 2, Some(2)),
            config(Rules::oware_simplified(3, 3), true, 3, None),
        ] {
            let engine = run_match(&c, |_, _| {}).unwrap();
            let played = play_games(&c, &Game::new(c.rules), || {}).unwrap();
            let ours = MatchStats::from_results(played.iter().map(|p| p.result).collect());
            assert_eq!(ours, engine, "{}", c.rules);
            for p in &played {
                assert_eq!(p.game.ply(), p.result.plies);
            }
        }
    }

    #[test]
    fn a_record_names_the_players_by_their_seats() {
        let c = config(Rules::kalah(3, 2), true, 0, None);
        let played = play_games(&c, &Game::new(c.rules), || {}).unwrap();
        let second = record_of(&c, &played[1]);
        assert_eq!(second.names(), &["random", "greedy"]);
        assert_eq!(second.tags()[1], ("Round".to_owned(), "2".to_owned()));
        assert_eq!(second.game(), &played[1].game);
    }
}
