//! Bounds on the value of a position of a strongly connected set from the positions
//! before it: what a player can be sure of with a *positional* strategy (a fixed move
//! at each position).
//!
//! Fix such a strategy for the maximiser. Whatever the minimiser does, the game
//! either leaves the set or ends by repetition on arriving at some position `w`. If
//! `w` came first in this game, the moves from `w` back to `w` follow the strategy,
//! so repeating them for ever is a play of the strategy too, and `w` is one of the
//! positions that play visits infinitely often. So the maximiser's value is at least
//! the lesser of (a) what the strategy makes sure of in the infinite game that pays
//! the least `rep` of the positions visited infinitely often (or the exit taken), and
//! (b) the least `rep` of the positions before the start that can come round again.
//! With no position before (a fresh start), (a) alone. That infinite game is a
//! co-Büchi game for each threshold: "from some point on, only positions worth at
//! least `t`", won by a positional strategy when it is won at all.
//!
//! These bounds are far tighter than the ones that hold whatever the history
//! ([`super::build::guarantee`]), which must count every position reachable as a
//! possible repetition.

/// A set's moves inside it, both ways, by local number.
#[derive(Clone, Copy)]
pub(crate) struct Arena<'a> {
    pub first: &'a [u32],
    pub inner: &'a [u32],
    pub pfirst: &'a [u32],
    pub parents: &'a [u32],
}

impl<'a> Arena<'a> {
    fn len(&self) -> usize {
        self.first.len() - 1
    }

    fn succ(&self, v: usize) -> &'a [u32] {
        &self.inner[self.first[v] as usize..self.first[v + 1] as usize]
    }

    fn pred(&self, u: usize) -> &'a [u32] {
        &self.parents[self.pfirst[u] as usize..self.pfirst[u + 1] as usize]
    }
}

/// Parents, in the layout of [`Arena`], from the moves `inner[first[v]..first[v+1]]`.
pub(crate) fn parents_of(first: &[u32], inner: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let m = first.len() - 1;
    let mut count = vec![0u32; m + 1];
    for &u in inner {
        count[u as usize + 1] += 1;
    }
    for i in 0..m {
        count[i + 1] += count[i];
    }
    let pfirst = count.clone();
    let mut parents = vec![0; inner.len()];
    for v in 0..m {
        for &u in &inner[first[v] as usize..first[v + 1] as usize] {
            parents[count[u as usize] as usize] = v as u32;
            count[u as usize] += 1;
        }
    }
    (pfirst, parents)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Open,
    Won,
    Lost,
}

/// For every position, the most the maximiser (`maxer[v]`: to move at `v`) makes sure
/// of with a positional strategy in the limit game above: the best `exit` of a
/// position (for its mover), or the least `rep` of the positions visited infinitely
/// often.
pub(crate) fn limit_guarantee(
    g: Arena,
    maxer: &[bool],
    exit: &[Option<i32>],
    rep: &[i32],
) -> Vec<i32> {
    let m = g.len();
    let mut levels: Vec<i32> = exit.iter().flatten().chain(rep).copied().collect();
    levels.sort_unstable();
    levels.dedup();
    let mut worth = vec![levels[0]; m];
    let mut alive = vec![true; m];
    for &t in &levels[1..] {
        let won = wins(g, maxer, exit, rep, t, &alive);
        if !won.contains(&true) {
            break;
        }
        for v in (0..m).filter(|&v| won[v]) {
            worth[v] = t;
        }
        alive = won;
    }
    worth
}

/// One threshold's game: the positions' states and the scratch of the attractors.
struct Threshold<'a> {
    g: Arena<'a>,
    maxer: &'a [bool],
    exit: &'a [Option<i32>],
    rep: &'a [i32],
    t: i32,
    state: Vec<State>,
    count: Vec<u32>,
    queue: Vec<u32>,
    /// In the minimiser's attractor.
    in_r: Vec<bool>,
}

/// Where the maximiser wins "at least `t`" (a position not `alive` is lost: it was
/// lost at a lower threshold). Alternates the two attractors: what the minimiser
/// cannot force to a position worth less than `t` (or an exit worth less, or a lost
/// position) the maximiser keeps to positions worth `t` for ever, and wins; so does
/// what the maximiser can force there.
fn wins(
    g: Arena,
    maxer: &[bool],
    exit: &[Option<i32>],
    rep: &[i32],
    t: i32,
    alive: &[bool],
) -> Vec<bool> {
    let m = g.len();
    let mut game = Threshold {
        g,
        maxer,
        exit,
        rep,
        t,
        state: alive
            .iter()
            .map(|&a| if a { State::Open } else { State::Lost })
            .collect(),
        count: vec![0; m],
        queue: Vec::new(),
        in_r: vec![false; m],
    };
    loop {
        game.attract_max();
        game.attract_min();
        let mut more = false;
        for v in 0..m {
            if game.state[v] == State::Open && !game.in_r[v] {
                game.state[v] = State::Won;
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    game.state.iter().map(|&s| s == State::Won).collect()
}

impl Threshold<'_> {
    fn lose_now(&self, v: usize) -> bool {
        !self.maxer[v] && self.exit[v].is_some_and(|x| x < self.t)
    }

    fn win_now(&self, v: usize) -> bool {
        self.maxer[v] && self.exit[v].is_some_and(|x| x >= self.t)
    }

    /// Adds to what is won the maximiser's attractor to it.
    fn attract_max(&mut self) {
        let g = self.g;
        self.queue.clear();
        for v in 0..g.len() {
            if self.state[v] != State::Open {
                continue;
            }
            if self.maxer[v] {
                if self.win_now(v)
                    || g.succ(v)
                        .iter()
                        .any(|&u| self.state[u as usize] == State::Won)
                {
                    self.queue.push(v as u32);
                }
            } else if !self.lose_now(v) {
                let state = &self.state;
                self.count[v] = g
                    .succ(v)
                    .iter()
                    .filter(|&&u| state[u as usize] != State::Won)
                    .count() as u32;
                if self.count[v] == 0 {
                    self.queue.push(v as u32);
                }
            }
        }
        for &v in &self.queue {
            self.state[v as usize] = State::Won;
        }
        while let Some(u) = self.queue.pop() {
            for &p in g.pred(u as usize) {
                let p = p as usize;
                if self.state[p] != State::Open {
                    continue;
                }
                let joins = if self.maxer[p] {
                    true
                } else if self.lose_now(p) {
                    false
                } else {
                    self.count[p] -= 1;
                    self.count[p] == 0
                };
                if joins {
                    self.state[p] = State::Won;
                    self.queue.push(p as u32);
                }
            }
        }
    }

    /// Marks (`in_r`) the minimiser's attractor, among the open positions, to a
    /// position worth less than `t`, an exit worth less, or a lost position.
    fn attract_min(&mut self) {
        let g = self.g;
        self.queue.clear();
        for v in 0..g.len() {
            self.in_r[v] = false;
            if self.state[v] != State::Open {
                continue;
            }
            let state = &self.state;
            let target = if self.maxer[v] {
                self.count[v] = g
                    .succ(v)
                    .iter()
                    .filter(|&&u| state[u as usize] == State::Open)
                    .count() as u32;
                self.rep[v] < self.t || self.count[v] == 0
            } else {
                self.rep[v] < self.t
                    || self.lose_now(v)
                    || g.succ(v).iter().any(|&u| state[u as usize] == State::Lost)
            };
            if target {
                self.in_r[v] = true;
                self.queue.push(v as u32);
            }
        }
        while let Some(u) = self.queue.pop() {
            for &p in g.pred(u as usize) {
                let p = p as usize;
                if self.state[p] != State::Open || self.in_r[p] {
                    continue;
                }
                let joins = if self.maxer[p] {
                    self.count[p] -= 1;
                    self.count[p] == 0
                } else {
                    true
                };
                if joins {
                    self.in_r[p] = true;
                    self.queue.push(p as u32);
                }
            }
        }
    }
}
