//! The Oware endgame table: the exact value of Oware positions with few seeds on the
//! board, where it can be proved, for every split of the captures.
//!
//! Oware's repetition rule makes a position's value depend on the positions since the
//! last capture. The table holds each position's *fresh* value, its value with no
//! position before it since the last capture (as after a capture, or at the start),
//! and says whether that value holds whatever the history. A value it cannot prove is
//! absent, never guessed.
//!
//! # Keys
//!
//! A position is its board, the player to move and the captures. With `s` seeds on the
//! board of a game of `T` seeds and neither player past half, player 1 holds
//! `T/2 - s + a` and player 2 `T/2 - a` for a *split* `a` in `0..=s`; a capture by player 1
//! keeps `a`, one by player 2 lowers it by the seeds taken. The boards of `s` seeds
//! are numbered densely ([`Numbering`]), so a layer of the table is `s + 1` arrays (one
//! a split) of a byte a position.

mod build;
pub(crate) mod limit;

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use mancala_core::{Position, Rules, Side, Variant};
use rayon::prelude::*;

use crate::error::SolveError;
use build::{Bounds, LayerGraph, SplitSolve};

/// A value the table does not hold.
const UNKNOWN: i8 = i8::MIN;

/// A table entry: the value times two, plus one when it holds whatever the history.
fn encode(value: i32, settled: bool) -> i8 {
    (2 * value + i32::from(settled)) as i8
}

/// The dense numbering of the boards of `n` houses holding exactly `s` seeds: the
/// combinatorial number system over the places of the `n - 1` bars between houses.
#[derive(Clone, Debug)]
struct Numbering {
    n: usize,
    /// `binom[p][k] = C(p, k)`.
    binom: Vec<Vec<u64>>,
}

impl Numbering {
    fn new(n: usize, max_seeds: usize) -> Numbering {
        let top = max_seeds + n + 1;
        let mut binom = vec![vec![0u64; n + 1]; top + 1];
        for p in 0..=top {
            binom[p][0] = 1;
            for k in 1..=n.min(p) {
                binom[p][k] = binom[p - 1][k - 1] + if k < p { binom[p - 1][k] } else { 0 };
            }
        }
        Numbering { n, binom }
    }

    /// How many boards hold `s` seeds.
    fn count(&self, s: usize) -> usize {
        self.binom[s + self.n - 1][self.n - 1] as usize
    }

    /// The number of the board `cells` (`n` houses) among those of its seeds.
    fn rank(&self, cells: &[u16]) -> usize {
        let mut sum = 0usize;
        let mut r = 0u64;
        for (j, &c) in cells[..self.n - 1].iter().enumerate() {
            sum += usize::from(c);
            r += self.binom[sum + j][j + 1];
        }
        r as usize
    }

    /// The board numbered `r` among those of `s` seeds, into `cells`.
    fn unrank(&self, s: usize, mut r: usize, cells: &mut [u16]) {
        let n = self.n;
        let mut bar = s + n - 1; // one past the highest place a bar can take
        let mut after = s + n - 1;
        for j in (0..n - 1).rev() {
            let mut p = bar - 1;
            while self.binom[p][j + 1] as usize > r {
                p -= 1;
            }
            r -= self.binom[p][j + 1] as usize;
            cells[j + 1] = (after - p - 1) as u16;
            after = p;
            bar = p;
        }
        cells[0] = after as u16;
    }
}

/// How a build went, layer by layer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwareTableStats {
    /// For each seed count on the board (from 0): positions (every split counted),
    /// exact fresh values, and values that hold whatever the history.
    pub layers: Vec<LayerStats>,
}

/// One seed count's figures in [`OwareTableStats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: usize,
    /// Positions: boards, times two players to move, times the splits of the captures.
    pub positions: u64,
    /// Positions whose fresh value is held.
    pub exact: u64,
    /// Positions whose value holds whatever the history.
    pub settled: u64,
    /// The time the layer took to build (zero when read from a file).
    pub time: Duration,
}

/// Exact values of Oware positions with at most [`OwareTable::seeds`] seeds on the
/// board, where the build proved them (see the module documentation).
///
/// ```
/// use mancala_core::{Game, Rules};
/// use mancala_solver::{OwareTable, SolveConfig, Solver};
/// let rules = Rules::oware(3, 1);
/// let table = OwareTable::build(rules, 6, None, |_| {}).unwrap();
/// let start = mancala_core::Position::new(rules);
/// let mut solver = Solver::new(SolveConfig::default().with_table_mb(16));
/// let solved = solver.value(&Game::new(rules)).unwrap();
/// assert_eq!(table.fresh_margin(&start), Some(solved));
/// ```
pub struct OwareTable {
    rules: Rules,
    seeds: usize,
    numbering: Numbering,
    /// `layers[s][a][position]`: the entry ([`encode`]).
    layers: Vec<Vec<Vec<i8>>>,
    stats: OwareTableStats,
}

impl std::fmt::Debug for OwareTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwareTable")
            .field("rules", &self.rules)
            .field("seeds", &self.seeds)
            .finish_non_exhaustive()
    }
}

/// The largest game the table numbers: a value and its flag fit a byte.
const MAX_TOTAL_SEEDS: u16 = 63;

impl OwareTable {
    /// Whether tables can be built for `rules`: Oware of at most 63 seeds and at most
    /// 16 houses a side.
    #[must_use]
    pub fn supports(rules: Rules) -> bool {
        rules.variant() == Variant::Oware
            && rules.total_seeds() <= MAX_TOTAL_SEEDS
            && rules.houses() <= 16
    }

    /// Builds the table of every position of `rules` with at most `seeds` seeds on the
    /// board (at most the game's), calling `progress` after each seed count. Path
    /// searches stop at `deadline`: positions not proved by then are left out.
    ///
    /// # Errors
    /// [`SolveError::Unsupported`] for rules other than Oware's,
    /// [`SolveError::TooLarge`] for a game of more than 63 seeds.
    pub fn build(
        rules: Rules,
        seeds: u16,
        deadline: Option<Instant>,
        mut progress: impl FnMut(&LayerStats),
    ) -> Result<OwareTable, SolveError> {
        if rules.variant() != Variant::Oware {
            return Err(SolveError::Unsupported(rules.variant()));
        }
        if !OwareTable::supports(rules) {
            return Err(SolveError::TooLarge(format!(
                "an Oware table for {rules}: at most {MAX_TOTAL_SEEDS} seeds and 16 houses"
            )));
        }
        let seeds = usize::from(seeds.min(rules.total_seeds()));
        let numbering = Numbering::new(2 * rules.houses(), seeds);
        let stop = AtomicBool::new(false);
        let mut bounds: Vec<Vec<Bounds>> = Vec::new();
        let mut stats = OwareTableStats::default();
        for s in 0..=seeds {
            let start = Instant::now();
            let layer = if s == 0 {
                // Every seed captured, neither past half: a draw.
                vec![Bounds {
                    lo: vec![0; 2],
                    hi: vec![0; 2],
                    settled: vec![true; 2],
                }]
            } else {
                let g = LayerGraph::build(rules, &numbering, s);
                (0..s + 1)
                    .into_par_iter()
                    .with_max_len(1)
                    .map(|a| {
                        if !splits(rules, s).contains(&a) {
                            return Bounds::default();
                        }
                        SplitSolve {
                            rules,
                            g: &g,
                            a,
                            below: &bounds,
                            node_cap: NODE_CAP,
                            deadline,
                            stop: &stop,
                        }
                        .solve()
                    })
                    .collect()
            };
            let mut st = LayerStats {
                seeds: s,
                time: start.elapsed(),
                ..LayerStats::default()
            };
            for b in &layer {
                st.positions += b.lo.len() as u64;
                st.exact += b.lo.iter().zip(&b.hi).filter(|(l, h)| l == h).count() as u64;
                st.settled += b.settled.iter().filter(|&&x| x).count() as u64;
            }
            progress(&st);
            stats.layers.push(st);
            bounds.push(layer);
        }
        let layers = bounds
            .iter()
            .map(|layer| layer.iter().map(Bounds::encoded).collect())
            .collect();
        Ok(OwareTable {
            rules,
            seeds,
            numbering,
            layers,
            stats,
        })
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The most seeds on the board of a position it holds.
    #[must_use]
    pub fn seeds(&self) -> u16 {
        self.seeds as u16
    }

    /// The figures of its layers.
    #[must_use]
    pub fn stats(&self) -> &OwareTableStats {
        &self.stats
    }

    /// The entry of `pos`, if the table has a place for it.
    fn entry(&self, pos: &Position) -> Option<i8> {
        if pos.rules() != self.rules {
            return None;
        }
        let s = usize::from(pos.seeds_in_play());
        if s > self.seeds || s == 0 {
            return None;
        }
        let h = self.rules.houses();
        let mut cells = [0u16; 32];
        cells[..h].copy_from_slice(pos.houses(Side::South));
        cells[h..2 * h].copy_from_slice(pos.houses(Side::North));
        let id =
            2 * self.numbering.rank(&cells[..2 * h]) + usize::from(pos.to_move() == Side::North);
        let half = usize::from(self.rules.total_seeds() / 2);
        // A player past half has won: the game is over, and not in the table.
        let a = (usize::from(pos.store(Side::South)) + s).checked_sub(half)?;
        let split = self.layers[s].get(a)?;
        split.get(id).copied().filter(|&e| e != UNKNOWN)
    }

    /// The final margin (player 1's score minus player 2's) of `pos` under perfect play
    /// when no position before it since the last capture can come round again (as
    /// right after a capture, or at the start of a game), if the table holds it.
    #[must_use]
    pub fn fresh_margin(&self, pos: &Position) -> Option<i32> {
        self.entry(pos).map(|e| i32::from(e) >> 1)
    }

    /// The final margin of `pos` under perfect play whatever the positions before it
    /// since the last capture (none of them `pos` itself), if the table proves that.
    #[must_use]
    pub fn settled_margin(&self, pos: &Position) -> Option<i32> {
        self.entry(pos)
            .filter(|e| e & 1 == 1)
            .map(|e| i32::from(e) >> 1)
    }
}

/// The most nodes one path search of the build visits before it gives up on a position:
/// on Oware(6,4) up to 8 seeds, 200 nodes proved 61.2% of the 8-seed positions in 14 s,
/// 2,000 nodes 61.6% in 93 s (docs/solver.md).
const NODE_CAP: u64 = 200;

/// The first bytes of a table file.
const FILE_MAGIC: &[u8; 8] = b"MOWARETB";

/// The format of the file and of the build that fills it: raised whenever either
/// changes what a file holds, so that an old file is built again, not trusted.
const FILE_VERSION: u8 = 1;

impl OwareTable {
    /// Writes the table: [`FILE_MAGIC`], the format version, the houses a side, the
    /// seeds a house at the start and the table's seeds (a byte each), then every
    /// layer's splits' entries, a byte a position.
    ///
    /// # Errors
    /// What writing fails with.
    pub fn write_to(&self, mut w: impl Write) -> io::Result<()> {
        w.write_all(FILE_MAGIC)?;
        w.write_all(&self.head())?;
        for split in self.layers.iter().flatten() {
            w.write_all(bytemuck::cast_slice(split))?;
        }
        w.flush()
    }

    fn head(&self) -> [u8; 4] {
        head(self.rules, self.seeds)
    }

    /// Reads a table written by [`OwareTable::write_to`] for `rules` and `seeds`; the
    /// message says what is wrong with a file that is not one.
    ///
    /// # Errors
    /// A file of another format version, rules or size, or cut short.
    pub fn read_from(rules: Rules, seeds: u16, mut r: impl Read) -> Result<OwareTable, String> {
        if !OwareTable::supports(rules) {
            return Err(format!("no Oware table for {rules}"));
        }
        let seeds = usize::from(seeds.min(rules.total_seeds()));
        let mut magic = [0u8; 12];
        r.read_exact(&mut magic)
            .map_err(|_| "too short to be an Oware table".to_string())?;
        if &magic[..8] != FILE_MAGIC {
            return Err("not an Oware table of this program".into());
        }
        if magic[8] != FILE_VERSION {
            return Err(format!(
                "an Oware table of format {} (this program reads format {FILE_VERSION})",
                magic[8]
            ));
        }
        if magic[8..] != head(rules, seeds) {
            return Err("an Oware table for other rules or seeds".into());
        }
        let numbering = Numbering::new(2 * rules.houses(), seeds);
        let mut layers = Vec::new();
        let mut stats = OwareTableStats::default();
        for s in 0..=seeds {
            let n = 2 * numbering.count(s);
            let mut layer = Vec::new();
            let mut st = LayerStats {
                seeds: s,
                ..LayerStats::default()
            };
            for a in 0..=s {
                let n = if splits(rules, s).contains(&a) { n } else { 0 };
                let mut split = vec![0i8; n];
                r.read_exact(bytemuck::cast_slice_mut(&mut split))
                    .map_err(|_| "it is cut short".to_string())?;
                st.positions += n as u64;
                st.exact += split.iter().filter(|&&e| e != UNKNOWN).count() as u64;
                st.settled += split
                    .iter()
                    .filter(|&&e| e != UNKNOWN && e & 1 == 1)
                    .count() as u64;
                layer.push(split);
            }
            stats.layers.push(st);
            layers.push(layer);
        }
        if r.read(&mut [0u8; 1]).map_err(|e| e.to_string())? != 0 {
            return Err("it is longer than a table of its size".into());
        }
        Ok(OwareTable {
            rules,
            seeds,
            numbering,
            layers,
            stats,
        })
    }

    /// The file a table for `rules` and `seeds` is kept in, in the user's cache
    /// directory: `$XDG_CACHE_HOME/mancala`, else `~/.cache/mancala`.
    #[must_use]
    pub fn cache_path(rules: Rules, seeds: u16) -> Option<PathBuf> {
        let dir = std::env::var_os("XDG_CACHE_HOME")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
        Some(dir.join("mancala").join(format!(
            "oware-{}x{}-{seeds}.owt",
            rules.houses(),
            rules.seeds()
        )))
    }

    /// The table for `rules` and `seeds` read from `path` if it holds one, else built
    /// (path searches stopped at `deadline`) and written there (through a temporary
    /// file, renamed into place). A file that cannot be written leaves the table built
    /// all the same; one that is not a table of this program is rebuilt over.
    ///
    /// # Errors
    /// As [`OwareTable::build`].
    pub fn load_or_build(
        rules: Rules,
        seeds: u16,
        path: Option<&Path>,
        deadline: Option<Instant>,
        progress: impl FnMut(&LayerStats),
    ) -> Result<OwareTable, SolveError> {
        if let Some(path) = path
            && let Ok(file) = std::fs::File::open(path)
            && let Ok(table) = OwareTable::read_from(rules, seeds, io::BufReader::new(file))
        {
            return Ok(table);
        }
        let table = OwareTable::build(rules, seeds, deadline, progress)?;
        if let Some(path) = path {
            let _ = table.write_file(path);
        }
        Ok(table)
    }

    fn write_file(&self, path: &Path) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(format!(".partial{}", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let written = std::fs::File::create(&temporary)
            .and_then(|file| self.write_to(io::BufWriter::new(file)))
            .and_then(|()| std::fs::rename(&temporary, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written
    }
}

/// The splits `a` a layer of `s` seeds has: both players' captures (`T/2 - s + a`
/// and `T/2 - a`) at least 0.
fn splits(rules: Rules, s: usize) -> std::ops::RangeInclusive<usize> {
    let half = usize::from(rules.total_seeds() / 2);
    s.saturating_sub(half)..=s.min(half)
}

fn head(rules: Rules, seeds: usize) -> [u8; 4] {
    [
        FILE_VERSION,
        rules.houses() as u8,
        rules.seeds() as u8,
        seeds as u8,
    ]
}

#[cfg(test)]
mod tests {
    use mancala_core::Game;

    use super::*;
    use crate::{SolveConfig, Solver};

    /// Every position of `table` (every board, player to move and split) with its
    /// entry.
    fn every_entry(table: &OwareTable) -> Vec<(Position, i8)> {
        let rules = table.rules;
        let h = rules.houses();
        let half = rules.total_seeds() / 2;
        let mut all = Vec::new();
        for s in 1..=table.seeds {
            for (a, split) in table.layers[s].iter().enumerate() {
                for (id, &e) in split.iter().enumerate() {
                    let mut cells = [0u16; 32];
                    table.numbering.unrank(s, id / 2, &mut cells[..2 * h]);
                    let side = if id % 2 == 0 {
                        Side::South
                    } else {
                        Side::North
                    };
                    let stores = [half + a as u16 - s as u16, half - a as u16];
                    let p =
                        Position::from_parts(rules, [&cells[..h], &cells[h..2 * h]], stores, side)
                            .unwrap();
                    all.push((p, e));
                }
            }
        }
        all
    }

    #[test]
    fn numbers_are_dense_and_read_back() {
        let numbering = Numbering::new(6, 5);
        for s in 0..=5 {
            let mut cells = [0u16; 6];
            for r in 0..numbering.count(s) {
                numbering.unrank(s, r, &mut cells);
                assert_eq!(cells.iter().sum::<u16>() as usize, s);
                assert_eq!(numbering.rank(&cells), r);
            }
        }
        assert_eq!(numbering.count(5), 252); // C(10, 5)
    }

    /// Every value the table holds is the solver's (which follows the history itself)
    /// for the position with no history, and most positions are held.
    #[test]
    fn every_entry_is_the_solvers_fresh_value() {
        for rules in [Rules::oware(2, 2), Rules::oware(3, 1), Rules::oware(2, 3)] {
            let table = OwareTable::build(rules, rules.total_seeds(), None, |_| {}).unwrap();
            let mut solver = Solver::new(SolveConfig::default().with_table_mb(64));
            let (mut held, mut all) = (0, 0);
            for (p, e) in every_entry(&table) {
                let game = Game::from_position(p);
                all += 1;
                if e == UNKNOWN {
                    assert_eq!(table.fresh_margin(&p), None);
                    continue;
                }
                held += 1;
                let value = solver.value(&game).unwrap();
                assert_eq!(table.fresh_margin(&p), Some(value), "{rules} {p:?}");
            }
            assert!(held * 2 > all, "{rules}: {held} of {all} held");
        }
    }

    /// Oware(3,2), whose sets are larger: a sample of its entries against the solver.
    #[test]
    fn a_sample_of_a_larger_board_is_the_solvers() {
        let rules = Rules::oware(3, 2);
        let table = OwareTable::build(rules, 8, None, |_| {}).unwrap();
        let mut solver = Solver::new(SolveConfig::default().with_table_mb(64));
        let mut checked = 0;
        for (p, e) in every_entry(&table).into_iter().step_by(61) {
            if e != UNKNOWN {
                let value = solver.value(&Game::from_position(p)).unwrap();
                assert_eq!(table.fresh_margin(&p), Some(value), "{p:?}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }

    /// A value the table says holds whatever the history is the solver's after any
    /// capture-free path into the position.
    #[test]
    fn settled_values_hold_after_a_history() {
        let rules = Rules::oware(2, 3);
        let table = OwareTable::build(rules, rules.total_seeds(), None, |_| {}).unwrap();
        let mut solver = Solver::new(SolveConfig::default().with_table_mb(64));
        let mut checked = 0;
        for (p, e) in every_entry(&table) {
            if e == UNKNOWN || p.is_over() {
                continue;
            }
            // One capture-free move, then the position's settled value after it.
            for mv in p.legal_moves() {
                let mut game = Game::from_position(p);
                let before = p.stores();
                game.play(mv).unwrap();
                let next = *game.position();
                if next.stores() != before || next.is_over() || game.is_over() {
                    continue;
                }
                if let Some(settled) = table.settled_margin(&next) {
                    assert_eq!(
                        solver.value(&game).unwrap(),
                        settled,
                        "{next:?} after {p:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 50, "{checked}");
    }

    /// The solver reading the table gives every move the value it gives without it,
    /// along games with their histories.
    #[test]
    fn the_solver_with_the_table_agrees_with_the_solver_without() {
        let rules = Rules::oware(2, 3);
        let table = std::sync::Arc::new(OwareTable::build(rules, 8, None, |_| {}).unwrap());
        let mut plain = Solver::new(SolveConfig::default().with_table_mb(64));
        let mut read = Solver::new(SolveConfig::default().with_table_mb(64));
        read.set_oware_table(table);
        let mut seed = 11u64;
        let mut compared = 0;
        for _ in 0..12 {
            let mut game = Game::new(rules);
            while !game.is_over() {
                let a = plain.solve(&game).unwrap().move_values;
                let b = read.solve(&game).unwrap().move_values;
                assert_eq!(a, b, "{:?}", game.moves());
                compared += 1;
                let moves = game.legal_moves();
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                game.play(moves[(seed >> 33) as usize % moves.len()])
                    .unwrap();
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn files_round_trip_and_are_checked() {
        let rules = Rules::oware(3, 2);
        let table = OwareTable::build(rules, 6, None, |_| {}).unwrap();
        let mut file = Vec::new();
        table.write_to(&mut file).unwrap();
        let read = OwareTable::read_from(rules, 6, &file[..]).unwrap();
        assert_eq!(read.layers, table.layers);
        assert_eq!(read.stats.layers.len(), 7);
        let err = OwareTable::read_from(rules, 5, &file[..]).err().unwrap();
        assert!(err.contains("other rules or seeds"), "{err}");
        let err = OwareTable::read_from(rules, 6, &file[..file.len() - 1])
            .err()
            .unwrap();
        assert!(err.contains("cut short"), "{err}");
        let mut longer = file.clone();
        longer.push(0);
        assert!(OwareTable::read_from(rules, 6, &longer[..]).is_err());
        file[8] = FILE_VERSION + 1;
        let err = OwareTable::read_from(rules, 6, &file[..]).err().unwrap();
        assert!(err.contains("format"), "{err}");
        file[0] = b'X';
        assert!(OwareTable::read_from(rules, 6, &file[..]).is_err());
    }

    #[test]
    fn a_table_is_kept_in_a_file_and_read_back() {
        let dir = std::env::temp_dir().join(format!("owtable-test-{}", std::process::id()));
        let path = dir.join("t.owt");
        let rules = Rules::oware(2, 2);
        let built = OwareTable::load_or_build(rules, 8, Some(&path), None, |_| {}).unwrap();
        assert!(path.exists());
        let mut layers = 0;
        let read = OwareTable::load_or_build(rules, 8, Some(&path), None, |_| layers += 1).unwrap();
        assert_eq!(layers, 0, "read, not built");
        assert_eq!(read.layers, built.layers);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
