//! Finding a game among many: the mechanics a description uses, in words front ends
//! filter by, and a search by any of a game's names that ignores case and accents.

use super::{CaptureKind, Description, Direction, Relay, Taker};

/// A mechanic of the family, as front ends offer it to filter games by.
///
/// ```
/// use mancala_core::description::{Description, Mechanic};
/// let ayoayo = Description::builtin("ayoayo").unwrap();
/// assert!(ayoayo.mechanics().contains(&Mechanic::RelaySowing));
/// assert!(Description::builtin("kalah").unwrap().mechanics().contains(&Mechanic::ExtraTurns));
/// assert_eq!(Mechanic::RelaySowing.to_string(), "relay sowing");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mechanic {
    /// Seeds are sown into the own store, and a last seed there moves again.
    ExtraTurns,
    /// A sowing goes on from the house its last seed reached.
    RelaySowing,
    /// The sowing goes clockwise, or in a direction the count sets.
    Clockwise,
    /// Captures by the count a house reaches (2s and 3s, 4s, even counts).
    CountCaptures,
    /// Captures across the board from an own empty house.
    AcrossCaptures,
    /// Captures of the house after the last one.
    NextHouseCaptures,
    /// Captures made by a row's owner during the sowing.
    OwnerCaptures,
    /// Houses claimed for good (a tuzdyk).
    ClaimedHouses,
    /// A player must give seeds to an opponent who has none.
    Feeding,
}

impl Mechanic {
    /// Every mechanic, in the order front ends list them.
    pub const ALL: [Mechanic; 9] = [
        Mechanic::ExtraTurns,
        Mechanic::RelaySowing,
        Mechanic::Clockwise,
        Mechanic::CountCaptures,
        Mechanic::AcrossCaptures,
        Mechanic::NextHouseCaptures,
        Mechanic::OwnerCaptures,
        Mechanic::ClaimedHouses,
        Mechanic::Feeding,
    ];

    /// The mechanic in a few words.
    #[must_use]
    pub const fn words(self) -> &'static str {
        match self {
            Mechanic::ExtraTurns => "extra turns",
            Mechanic::RelaySowing => "relay sowing",
            Mechanic::Clockwise => "clockwise sowing",
            Mechanic::CountCaptures => "captures by count",
            Mechanic::AcrossCaptures => "captures across",
            Mechanic::NextHouseCaptures => "captures of the next house",
            Mechanic::OwnerCaptures => "captures by the row's owner",
            Mechanic::ClaimedHouses => "claimed houses",
            Mechanic::Feeding => "feeding",
        }
    }
}

impl std::fmt::Display for Mechanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}

impl Description {
    /// The mechanics this game uses, in [`Mechanic::ALL`]'s order.
    #[must_use]
    pub fn mechanics(&self) -> Vec<Mechanic> {
        let captures = |test: &dyn Fn(&super::Capture) -> bool| self.capture.iter().any(test);
        Mechanic::ALL
            .into_iter()
            .filter(|m| match m {
                Mechanic::ExtraTurns => self.turn.extra_turn,
                Mechanic::RelaySowing => self.sowing.relay != Relay::None,
                Mechanic::Clockwise => self.sowing.direction != Direction::Anticlockwise,
                Mechanic::CountCaptures => captures(&|c| c.kind == CaptureKind::Count),
                Mechanic::AcrossCaptures => captures(&|c| c.kind == CaptureKind::Across),
                Mechanic::NextHouseCaptures => captures(&|c| c.kind == CaptureKind::Next),
                Mechanic::OwnerCaptures => captures(&|c| c.by == Taker::Owner),
                Mechanic::ClaimedHouses => self.claim.is_some(),
                Mechanic::Feeding => self.turn.must_feed,
            })
            .collect()
    }

    /// Whether `query` finds this game: every word of it is in the key, the name, an
    /// alias or the region, ignoring case and accents (so `unee` finds Ünee tugalluulax
    /// and `alitev` finds Alıtev).
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let togyz = Description::builtin("togyzkumalak").unwrap();
    /// assert!(togyz.matches("kumalak"));
    /// assert!(togyz.matches("KAZAKHSTAN"));
    /// assert!(togyz.matches(""));
    /// assert!(!togyz.matches("oware"));
    /// ```
    #[must_use]
    pub fn matches(&self, query: &str) -> bool {
        let haystack = self.search_text();
        folded(query)
            .split_whitespace()
            .all(|word| haystack.contains(word))
    }

    /// What [`matches`](Self::matches) looks in: the key, the name, the region and
    /// every alias, in lower-case ASCII (accents and other scripts transliterated), for
    /// a front end that searches on its own side (the web's new-game form).
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let unee = Description::builtin("unee-tugalluulax").unwrap();
    /// assert!(unee.search_text().contains("unee tugalluulax"));
    /// assert!(unee.search_text().is_ascii());
    /// ```
    #[must_use]
    pub fn search_text(&self) -> String {
        folded(
            &[&self.key, &self.name, &self.region]
                .into_iter()
                .chain(self.aliases.iter())
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        )
    }
}

impl Description {
    /// How well `query` finds this game, best first: 0 when the key or the name starts
    /// with it, 1 when another of its names does, 2 when it [`matches`](Self::matches)
    /// otherwise; `None` when it does not. A front end that chooses one game as the
    /// player types takes the best, so that `ayo` is Ayoayo before a game that has Ayo
    /// among its other names.
    ///
    /// ```
    /// use mancala_core::description::Description;
    /// let ayoayo = Description::builtin("ayoayo").unwrap();
    /// assert_eq!(ayoayo.rank("ayo"), Some(0));
    /// assert_eq!(ayoayo.rank("olopon"), Some(2));
    /// assert_eq!(ayoayo.rank("kalah"), None);
    /// ```
    #[must_use]
    pub fn rank(&self, query: &str) -> Option<u8> {
        if !self.matches(query) {
            return None;
        }
        let query = folded(query.trim());
        let starts = |name: &str| folded(name).starts_with(&query);
        if starts(&self.key) || starts(&self.name) {
            Some(0)
        } else if self.aliases.iter().any(|a| starts(a)) {
            Some(1)
        } else {
            Some(2)
        }
    }
}

/// `text` in lower case ASCII: accents and other scripts transliterated.
fn folded(text: &str) -> String {
    deunicode::deunicode(text).to_lowercase()
}
