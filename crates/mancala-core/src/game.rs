//! A game record: the start, the moves, and the rules that need the history.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::{GameEnd, IllegalMove, Move, MoveList, Outcome, Position, Rules, Side};

/// A game from its start position: the moves played, the current position, and Oware's
/// repetition rule, which a lone [`Position`] cannot know.
///
/// In both Oware variants, when a position (board and player to move) repeats since the
/// last capture, the game ends (see [`Position::end_by_repetition`] for the scores).
///
/// ```
/// use mancala_core::{Game, Move, Rules};
/// let mut game = Game::new(Rules::kalah(6, 4));
/// game.play(Move::new(3).unwrap()).unwrap();
/// assert_eq!(game.moves().len(), 1);
/// assert!(game.undo());
/// assert_eq!(game.position(), game.start());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    position: Position,
    repetitions: RepetitionTracker,
    repeated: bool,
}

/// Oware's repetition rule as a reusable piece: the positions since the last capture.
///
/// [`Game`] uses it; loops that play many games on bare [`Position`]s (playouts,
/// matches) can reuse one tracker and its allocation across games.
///
/// ```
/// use mancala_core::{Move, Position, RepetitionTracker, Rules, Side};
/// let start = Position::from_parts(Rules::oware(2, 4), [&[1, 0], &[1, 0]], [7, 7], Side::South).unwrap();
/// let mut tracker = RepetitionTracker::new(&start);
/// let mut p = start;
/// let mut repeated = false;
/// for h in [1, 1, 2, 2] {
///     let next = p.play(Move::new(h).unwrap()).unwrap();
///     repeated = tracker.record(&p, &next);
///     p = next;
/// }
/// assert!(repeated);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RepetitionTracker {
    /// A fingerprint of each position since the last capture, kept apart from the
    /// positions so that a scan reads eight to a cache line.
    keys: Vec<u64>,
    /// The positions since the last capture, compared in full only when the
    /// fingerprints match.
    since_capture: Vec<Position>,
    /// The fingerprints again, as a set, once the run since the last capture is longer
    /// than [`SCAN_UP_TO`]: a position not in it is new without a scan. Random games
    /// (the Python package's batches of thousands) shuffle a few seeds for hundreds of
    /// moves between captures, and scanning every one of them was the cost.
    seen: HashSet<u64, BuildHasherDefault<FingerprintHasher>>,
}

/// Runs since the last capture up to this long are scanned; longer ones keep a set.
const SCAN_UP_TO: usize = 12;

/// Hashes a fingerprint as itself: it is already a mixed 64-bit hash.
#[derive(Clone, Copy, Debug, Default)]
struct FingerprintHasher(u64);

impl Hasher for FingerprintHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A 64-bit fingerprint of the board and the player to move (stores are equal between
/// captures, so they are left out). Four cells make a word (the cells past the board
/// are 0), and the last step mixes the high bits into the low ones, which pick a
/// bucket in the set.
#[inline]
fn fingerprint(p: &Position) -> u64 {
    let cells = &p.cells[..(2 * p.houses_per_side()).next_multiple_of(4)];
    let mut key = p.to_move().index() as u64;
    for four in cells.chunks_exact(4) {
        let word = four.iter().rev().fold(0, |w, &c| w << 16 | u64::from(c));
        key = (key.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    key ^ key >> 31
}

impl RepetitionTracker {
    /// A tracker for a game starting at `start`.
    #[must_use]
    pub fn new(start: &Position) -> RepetitionTracker {
        let mut t = RepetitionTracker::default();
        t.reset(start);
        t
    }

    /// Starts over from `start`, keeping the allocation.
    pub fn reset(&mut self, start: &Position) {
        self.keys.clear();
        self.since_capture.clear();
        if !self.seen.is_empty() {
            self.seen.clear();
        }
        self.keys.push(fingerprint(start));
        self.since_capture.push(*start);
    }

    /// Records the move from `before` to `after` and says whether it ends the game by
    /// repetition: `after` is a position already seen since the last capture. Always
    /// `false` for variants without the rule (Kalah).
    pub fn record(&mut self, before: &Position, after: &Position) -> bool {
        if !after.variant().has_repetition_rule() {
            return false;
        }
        if after.stores() != before.stores() {
            self.reset(after);
            return false;
        }
        let key = fingerprint(after);
        // The set, when kept, rules out a scan for every position seen for the first
        // time; the scan (over the fingerprints, then the positions whose fingerprint
        // matches) decides exactly.
        let may_repeat = self.keys.len() <= SCAN_UP_TO || !self.seen.insert(key);
        let repeated = may_repeat
            && !after.is_over()
            && self
                .keys
                .iter()
                .zip(&self.since_capture)
                .any(|(k, p)| *k == key && p == after);
        self.keys.push(key);
        self.since_capture.push(*after);
        if self.keys.len() == SCAN_UP_TO + 1 {
            self.seen.extend(&self.keys);
        }
        repeated
    }
}

/// Oware's repetition rule kept with the moves since the last capture instead of the
/// positions: the position at the run's start, the moves, the fingerprints of a short
/// run (scanned) and, once the run is longer than [`SCAN_UP_TO`], a set of them. A
/// position whose fingerprint is new is new; one whose fingerprint was seen is checked
/// exactly by replaying the run. A step stores one byte and a set entry where
/// [`RepetitionTracker`] stores a whole position: thousands of games side by side
/// (`LeanGame` in batches) then stay in the caches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveRun {
    start: Position,
    moves: Vec<Move>,
    /// The fingerprints of the start and of the positions after each move, while the
    /// run is short.
    keys: Vec<u64>,
    /// All of the run's fingerprints, once it is long.
    seen: HashSet<u64, BuildHasherDefault<FingerprintHasher>>,
}

impl MoveRun {
    /// A run from `start` that allocates nothing until it is [`reset`](Self::reset):
    /// for variants without the repetition rule, which never record.
    pub(crate) fn dormant(start: &Position) -> MoveRun {
        MoveRun {
            start: *start,
            moves: Vec::new(),
            keys: Vec::new(),
            seen: HashSet::default(),
        }
    }

    /// Starts a run at `start`, keeping the allocations.
    pub(crate) fn reset(&mut self, start: &Position) {
        self.start = *start;
        self.moves.clear();
        self.keys.clear();
        self.keys.push(fingerprint(start));
        if !self.seen.is_empty() {
            self.seen.clear();
        }
    }

    /// Records `mv`, played from `before` to `after`; whether `after` ends the game by
    /// repetition (as [`RepetitionTracker::record`] says).
    pub(crate) fn record(&mut self, before: &Position, mv: Move, after: &Position) -> bool {
        if after.stores() != before.stores() {
            self.reset(after);
            return false;
        }
        let key = fingerprint(after);
        let short = self.moves.len() < SCAN_UP_TO;
        let may_repeat = if short {
            self.keys.contains(&key)
        } else {
            !self.seen.insert(key)
        };
        let repeated = may_repeat && !after.is_over() && self.replay_finds(after);
        self.moves.push(mv);
        if short {
            self.keys.push(key);
            if self.moves.len() == SCAN_UP_TO {
                self.seen.extend(self.keys.drain(..));
            }
        }
        repeated
    }

    /// Where the run starts (the start or the position after the last capture).
    pub(crate) fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played since the run started.
    pub(crate) fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether `target` is one of the run's positions, by playing the run again.
    fn replay_finds(&self, target: &Position) -> bool {
        let mut p = self.start;
        if p == *target {
            return true;
        }
        self.moves.iter().any(|&mv| {
            p.play_unchecked(mv);
            p == *target
        })
    }
}

impl Game {
    /// A new game from the start position of `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::new(rules))
    }

    /// A new game from any position, with no history before it.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        Game {
            start,
            moves: Vec::new(),
            position: start,
            repetitions: RepetitionTracker::new(&start),
            repeated: false,
        }
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.start.rules()
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played so far.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether the game has ended, by the position or by repetition.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.repeated || self.position.is_over()
    }

    /// Whether the game ended because a position repeated (the Oware variants).
    #[must_use]
    pub fn ended_by_repetition(&self) -> bool {
        self.repeated
    }

    /// The player to move, or `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Side> {
        (!self.is_over()).then(|| self.position.to_move())
    }

    /// The legal moves; empty once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        if self.repeated {
            MoveList::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// How the game ended (reason, final sweep, result), `None` while it goes on.
    ///
    /// ```
    /// use mancala_core::{EndReason, Game, Move, Rules};
    /// // Simplified Oware, one house of four seeds each: the board after the third move
    /// // is the one after the first, with the same player to move.
    /// let mut game = Game::new(Rules::oware_simplified(1, 4));
    /// for _ in 0..3 {
    ///     game.play(Move::new(1).unwrap()).unwrap();
    /// }
    /// let end = game.end().unwrap();
    /// assert_eq!(end.reason, EndReason::Repetition);
    /// assert_eq!((end.outcome.scores, end.outcome.winner), ([0, 0], None));
    /// ```
    #[must_use]
    pub fn end(&self) -> Option<GameEnd> {
        if self.repeated {
            self.position.end_by_repetition()
        } else {
            self.position.end()
        }
    }

    /// The final scores and winner once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.repeated {
            self.end().map(|e| e.outcome)
        } else {
            self.position.outcome()
        }
    }

    /// Plays `mv` and returns the new position.
    ///
    /// # Errors
    /// Why the move is illegal; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<&Position, IllegalMove> {
        if self.repeated {
            return Err(IllegalMove::GameOver);
        }
        let before = self.position;
        self.position = before.play(mv)?;
        self.moves.push(mv);
        self.repeated = self.repetitions.record(&before, &self.position);
        Ok(&self.position)
    }

    /// Takes back the last move; `false` if there was none.
    pub fn undo(&mut self) -> bool {
        let Some(_) = self.moves.pop() else {
            return false;
        };
        let moves = std::mem::take(&mut self.moves);
        *self = Game::from_position(self.start);
        for mv in moves {
            self.play(mv).expect("a move that was legal is legal again");
        }
        true
    }
}
