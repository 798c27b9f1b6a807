//! A worked example: a position of a catalogue game, moves played through the
//! description engine, and what the rules say must come of them.

use mancala_core::described::Described;
use mancala_core::description::Description;
use mancala_core::{Move, Position, Rules, Side, Variant};

/// A position and moves of one game, and the position they must lead to.
pub struct Example {
    /// The game's key.
    pub game: &'static str,
    /// The rule the example shows and which source gives it.
    pub shows: &'static str,
    /// Player 1's houses (house 1 first), player 2's houses, and player 2's store;
    /// player 1's store holds the rest of the game's seeds.
    pub before: (&'static [u16], &'static [u16], u16),
    /// Who moves first.
    pub to_move: Side,
    /// The houses played, each by the player to move.
    pub moves: &'static [u8],
    /// The houses and both stores afterwards.
    pub after: (&'static [u16], &'static [u16], [u16; 2]),
    /// Who is to move afterwards.
    pub then: Side,
    /// Whether the game is then over.
    pub over: bool,
}

impl Example {
    /// Plays the example and panics, naming it, where the engine disagrees.
    pub fn check(&self) {
        let d = Description::builtin(self.game)
            .unwrap_or_else(|| panic!("no game {:?} in the catalogue", self.game));
        let engine = Described::new(&d);
        let mut pos = self.position(&d);
        for &house in self.moves {
            let mv = Move::new(house).unwrap();
            assert!(
                engine.legal_moves(&pos).contains(&mv),
                "{}: house {house} is not legal in\n{pos}",
                self.game
            );
            engine.play(&mut pos, mv, &mut Vec::new());
        }
        let (south, north, stores) = self.after;
        let found = (
            pos.houses(Side::South),
            pos.houses(Side::North),
            pos.stores(),
            pos.to_move(),
            engine.is_over(&pos),
        );
        assert_eq!(
            found,
            (south, north, stores, self.then, self.over),
            "{}: {}",
            self.game,
            self.shows
        );
    }

    fn position(&self, d: &Description) -> Position {
        let (south, north, north_store) = self.before;
        let rules = Rules::new(Variant::Oware, d.board.houses, d.board.seeds).unwrap();
        let on_board: u16 = south.iter().chain(north).sum();
        let south_store = rules.total_seeds() - on_board - north_store;
        Position::from_parts(
            rules,
            [south, north],
            [south_store, north_store],
            self.to_move,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", self.game))
    }
}

/// The keys of the games that have a worked example in `examples`.
pub fn games_of(examples: &[Example]) -> Vec<&'static str> {
    examples.iter().map(|e| e.game).collect()
}
