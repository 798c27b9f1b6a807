//! A plain view of a game's state, the shape `mancala replay` prints and the web API
//! serves.

use crate::{Game, Outcome, Side};

/// The state of a game as front ends and files show it.
///
/// With the `serde` feature it serializes to exactly
/// `{"ply":0,"to_move":1,"houses":[[...],[...]],"stores":[a,b],"over":false,"result":null}`:
/// `houses[0]` is player 1's houses 1..H, `houses[1]` player 2's, each in its owner's
/// sowing order; `to_move` is 1 or 2, `null` once the game is over. In a game where
/// players claim houses (Togyz Kumalak's tuzdyks) a field `"claimed":[a,b]` follows
/// `stores`: `a` is the house of player 2's row that player 1 owns, as player 2 numbers
/// it, or `null`; `b` is player 2's.
///
/// ```
/// use mancala_core::{Game, Rules, StateView};
/// let view = StateView::of(&Game::new(Rules::kalah(2, 1)));
/// assert_eq!(view.houses, [vec![1, 1], vec![1, 1]]);
/// assert_eq!(view.to_move, Some(1));
/// assert!(view.result.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StateView {
    /// Plies played.
    pub ply: usize,
    /// The player to move (1 or 2), `None` once the game is over.
    pub to_move: Option<u8>,
    /// Each player's houses, player 1 first, each from its house 1.
    pub houses: [Vec<u16>; 2],
    /// Seeds banked: stores in Kalah, captures in Oware.
    pub stores: [u16; 2],
    /// The claimed houses, in a game that has them: each player's house of the
    /// opponent's row, as the opponent numbers it (see
    /// [`Position::claimed`](crate::Position::claimed)).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub claimed: Option<[Option<u8>; 2]>,
    /// Whether the game is over.
    pub over: bool,
    /// The result once the game is over.
    pub result: Option<ResultView>,
}

/// The result of a finished game: `{"winner":1|2|null,"scores":[a,b]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ResultView {
    /// 1 or 2, `None` for a draw.
    pub winner: Option<u8>,
    /// Final scores, player 1 first.
    pub scores: [u16; 2],
}

impl From<Outcome> for ResultView {
    fn from(o: Outcome) -> Self {
        ResultView {
            winner: o.winner.map(Side::number),
            scores: o.scores,
        }
    }
}

impl StateView {
    /// The view of `game`'s current state.
    #[must_use]
    pub fn of(game: &Game) -> StateView {
        let p = game.position();
        StateView {
            ply: game.ply(),
            to_move: game.to_move().map(Side::number),
            houses: Side::BOTH.map(|s| p.houses(s).to_vec()),
            stores: p.stores(),
            claimed: (p.variant().info().claims)
                .then(|| p.claims().map(|t| t.map(crate::Move::house))),
            over: game.is_over(),
            result: game.outcome().map(ResultView::from),
        }
    }
}
