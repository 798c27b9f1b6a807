//! Computer players kept between their moves, one per game.
//!
//! A search player's table and the `perfect` player's solved positions are worth most
//! on the next move of the same game: building the player afresh for every move throws
//! them away (and `perfect` then solves the same endgame again). So after a computer
//! move its player is kept, under the game's id, until it moves again in that game.
//!
//! Kept players hold memory while nobody is thinking, so they have a budget of their
//! own (`mancala serve --keep-players-mb`), separate from the budget of the players
//! thinking: the least recently used go first when it is full, and any left idle for
//! [`KEEP_IDLE`] go when another is kept. A thinking player always counts against the
//! thinking budget, kept or new, so keeping players never lets thinking use more.
//!
//! A kept player is per instance: with several instances, a game whose computer turn
//! moves to another instance builds a player there, which is only slower.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use lru::LruCache;
use mancala_core::Rules;
use mancala_engine::{Player, PlayerSpec};

/// How long a kept player may wait for its game's next move: a person who leaves a
/// game for longer gets a player built afresh when they come back.
pub const KEEP_IDLE: Duration = Duration::from_secs(15 * 60);

/// One kept player and what it was built for.
struct Kept {
    spec: PlayerSpec,
    rules: Rules,
    player: Box<dyn Player>,
    memory_mb: usize,
    since: Instant,
}

/// The players kept between moves, by game id, within a memory budget.
pub(crate) struct KeptPlayers {
    budget_mb: usize,
    idle: Duration,
    inner: Mutex<Shelf>,
}

/// The kept players in order of use, and the MiB they hold.
struct Shelf {
    players: LruCache<String, Kept>,
    memory_mb: usize,
    /// Moves played by a kept player rather than a new one (for tests and monitoring).
    reused: u64,
}

/// What the kept players hold now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeptStats {
    /// Players kept now.
    pub players: usize,
    /// MiB they hold.
    pub memory_mb: usize,
    /// Computer moves made by a kept player so far.
    pub reused: u64,
}

impl KeptPlayers {
    /// Keeps players holding at most `budget_mb` MiB in all, each for at most `idle`.
    pub(crate) fn new(budget_mb: usize, idle: Duration) -> KeptPlayers {
        KeptPlayers {
            budget_mb,
            idle,
            inner: Mutex::new(Shelf {
                players: LruCache::unbounded(),
                memory_mb: 0,
                reused: 0,
            }),
        }
    }

    fn shelf(&self) -> std::sync::MutexGuard<'_, Shelf> {
        // Every critical section leaves the shelf consistent.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes game `game`'s kept player if it was built from `spec` for `rules` (a game
    /// stored under other bounds, or a rematch under the same id, builds a new one).
    pub(crate) fn take(
        &self,
        game: &str,
        spec: &PlayerSpec,
        rules: Rules,
    ) -> Option<Box<dyn Player>> {
        let mut shelf = self.shelf();
        let kept = shelf.players.pop(game)?;
        shelf.memory_mb -= kept.memory_mb;
        if kept.spec == *spec && kept.rules == rules && kept.since.elapsed() < self.idle {
            shelf.reused += 1;
            Some(kept.player)
        } else {
            drop(shelf);
            None
        }
    }

    /// Keeps `player`, built from `spec` for `rules` and holding `memory_mb` MiB, for
    /// game `game`'s next computer move. Players past their idle time, then the least
    /// recently used, make room; a player bigger than the whole budget is not kept.
    /// Players let go are dropped after the shelf is unlocked, on the calling thread
    /// (a thinker's, not the async runtime's).
    pub(crate) fn keep(
        &self,
        game: &str,
        spec: PlayerSpec,
        rules: Rules,
        player: Box<dyn Player>,
        memory_mb: usize,
    ) {
        // A budget of 0 keeps nothing, not even the players that hold no tables.
        if self.budget_mb == 0 || memory_mb > self.budget_mb {
            return;
        }
        let mut dropped = Vec::new();
        let mut shelf = self.shelf();
        if let Some(old) = shelf.players.pop(game) {
            shelf.memory_mb -= old.memory_mb;
            dropped.push(old);
        }
        while let Some((_, oldest)) = shelf.players.peek_lru() {
            let stale = oldest.since.elapsed() >= self.idle;
            if !stale && shelf.memory_mb + memory_mb <= self.budget_mb {
                break;
            }
            let (_, old) = shelf.players.pop_lru().expect("peeked");
            shelf.memory_mb -= old.memory_mb;
            dropped.push(old);
        }
        shelf.memory_mb += memory_mb;
        shelf.players.put(
            game.to_owned(),
            Kept {
                spec,
                rules,
                player,
                memory_mb,
                since: Instant::now(),
            },
        );
        drop(shelf);
        drop(dropped);
    }

    /// Lets go of game `game`'s player (the game ended or expired).
    pub(crate) fn forget(&self, game: &str) {
        let mut shelf = self.shelf();
        if let Some(old) = shelf.players.pop(game) {
            shelf.memory_mb -= old.memory_mb;
            drop(shelf);
            drop(old);
        }
    }

    /// What is kept now.
    pub(crate) fn stats(&self) -> KeptStats {
        let shelf = self.shelf();
        KeptStats {
            players: shelf.players.len(),
            memory_mb: shelf.memory_mb,
            reused: shelf.reused,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::Game;
    use mancala_engine::Choice;

    /// A player that counts its moves, to tell a kept player from a new one.
    struct Counter(u32);

    impl Player for Counter {
        fn name(&self) -> String {
            format!("counter({})", self.0)
        }
        fn choose(&mut self, game: &Game) -> Choice {
            self.0 += 1;
            Choice::new(game.legal_moves()[0])
        }
    }

    fn spec(s: &str) -> PlayerSpec {
        s.parse().unwrap()
    }

    fn rules() -> Rules {
        Rules::kalah(6, 4)
    }

    fn moves_of(player: Option<Box<dyn Player>>) -> Option<String> {
        player.map(|p| p.name())
    }

    #[test]
    fn a_kept_player_comes_back_for_its_game_only() {
        let kept = KeptPlayers::new(100, KEEP_IDLE);
        kept.keep("a", spec("greedy"), rules(), Box::new(Counter(3)), 10);
        assert_eq!(moves_of(kept.take("b", &spec("greedy"), rules())), None);
        assert_eq!(
            moves_of(kept.take("a", &spec("greedy"), rules())).as_deref(),
            Some("counter(3)")
        );
        // Taken means gone until kept again.
        assert_eq!(moves_of(kept.take("a", &spec("greedy"), rules())), None);
        assert_eq!(kept.stats().reused, 1);
        assert_eq!(kept.stats().memory_mb, 0);
    }

    #[test]
    fn a_player_built_from_another_spec_or_rules_is_not_reused() {
        let kept = KeptPlayers::new(100, KEEP_IDLE);
        kept.keep("a", spec("greedy"), rules(), Box::new(Counter(1)), 10);
        assert!(kept.take("a", &spec("robot"), rules()).is_none());
        kept.keep("a", spec("greedy"), rules(), Box::new(Counter(1)), 10);
        assert!(
            kept.take("a", &spec("greedy"), Rules::kalah(4, 4))
                .is_none()
        );
        assert_eq!(kept.stats(), KeptStats::default());
    }

    #[test]
    fn the_least_recently_used_make_room_within_the_budget() {
        let kept = KeptPlayers::new(30, KEEP_IDLE);
        for (i, game) in ["a", "b", "c"].into_iter().enumerate() {
            kept.keep(
                game,
                spec("greedy"),
                rules(),
                Box::new(Counter(i as u32)),
                10,
            );
        }
        // "a" is used again, so "b" is now the least recently used.
        let a = kept.take("a", &spec("greedy"), rules()).unwrap();
        kept.keep("a", spec("greedy"), rules(), a, 10);
        kept.keep("d", spec("greedy"), rules(), Box::new(Counter(9)), 10);
        assert_eq!(kept.stats().players, 3);
        assert_eq!(kept.stats().memory_mb, 30);
        assert!(kept.take("b", &spec("greedy"), rules()).is_none());
        for game in ["a", "c", "d"] {
            assert!(
                kept.take(game, &spec("greedy"), rules()).is_some(),
                "{game}"
            );
        }
    }

    #[test]
    fn a_player_bigger_than_the_budget_is_not_kept() {
        let kept = KeptPlayers::new(30, KEEP_IDLE);
        kept.keep("a", spec("greedy"), rules(), Box::new(Counter(0)), 10);
        kept.keep("b", spec("greedy"), rules(), Box::new(Counter(0)), 31);
        assert_eq!(kept.stats().players, 1);
        assert!(kept.take("a", &spec("greedy"), rules()).is_some());
    }

    #[test]
    fn idle_players_go_when_another_is_kept() {
        let kept = KeptPlayers::new(100, Duration::ZERO);
        kept.keep("a", spec("greedy"), rules(), Box::new(Counter(0)), 10);
        kept.keep("b", spec("greedy"), rules(), Box::new(Counter(0)), 10);
        assert_eq!(kept.stats().players, 1);
        // And one past its idle time is not handed out either.
        assert!(kept.take("b", &spec("greedy"), rules()).is_none());
    }

    #[test]
    fn forgetting_a_game_frees_its_memory() {
        let kept = KeptPlayers::new(100, KEEP_IDLE);
        kept.keep("a", spec("greedy"), rules(), Box::new(Counter(0)), 10);
        kept.forget("a");
        kept.forget("never kept");
        assert_eq!(kept.stats(), KeptStats::default());
    }
}
