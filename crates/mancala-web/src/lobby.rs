//! Finding a game: the public games waiting for an opponent (the lobby) and the public
//! games being played (to watch).

use serde::Serialize;

use crate::catalogue::VariantView;
use crate::error::GameError;
use crate::games::Games;
use crate::state::TimeControl;
use crate::store::Listing;
use crate::view::{GameView, PlayerView, RulesView};

/// The most games a list shows: the most recently active. Each is read and replayed
/// for every request (about 0.7 ms a game of 60 moves on SQLite), and home pages ask
/// every few seconds.
pub const LIST_LIMIT: usize = 20;

/// A public game in a list (`GET /api/lobby`, `GET /api/watch`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ListedGame {
    /// The game's id; its page is `/g/{id}`.
    pub id: String,
    /// The game's key (`kalah`, `oware`, ...).
    pub variant: String,
    /// A game of one's own rules: its entry as `GET /api/variants` would list it (its
    /// name above all), which no list has; none for a game of the catalogue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<VariantView>,
    /// The rules: houses, seeds and the options the game takes.
    pub rules: RulesView,
    /// The two seats (in the lobby, seat 2 is the one to take).
    pub players: [PlayerView; 2],
    /// Plies played.
    pub ply: usize,
    /// 1 or 2.
    pub to_move: Option<u8>,
    /// Seeds banked by each player.
    pub stores: [u16; 2],
    /// The clock the game is played with, if any.
    pub time_control: Option<TimeControl>,
    /// Whether the game counts for its players' ratings (then seat 2 is taken by
    /// logging in: only accounts play rated games).
    pub rated: bool,
    /// In the lobby: where to `POST` to take seat 2 (no invite needed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join: Option<String>,
}

/// A list of public games.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameList {
    /// The games, the most recently active first.
    pub games: Vec<ListedGame>,
}

impl ListedGame {
    fn of(view: GameView, listing: Listing) -> ListedGame {
        ListedGame {
            join: (listing == Listing::Open).then(|| format!("/api/games/{}/join", view.id)),
            id: view.id,
            variant: view.variant,
            game: view.game,
            rules: view.rules,
            players: view.players,
            ply: view.ply,
            to_move: view.to_move,
            stores: view.stores,
            time_control: view.time_control,
            rated: view.rated,
        }
    }
}

impl Games {
    /// The public games of `listing`, at most [`LIST_LIMIT`], the most recently active
    /// first; games that expired meanwhile are left out.
    ///
    /// # Errors
    /// When the store fails or a stored game does not replay.
    pub async fn listed(&self, listing: Listing) -> Result<GameList, GameError> {
        let ids = self.store().listed(listing, LIST_LIMIT).await?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            match self.view(&id).await {
                Ok(view) => games.push(ListedGame::of(view, listing)),
                Err(GameError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(GameList { games })
    }
}
