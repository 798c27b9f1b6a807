//! The shared pools every computer move goes through (one thinker slot per core, one
//! move at a time per client, the memory budget), the players kept between moves, and
//! the move itself on a thread of lower priority. What a player may use is
//! `think.rs`'s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use mancala_core::{Game, Move};
use mancala_engine::Player;
use tokio::sync::Semaphore;

use crate::computer_meter::ComputerMeter;
use crate::kept::{KEEP_IDLE, KeptPlayers, KeptStats};
use crate::think::{Plan, ThinkLimits};

/// The pools every computer move goes through: one thinker slot per core, one move at
/// a time per client, and the shared memory budget.
pub(crate) struct Thinkers {
    limits: ThinkLimits,
    slots: Semaphore,
    /// All the slots but one, for long thinks: the last is kept for quick ones.
    long_slots: Semaphore,
    memory: Semaphore,
    per_client: Mutex<HashMap<String, Arc<Semaphore>>>,
    stats: Mutex<ThinkStats>,
    /// The players kept between moves, by game.
    kept: Arc<KeptPlayers>,
    /// The moves waiting, their waits and thinks, for `/metrics`.
    meter: ComputerMeter,
}

/// What the computer players use now and at most so far (for monitoring and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThinkStats {
    /// Computer players thinking now.
    pub thinking: usize,
    /// The most that thought at once.
    pub peak_thinking: usize,
    /// MiB held by the players thinking now.
    pub memory_mb: usize,
    /// The most MiB held at once.
    pub peak_memory_mb: usize,
    /// The players kept between moves (not counted above: they have a budget of their
    /// own).
    pub kept: KeptStats,
}

impl Thinkers {
    pub(crate) fn new(limits: ThinkLimits) -> Thinkers {
        Thinkers {
            limits,
            slots: Semaphore::new(limits.thinkers.max(1)),
            long_slots: Semaphore::new(limits.thinkers.saturating_sub(1).max(1)),
            memory: Semaphore::new(limits.memory_mb),
            per_client: Mutex::new(HashMap::new()),
            stats: Mutex::new(ThinkStats::default()),
            kept: Arc::new(KeptPlayers::new(limits.keep_mb, KEEP_IDLE)),
            meter: ComputerMeter::default(),
        }
    }

    pub(crate) fn meter(&self) -> &ComputerMeter {
        &self.meter
    }

    pub(crate) fn limits(&self) -> &ThinkLimits {
        &self.limits
    }

    /// Thinker slots free now (for taking over no more computer turns than can start).
    pub(crate) fn free(&self) -> usize {
        self.slots.available_permits()
    }

    pub(crate) fn stats(&self) -> ThinkStats {
        let mut stats = *self
            .stats
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        stats.kept = self.kept.stats();
        stats
    }

    /// Lets go of game `game`'s kept player: the game is over or gone.
    pub(crate) fn forget(&self, game: &str) {
        self.kept.forget(game);
    }

    /// Chooses the computer's move in game `id` (now `game`) under `plan`, waiting
    /// first for this client's earlier computer moves, then for a thinker and the
    /// memory it needs. The player kept from the game's last computer move thinks if
    /// there is one (`seed` then goes unused: it seeds a new player), and is kept
    /// again after. The player thinks on a thread of its own at a lower scheduling
    /// priority, so answering requests goes first when the cores are busy.
    pub(crate) async fn think(
        &self,
        client: &str,
        id: &str,
        plan: Plan,
        game: Game,
        seed: u64,
    ) -> Result<Move, String> {
        let mine = {
            let mut map = self
                .per_client
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            // Forget clients with nothing waiting.
            map.retain(|_, s| Arc::strong_count(s) > 1);
            map.entry(client.to_owned())
                .or_insert_with(|| Arc::new(Semaphore::new(1)))
                .clone()
        };
        let (waiting, asked) = (self.meter.waiting(), std::time::Instant::now());
        let _turn = mine.acquire().await.expect("semaphore open");
        let _long = if plan.quick {
            None
        } else {
            Some(self.long_slots.acquire().await.expect("semaphore open"))
        };
        let _slot = self.slots.acquire().await.expect("semaphore open");
        let mb = plan.memory_mb.min(self.limits.memory_mb);
        let _memory = self
            .memory
            .acquire_many(u32::try_from(mb).unwrap_or(u32::MAX))
            .await
            .expect("semaphore open");
        drop(waiting);
        let started = std::time::Instant::now();
        self.meter.waited(started - asked);
        self.note(1, mb as isize);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let kept = Arc::clone(&self.kept);
        let id = id.to_owned();
        let spawned = std::thread::Builder::new()
            .name("computer player".into())
            .spawn(move || {
                lower_priority();
                let player = kept.take(&id, &plan.spec, game.rules());
                let _ = tx.send(choose(&plan, player, &game, seed).map(|(mv, player)| {
                    kept.keep(&id, plan.spec, game.rules(), player, plan.memory_mb);
                    mv
                }));
            });
        let result = match spawned {
            Ok(_) => rx
                .await
                .unwrap_or_else(|_| Err("the computer player panicked".into())),
            Err(e) => Err(format!("no thread for the computer player: {e}")),
        };
        self.meter.thought(started.elapsed());
        self.note(-1, -(mb as isize));
        result
    }

    /// Waits for a thinker for long work that is not a computer move (a game's
    /// analysis): a long slot (so quick moves keep the last thinker) and `mb` MiB of
    /// the memory budget, held until the permit is dropped.
    pub(crate) async fn long_work(&self, mb: usize) -> WorkPermit<'_> {
        let long = self.long_slots.acquire().await.expect("semaphore open");
        let slot = self.slots.acquire().await.expect("semaphore open");
        let mb = mb.min(self.limits.memory_mb);
        let memory = self
            .memory
            .acquire_many(u32::try_from(mb).unwrap_or(u32::MAX))
            .await
            .expect("semaphore open");
        self.note(1, mb as isize);
        WorkPermit {
            thinkers: self,
            mb,
            _permits: (long, slot, memory),
        }
    }

    fn note(&self, thinking: isize, mb: isize) {
        let mut s = self
            .stats
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        s.thinking = s.thinking.saturating_add_signed(thinking);
        s.memory_mb = s.memory_mb.saturating_add_signed(mb);
        s.peak_thinking = s.peak_thinking.max(s.thinking);
        s.peak_memory_mb = s.peak_memory_mb.max(s.memory_mb);
    }
}

/// A thinker held for long work ([`Thinkers::long_work`]), let go when dropped.
pub(crate) struct WorkPermit<'a> {
    thinkers: &'a Thinkers,
    mb: usize,
    _permits: (
        tokio::sync::SemaphorePermit<'a>,
        tokio::sync::SemaphorePermit<'a>,
        tokio::sync::SemaphorePermit<'a>,
    ),
}

impl Drop for WorkPermit<'_> {
    fn drop(&mut self) {
        self.thinkers.note(-1, -(self.mb as isize));
    }
}

/// Asks `player` (or, with none kept, a new one built from the plan) for a move, and
/// hands the player back. The solver spreads its work over the threads of the current
/// rayon pool, so it gets a pool of one thread: one thinker, one core.
fn choose(
    plan: &Plan,
    player: Option<Box<dyn Player>>,
    game: &Game,
    seed: u64,
) -> Result<(Move, Box<dyn Player>), String> {
    let run = || {
        let mut player = match player {
            Some(player) => player,
            None => plan
                .spec
                .build(game.rules(), seed)
                .map_err(|e| e.to_string())?,
        };
        let mv = player.choose(game).mv;
        Ok((mv, player))
    };
    if plan.solver {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "computer player (solver)".into())
            .build()
            .map_err(|e| format!("no thread for the solver: {e}"))?
            .install(run)
    } else {
        run()
    }
}

/// Lowers the calling thread's scheduling priority (nice 10): a computer player yields
/// the cores to the threads answering requests. On Linux the nice value is a thread's
/// own; elsewhere this does nothing.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let me = rustix::thread::gettid();
        if let Err(e) = rustix::process::setpriority_process(Some(me), 10) {
            tracing::debug!(error = %e, "could not lower a computer player's priority");
        }
    }
}
