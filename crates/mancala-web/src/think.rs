//! Computer players within the server's bounds: how long one may think, how far it may
//! search, and how much memory it may hold, and the shared pools that enforce them.
//!
//! The engine's player specs say what a player may do (`alphabeta:ms=500`); a request
//! could ask for days of thinking or gigabytes of table. Before a game is created its
//! opponent is checked against [`ThinkLimits`] (too much: refused, naming the bound);
//! before each computer move the stored spec is bounded again, clamping what a game
//! stored under laxer limits asks for, and completed with the caps a spec leaves open
//! (a search given only a depth also gets the time bound).

use mancala_core::{Position, Rules};
use mancala_engine::{LEVELS, PlayerSpec, level_spec};

/// How much a computer player may use: the bounds of `mancala serve --max-think-ms`,
/// `--max-nodes`, `--max-sims`, `--think-memory-mb` and `--thinkers`.
///
/// ```
/// let limits = mancala_web::ThinkLimits::default();
/// assert_eq!(limits.max_ms, 2000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThinkLimits {
    /// The longest a computer player may think about one move, in milliseconds
    /// (`alphabeta`, `mcts` and `perfect`'s `ms`; every search gets it as a cap).
    pub max_ms: u64,
    /// The most nodes an `alphabeta` search may be asked for.
    pub max_nodes: u64,
    /// The most simulations an `mcts` player may run for one move (also the cap of one
    /// given only a time, since its tree grows with every simulation).
    pub max_sims: u64,
    /// The memory, in MiB, shared by every computer player thinking at once (search
    /// tables, the solver's table and database, MCTS trees); one player may use all of
    /// it, and a player that needs more is refused.
    pub memory_mb: usize,
    /// Computer players thinking at once (default: the machine's cores).
    pub thinkers: usize,
    /// The largest table one player may ask for (`hash` of `alphabeta` and `perfect`),
    /// in MiB: a player's tables are allocated when it is built, and the larger they
    /// are the longer that holds up the server's other threads.
    pub max_table_mb: usize,
    /// The memory, in MiB, of the players kept between their moves (one per game, so
    /// that a search keeps its table and `perfect` its solved positions; see
    /// [`crate::kept`]); 0 builds every computer move's player afresh.
    pub keep_mb: usize,
}

impl Default for ThinkLimits {
    fn default() -> Self {
        ThinkLimits {
            max_ms: 2000,
            max_nodes: 10_000_000,
            max_sims: 200_000,
            memory_mb: 512,
            max_table_mb: 64,
            keep_mb: 256,
            thinkers: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
        }
    }
}

/// A computer player as it will think: the spec to build (bounded and completed) and
/// the memory it may hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The spec to build, with every cap filled in.
    pub spec: PlayerSpec,
    /// MiB the player may hold while it thinks.
    pub memory_mb: usize,
    /// Whether it runs the exact solver (which spreads over the threads of its pool).
    pub solver: bool,
    /// Whether its think is short whatever the position: a simple player, or a search
    /// bounded by a small depth, node count, simulation count or time (every level but
    /// `perfect`). Long thinks never take the last thinker, so quick ones always have
    /// one.
    pub quick: bool,
}

/// The most a quick player may be asked for (see [`Plan::quick`]); `expert` searches
/// 400000 nodes, some 20-40 ms.
const QUICK_MS: u64 = 250;
const QUICK_NODES: u64 = 500_000;
const QUICK_DEPTH: u64 = 6;
const QUICK_SIMS: u64 = 20_000;

/// The engine's defaults that the caps are compared with (see the engine's
/// `PlayerSpec::build`).
const ALPHABETA_DEFAULT_MS: u64 = 500;
const ALPHABETA_DEFAULT_HASH_MB: u64 = 16;
const MCTS_DEFAULT_SIMS: u64 = 10_000;
const PERFECT_DEFAULT_MS: u64 = 1000;
const PERFECT_DEFAULT_HASH_MB: u64 = 64;
/// `perfect` keeps an `expert` (an alpha-beta player with the default table) to fall
/// back on.
const PERFECT_FALLBACK_MB: u64 = ALPHABETA_DEFAULT_HASH_MB;

/// What `master` holds: the solver's table and the search's. Its Kalah endgame table
/// (at most 32 MiB) is not counted here: one is shared by every game of the same rules
/// in the process, built once, one build at a time.
const MASTER_MEMORY_MB: u64 = 64 + 32;

/// What to do with an option past its bound.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Refuse the spec (a new game).
    Refuse,
    /// Use the bound instead (a stored game, perhaps created under other limits).
    Clamp,
}

impl ThinkLimits {
    /// Checks an opponent asked for in a new game; the message names the bound.
    pub(crate) fn check(&self, spec: &PlayerSpec, rules: Rules) -> Result<Plan, String> {
        self.bound(spec, rules, Mode::Refuse)
    }

    /// The plan for a stored opponent: anything past a bound is clamped to it.
    pub(crate) fn plan(&self, spec: &PlayerSpec, rules: Rules) -> Plan {
        self.bound(spec, rules, Mode::Clamp)
            .expect("clamping never refuses")
    }

    fn bound(&self, spec: &PlayerSpec, rules: Rules, mode: Mode) -> Result<Plan, String> {
        let spec = resolve_level(spec);
        let mut options = Options::new();
        let shape = match spec.name() {
            "alphabeta" => self.alphabeta(&spec, mode, &mut options)?,
            "mcts" => self.mcts(&spec, rules, mode, &mut options)?,
            "perfect" => self.perfect(&spec, mode, &mut options)?,
            "master" => self.master(&spec, mode, &mut options)?,
            // The simple players think in microseconds and hold nothing; unknown names
            // are left for the engine to refuse.
            _ => {
                return Ok(Plan {
                    spec,
                    memory_mb: 0,
                    solver: false,
                    quick: true,
                });
            }
        };
        let mut text = spec.name().to_owned();
        for (i, (k, v)) in options.iter().enumerate() {
            text.push(if i == 0 { ':' } else { ',' });
            text.push_str(&format!("{k}={v}"));
        }
        Ok(Plan {
            spec: text.parse().map_err(|e| format!("{e}"))?,
            memory_mb: shape.memory_mb as usize,
            solver: shape.solver,
            quick: shape.quick,
        })
    }

    fn alphabeta(
        &self,
        spec: &PlayerSpec,
        mode: Mode,
        options: &mut Options,
    ) -> Result<Shape, String> {
        keep(spec, &["depth", "store", "row"], options);
        let nodes = self.capped(spec, "nodes", self.max_nodes, "nodes", mode)?;
        let ms = self.capped(spec, "ms", self.max_ms, "ms", mode)?;
        let hash = self.memory(spec, "hash", ALPHABETA_DEFAULT_HASH_MB, 0, mode)?;
        // With no limit at all the engine thinks for its default time; with a depth or
        // nodes only, the time bound stops a search that runs long.
        let unlimited = spec.option("depth").is_none() && nodes.is_none();
        let ms = ms.unwrap_or(if unlimited {
            ALPHABETA_DEFAULT_MS.min(self.max_ms)
        } else {
            self.max_ms
        });
        if let Some(n) = nodes {
            options.push(("nodes".into(), n.to_string()));
        }
        options.push(("ms".into(), ms.to_string()));
        options.push(("hash".into(), hash.to_string()));
        Ok(Shape {
            memory_mb: hash,
            solver: false,
            quick: ms <= QUICK_MS
                || small(spec, "nodes", QUICK_NODES)
                || small(spec, "depth", QUICK_DEPTH),
        })
    }

    fn mcts(
        &self,
        spec: &PlayerSpec,
        rules: Rules,
        mode: Mode,
        options: &mut Options,
    ) -> Result<Shape, String> {
        keep(spec, &["seed", "c"], options);
        let sims = self.capped(spec, "sims", self.max_sims, "simulations", mode)?;
        let ms = self.capped(spec, "ms", self.max_ms, "ms", mode)?;
        let mut sims = match (sims, ms) {
            (Some(s), _) => s,
            (None, None) => MCTS_DEFAULT_SIMS.min(self.max_sims),
            (None, Some(_)) => self.max_sims,
        };
        let mut mb = mcts_memory_mb(sims, rules);
        let budget = self.memory_mb as u64;
        if mb > budget {
            let fitting = (budget * sims / mb.max(1)).max(1);
            if mode == Mode::Refuse {
                return Err(format!(
                    "mcts: {sims} simulations on this board need about {mb} MiB; this server \
                     gives computer players at most {budget} MiB (think-memory-mb): ask for \
                     at most {fitting} simulations"
                ));
            }
            sims = fitting;
            mb = mcts_memory_mb(sims, rules);
        }
        let ms = ms.unwrap_or(self.max_ms);
        options.push(("sims".into(), sims.to_string()));
        options.push(("ms".into(), ms.to_string()));
        Ok(Shape {
            memory_mb: mb,
            solver: false,
            quick: sims <= QUICK_SIMS || ms <= QUICK_MS,
        })
    }

    fn perfect(
        &self,
        spec: &PlayerSpec,
        mode: Mode,
        options: &mut Options,
    ) -> Result<Shape, String> {
        keep(spec, &["seed"], options);
        let ms = self.capped(spec, "ms", self.max_ms, "ms", mode)?;
        let hash = self.memory(
            spec,
            "hash",
            PERFECT_DEFAULT_HASH_MB,
            PERFECT_FALLBACK_MB,
            mode,
        )?;
        let ms = ms.unwrap_or(PERFECT_DEFAULT_MS.min(self.max_ms));
        options.push(("ms".into(), ms.to_string()));
        options.push(("hash".into(), hash.to_string()));
        Ok(Shape {
            memory_mb: hash + PERFECT_FALLBACK_MB,
            solver: true,
            quick: ms <= QUICK_MS,
        })
    }

    /// `master`: its time capped like any search's, and one thread (a server shares its
    /// cores among its games), the solver and the search tables its memory.
    fn master(
        &self,
        spec: &PlayerSpec,
        mode: Mode,
        options: &mut Options,
    ) -> Result<Shape, String> {
        keep(spec, &["seed", "solve"], options);
        let ms = self.capped(spec, "ms", self.max_ms, "ms", mode)?;
        let ms = ms.unwrap_or(PERFECT_DEFAULT_MS.min(self.max_ms));
        options.push(("ms".into(), ms.to_string()));
        options.push(("threads".into(), "1".into()));
        Ok(Shape {
            memory_mb: MASTER_MEMORY_MB,
            solver: true,
            quick: ms <= QUICK_MS,
        })
    }

    /// Option `key` (a number) within `max`: `None` when absent.
    fn capped(
        &self,
        spec: &PlayerSpec,
        key: &str,
        max: u64,
        unit: &str,
        mode: Mode,
    ) -> Result<Option<u64>, String> {
        let Some(v) = spec.option(key) else {
            return Ok(None);
        };
        // A value that is not a positive number is the engine's to refuse, in its words.
        let Ok(n) = v.parse::<u64>() else {
            return self.engine_error(spec);
        };
        if n <= max {
            return Ok(Some(n));
        }
        match mode {
            Mode::Clamp => Ok(Some(max)),
            Mode::Refuse => Err(format!(
                "{}: {key}={v} is more than this server allows: a computer player may use at \
                 most {max} {unit} a move ({})",
                spec.name(),
                match key {
                    "ms" => "max-think-ms",
                    "nodes" => "max-nodes",
                    _ => "max-sims",
                }
            )),
        }
    }

    /// The table size option `key` in MiB (`default` when absent), which with `extra`
    /// must fit the memory budget.
    fn memory(
        &self,
        spec: &PlayerSpec,
        key: &str,
        default: u64,
        extra: u64,
        mode: Mode,
    ) -> Result<u64, String> {
        let mb = match spec.option(key) {
            None => default,
            Some(v) => match v.parse::<u64>() {
                Ok(n) => n,
                Err(_) => return self.engine_error(spec),
            },
        };
        let budget = self.memory_mb as u64;
        let table = self.max_table_mb as u64;
        if mb + extra <= budget && mb <= table {
            return Ok(mb);
        }
        let fits = budget.saturating_sub(extra).min(table).max(1);
        match mode {
            Mode::Clamp => Ok(fits),
            Mode::Refuse if mb + extra > budget => Err(format!(
                "{}: {key}={mb} needs {} MiB; this server gives computer players at most \
                 {budget} MiB (think-memory-mb)",
                spec.name(),
                mb + extra
            )),
            Mode::Refuse => Err(format!(
                "{}: {key}={mb} is more than this server allows: a computer player's table \
                 may take at most {table} MiB (max-table-mb)",
                spec.name()
            )),
        }
    }

    /// The engine's own message for a spec it cannot build.
    fn engine_error<T>(&self, spec: &PlayerSpec) -> Result<T, String> {
        match spec.build(Rules::kalah(1, 1), 0) {
            Err(e) => Err(e.to_string()),
            Ok(_) => Err(format!("bad player spec {spec}")),
        }
    }
}

/// The options of a bounded spec, in the order written.
type Options = Vec<(String, String)>;

/// What a bounded player holds while it thinks, and whether its think is short.
struct Shape {
    memory_mb: u64,
    solver: bool,
    quick: bool,
}

/// Copies the options `keys` of `spec` that it gives.
fn keep(spec: &PlayerSpec, keys: &[&str], options: &mut Options) {
    for key in keys {
        if let Some(v) = spec.option(key) {
            options.push(((*key).to_owned(), v.to_owned()));
        }
    }
}

/// Whether `spec` gives option `key` as a number of at most `max`.
fn small(spec: &PlayerSpec, key: &str, max: u64) -> bool {
    spec.option(key)
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n <= max)
}

/// A level (`expert`) as the player spec behind it, keeping a `seed` option.
fn resolve_level(spec: &PlayerSpec) -> PlayerSpec {
    // `perfect` is a level and a player of that name: its options are the player's.
    let level = LEVELS.iter().any(|(name, _)| *name == spec.name());
    if !level || level_spec(spec.name()) == Some(spec.name()) {
        return spec.clone();
    }
    let mut text = level_spec(spec.name()).expect("a level").to_owned();
    if let Some(seed) = spec.option("seed") {
        text.push(if text.contains(':') { ',' } else { ':' });
        text.push_str(&format!("seed={seed}"));
    }
    text.parse().expect("level specs parse")
}

/// The memory an MCTS tree of `sims` simulations may take on this board: a simulation
/// expands a node, keeping its position and a 16-byte node per child, and a growing
/// vector may briefly hold twice its contents.
fn mcts_memory_mb(sims: u64, rules: Rules) -> u64 {
    let per_sim = 16 * (rules.houses() as u64 + 1) + std::mem::size_of::<Position>() as u64;
    (2 * sims * per_sim).div_ceil(1 << 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(spec: &str) -> Result<Plan, String> {
        ThinkLimits::default().check(&spec.parse().unwrap(), Rules::kalah(6, 4))
    }

    #[test]
    fn every_search_gets_a_time_cap() {
        let spec = |s| plan(s).unwrap().spec.to_string();
        assert_eq!(
            spec("alphabeta:depth=40"),
            "alphabeta:depth=40,hash=16,ms=2000"
        );
        assert_eq!(spec("alphabeta"), "alphabeta:hash=16,ms=500");
        assert_eq!(spec("hard"), "alphabeta:hash=16,ms=2000,nodes=20000");
        assert_eq!(spec("easy:seed=3"), "mcts:ms=2000,seed=3,sims=30");
        assert_eq!(spec("mcts:ms=300"), "mcts:ms=300,sims=200000");
        assert_eq!(spec("perfect"), "perfect:hash=64,ms=1000");
        assert_eq!(spec("greedy"), "greedy");
        assert_eq!(plan("perfect").unwrap().memory_mb, 80);
    }

    #[test]
    fn the_levels_but_perfect_are_quick() {
        for level in [
            "easy",
            "medium",
            "hard",
            "expert",
            "greedy",
            "random:seed=2",
        ] {
            assert!(plan(level).unwrap().quick, "{level}");
        }
        for long in [
            "perfect",
            "alphabeta:depth=40",
            "alphabeta:ms=2000",
            "mcts:ms=1000",
        ] {
            assert!(!plan(long).unwrap().quick, "{long}");
        }
        assert!(plan("perfect:ms=100").unwrap().quick);
    }

    #[test]
    fn stored_specs_past_the_bounds_are_clamped() {
        let limits = ThinkLimits {
            max_ms: 100,
            ..ThinkLimits::default()
        };
        let clamp = |s: &str| {
            limits
                .plan(&s.parse().unwrap(), Rules::kalah(6, 4))
                .spec
                .to_string()
        };
        assert_eq!(
            clamp("alphabeta:ms=100000000,hash=100000"),
            "alphabeta:hash=64,ms=100"
        );
        assert_eq!(clamp("perfect"), "perfect:hash=64,ms=100");
        assert_eq!(clamp("mcts:sims=4000000000"), "mcts:ms=100,sims=200000");
        let tight = ThinkLimits {
            memory_mb: 20,
            ..limits
        };
        assert_eq!(
            tight
                .plan(
                    &"mcts:sims=200000,seed=4".parse().unwrap(),
                    Rules::kalah(6, 4)
                )
                .spec
                .to_string(),
            "mcts:ms=100,seed=4,sims=53333"
        );
    }

    #[test]
    fn an_mcts_tree_is_counted_against_the_memory_budget() {
        let mb = |spec: &str, rules| {
            ThinkLimits::default()
                .check(&spec.parse().unwrap(), rules)
                .map(|p| p.memory_mb)
        };
        assert_eq!(
            mb("mcts:sims=200000", Rules::kalah(6, 4)),
            Ok(MCTS_KALAH_6_MB)
        );
        assert_eq!(mb("mcts:ms=100", Rules::kalah(6, 4)), Ok(MCTS_KALAH_6_MB));
        assert_eq!(mb("easy", Rules::kalah(6, 4)), Ok(1));
        // A tight budget refuses a big tree, and says how many simulations fit.
        let small = ThinkLimits {
            memory_mb: 20,
            ..ThinkLimits::default()
        };
        let e = small
            .check(&"mcts:sims=200000".parse().unwrap(), Rules::kalah(6, 4))
            .unwrap_err();
        assert!(e.contains("at most 20 MiB"), "{e}");
    }

    /// The MiB of 200000 simulations on six houses, as docs/api.md says (it follows
    /// the size of a `Position`: 84 bytes since positions carry Togyz Kumalak's
    /// tuzdyks).
    const MCTS_KALAH_6_MB: usize = 75;

    #[test]
    fn bad_options_get_the_engines_words() {
        let e = plan("alphabeta:ms=soon").unwrap_err();
        assert!(e.contains("ms"), "{e}");
    }
}
