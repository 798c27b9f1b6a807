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

/// Where the maximiser wins "at least `t`" (a position not `alive` is lost: it was
/// lost at a lower threshold).
fn wins(
    g: Arena,
    maxer: &[bool],
    exit: &[Option<i32>],
    rep: &[i32],
    t: i32,
    alive: &[bool],
) -> Vec<bool> {
    let m = g.len();
    let lose_now = |v: usize| !maxer[v] && exit[v].is_some_and(|x| x < t);
    let win_now = |v: usize| maxer[v] && exit[v].is_some_and(|x| x >= t);
    let mut state: Vec<State> = alive
        .iter()
        .map(|&a| if a { State::Open } else { State::Lost })
        .collect();
    let mut count = vec![0u32; m];
    let mut queue = Vec::new();
    let mut in_r = vec![false; m];
    loop {
        // The maximiser's attractor to what is won.
        queue.clear();
        for v in 0..m {
            if state[v] != State::Open {
                continue;
            }
            if maxer[v] {
                if win_now(v) || g.succ(v).iter().any(|&u| state[u as usize] == State::Won) {
                    queue.push(v as u32);
                }
            } else if !lose_now(v) {
                count[v] = g
                    .succ(v)
                    .iter()
                    .filter(|&&u| state[u as usize] != State::Won)
                    .count() as u32;
                if count[v] == 0 {
                    queue.push(v as u32);
                }
            }
        }
        for &v in &queue {
            state[v as usize] = State::Won;
        }
        while let Some(u) = queue.pop() {
            for &p in g.pred(u as usize) {
                let p = p as usize;
                if state[p] != State::Open {
                    continue;
                }
                let joins = if maxer[p] {
                    true
                } else if lose_now(p) {
                    false
                } else {
                    count[p] -= 1;
                    count[p] == 0
                };
                if joins {
                    state[p] = State::Won;
                    queue.push(p as u32);
                }
            }
        }
        // The minimiser's attractor, among the open positions, to a position worth
        // less than `t`, an exit worth less, or a lost position.
        queue.clear();
        for v in 0..m {
            in_r[v] = false;
            if state[v] != State::Open {
                continue;
            }
            let target = if maxer[v] {
                count[v] = g
                    .succ(v)
                    .iter()
                    .filter(|&&u| state[u as usize] == State::Open)
                    .count() as u32;
                rep[v] < t || count[v] == 0
            } else {
                rep[v] < t
                    || lose_now(v)
                    || g.succ(v).iter().any(|&u| state[u as usize] == State::Lost)
            };
            if target {
                in_r[v] = true;
                queue.push(v as u32);
            }
        }
        while let Some(u) = queue.pop() {
            for &p in g.pred(u as usize) {
                let p = p as usize;
                if state[p] != State::Open || in_r[p] {
                    continue;
                }
                let joins = if maxer[p] {
                    count[p] -= 1;
                    count[p] == 0
                } else {
                    true
                };
                if joins {
                    in_r[p] = true;
                    queue.push(p as u32);
                }
            }
        }
        // The rest can keep to positions worth `t` or more for ever: won.
        let mut more = false;
        for v in 0..m {
            if state[v] == State::Open && !in_r[v] {
                state[v] = State::Won;
                more = true;
            }
        }
        if !more {
            break;
        }
    }
    state.iter().map(|&s| s == State::Won).collect()
}
