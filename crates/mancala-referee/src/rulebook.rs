//! A game's rules as the referee reads them from `docs/rules-format.md`: plain fields
//! in the words of that page, with no code or type shared with `mancala-core`'s
//! `Description`. A test fills one from a description's public fields.

/// Whether a sowing goes on after its last seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Laps {
    /// One lap.
    Single,
    /// On from the last house while it held seeds before the last seed.
    FromLast,
    /// On from the house after the last one while that house holds seeds.
    FromNext,
}

/// The way round the board a sowing goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Along the own row to the right.
    Anticlockwise,
    /// Along the own row to the left, the store at the left end of the row.
    Clockwise,
    /// An odd number of seeds clockwise, an even number anticlockwise; the stores stay
    /// at the players' right.
    OddClockwise,
}

/// Whose house a capture rule may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// The opponent's.
    Opponent,
    /// The mover's own.
    Own,
    /// Either player's.
    Either,
}

/// One capture rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptureRule {
    /// A house that holds one of `counts` (or an even count, with `even`) once a seed
    /// lands in it.
    Count {
        /// The capturing counts.
        counts: Vec<u32>,
        /// Any even count captures too.
        even: bool,
        /// Whose houses.
        whose: Whose,
        /// Tried after every seed, not only the last.
        each_seed: bool,
        /// The houses before it on its row go too while they hold a capturing count.
        run: bool,
        /// A capture of the opponent's whole row is made (else it captures nothing).
        grand_slam_captures: bool,
        /// The row's owner takes the seeds, not the mover.
        owner_takes: bool,
    },
    /// The last seed in an own empty house takes itself and the facing house.
    Across {
        /// With the facing house empty the sowing seed alone is taken.
        lone_seed_taken: bool,
    },
    /// The last seed followed by an empty house: the house after that one is taken.
    Next {
        /// Whose houses.
        whose: Whose,
        /// The house facing the taken one goes too.
        facing: bool,
    },
}

/// The claim rule: a house of the opponent's row a player may own for the rest of the
/// game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimRule {
    /// The count the last seed must make there.
    pub count: u32,
    /// The opponent's last house may never be claimed.
    pub not_last_house: bool,
    /// Not the house numbered like the opponent's claimed house.
    pub not_mirror: bool,
}

/// Where the seeds on the board go at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// To the owner of each row.
    OwnRow,
    /// To the owner of each row, unless the captures decided the game.
    OwnRowUnlessDecided,
    /// To nobody.
    Nobody,
}

/// A whole game's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rulebook {
    /// Houses a player.
    pub houses: usize,
    /// Seeds in houses 1, 2, ... of each row at the start.
    pub start: Vec<u32>,
    /// Seeds are sown into the mover's store.
    pub own_store: bool,
    /// The way round the board.
    pub direction: Direction,
    /// The first seed goes back into the emptied house (unless it is alone).
    pub first_into_origin: bool,
    /// A lap passes over the house it came from.
    pub skip_origin: bool,
    /// Further laps.
    pub laps: Laps,
    /// The most laps a move sows (0: no bound).
    pub max_laps: u32,
    /// A last seed in the own store gives another turn.
    pub extra_turn: bool,
    /// An opponent without seeds must be given some, if any move can.
    pub must_feed: bool,
    /// A player without a move is passed over.
    pub pass: bool,
    /// The capture rules, in order.
    pub captures: Vec<CaptureRule>,
    /// The claim rule, if any.
    pub claim: Option<ClaimRule>,
    /// More than half of the seeds (or half each) ends the game.
    pub majority: bool,
    /// Either row empty ends the game (else: the player to move without a move).
    pub either_row_empty: bool,
    /// This many seeds or fewer on the board end the game (0: never).
    pub seeds_left: u32,
    /// Where the seeds on the board go at the end.
    pub leftover: Leftover,
    /// A position come round again since the last capture ends the game.
    pub repetition: bool,
}
