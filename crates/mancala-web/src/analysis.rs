//! A finished game's computer analysis (`GET /api/games/{id}/analysis`): computed once,
//! in the background, within the server's thinker slots, then stored and served as
//! stored.
//!
//! A request for a game that is over and not yet analysed starts a job (or finds the
//! one running) and is answered at once with [`AnalysisAnswer::Pending`]; the client
//! asks again after `Retry-After`. One job per game: on this instance the running jobs
//! are kept by game, and across instances the job is claimed in the store
//! ([`Store::claim_analysis`](crate::Store::claim_analysis)) for a lease that the job renews while it waits for
//! a thinker and while it runs; a crashed instance's claim lapses with its lease, and
//! the next request starts the job again. Jobs wait for a long thinker slot and their
//! memory like a long computer move ([`crate::thinkers::Thinkers::long_work`]), so they
//! queue behind each other, and run on one thread at a lower priority. The time per
//! position is bounded ([`settings_for`]), so a long game holds its thinker for a
//! bounded time.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mancala_core::Game;
use mancala_engine::{AnalysisSettings, analyse};

use crate::analysis_jobs::{AnalysisJobs, JobProgress, PendingView};
use crate::client::ClientKey;
use crate::error::GameError;
use crate::games::Games;
use crate::row::session_of;
use crate::store::StoredAnalysis;
use crate::think::ThinkLimits;
use crate::thinkers::lower_priority;

/// How long an instance holds an analysis job unless it renews the hold (every third
/// of this while the job waits or runs).
pub(crate) const ANALYSIS_LEASE: Duration = Duration::from_secs(30);

/// The time all of a game's positions may take together at the most: a longer game
/// gets less time per position ([`settings_for`]).
const GAME_BUDGET: Duration = Duration::from_secs(150);

/// The most search time for a position the solver does not prove.
const SEARCH_TIME: Duration = Duration::from_millis(500);

/// The most solver time for one position.
const SOLVE_TIME: Duration = Duration::from_secs(2);

/// The solver's memory in MiB; with the search's table it is what a job holds of the
/// thinkers' memory budget.
const SOLVER_MB: usize = 128;
const SEARCH_MB: usize = 64;

/// The most analysis jobs an instance keeps (running or queued) per thinker: past
/// them a new one is refused (503), so that requests for many games cannot queue
/// work without end.
const MAX_JOBS_PER_THINKER: usize = 4;

/// The most analysis jobs one client may have waiting or running on an instance: the
/// thinkers are shared fairly, and one client cannot fill the queue.
pub(crate) const JOBS_PER_CLIENT: usize = 2;

/// How long a refused request should wait, in seconds.
const BUSY_RETRY_AFTER_SECS: u64 = 30;

/// How long a client should wait before asking again, in seconds.
pub(crate) const RETRY_AFTER_SECS: u32 = 2;

/// What a request for an analysis gets.
#[derive(Debug)]
pub(crate) enum AnalysisAnswer {
    /// The stored document (JSON).
    Ready(String),
    /// Being computed: ask again later.
    Pending(PendingView),
    /// Neither stored nor being computed, and not started (asked with `start=false`).
    NotStarted,
}

/// The query of `GET /api/games/{id}/analysis`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalysisQuery {
    /// `false`: only say whether the analysis is stored or being computed, starting
    /// no job (the replay viewer's first look). Default `true`.
    pub start: Option<bool>,
}

/// The analysis settings for a game of `positions` positions (its moves and the final
/// position) within the server's `limits`: the library's defaults, on one thread (one
/// thinker, one core), the time per position cut so that the whole game fits
/// [`GAME_BUDGET`] and no position gets more than a computer move's `max_ms`.
///
/// A Kalah(6,4) game of 60 plies gets the defaults' 0.5 s of search and 2 s of solving
/// a position; one of 300 plies a fifth of that.
pub(crate) fn settings_for(positions: usize, limits: &ThinkLimits) -> AnalysisSettings {
    let per_position = GAME_BUDGET / u32::try_from(positions.max(1)).unwrap_or(u32::MAX);
    let max = Duration::from_millis(limits.max_ms);
    AnalysisSettings {
        search_time: SEARCH_TIME.min(per_position / 5).min(max),
        solve_time: SOLVE_TIME.min(per_position * 4 / 5).min(max),
        threads: 1,
        hash_mb: SOLVER_MB.min(limits.memory_mb.saturating_sub(SEARCH_MB).max(1)),
    }
}

impl Games {
    /// Game `id`'s analysis: the stored document, or how far its job has come (starting
    /// the job for `client` if nobody runs it and `start`).
    ///
    /// # Errors
    /// [`GameError::NotFound`] for no such game, [`GameError::Conflict`] for a game that
    /// is not over, [`GameError::TooMany`] when `client` has [`JOBS_PER_CLIENT`] jobs
    /// here already, [`GameError::Busy`] when the queue is full.
    pub(crate) async fn analysis(
        &self,
        id: &str,
        start: bool,
        client: ClientKey,
    ) -> Result<AnalysisAnswer, GameError> {
        let row = self.row(id).await?;
        let session = session_of(&row)?;
        if !session.is_over() {
            return Err(GameError::Conflict(
                "the game is not over: it can be analysed once it has ended".into(),
            ));
        }
        let plies = row.moves.len();
        match self.store().analysis(id).await? {
            Some(stored) if stored.plies == plies => {
                return Ok(AnalysisAnswer::Ready(stored.document));
            }
            _ => {}
        }
        let progress = {
            let mut running = self.analysis_jobs().lock();
            if let Some(job) = running.get(id) {
                return Ok(AnalysisAnswer::Pending(job.view()));
            }
            if !start {
                return Ok(AnalysisAnswer::NotStarted);
            }
            let mine = AnalysisJobs::of_client(&running, client);
            if mine >= JOBS_PER_CLIENT {
                return Err(GameError::TooMany {
                    message: format!(
                        "you have {mine} analyses waiting or running already: \
                         ask again once one is done"
                    ),
                    retry_after: BUSY_RETRY_AFTER_SECS,
                });
            }
            let queue = MAX_JOBS_PER_THINKER * self.thinkers().limits().thinkers.max(1);
            if running.len() >= queue {
                return Err(GameError::Busy {
                    message: format!(
                        "the server is analysing {queue} games already: ask again later"
                    ),
                    retry_after: BUSY_RETRY_AFTER_SECS,
                });
            }
            let progress = Arc::new(JobProgress {
                client: Some(client),
                ..JobProgress::default()
            });
            progress.of.store(plies + 1, Ordering::Relaxed);
            running.insert(id.to_owned(), Arc::clone(&progress));
            progress
        };
        let claimed = self.store().claim_analysis(id, plies, ANALYSIS_LEASE).await;
        match claimed {
            Ok(true) => {
                self.analysis_jobs().started.fetch_add(1, Ordering::Relaxed);
                let view = progress.view();
                tokio::spawn(self.clone().run_analysis(
                    id.to_owned(),
                    session.game().clone(),
                    progress,
                ));
                Ok(AnalysisAnswer::Pending(view))
            }
            Ok(false) => {
                self.analysis_jobs().lock().remove(id);
                // Stored meanwhile (by another request or instance), or computed
                // elsewhere.
                match self.store().analysis(id).await? {
                    Some(stored) if stored.plies == plies => {
                        Ok(AnalysisAnswer::Ready(stored.document))
                    }
                    _ => Ok(AnalysisAnswer::Pending(PendingView {
                        status: "elsewhere",
                        done: 0,
                        of: plies + 1,
                    })),
                }
            }
            Err(e) => {
                self.analysis_jobs().lock().remove(id);
                Err(e.into())
            }
        }
    }

    /// How many analysis jobs this instance has started (for tests and monitoring).
    #[must_use]
    pub fn analyses_started(&self) -> u64 {
        self.analysis_jobs().started.load(Ordering::Relaxed)
    }

    /// Runs a claimed job to its end: waits for a thinker, analyses, stores; renews the
    /// claim all the while, and gives it up on failure.
    async fn run_analysis(self, id: String, game: Game, progress: Arc<JobProgress>) {
        let stop = Arc::new(AtomicBool::new(false));
        let renewer = tokio::spawn(self.clone().renew_analysis(id.clone(), Arc::clone(&stop)));
        let outcome = self.compute_analysis(&game, &progress, &stop).await;
        renewer.abort();
        let stored = match outcome {
            Ok(document) => {
                let analysis = StoredAnalysis {
                    plies: game.moves().len(),
                    document,
                };
                self.store().store_analysis(&id, &analysis).await.map(drop)
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "analysis failed");
                self.store().release_analysis(&id).await
            }
        };
        if let Err(e) = stored {
            tracing::warn!(game = %id, error = %e, "could not store an analysis");
        }
        self.analysis_jobs().lock().remove(&id);
    }

    /// Renews the claim on game `id`'s job every third of its lease; sets `stop` when
    /// the claim is lost (another instance took it over).
    async fn renew_analysis(self, id: String, stop: Arc<AtomicBool>) {
        loop {
            tokio::time::sleep(ANALYSIS_LEASE / 3).await;
            match self.store().renew_analysis(&id, ANALYSIS_LEASE).await {
                Ok(true) => {}
                Ok(false) => {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                Err(e) => tracing::warn!(game = %id, error = %e, "could not renew an analysis"),
            }
        }
    }

    /// The analysis of `game` as JSON, computed on a thread of its own once a thinker
    /// is free.
    async fn compute_analysis(
        &self,
        game: &Game,
        progress: &Arc<JobProgress>,
        stop: &Arc<AtomicBool>,
    ) -> Result<String, String> {
        let settings = settings_for(game.moves().len() + 1, self.thinkers().limits());
        let _permit = self
            .thinkers()
            .long_work(settings.hash_mb + SEARCH_MB)
            .await;
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (game, progress, stop) = (game.clone(), Arc::clone(progress), Arc::clone(stop));
        std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                lower_priority();
                let _ = tx.send(analyse_on_one_thread(&game, &settings, &progress, &stop));
            })
            .map_err(|e| format!("no thread for the analysis: {e}"))?;
        rx.await
            .unwrap_or_else(|_| Err("the analysis panicked".into()))
    }
}

/// Analyses `game` in a rayon pool of `settings.threads` threads (the solver spreads
/// over the current pool), as JSON.
fn analyse_on_one_thread(
    game: &Game,
    settings: &AnalysisSettings,
    progress: &JobProgress,
    stop: &Arc<AtomicBool>,
) -> Result<String, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads)
        .thread_name(|_| "analysis (solver)".into())
        .build()
        .map_err(|e| format!("no thread for the solver: {e}"))?;
    let analysis = pool
        .install(|| analyse(game, settings, |p| progress.note(p), stop))
        .map_err(|e| e.to_string())?;
    serde_json::to_string(&analysis).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{GameRow, NewMove, Next, Store, now_ms};
    use mancala_core::Rules;

    /// A finished Kalah(3,2) game stored as `id` (the first legal house each time).
    async fn finished(games: &Games, id: &str) {
        let row = GameRow {
            id: id.into(),
            rules: mancala_core::Rules::from_text("kalah(3,2)").unwrap(),
            opponent: "human".into(),
            token_hashes: [Some([7; 32]), Some([8; 32])],
            activity_ms: now_ms(),
            ..GameRow::default()
        };
        games.store().create(&row).await.unwrap();
        let mut game = Game::new(Rules::kalah(3, 2));
        while !game.is_over() {
            let mv = game.legal_moves()[0];
            let ply = game.ply();
            game.play(mv).unwrap();
            let next = if game.is_over() {
                Next::Nobody
            } else {
                Next::Person
            };
            let new = NewMove {
                game: id.into(),
                ply,
                house: mv.house(),
                next,
                state: None,
            };
            assert!(games.store().append_move(&new).await.unwrap());
        }
    }

    fn client(last: u8) -> ClientKey {
        ClientKey::of_ip([10, 0, 0, last].into())
    }

    #[tokio::test]
    async fn a_client_has_at_most_two_jobs_and_others_are_still_served() {
        let games = Games::new(Store::in_memory().unwrap());
        for id in ["g1", "g2", "g3"] {
            finished(&games, id).await;
        }
        // The first client's two jobs wait (nothing runs them in this test).
        for id in ["g1", "g2"] {
            let job = JobProgress {
                client: Some(client(1)),
                ..JobProgress::default()
            };
            games
                .analysis_jobs()
                .lock()
                .insert(id.into(), Arc::new(job));
        }
        let refused = games.analysis("g3", true, client(1)).await.unwrap_err();
        assert!(
            matches!(&refused, GameError::TooMany { message, .. } if message.contains("2 analyses")),
            "{refused:?}"
        );
        // Asking about one's own job still answers.
        assert!(matches!(
            games.analysis("g1", true, client(1)).await.unwrap(),
            AnalysisAnswer::Pending(_)
        ));
        // Another client is served.
        assert!(matches!(
            games.analysis("g3", true, client(2)).await.unwrap(),
            AnalysisAnswer::Pending(_)
        ));
    }

    #[tokio::test]
    async fn jobs_past_the_queue_are_refused_not_queued() {
        let mut limits = crate::Limits::default();
        limits.think.thinkers = 1;
        let games = Games::with_limits(Store::in_memory().unwrap(), limits);
        finished(&games, "g1").await;
        // Four jobs (one thinker's worth) are waiting already.
        for i in 0..MAX_JOBS_PER_THINKER {
            games
                .analysis_jobs()
                .lock()
                .insert(format!("other{i}"), Arc::default());
        }
        let refused = games.analysis("g1", true, client(1)).await.unwrap_err();
        assert!(
            matches!(
                refused,
                GameError::Busy {
                    retry_after: 30,
                    ..
                }
            ),
            "{refused:?}"
        );
        assert_eq!(games.analyses_started(), 0);
        // A look that would start nothing is answered as ever.
        assert!(matches!(
            games.analysis("g1", false, client(1)).await.unwrap(),
            AnalysisAnswer::NotStarted
        ));
        games.analysis_jobs().lock().remove("other0");
        assert!(matches!(
            games.analysis("g1", true, client(1)).await.unwrap(),
            AnalysisAnswer::Pending(_)
        ));
        assert_eq!(games.analyses_started(), 1);
    }

    #[test]
    fn a_long_game_gets_less_time_per_position() {
        let limits = ThinkLimits::default();
        let short = settings_for(61, &limits);
        assert!(short.search_time > Duration::from_millis(490), "{short:?}");
        assert!(short.solve_time > Duration::from_millis(1960), "{short:?}");
        let long = settings_for(301, &limits);
        assert!(long.search_time < Duration::from_millis(100));
        // The whole game fits the budget.
        let per = long.search_time + long.solve_time;
        assert!(per * 301 <= GAME_BUDGET, "{per:?}");
        assert_eq!(settings_for(5, &limits).solve_time, SOLVE_TIME);
        assert_eq!(settings_for(5, &limits).threads, 1);
    }

    #[test]
    fn a_tight_think_time_bounds_each_position() {
        let limits = ThinkLimits {
            max_ms: 100,
            memory_mb: 100,
            ..ThinkLimits::default()
        };
        let s = settings_for(10, &limits);
        assert_eq!(s.search_time, Duration::from_millis(100));
        assert_eq!(s.solve_time, Duration::from_millis(100));
        assert_eq!(s.hash_mb, 36);
    }
}
