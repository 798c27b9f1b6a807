//! A second, deliberately naive implementation of the three rule sets, written from the
//! rule text with a different board layout (one ring with the stores in it) and one
//! seed at a time. It shares no code with the crate; tests compare the two.

#![allow(dead_code)]

use mancala_core::{EndRule, Rules, Variant};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naive {
    pub variant: Variant,
    pub h: usize,
    pub total: u32,
    pub empty_capture: bool,
    pub end_rule: EndRule,
    /// Kalah: [south houses, south store, north houses, north store].
    /// Oware variants: [south houses, north houses].
    pub ring: Vec<u32>,
    /// Captured seeds (Oware variants); Kalah keeps them in the ring.
    pub captured: [u32; 2],
    pub to_move: usize,
    pub over: bool,
}

impl Naive {
    pub fn new(rules: Rules) -> Naive {
        let h = rules.houses();
        let s = u32::from(rules.seeds());
        let ring = match rules.variant() {
            Variant::Kalah => {
                let mut r = vec![s; 2 * h + 2];
                r[h] = 0;
                r[2 * h + 1] = 0;
                r
            }
            _ => vec![s; 2 * h],
        };
        let mut n = Naive {
            variant: rules.variant(),
            h,
            total: 2 * h as u32 * s,
            empty_capture: rules.options().empty_capture,
            end_rule: rules.options().end_rule,
            ring,
            captured: [0, 0],
            to_move: 0,
            over: false,
        };
        n.over = n.ends_now();
        n
    }

    /// Ring index of player `p`'s house `k` (1-based).
    pub fn house(&self, p: usize, k: usize) -> usize {
        match self.variant {
            Variant::Kalah => p * (self.h + 1) + k - 1,
            _ => p * self.h + k - 1,
        }
    }

    pub fn row(&self, p: usize) -> Vec<u32> {
        (1..=self.h).map(|k| self.ring[self.house(p, k)]).collect()
    }

    pub fn stores(&self) -> [u32; 2] {
        match self.variant {
            Variant::Kalah => [self.ring[self.h], self.ring[2 * self.h + 1]],
            _ => self.captured,
        }
    }

    fn owner(&self, i: usize) -> Option<usize> {
        // Which player's house ring index i is (None for a store).
        (0..2).find(|&p| (1..=self.h).any(|k| self.house(p, k) == i))
    }

    pub fn legal(&self) -> Vec<usize> {
        if self.over {
            return vec![];
        }
        let p = self.to_move;
        let mut v = vec![];
        for k in 1..=self.h {
            if self.ring[self.house(p, k)] == 0 {
                continue;
            }
            if self.variant == Variant::Oware && self.row(1 - p).iter().sum::<u32>() == 0 {
                // Must feed: try it and see whether the opponent gets seeds.
                let mut t = self.clone();
                t.sow_only(k);
                if t.row(1 - p).iter().sum::<u32>() == 0 {
                    continue;
                }
            }
            v.push(k);
        }
        v
    }

    /// Sows house k of the player to move; returns the ring index of the last seed.
    fn sow_only(&mut self, k: usize) -> usize {
        let p = self.to_move;
        let origin = self.house(p, k);
        let mut n = self.ring[origin];
        self.ring[origin] = 0;
        let len = self.ring.len();
        let mut i = origin;
        while n > 0 {
            i = (i + 1) % len;
            if self.variant == Variant::Kalah && i == if p == 0 { 2 * self.h + 1 } else { self.h } {
                continue; // the opponent's store
            }
            if self.variant == Variant::Oware && i == origin {
                continue; // Abapa: the origin is skipped
            }
            self.ring[i] += 1;
            n -= 1;
            if self.variant == Variant::OwareSimplified
                && self.owner(i) == Some(1 - p)
                && self.ring[i] == 2
            {
                self.ring[i] = 0;
                self.captured[p] += 2;
            }
        }
        i
    }

    pub fn play(&mut self, k: usize) {
        assert!(self.legal().contains(&k), "naive: illegal move {k}");
        let p = self.to_move;
        let last = self.sow_only(k);
        match self.variant {
            Variant::Kalah => {
                let own_store = if p == 0 { self.h } else { 2 * self.h + 1 };
                if last == own_store {
                    // extra turn
                } else {
                    if self.owner(last) == Some(p) && self.ring[last] == 1 {
                        let opposite = 2 * self.h - last;
                        if self.ring[opposite] > 0 || self.empty_capture {
                            self.ring[own_store] += 1 + self.ring[opposite];
                            self.ring[opposite] = 0;
                            self.ring[last] = 0;
                        }
                    }
                    self.to_move = 1 - p;
                }
            }
            Variant::Oware => {
                if self.owner(last) == Some(1 - p) {
                    let mut taken = vec![];
                    let mut i = last;
                    while self.owner(i) == Some(1 - p) && (2..=3).contains(&self.ring[i]) {
                        taken.push(i);
                        if i == 0 {
                            break;
                        }
                        i -= 1;
                    }
                    let sum: u32 = taken.iter().map(|&i| self.ring[i]).sum();
                    if sum != self.row(1 - p).iter().sum::<u32>() {
                        for i in taken {
                            self.ring[i] = 0;
                        }
                        self.captured[p] += sum;
                    }
                }
                self.to_move = 1 - p;
            }
            Variant::OwareSimplified => {
                if self.row(1 - p).iter().sum::<u32>() > 0 {
                    self.to_move = 1 - p;
                }
            }
        }
        self.over = self.ends_now();
    }

    fn ends_now(&self) -> bool {
        let sum = |p: usize| self.row(p).iter().sum::<u32>();
        match self.variant {
            Variant::Kalah => match self.end_rule {
                EndRule::MoverCannotMove => sum(self.to_move) == 0,
                EndRule::EitherSideEmpty => sum(0) == 0 || sum(1) == 0,
            },
            Variant::Oware => {
                let [a, b] = self.captured;
                if 2 * a > self.total || 2 * b > self.total || (2 * a == self.total && a == b) {
                    return true;
                }
                let mut t = self.clone();
                t.over = false;
                t.legal().is_empty()
            }
            Variant::OwareSimplified => sum(0) + sum(1) <= 2,
        }
    }

    pub fn final_scores(&self) -> [u32; 2] {
        let sum = |p: usize| self.row(p).iter().sum::<u32>();
        let st = self.stores();
        match self.variant {
            Variant::Kalah => [st[0] + sum(0), st[1] + sum(1)],
            Variant::Oware => {
                if 2 * st[0] >= self.total || 2 * st[1] >= self.total {
                    st
                } else {
                    [st[0] + sum(0), st[1] + sum(1)]
                }
            }
            Variant::OwareSimplified => st,
        }
    }
}

/// Counts move sequences one by one, with the Oware repetition rule on the line played.
pub fn perft(n: &Naive, depth: u32, history: &mut Vec<Naive>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut count = 0;
    for k in n.legal() {
        let mut next = n.clone();
        next.play(k);
        let captured = next.stores() != n.stores();
        let repeated = n.variant == Variant::Oware && !captured && history.contains(&next);
        if repeated {
            // The game ends here: only a sequence ending on this ply counts.
            if depth == 1 {
                count += 1;
            }
            continue;
        }
        let saved = if captured {
            std::mem::take(history)
        } else {
            vec![]
        };
        history.push(next.clone());
        count += perft(&next, depth - 1, history);
        history.pop();
        if captured {
            *history = saved;
        }
    }
    count
}
