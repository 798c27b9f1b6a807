//! Any game of a [`Rulebook`], played plainly: seed by seed round a board of named
//! spots, each rule of `docs/rules-format.md` in the words of that page.

use crate::rulebook::{CaptureRule, ClaimRule, Direction, Laps, Leftover, Rulebook, Whose};

/// The way one move sows round the board.
#[derive(Clone, Copy, Debug)]
struct Way {
    clockwise: bool,
    /// The mover's store comes after the end of their own row (else after the
    /// opponent's row).
    store_after_own_row: bool,
}

impl Way {
    /// The way a move of `seeds` seeds sows under `rules`.
    fn of(rules: &Rulebook, seeds: u32) -> Way {
        let (clockwise, store_after_own_row) = match rules.direction {
            Direction::Anticlockwise => (false, true),
            Direction::Clockwise => (true, true),
            Direction::OddClockwise => (seeds % 2 == 1, seeds % 2 == 0),
        };
        Way {
            clockwise,
            store_after_own_row,
        }
    }
}

/// A place a seed can be: player `.0`'s house `.1` (counted from 1 at that player's
/// left), or a player's store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    House(usize, usize),
    Store(usize),
}

/// A position of a described game. Public fields, so a test can compare them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// `rows[p][k - 1]`: seeds in player `p`'s house `k`.
    pub rows: [Vec<u32>; 2],
    /// Seeds each player has in their store or has captured.
    pub banked: [u32; 2],
    /// `claimed[p]`: the house of the opponent's row player `p` has claimed, numbered
    /// as the opponent numbers it.
    pub claimed: [Option<usize>; 2],
    /// The player to move, 0 or 1.
    pub to_move: usize,
}

/// What a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Seeds the mover captured (or claimed with a house).
    pub captured: u32,
    /// The last seed landed in the mover's store.
    pub ended_in_store: bool,
}

impl Board {
    /// The start of a game of `rules`.
    #[must_use]
    pub fn new(rules: &Rulebook) -> Board {
        Board {
            rows: [rules.start.clone(), rules.start.clone()],
            banked: [0, 0],
            claimed: [None, None],
            to_move: 0,
        }
    }

    fn row_total(&self, p: usize) -> u32 {
        self.rows[p].iter().sum()
    }

    fn total(&self) -> u32 {
        self.row_total(0) + self.row_total(1) + self.banked[0] + self.banked[1]
    }

    fn seeds(&self, spot: Spot) -> u32 {
        match spot {
            Spot::House(p, k) => self.rows[p][k - 1],
            Spot::Store(p) => self.banked[p],
        }
    }

    /// The player who has claimed this house, if any.
    fn claimer(&self, spot: Spot) -> Option<usize> {
        match spot {
            Spot::House(p, k) if self.claimed[1 - p] == Some(k) => Some(1 - p),
            _ => None,
        }
    }

    /// The spot after `spot` on `me`'s sowing path. Anticlockwise a row runs from
    /// house 1 to house H, clockwise from H to 1. The mover's store comes after the end
    /// of the mover's row, except in a clockwise sowing of a game whose count sets the
    /// direction, where it stays at the mover's right: after the opponent's row. The
    /// opponent's store is never sown.
    fn after(&self, rules: &Rulebook, way: Way, me: usize, spot: Spot) -> Spot {
        let h = rules.houses;
        let (first, last) = if way.clockwise { (h, 1) } else { (1, h) };
        let row_before_store = if way.store_after_own_row { me } else { 1 - me };
        match spot {
            Spot::House(p, k) if k != last => {
                Spot::House(p, if way.clockwise { k - 1 } else { k + 1 })
            }
            Spot::House(p, _) if p == row_before_store && rules.own_store => Spot::Store(me),
            Spot::House(p, _) => Spot::House(1 - p, first),
            Spot::Store(_) => Spot::House(1 - row_before_store, first),
        }
    }

    /// The houses the player to move may sow.
    #[must_use]
    pub fn moves(&self, rules: &Rulebook) -> Vec<usize> {
        let me = self.to_move;
        let feeding = rules.must_feed && self.row_total(1 - me) == 0;
        (1..=rules.houses)
            .filter(|&k| self.rows[me][k - 1] > 0)
            .filter(|&k| {
                if !feeding {
                    return true;
                }
                let mut after = self.clone();
                after.sow_and_capture(rules, k);
                after.row_total(1 - me) > 0
            })
            .collect()
    }

    /// Plays house `k` of the player to move (one of [`Board::moves`]), then passes
    /// the turn as the rules say.
    ///
    /// # Panics
    /// If the move is not legal.
    pub fn play(&mut self, rules: &Rulebook, k: usize) -> Played {
        assert!(
            self.moves(rules).contains(&k),
            "referee: house {k} is not legal"
        );
        let me = self.to_move;
        let played = self.sow_and_capture(rules, k);
        self.to_move = if rules.extra_turn && played.ended_in_store {
            me
        } else {
            1 - me
        };
        if rules.pass && self.moves(rules).is_empty() {
            self.to_move = me;
        }
        played
    }

    /// The sowing, lap after lap, with its captures.
    fn sow_and_capture(&mut self, rules: &Rulebook, k: usize) -> Played {
        let me = self.to_move;
        let mut played = Played::default();
        let mut from = Spot::House(me, k);
        let way = Way::of(rules, self.rows[me][k - 1]);
        let mut laps = 0;
        loop {
            laps += 1;
            let last = self.sow_lap(rules, way, from, &mut played);
            if let Spot::Store(p) = last {
                played.ended_in_store = p == me;
                return played;
            }
            // A lap that captures (or claims) ends the sowing.
            if self.capture(rules, way, last, false, &mut played) || laps == rules.max_laps {
                return played;
            }
            let next = self.after(rules, way, me, last);
            from = match rules.laps {
                Laps::FromLast if self.seeds(last) > 1 => last,
                Laps::FromNext if matches!(next, Spot::House(..)) && self.seeds(next) > 0 => next,
                _ => return played,
            };
        }
    }

    /// Takes up every seed of `from` and sows them; the spot of the last.
    fn sow_lap(&mut self, rules: &Rulebook, way: Way, from: Spot, played: &mut Played) -> Spot {
        let me = self.to_move;
        let Spot::House(p, k) = from else {
            unreachable!("a lap starts from a house")
        };
        let mut hand = std::mem::take(&mut self.rows[p][k - 1]);
        let mut spot = from;
        let mut first = true;
        while hand > 0 {
            if !(first && rules.first_into_origin && hand > 1) {
                spot = self.after(rules, way, me, spot);
                if rules.skip_origin && spot == from {
                    spot = self.after(rules, way, me, spot);
                }
            }
            first = false;
            hand -= 1;
            match (spot, self.claimer(spot)) {
                (_, Some(owner)) => self.banked[owner] += 1,
                (Spot::House(q, j), None) => self.rows[q][j - 1] += 1,
                (Spot::Store(q), None) => self.banked[q] += 1,
            }
            if matches!(spot, Spot::House(..)) {
                self.capture(rules, way, spot, true, played);
            }
        }
        spot
    }

    /// The capture rules for each seed (`each_seed`) or for the last, where a seed
    /// landed in `spot`, then (for the last seed) the claim; whether anything was taken.
    fn capture(
        &mut self,
        rules: &Rulebook,
        way: Way,
        spot: Spot,
        each_seed: bool,
        played: &mut Played,
    ) -> bool {
        if self.claimer(spot).is_some() {
            return false; // the seed went to the claimer: nothing happens there
        }
        let mut taken_any = false;
        for rule in &rules.captures {
            let taken = match rule {
                CaptureRule::Count { each_seed: e, .. } if *e == each_seed => {
                    self.count_capture(rules, way, rule, spot)
                }
                CaptureRule::Across { lone_seed_taken } if !each_seed => {
                    self.across_capture(rules, spot, *lone_seed_taken)
                }
                CaptureRule::Next { whose, facing } if !each_seed => {
                    self.next_capture(rules, way, spot, *whose, *facing)
                }
                _ => None,
            };
            if let Some((taker, seeds)) = taken {
                self.banked[taker] += seeds;
                if taker == self.to_move {
                    played.captured += seeds;
                }
                taken_any = true;
            }
        }
        if !taken_any && !each_seed {
            if let Some(claim) = rules.claim {
                if let Some(seeds) = self.claim(rules, claim, spot) {
                    played.captured += seeds;
                    return true;
                }
            }
        }
        taken_any
    }

    fn may_take(&self, whose: Whose, owner: usize) -> bool {
        match whose {
            Whose::Opponent => owner != self.to_move,
            Whose::Own => owner == self.to_move,
            Whose::Either => true,
        }
    }

    /// A count capture at `spot` (and the run before it): who takes, how many.
    fn count_capture(
        &mut self,
        rules: &Rulebook,
        way: Way,
        rule: &CaptureRule,
        spot: Spot,
    ) -> Option<(usize, u32)> {
        let CaptureRule::Count {
            counts,
            even,
            whose,
            run,
            grand_slam_captures,
            owner_takes,
            ..
        } = rule
        else {
            return None;
        };
        let Spot::House(p, k) = spot else { return None };
        let capturing = |n: u32| n > 0 && (counts.contains(&n) || (*even && n % 2 == 0));
        if !self.may_take(*whose, p) || !capturing(self.rows[p][k - 1]) {
            return None;
        }
        let mut houses = vec![k];
        // Going back along the row, against the sowing.
        let back = |j: usize| if way.clockwise { j + 1 } else { j - 1 };
        let mut j = k;
        loop {
            let before_exists = if way.clockwise {
                j < rules.houses
            } else {
                j > 1
            };
            if !*run || !before_exists {
                break;
            }
            j = back(j);
            if self.claimer(Spot::House(p, j)).is_some() || !capturing(self.rows[p][j - 1]) {
                break;
            }
            houses.push(j);
        }
        let seeds: u32 = houses.iter().map(|&j| self.rows[p][j - 1]).sum();
        if !grand_slam_captures && p != self.to_move && seeds == self.row_total(p) {
            return None;
        }
        for j in houses {
            self.rows[p][j - 1] = 0;
        }
        Some((if *owner_takes { p } else { self.to_move }, seeds))
    }

    /// An across capture: the last seed in an own house that was empty.
    fn across_capture(
        &mut self,
        rules: &Rulebook,
        spot: Spot,
        lone_seed_taken: bool,
    ) -> Option<(usize, u32)> {
        let me = self.to_move;
        let Spot::House(p, k) = spot else { return None };
        if p != me || self.rows[p][k - 1] != 1 {
            return None;
        }
        let facing = rules.houses + 1 - k;
        let across = self.rows[1 - p][facing - 1];
        if across == 0 && !lone_seed_taken {
            return None;
        }
        self.rows[p][k - 1] = 0;
        self.rows[1 - p][facing - 1] = 0;
        Some((me, across + 1))
    }

    /// A next capture: the house after the last one empty, the one after it taken.
    fn next_capture(
        &mut self,
        rules: &Rulebook,
        way: Way,
        spot: Spot,
        whose: Whose,
        facing: bool,
    ) -> Option<(usize, u32)> {
        let me = self.to_move;
        let gap = self.after(rules, way, me, spot);
        let target = self.after(rules, way, me, gap);
        let (Spot::House(..), Spot::House(q, j)) = (gap, target) else {
            return None;
        };
        if self.seeds(gap) != 0 || self.seeds(target) == 0 || self.claimer(target).is_some() {
            return None;
        }
        if !self.may_take(whose, q) {
            return None;
        }
        let mut seeds = std::mem::take(&mut self.rows[q][j - 1]);
        let opposite = Spot::House(1 - q, rules.houses + 1 - j);
        if facing && self.claimer(opposite).is_none() {
            seeds += std::mem::take(&mut self.rows[1 - q][rules.houses - j]);
        }
        Some((me, seeds))
    }

    /// The claim of the house the last seed landed in, if allowed; the seeds taken.
    fn claim(&mut self, rules: &Rulebook, claim: ClaimRule, spot: Spot) -> Option<u32> {
        let me = self.to_move;
        let Spot::House(p, k) = spot else { return None };
        let allowed = p != me
            && self.rows[p][k - 1] == claim.count
            && self.claimed[me].is_none()
            && !(claim.not_last_house && k == rules.houses)
            && !(claim.not_mirror && self.claimed[p] == Some(k));
        if !allowed {
            return None;
        }
        let seeds = std::mem::take(&mut self.rows[p][k - 1]);
        self.banked[me] += seeds;
        self.claimed[me] = Some(k);
        Some(seeds)
    }

    /// Whether the captures decided the game: more than half, or half each.
    fn decided(&self) -> bool {
        let total = self.total();
        let [a, b] = self.banked;
        2 * a > total || 2 * b > total || (2 * a == total && 2 * b == total)
    }

    /// The final scores if the game is over in this position by its end rules
    /// (repetition aside: see [`DescribedGame`]).
    #[must_use]
    pub fn finish(&self, rules: &Rulebook) -> Option<[u32; 2]> {
        let on_board = self.row_total(0) + self.row_total(1);
        let over = (rules.majority && self.decided())
            || (rules.seeds_left > 0 && on_board <= rules.seeds_left)
            || if rules.either_row_empty {
                self.row_total(0) == 0 || self.row_total(1) == 0
            } else {
                self.moves(rules).is_empty()
            };
        over.then(|| self.scores(rules))
    }

    /// The scores with the seeds on the board shared out as the rules say.
    #[must_use]
    pub fn scores(&self, rules: &Rulebook) -> [u32; 2] {
        let rows_count = match rules.leftover {
            Leftover::OwnRow => true,
            Leftover::OwnRowUnlessDecided => !self.decided(),
            Leftover::Nobody => false,
        };
        let mut scores = self.banked;
        if rows_count {
            scores[0] += self.row_total(0);
            scores[1] += self.row_total(1);
        }
        scores
    }
}

/// How a described game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DescribedFinish {
    /// The final scores, player 1 first.
    pub scores: [u32; 2],
    /// It ended because a position came round again.
    pub repetition: bool,
}

/// A whole described game: the board, the positions since the last capture and the
/// end.
#[derive(Clone, Debug)]
pub struct DescribedGame {
    rules: Rulebook,
    board: Board,
    since_capture: Vec<Board>,
    finish: Option<DescribedFinish>,
}

impl DescribedGame {
    /// A game of `rules` from its start.
    #[must_use]
    pub fn new(rules: Rulebook) -> DescribedGame {
        let board = Board::new(&rules);
        let finish = board.finish(&rules).map(|scores| DescribedFinish {
            scores,
            repetition: false,
        });
        DescribedGame {
            since_capture: vec![board.clone()],
            board,
            rules,
            finish,
        }
    }

    /// The board now.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn finish(&self) -> Option<DescribedFinish> {
        self.finish
    }

    /// The legal moves; none once the game is over.
    #[must_use]
    pub fn moves(&self) -> Vec<usize> {
        if self.finish.is_some() {
            return Vec::new();
        }
        self.board.moves(&self.rules)
    }

    /// Plays house `k` and applies every end rule.
    ///
    /// # Panics
    /// If the game is over or the move is illegal.
    pub fn play(&mut self, k: usize) -> Played {
        assert!(self.finish.is_none(), "referee: the game is over");
        let banked_before = self.board.banked;
        let played = self.board.play(&self.rules, k);
        if let Some(scores) = self.board.finish(&self.rules) {
            self.finish = Some(DescribedFinish {
                scores,
                repetition: false,
            });
            return played;
        }
        if !self.rules.repetition {
            return played;
        }
        if self.board.banked != banked_before {
            self.since_capture.clear();
        } else if self.since_capture.contains(&self.board) {
            self.finish = Some(DescribedFinish {
                scores: self.board.scores(&self.rules),
                repetition: true,
            });
            return played;
        }
        self.since_capture.push(self.board.clone());
        played
    }
}
