//! A deliberately naive second model of the rules, for tests only.
//!
//! Written from the text of the rules (now `docs/rules.md`, with the sources it cites),
//! not from the rules core: one seed at a time round a board of named spots, a fresh
//! `Vec` for everything, every end of game decided in one readable function. It is
//! slow and shares no code (not even a type) with `mancala-core`, so that the core and
//! the solver can be checked against it: a rule read wrongly in both places is the
//! only mistake such a comparison cannot see.
//!
//! Two models live here: [`Referee`] plays the four hand-written games by [`Kind`];
//! [`DescribedGame`] plays any game description, read from `docs/rules-format.md` into
//! a [`rulebook::Rulebook`] (a test fills one from a description's fields).
//!
//! ```
//! use mancala_referee::{Ending, Kind, Referee};
//! // Simplified Oware on one house with four seeds cycles from the first move.
//! let mut game = Referee::new(Kind::SimplifiedOware, 1, 4);
//! for _ in 0..4 {
//!     if game.finish().is_none() {
//!         game.play(1);
//!     }
//! }
//! let finish = game.finish().unwrap();
//! assert_eq!(finish.ending, Ending::Repetition);
//! assert_eq!(finish.scores, [0, 0]);
//! ```

#![forbid(unsafe_code)]

mod described;
mod minimax;
pub mod rulebook;

pub use described::{Board, DescribedFinish, DescribedGame, Played};
pub use minimax::{oware_move_values, oware_value};

/// Which game, with its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Kalah.
    Kalah {
        /// Capture even when the opposite house is empty.
        empty_capture: bool,
        /// End as soon as either row is empty (otherwise: when the player to move has
        /// no seeds).
        either_side_empty: bool,
    },
    /// Oware, Abapa rules.
    Oware,
    /// The simplified Oware of the Bern course.
    SimplifiedOware,
    /// Togyz Kumalak, Kazakhstan's national game: a sowing of two seeds or more starts
    /// in the house it empties, and each player may claim one house of the opponent's
    /// row (a tuzdyk) whose seeds go to them.
    TogyzKumalak,
}

/// A place a seed can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spot {
    /// Player `.0`'s house `.1`, counted from 1 in that player's sowing order.
    House(usize, usize),
    /// Player `.0`'s store (Kalah only: Togyz Kumalak's stores are off the sowing path,
    /// and a seed sown into a tuzdyk is added to its owner's store directly).
    Store(usize),
}

/// Why a game ended, in the words of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The player to move (0 or 1) has no seeds in their houses.
    NoSeedsToMove(usize),
    /// Kalah, either-side-empty: this player's houses are all empty.
    SideEmpty(usize),
    /// Oware, Togyz Kumalak: this player has captured more than half of all seeds.
    MoreThanHalf(usize),
    /// Oware, Togyz Kumalak: each player has captured exactly half.
    HalfEach,
    /// Oware: the player to move cannot give the opponent (who has nothing) any seeds.
    CannotFeed(usize),
    /// Oware variants: a position (board and player to move) came round again since the
    /// last capture.
    Repetition,
    /// Simplified Oware: two seeds or fewer are left on the board.
    TwoOrFewerLeft,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// Why.
    pub ending: Ending,
    /// The final scores, player 1 first.
    pub scores: [u32; 2],
    /// Seeds each player took from their own row at the end.
    pub taken_from_rows: [u32; 2],
    /// Seeds left on the board that count for nobody.
    pub left_to_nobody: u32,
}

impl Finish {
    /// 0 or 1 for the winner, `None` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<usize> {
        if self.scores[0] > self.scores[1] {
            Some(0)
        } else if self.scores[1] > self.scores[0] {
            Some(1)
        } else {
            None
        }
    }
}

/// The board: every house, the two stores (Kalah) or captures (Oware, Togyz Kumalak),
/// the tuzdyks (Togyz Kumalak) and who moves.
///
/// The fields are public, so a test can set up any position from its parts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    /// The game.
    pub kind: Kind,
    /// Houses per player.
    pub houses: usize,
    /// `rows[p][k - 1]`: seeds in player `p`'s house `k`.
    pub rows: [Vec<u32>; 2],
    /// Kalah: seeds in each store. Oware, Togyz Kumalak: seeds each player has captured.
    pub banked: [u32; 2],
    /// Togyz Kumalak: `tuzdyks[p]`: the house of the opponent's row that player `p`
    /// owns as their tuzdyk, numbered as the opponent numbers it, or `None`. A tuzdyk
    /// always holds no seeds. `[None, None]` in the other games.
    pub tuzdyks: [Option<usize>; 2],
    /// The player to move, 0 or 1.
    pub to_move: usize,
}

/// What one move does, as the move chooser of a test sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Seeds it captures (in Togyz Kumalak, with the seeds it sows into the mover's
    /// tuzdyk).
    pub captured: u32,
    /// Oware: it would capture the opponent's whole row, so it captures nothing.
    pub grand_slam: bool,
    /// Seeds in the house it sows (many-lap sowings have many).
    pub sown: u32,
}

impl Table {
    /// The start: `seeds` in each of the `houses` houses of both players.
    #[must_use]
    pub fn new(kind: Kind, houses: usize, seeds: u32) -> Table {
        Table {
            kind,
            houses,
            rows: [vec![seeds; houses], vec![seeds; houses]],
            banked: [0, 0],
            tuzdyks: [None, None],
            to_move: 0,
        }
    }

    fn total(&self) -> u32 {
        self.row_total(0) + self.row_total(1) + self.banked[0] + self.banked[1]
    }

    /// Seeds in player `p`'s houses.
    #[must_use]
    pub fn row_total(&self, p: usize) -> u32 {
        self.rows[p].iter().sum()
    }

    fn seeds_at(&mut self, spot: Spot) -> &mut u32 {
        match spot {
            Spot::House(p, k) => &mut self.rows[p][k - 1],
            Spot::Store(p) => &mut self.banked[p],
        }
    }

    /// Togyz Kumalak: the player who owns `spot` as their tuzdyk, if anyone does.
    fn tuzdyk_owner(&self, spot: Spot) -> Option<usize> {
        match spot {
            Spot::House(p, k) if self.tuzdyks[1 - p] == Some(k) => Some(1 - p),
            _ => None,
        }
    }

    /// The spot after `spot` going round the board in the sowing direction: a player's
    /// houses 1..H, then (Kalah) their store, then the other player's houses 1..H.
    fn next(&self, spot: Spot) -> Spot {
        let kalah = matches!(self.kind, Kind::Kalah { .. });
        match spot {
            Spot::House(p, k) if k < self.houses => Spot::House(p, k + 1),
            Spot::House(p, _) if kalah => Spot::Store(p),
            Spot::House(p, _) | Spot::Store(p) => Spot::House(1 - p, 1),
        }
    }

    /// The houses the player to move may sow, counted from 1.
    #[must_use]
    pub fn moves(&self) -> Vec<usize> {
        let me = self.to_move;
        let mut moves = Vec::new();
        for k in 1..=self.houses {
            if self.rows[me][k - 1] == 0 {
                continue;
            }
            if self.kind == Kind::Oware && self.row_total(1 - me) == 0 {
                // The opponent has nothing: only a move that gives them seeds is legal.
                let mut after = self.clone();
                after.sow(k);
                if after.row_total(1 - me) == 0 {
                    continue;
                }
            }
            moves.push(k);
        }
        moves
    }

    /// Takes the seeds of house `k` of the player to move and drops them one by one;
    /// returns the spot of the last seed. Simplified Oware's captures happen during the
    /// sowing, so they are made here.
    fn sow(&mut self, k: usize) -> Spot {
        let me = self.to_move;
        let origin = Spot::House(me, k);
        let mut hand = std::mem::take(self.seeds_at(origin));
        let mut spot = origin;
        if self.kind == Kind::TogyzKumalak && hand > 1 {
            // Togyz Kumalak: the first of two seeds or more goes back where it came from
            // (a single seed goes on to the next house).
            *self.seeds_at(origin) += 1;
            hand -= 1;
        }
        while hand > 0 {
            spot = self.next(spot);
            if spot == Spot::Store(1 - me) {
                continue; // Kalah: never into the opponent's store
            }
            if self.kind == Kind::Oware && spot == origin {
                continue; // Abapa: a long sowing skips the house it started from
            }
            if let Some(owner) = self.tuzdyk_owner(spot) {
                self.banked[owner] += 1; // Togyz Kumalak: a tuzdyk's seeds go to its owner
            } else {
                *self.seeds_at(spot) += 1;
            }
            hand -= 1;
            if self.kind == Kind::SimplifiedOware {
                if let Spot::House(p, j) = spot {
                    if p != me && self.rows[p][j - 1] == 2 {
                        self.rows[p][j - 1] = 0;
                        self.banked[me] += 2;
                    }
                }
            }
        }
        spot
    }

    /// What sowing house `k` would do.
    #[must_use]
    pub fn effect(&self, k: usize) -> Effect {
        let mut after = self.clone();
        let before = self.banked[self.to_move];
        let grand_slam = after.play(k);
        Effect {
            captured: after.banked[self.to_move] - before,
            grand_slam,
            sown: self.rows[self.to_move][k - 1],
        }
    }

    /// Plays house `k` (which must be one of [`Table::moves`]); returns whether it was
    /// an Oware grand slam (a capture of the whole row, which captures nothing).
    ///
    /// # Panics
    /// If the move is not legal.
    pub fn play(&mut self, k: usize) -> bool {
        assert!(self.moves().contains(&k), "referee: house {k} is not legal");
        let me = self.to_move;
        let last = self.sow(k);
        match self.kind {
            Kind::Kalah { empty_capture, .. } => {
                if last == Spot::Store(me) {
                    return false; // the same player moves again
                }
                if let Spot::House(p, j) = last {
                    let opposite = Spot::House(1 - me, self.houses + 1 - j);
                    let across = *self.seeds_at(opposite);
                    if p == me && self.rows[me][j - 1] == 1 && (across > 0 || empty_capture) {
                        self.rows[me][j - 1] = 0;
                        *self.seeds_at(opposite) = 0;
                        self.banked[me] += 1 + across;
                    }
                }
                self.to_move = 1 - me;
                false
            }
            Kind::Oware => {
                let grand_slam = self.oware_capture(me, last);
                self.to_move = 1 - me;
                grand_slam
            }
            Kind::SimplifiedOware => {
                // A player with nothing on their row is skipped.
                if self.row_total(1 - me) > 0 {
                    self.to_move = 1 - me;
                }
                false
            }
            Kind::TogyzKumalak => {
                self.togyz_capture(me, last);
                self.to_move = 1 - me;
                false
            }
        }
    }

    /// Togyz Kumalak's capture after the last seed landed at `last`: on the opponent's
    /// row, not in a tuzdyk, an even number of seeds is captured, and exactly 3 make the
    /// house the mover's tuzdyk (its 3 seeds captured) unless the mover has one already,
    /// the house is the opponent's last, or it has the number of the opponent's tuzdyk.
    fn togyz_capture(&mut self, me: usize, last: Spot) {
        let Spot::House(p, j) = last else {
            return;
        };
        if p == me || self.tuzdyk_owner(last).is_some() {
            return;
        }
        let seeds = self.rows[p][j - 1];
        let tuzdyk = seeds == 3
            && self.tuzdyks[me].is_none()
            && j != self.houses
            && self.tuzdyks[p] != Some(j);
        if seeds % 2 == 0 || tuzdyk {
            self.rows[p][j - 1] = 0;
            self.banked[me] += seeds;
        }
        if tuzdyk {
            self.tuzdyks[me] = Some(j);
        }
    }

    /// Oware's capture after the last seed landed at `last`; returns whether it was a
    /// grand slam.
    fn oware_capture(&mut self, me: usize, last: Spot) -> bool {
        let Spot::House(p, j) = last else {
            return false;
        };
        if p == me {
            return false;
        }
        // The last house and the houses before it on the opponent's row, while they hold
        // two or three.
        let mut taken = Vec::new();
        let mut house = j;
        while house >= 1 && (2..=3).contains(&self.rows[p][house - 1]) {
            taken.push(house);
            house -= 1;
        }
        let seeds: u32 = taken.iter().map(|&h| self.rows[p][h - 1]).sum();
        if seeds > 0 && seeds == self.row_total(p) {
            return true;
        }
        for h in taken {
            self.rows[p][h - 1] = 0;
        }
        self.banked[me] += seeds;
        false
    }

    /// Whether the game is over in this position by the board alone (repetition needs
    /// the history: see [`Referee`]), and how.
    #[must_use]
    pub fn finish(&self) -> Option<Finish> {
        let me = self.to_move;
        let total = self.total();
        let ending = match self.kind {
            Kind::Kalah {
                either_side_empty, ..
            } => {
                if self.row_total(me) == 0 {
                    if either_side_empty {
                        Ending::SideEmpty(me)
                    } else {
                        Ending::NoSeedsToMove(me)
                    }
                } else if either_side_empty && self.row_total(1 - me) == 0 {
                    Ending::SideEmpty(1 - me)
                } else {
                    return None;
                }
            }
            Kind::Oware => {
                if let Some(p) = (0..2).find(|&p| 2 * self.banked[p] > total) {
                    Ending::MoreThanHalf(p)
                } else if 2 * self.banked[0] == total && 2 * self.banked[1] == total {
                    Ending::HalfEach
                } else if self.row_total(me) == 0 {
                    Ending::NoSeedsToMove(me)
                } else if self.moves().is_empty() {
                    Ending::CannotFeed(me)
                } else {
                    return None;
                }
            }
            Kind::SimplifiedOware => {
                if self.row_total(0) + self.row_total(1) <= 2 {
                    Ending::TwoOrFewerLeft
                } else {
                    return None;
                }
            }
            Kind::TogyzKumalak => {
                if let Some(p) = (0..2).find(|&p| 2 * self.banked[p] > total) {
                    Ending::MoreThanHalf(p)
                } else if 2 * self.banked[0] == total && 2 * self.banked[1] == total {
                    Ending::HalfEach
                } else if self.row_total(me) == 0 {
                    Ending::NoSeedsToMove(me)
                } else {
                    return None;
                }
            }
        };
        Some(self.share(ending))
    }

    /// The final scores for a game that ended here for `ending`.
    fn share(&self, ending: Ending) -> Finish {
        let left = [self.row_total(0), self.row_total(1)];
        // Who gets the seeds still on the board: in Kalah always their owner; in Oware
        // and Togyz Kumalak their owner unless a player won (or both drew) by captures;
        // in simplified Oware nobody.
        let owners_take = match self.kind {
            Kind::Kalah { .. } => true,
            Kind::Oware | Kind::TogyzKumalak => {
                !matches!(ending, Ending::MoreThanHalf(_) | Ending::HalfEach)
            }
            Kind::SimplifiedOware => false,
        };
        let taken_from_rows = if owners_take { left } else { [0, 0] };
        Finish {
            ending,
            scores: [
                self.banked[0] + taken_from_rows[0],
                self.banked[1] + taken_from_rows[1],
            ],
            taken_from_rows,
            left_to_nobody: left[0] + left[1] - taken_from_rows[0] - taken_from_rows[1],
        }
    }
}

/// A whole game: the board, the positions since the last capture (for the repetition
/// rule of both Oware variants) and how it ended.
#[derive(Clone, Debug)]
pub struct Referee {
    table: Table,
    since_capture: Vec<Table>,
    finish: Option<Finish>,
}

impl Referee {
    /// A game from the start position.
    #[must_use]
    pub fn new(kind: Kind, houses: usize, seeds: u32) -> Referee {
        let table = Table::new(kind, houses, seeds);
        Referee {
            finish: table.finish(),
            since_capture: vec![table.clone()],
            table,
        }
    }

    /// The board now.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// Togyz Kumalak: for player 1 (index 0), the house of player 2's row they own as
    /// their tuzdyk, numbered as player 2 numbers it, or `None`; then the same for
    /// player 2. `[None, None]` in the other games.
    ///
    /// ```
    /// use mancala_referee::{Kind, Referee};
    /// let mut game = Referee::new(Kind::TogyzKumalak, 9, 9);
    /// // Player 1's house 1, player 2's house 3, then player 1's house 2, capturing the
    /// // 2 it leaves in player 2's house 3 (a sowing of two seeds or more puts its first
    /// // seed back into the house it empties).
    /// for k in [1, 3, 2] {
    ///     game.play(k);
    /// }
    /// assert_eq!(game.table().rows[0], [2, 1, 11, 11, 11, 11, 11, 11, 11]);
    /// assert_eq!(game.tuzdyks(), [None, None]);
    /// // Player 2's house 1 (10 seeds): back into it, into their houses 2 to 9, and the
    /// // last into player 1's house 1, making 3: it becomes player 2's tuzdyk.
    /// game.play(1);
    /// assert_eq!(game.table().rows[0], [0, 1, 11, 11, 11, 11, 11, 11, 11]);
    /// assert_eq!(game.table().banked, [2, 3]);
    /// assert_eq!(game.tuzdyks(), [None, Some(1)]);
    /// ```
    #[must_use]
    pub fn tuzdyks(&self) -> [Option<usize>; 2] {
        self.table.tuzdyks
    }

    /// The legal moves; none once the game is over.
    #[must_use]
    pub fn moves(&self) -> Vec<usize> {
        if self.finish.is_some() {
            return Vec::new();
        }
        self.table.moves()
    }

    /// Plays house `k` and applies every end-of-game rule.
    ///
    /// # Panics
    /// If the game is over or the move is illegal.
    pub fn play(&mut self, k: usize) {
        assert!(self.finish.is_none(), "referee: the game is over");
        let banked_before = self.table.banked;
        self.table.play(k);
        self.finish = self.table.finish();
        // Kalah has no repetition rule (and no position of it can come round again).
        // Togyz Kumalak has the project's, as Oware has (docs/rules.md).
        let kind = self.table.kind;
        if self.finish.is_some() || matches!(kind, Kind::Kalah { .. }) {
            return;
        }
        if self.table.banked != banked_before {
            self.since_capture.clear();
        } else if self.since_capture.contains(&self.table) {
            self.finish = Some(self.table.repetition());
            return;
        }
        self.since_capture.push(self.table.clone());
    }
}

impl Table {
    /// How the game ends when this position has come round again: in Oware each player
    /// takes the seeds on their own row; in simplified Oware the seeds on the board
    /// count for nobody, as at its normal end, and the captures decide.
    #[must_use]
    pub fn repetition(&self) -> Finish {
        self.share(Ending::Repetition)
    }
}

/// The number of distinct legal move sequences of exactly `depth` plies from the
/// start of `game`, one by one. A sequence whose game ends before its last ply (by
/// repetition too) is not counted.
///
/// ```
/// use mancala_referee::{Kind, Referee, perft};
/// let kalah = Kind::Kalah { empty_capture: false, either_side_empty: false };
/// assert_eq!(perft(&Referee::new(kalah, 6, 4), 2), 35);
/// ```
#[must_use]
pub fn perft(game: &Referee, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut count = 0;
    for k in game.moves() {
        let mut next = game.clone();
        next.play(k);
        if next.finish().is_none() {
            count += perft(&next, depth - 1);
        } else if depth == 1 {
            count += 1;
        }
    }
    count
}
