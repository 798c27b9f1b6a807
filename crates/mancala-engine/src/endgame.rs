//! Kalah endgame tables for the alpha-beta search, one per set of rules in a process,
//! built in the background on first use.
//!
//! A table is built once and shared: by the threads of one search, by the players of
//! the games of a match (one after another, or side by side), and by a web server's
//! games. It is built on a thread of its own so that no move waits for it (a 16-seed
//! table on six houses takes a few seconds on two cores); searches probe it once it is
//! ready.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::thread;
use std::time::{Duration, Instant};

use mancala_core::Rules;
use mancala_solver::{EndgameTable, OwareTable};

/// The most boards a table is given by default: one byte each, 32 MiB.
const DEFAULT_MAX_BOARDS: u64 = 32 << 20;

/// A table that may still be building.
pub(crate) type PendingTable = Arc<OnceLock<EndgameTable>>;

/// The tables of this process, by rules and seeds. Held weakly, so that a table goes
/// when its last player does, except the last one asked for, which stays: the games of
/// a match build their players one after another, and would otherwise each build it
/// again.
struct Tables {
    by_rules: HashMap<(Rules, u16), Weak<OnceLock<EndgameTable>>>,
    last: Option<PendingTable>,
}

static TABLES: Mutex<Option<Tables>> = Mutex::new(None);

/// Held while a table is built.
static BUILDING: Mutex<()> = Mutex::new(());

/// The seeds of the largest table for `rules` within the default size (none beyond
/// the seeds of the whole game, none for rules the solver builds no tables for
/// ([`EndgameTable::supports`]: Kalah's only), and 0 when even one seed is too much).
///
/// ```
/// use mancala_core::Rules;
/// use mancala_engine::default_probe_seeds;
/// assert_eq!(default_probe_seeds(Rules::kalah(6, 4)), 16);
/// assert_eq!(default_probe_seeds(Rules::kalah(3, 3)), 18);
/// // Oware: the Oware table's seeds (see `default_oware_seeds`).
/// assert_eq!(default_probe_seeds(Rules::oware(6, 4)), 9);
/// assert_eq!(default_probe_seeds(Rules::togyz_kumalak(9, 9)), 0);
/// ```
#[must_use]
pub fn default_probe_seeds(rules: Rules) -> u16 {
    if OwareTable::supports(rules) {
        return default_oware_seeds(rules);
    }
    if !EndgameTable::supports(rules) {
        return 0;
    }
    let cells = 2 * rules.houses() as u64;
    let mut boards = 1u64; // C(seeds + cells, cells) for seeds = 0
    let mut seeds = 0u16;
    while u32::from(seeds) < u32::from(rules.total_seeds()) {
        let next = boards * (u64::from(seeds) + 1 + cells) / (u64::from(seeds) + 1);
        if next > DEFAULT_MAX_BOARDS {
            break;
        }
        boards = next;
        seeds += 1;
    }
    seeds
}

/// The most positions (boards, players to move and splits of the captures) an Oware
/// table is given by default: 9 seeds on six houses a side (5.5 M positions, a byte
/// each), built in about a minute on two cores (docs/analysis.md) and kept in the
/// user's cache directory.
const DEFAULT_MAX_OWARE_POSITIONS: u64 = 6 << 20;

/// The seeds of the largest Oware table within the default size (0 for rules without
/// Oware tables).
fn default_oware_seeds(rules: Rules) -> u16 {
    if !OwareTable::supports(rules) {
        return 0;
    }
    let cells = 2 * rules.houses() as u64;
    let (mut boards, mut positions, mut seeds) = (1u64, 2u64, 0u16); // C(s + cells - 1, cells - 1)
    while seeds < rules.total_seeds() {
        let next = boards * (u64::from(seeds) + cells) / (u64::from(seeds) + 1);
        let total = positions + 2 * next * (u64::from(seeds) + 2);
        if total > DEFAULT_MAX_OWARE_POSITIONS {
            break;
        }
        (boards, positions, seeds) = (next, total, seeds + 1);
    }
    seeds
}

/// An Oware table that may still be building (or being read from its file).
pub(crate) type PendingOwareTable = Arc<OnceLock<Arc<OwareTable>>>;

static OWARE_TABLES: Mutex<Vec<((Rules, u16), PendingOwareTable)>> = Mutex::new(Vec::new());

/// The Oware table of `rules` with at most `seeds` seeds on the board, shared by the
/// whole process: read from the user's cache directory
/// ([`OwareTable::cache_path`]), or built on a thread of its own and written there;
/// `None` for rules without Oware tables or for 0 seeds.
pub(crate) fn shared_oware_table(rules: Rules, seeds: u16) -> Option<PendingOwareTable> {
    if !OwareTable::supports(rules) || seeds == 0 {
        return None;
    }
    let mut tables = OWARE_TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, table)) = tables.iter().find(|(key, _)| *key == (rules, seeds)) {
        return Some(Arc::clone(table));
    }
    let table: PendingOwareTable = Arc::new(OnceLock::new());
    tables.push(((rules, seeds), Arc::clone(&table)));
    let building = Arc::clone(&table);
    thread::Builder::new()
        .name("oware table".into())
        .spawn(move || {
            let _one_at_a_time = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
            let path = OwareTable::cache_path(rules, seeds);
            if let Ok(built) =
                OwareTable::load_or_build(rules, seeds, path.as_deref(), None, |_| {})
            {
                let _ = building.set(Arc::new(built));
            }
        })
        .ok()?;
    Some(table)
}

/// The table of `rules` with at most `seeds` seeds in play, shared with every other
/// search of this process that asked for the same, and started building on a thread of
/// its own if nobody has; `None` for rules without tables or for 0 seeds.
pub(crate) fn shared_table(rules: Rules, seeds: u16) -> Option<PendingTable> {
    if !EndgameTable::supports(rules) || seeds == 0 {
        return None;
    }
    let seeds = seeds.min(rules.total_seeds());
    let mut guard = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let tables = guard.get_or_insert_with(|| Tables {
        by_rules: HashMap::new(),
        last: None,
    });
    if let Some(table) = tables.by_rules.get(&(rules, seeds)).and_then(Weak::upgrade) {
        tables.last = Some(Arc::clone(&table));
        return Some(table);
    }
    tables.by_rules.retain(|_, t| t.strong_count() > 0);
    let table: PendingTable = Arc::new(OnceLock::new());
    tables
        .by_rules
        .insert((rules, seeds), Arc::downgrade(&table));
    tables.last = Some(Arc::clone(&table));
    let building = Arc::downgrade(&table);
    thread::Builder::new()
        .name("endgame table".into())
        .spawn(move || {
            // One build at a time: each already takes every core, and a server asked
            // for tables of many rules at once builds them one after another.
            let _one_at_a_time = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
            // Nobody needs it any more (its games ended while it waited): skip it.
            if building.strong_count() == 0 {
                return;
            }
            if let Ok(built) = EndgameTable::build(rules, seeds)
                && let Some(cell) = building.upgrade()
            {
                let _ = cell.set(built);
            }
        })
        .ok()?;
    Some(table)
}

/// Waits at most `within` for `table` (an endgame or an Oware table) to be built;
/// whether it is. (A build that failed or was skipped never sets it: the wait then runs
/// out.)
pub(crate) fn wait_for<T>(table: &OnceLock<T>, within: Duration) -> bool {
    let start = Instant::now();
    while table.get().is_none() {
        let left = within.saturating_sub(start.elapsed());
        if left.is_zero() {
            return false;
        }
        thread::sleep(left.min(Duration::from_millis(10)));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_is_built_for_each_rules_and_shared() {
        let rules = Rules::kalah(2, 2);
        let a = shared_table(rules, 8).unwrap();
        let b = shared_table(rules, 8).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(wait_for(&a, Duration::from_secs(30)), "never built");
        assert_eq!(a.get().unwrap().seeds(), 8);
        assert!(shared_table(Rules::oware(6, 4), 8).is_none());
        assert!(shared_table(rules, 0).is_none());
    }
}
