//! Monte-Carlo tree search (UCT) with uniformly random playouts.

use std::sync::LazyLock;
use std::time::{Duration, Instant};

use mancala_core::variants::RuleSet;
use mancala_core::{Game, Move, Outcome, Position, Side};
use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use crate::{Choice, Player};

/// The longest random playout; longer ones (possible in games with a repetition
/// rule, which playouts do not track) end there and share the seeds as a
/// repetition would.
pub const PLAYOUT_LIMIT: u32 = 1000;

/// The most tree nodes kept; past it the tree stops growing and simulations only play
/// out from its leaves.
pub const MAX_TREE_NODES: usize = 4_000_000;

/// When MCTS stops: the first limit reached (at least one simulation is run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MctsLimits {
    /// Simulations to run.
    pub sims: Option<u64>,
    /// Time to think.
    pub time: Option<Duration>,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Sum of player 1's rewards (1 win, 1/2 draw) over the visits; player 2's are
    /// `visits - south_wins`. One player's sum serves both, so that backpropagation
    /// need not know who moved where.
    south_wins: f32,
    visits: u32,
    first_child: u32,
    /// Where the node's position is kept, who moves there and how many children it
    /// has, once it is expanded. The move leading to a node is not stored: the `i`th
    /// child of a node is reached by the `i`th legal move of its position.
    expansion: Expansion,
}

impl Node {
    /// A node neither visited nor expanded yet.
    fn new() -> Node {
        Node {
            south_wins: 0.0,
            visits: 0,
            first_child: 0,
            expansion: Expansion::NONE,
        }
    }

    /// The mean reward for `side`, in 0..=1 (0 before the first visit).
    fn mean_for(&self, side: Side) -> f32 {
        let south = self.south_wins / self.visits.max(1) as f32;
        match side {
            Side::South => south,
            Side::North if self.visits == 0 => 0.0,
            Side::North => 1.0 - south,
        }
    }
}

/// What selection and simulation need to know of an expanded node besides its first
/// child, packed in 32 bits so that a [`Node`] fits in 16 bytes (four to a cache
/// line): the number of children (bits 0 to 6; 0 for a node not expanded), the side
/// to move (bit 7, set for North) and the index of the node's position in
/// [`Mcts`]'s kept positions (bits 8 to 31).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Expansion(u32);

impl Expansion {
    /// The expansion of a node not expanded yet.
    const NONE: Expansion = Expansion(0);

    /// An expanded node's: `children` children (1 to 127), `mover` to move, its
    /// position kept at index `position` (below 2^24).
    fn new(children: usize, mover: Side, position: usize) -> Expansion {
        debug_assert!((1..128).contains(&children) && position < 1 << 24);
        let north = u32::from(mover == Side::North);
        Expansion(children as u32 | north << 7 | (position as u32) << 8)
    }

    /// The number of children (0 if the node is not expanded).
    #[inline]
    fn children(self) -> usize {
        (self.0 & 0x7f) as usize
    }

    /// The side to move at the node.
    #[inline]
    fn mover(self) -> Side {
        if self.0 & 0x80 == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The index of the node's position among the kept positions.
    #[inline]
    fn position(self) -> usize {
        (self.0 >> 8) as usize
    }
}

// Positions are kept for expanded nodes only, fewer than the nodes, and must be
// numbered in 24 bits.
const _: () = assert!(MAX_TREE_NODES < 1 << 24);
// Children are counted in 7 bits.
const _: () = assert!(mancala_core::MAX_HOUSES < 128);

/// Monte-Carlo tree search: UCT selection, one node expanded per simulation, one
/// uniformly random playout per simulation, played until its winner is certain (the
/// end of the game, or a store holding more than half of the seeds); plays the most
/// visited move. Seeded, so a game can be reproduced (given a simulation limit).
///
/// The tree is rebuilt for every move. A repetition rule is not applied inside
/// the tree or the playouts (see [`PLAYOUT_LIMIT`]).
///
/// ```
/// use mancala_core::{Game, Rules};
/// use mancala_engine::{Mcts, MctsLimits, Player};
/// let game = Game::new(Rules::oware(6, 4));
/// let limits = MctsLimits { sims: Some(2000), time: None };
/// let a = Mcts::new(limits, 9).choose(&game);
/// let b = Mcts::new(limits, 9).choose(&game);
/// assert_eq!(a, b);
/// assert!(game.legal_moves().contains(&a.mv));
/// ```
#[derive(Clone, Debug)]
pub struct Mcts {
    limits: MctsLimits,
    exploration: f32,
    rng: SmallRng,
    nodes: Vec<Node>,
    /// The position of every expanded node, at the index its [`Expansion`] holds: a
    /// simulation starts its leaf from its parent's position instead of replaying the
    /// moves from the root (one position per expansion, a fifth of the nodes or fewer
    /// in Kalah(6,4): at most about 64 MB).
    positions: Vec<Position>,
    path: Vec<u32>,
    threads: usize,
}

impl Mcts {
    /// A player with these limits and random seed.
    #[must_use]
    pub fn new(limits: MctsLimits, seed: u64) -> Mcts {
        Mcts {
            limits,
            exploration: 1.0,
            rng: SmallRng::seed_from_u64(seed),
            nodes: Vec::new(),
            positions: Vec::new(),
            path: Vec::new(),
            threads: 1,
        }
    }

    /// The same player growing `threads` trees at once (root parallelism): each
    /// thread its own tree and random numbers within the same limits, the move the
    /// most visited over all trees. One thread is the plain search.
    #[must_use]
    pub fn with_threads(self, threads: usize) -> Mcts {
        Mcts {
            threads: threads.max(1),
            ..self
        }
    }

    /// The same player with UCT exploration constant `c` (default 1.0; rewards are in
    /// 0..=1).
    #[must_use]
    pub fn with_exploration(self, c: f32) -> Mcts {
        Mcts {
            exploration: c,
            ..self
        }
    }

    /// Runs the search from `root` (not over) and returns the most visited move and
    /// the number of simulations run.
    ///
    /// # Panics
    /// If `root` is over.
    pub fn search(&mut self, root: &Position) -> (Move, u64, f32) {
        if self.threads <= 1 {
            let sims = self.grow(root);
            let (i, rate) = Self::best_root_child(root, &self.root_visits());
            return (root.legal_moves()[i], sims, rate);
        }
        let mut helpers: Vec<Mcts> = (1..self.threads)
            .map(|_| Mcts::new(self.limits, self.rng.next_u64()).with_exploration(self.exploration))
            .collect();
        let (sims, visits) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| scope.spawn(move || (h.grow(root), h.root_visits())))
                .collect();
            let mut sims = self.grow(root);
            let mut visits = self.root_visits();
            for handle in handles {
                let (s, v) = handle.join().expect("an MCTS thread panicked");
                sims += s;
                for (total, n) in visits.iter_mut().zip(v) {
                    total.0 += n.0;
                    total.1 += n.1;
                }
            }
            (sims, visits)
        });
        let (i, rate) = Self::best_root_child(root, &visits);
        (root.legal_moves()[i], sims, rate)
    }

    /// The visits and player 1's reward sum of each root child, in move order.
    fn root_visits(&self) -> Vec<(u32, f32)> {
        let root = self.nodes[0];
        self.nodes[root.first_child as usize..][..root.expansion.children()]
            .iter()
            .map(|c| (c.visits, c.south_wins))
            .collect()
    }

    /// The most visited root child and its reward rate for the player to move.
    fn best_root_child(root: &Position, visits: &[(u32, f32)]) -> (usize, f32) {
        let (i, &(visits, south_wins)) = visits
            .iter()
            .enumerate()
            .max_by_key(|(_, c)| c.0)
            .expect("the root was expanded");
        let node = Node {
            south_wins,
            visits,
            ..Node::new()
        };
        (i, node.mean_for(root.to_move()))
    }

    /// Grows a fresh tree from `root` within the limits; the simulations run.
    fn grow(&mut self, root: &Position) -> u64 {
        let moves = root.legal_moves();
        assert!(!moves.is_empty(), "search of a finished position");
        let start = Instant::now();
        self.nodes.clear();
        self.positions.clear();
        self.nodes.push(Node::new());
        let uct: &UctTable = &UCT_TABLE;
        let mut sims = 0u64;
        loop {
            self.simulate(root, uct);
            sims += 1;
            if self.limits.sims.is_some_and(|n| sims >= n) {
                break;
            }
            if sims % 256 == 0 && self.limits.time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            if self.limits.sims.is_none() && self.limits.time.is_none() {
                break;
            }
        }
        sims
    }

    /// The child of `parent` (where `mover` is to move) to descend to: the first
    /// unvisited one, else the one with the highest UCT value
    /// `wins / n + c * sqrt(ln N / n)` for `mover`, computed as
    /// `base + sign * south_wins * (1 / n) + (c * sqrt(ln N)) * (1 / sqrt(n))` with the
    /// terms looked up (`wins / n` is `1 - south_wins / n` for player 2).
    fn select(&self, parent: usize, uct: &UctTable) -> usize {
        let p = self.nodes[parent];
        let first = p.first_child as usize;
        let mover = p.expansion.mover();
        let explore = self.exploration * uct.sqrt_ln(p.visits.max(1));
        let (base, sign) = match mover {
            Side::South => (0.0, 1.0),
            Side::North => (1.0, -1.0),
        };
        let mut best = first;
        let mut best_value = f32::NEG_INFINITY;
        for (i, c) in self.nodes[first..first + p.expansion.children()]
            .iter()
            .enumerate()
        {
            if c.visits == 0 {
                return first + i;
            }
            let (recip, recip_sqrt) = uct.recips(c.visits);
            let v = base + sign * c.south_wins * recip + explore * recip_sqrt;
            if v > best_value {
                best_value = v;
                best = first + i;
            }
        }
        best
    }

    /// One simulation: a UCT descent from the root to a leaf, which is expanded (if
    /// visited before, not over, and the tree has room) and one of whose children
    /// is then picked at random, a random playout from there and backpropagation.
    fn simulate(&mut self, root: &Position, uct: &UctTable) {
        let mut idx = 0usize;
        let mut parent = None;
        self.path.clear();
        self.path.push(0);
        while self.nodes[idx].expansion.children() > 0 {
            parent = Some(idx);
            idx = self.select(idx, uct);
            self.path.push(idx as u32);
        }
        let mut pos = match parent {
            None => *root,
            Some(p) => {
                let p = self.nodes[p];
                let mut pos = self.positions[p.expansion.position()];
                let mv = pos.legal_moves()[idx - p.first_child as usize];
                pos.play_unchecked(mv);
                pos
            }
        };
        let moves = pos.legal_moves();
        if !moves.is_empty()
            && (idx == 0 || self.nodes[idx].visits > 0)
            && self.nodes.len() + moves.len() <= MAX_TREE_NODES
        {
            let first = self.nodes.len();
            self.nodes.extend((0..moves.len()).map(|_| Node::new()));
            let node = &mut self.nodes[idx];
            node.first_child = first as u32;
            node.expansion = Expansion::new(moves.len(), pos.to_move(), self.positions.len());
            self.positions.push(pos);
            let k = pick(&mut self.rng, moves.len());
            idx = first + k;
            pos.play_unchecked(moves[k]);
            self.path.push(idx as u32);
        }
        let south_reward = match playout_winner(&mut pos, &mut self.rng) {
            Some(Side::South) => 1.0,
            None => 0.5,
            Some(Side::North) => 0.0,
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.south_wins += south_reward;
        }
    }
}

/// Visit counts below this have their UCT terms tabulated (768 KiB of tables, in the
/// level-2 cache: deep nodes read the first entries, and the busy nodes near the root
/// read neighbouring entries from one simulation to the next); in a long search only
/// the few nodes nearest the root have more visits.
const UCT_TABLE_LEN: usize = 1 << 16;

/// The one [`UctTable`], built on first use.
static UCT_TABLE: LazyLock<UctTable> = LazyLock::new(UctTable::new);

/// The costly parts of UCT values (a logarithm, square roots, divisions) tabulated
/// for visit counts below [`UCT_TABLE_LEN`], computed above. Selection looks at every
/// child of every node on the path, so this is most of its arithmetic.
#[derive(Debug)]
struct UctTable {
    /// `(1 / n, 1 / sqrt(n))`, side by side: one load for both.
    recips: Box<[(f32, f32)]>,
    /// `sqrt(ln n)`.
    sqrt_ln: Box<[f32]>,
}

impl UctTable {
    fn new() -> UctTable {
        // Index 0 is never looked up (counts are at least 1); it holds what n = 1 has.
        let counts = || (0..UCT_TABLE_LEN).map(|n| n.max(1) as f32);
        UctTable {
            recips: counts().map(|n| (n.recip(), n.sqrt().recip())).collect(),
            sqrt_ln: counts().map(|n| n.ln().sqrt()).collect(),
        }
    }

    /// `(1 / n, 1 / sqrt(n))` for a child visited `n > 0` times.
    #[inline]
    fn recips(&self, n: u32) -> (f32, f32) {
        match self.recips.get(n as usize) {
            Some(&pair) => pair,
            None => {
                let n = n as f32;
                (n.recip(), n.sqrt().recip())
            }
        }
    }

    /// `sqrt(ln n)` for a parent visited `n > 0` times.
    #[inline]
    fn sqrt_ln(&self, n: u32) -> f32 {
        match self.sqrt_ln.get(n as usize) {
            Some(&v) => v,
            None => self.ln_beyond(n).sqrt(),
        }
    }

    /// `ln n` for `n` beyond the tables, as `ln(n >> k) + k ln 2` with `n >> k` in the
    /// table's upper half: `n >> k` is within a factor `1 - 2^-15` of `n / 2^k`, so the
    /// result is within `2^-15` of `ln n` (a few millionths of it), without the cost of
    /// a logarithm call for the busiest nodes.
    #[inline]
    fn ln_beyond(&self, n: u32) -> f32 {
        let k = (u32::BITS - n.leading_zeros()).saturating_sub(UCT_TABLE_LEN.ilog2());
        let top = self.sqrt_ln[(n >> k) as usize];
        top * top + k as f32 * std::f32::consts::LN_2
    }
}

/// A uniform index below `len` (the multiply-shift method; bias below 2^-32).
#[inline]
fn pick(rng: &mut SmallRng, len: usize) -> usize {
    ((u64::from(rng.next_u32()) * len as u64) >> 32) as usize
}

/// Plays uniformly random moves to the end of the game (or [`PLAYOUT_LIMIT`] plies)
/// and returns the final scores.
///
/// ```
/// use mancala_core::{Position, Rules};
/// use mancala_engine::random_playout;
/// use rand::SeedableRng;
/// let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
/// let mut p = Position::new(Rules::kalah(6, 4));
/// let scores = random_playout(&mut p, &mut rng);
/// assert!(p.is_over());
/// assert_eq!(scores[0] + scores[1], 48);
/// ```
#[inline]
pub fn random_playout(pos: &mut Position, rng: &mut SmallRng) -> [u16; 2] {
    playout(pos, rng)
}

#[inline]
fn playout(pos: &mut Position, rng: &mut SmallRng) -> [u16; 2] {
    mancala_core::with_rule_set!(pos.variant(), R => playout_with::<R>(pos, rng))
}

/// [`playout`] for a position of `R`'s variant: calling the rule set directly, once
/// per game instead of once per move through [`Position`]'s dispatch, lets the move
/// generation and the sowing be inlined into the loop.
#[inline]
fn playout_with<R: RuleSet>(pos: &mut Position, rng: &mut SmallRng) -> [u16; 2] {
    debug_assert!(R::is_of(pos.variant()));
    for _ in 0..PLAYOUT_LIMIT {
        if pos.is_over() {
            return pos.final_scores();
        }
        let moves = R::legal_moves(pos);
        R::play(pos, moves[pick(rng, moves.len())]);
    }
    unfinished_scores(pos)
}

/// The scores of a playout that reached [`PLAYOUT_LIMIT`] plies: the final scores if
/// the game is over, or else as a repetition would end it (playouts do not track
/// repetitions, and a game this long has almost surely been cycling).
fn unfinished_scores(pos: &Position) -> [u16; 2] {
    if pos.is_over() {
        return pos.final_scores();
    }
    pos.end_by_repetition()
        .map_or_else(|| pos.stores_plus_rows(), |end| end.outcome.scores)
}

/// The winner (`None` for a draw) of a uniformly random playout from `pos`: the
/// [`random_playout`] of the same moves would end with the same winner, but this one
/// stops as soon as the winner is certain ([`Position::decided_winner`]), which in
/// a game with stores is often well before the last seed is banked.
#[inline]
fn playout_winner(pos: &mut Position, rng: &mut SmallRng) -> Option<Side> {
    mancala_core::with_rule_set!(pos.variant(), R => playout_winner_with::<R>(pos, rng))
}

/// [`playout_winner`] for a position of `R`'s variant (see [`playout_with`]).
#[inline]
fn playout_winner_with<R: RuleSet>(pos: &mut Position, rng: &mut SmallRng) -> Option<Side> {
    debug_assert!(R::is_of(pos.variant()));
    if let Some(side) = pos.decided_winner() {
        return Some(side);
    }
    // `Position::decided_winner` after each move, looking only at the mover's store
    // (every variant banks captures for the mover; a claimed house can bank for the
    // other player too, and a majority reached that way ends the game, seen
    // by `is_over` at the next turn): `2s > t` is `s > t / 2`. Reading the one store
    // the move wrote, and no wider, also lets the processor forward the value from the
    // write.
    let half = pos.rules().total_seeds() / 2;
    for _ in 0..PLAYOUT_LIMIT {
        if pos.is_over() {
            return Outcome::from_scores(pos.final_scores()).winner;
        }
        let mover = pos.to_move();
        let moves = R::legal_moves(pos);
        R::play(pos, moves[pick(rng, moves.len())]);
        if pos.store(mover) > half {
            debug_assert_eq!(pos.decided_winner(), Some(mover));
            return Some(mover);
        }
    }
    Outcome::from_scores(unfinished_scores(pos)).winner
}

impl Player for Mcts {
    fn name(&self) -> String {
        let mut parts = Vec::new();
        if let Some(n) = self.limits.sims {
            parts.push(format!("sims={n}"));
        }
        if let Some(t) = self.limits.time {
            parts.push(format!("ms={}", t.as_millis()));
        }
        format!("mcts({})", parts.join(","))
    }

    fn choose(&mut self, game: &Game) -> Choice {
        let (mv, sims, rate) = self.search(game.position());
        Choice {
            mv,
            reason: Some(format!(
                "won {:.0}% of its playouts in {sims} simulations",
                100.0 * rate
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::{EndRule, RuleOptions, Rules, Variant};
    use proptest::prelude::*;

    use super::*;

    /// The rules of `Variant::ALL[variant]` (the Kalah options are ignored by the
    /// others).
    fn rules(variant: usize, houses: u8, seeds: u8, option: u8) -> Rules {
        let rules = Rules::new(Variant::ALL[variant], houses, seeds).unwrap();
        rules.with_options(RuleOptions {
            empty_capture: option & 1 != 0,
            end_rule: if option & 2 != 0 {
                EndRule::EitherSideEmpty
            } else {
                EndRule::MoverCannotMove
            },
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// A playout that stops once its winner is certain names the winner that the
        /// same random moves played to the end produce.
        #[test]
        fn early_stopped_playouts_keep_the_winner(
            variant in 0..Variant::ALL.len(), houses in 1u8..=7, seeds in 1u8..=6, option in 0u8..4,
            plies in 0usize..40, seed: u64,
        ) {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut pos = Position::new(rules(variant, houses, seeds, option));
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[pick(&mut rng, moves.len())]);
            }
            let full = random_playout(&mut pos.clone(), &mut rng.clone());
            let winner = playout_winner(&mut pos.clone(), &mut rng);
            prop_assert_eq!(winner, Outcome::from_scores(full).winner, "{}", pos);
        }
    }
}
