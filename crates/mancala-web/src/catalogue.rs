//! What the server plays, for the browser to build its forms from: every variant as
//! its module in core describes it (`GET /api/variants`) and the computer players the
//! engine's catalogue offers in menus (`GET /api/players`). Both are the same for the
//! whole life of the server, so their JSON is made once and may be cached.

use std::sync::OnceLock;

use mancala_core::Variant;
use mancala_core::variants::{Leftover, RuleOptionInfo};
use mancala_engine::PlayerInfo;
use serde::Serialize;
use sha2::{Digest, Sha256};

/// Every game (`GET /api/variants`), in [`Variant::catalogue`]'s order.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VariantList {
    /// The variants.
    pub variants: Vec<VariantView>,
}

/// A variant as [`Variant::info`] describes it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VariantView {
    /// The key of the API, records and the command line: `kalah`, `togyzkumalak`.
    pub key: &'static str,
    /// The name people read: `Kalah`, `Togyz Kumalak`.
    pub name: &'static str,
    /// The rules in a few sentences.
    pub rules: &'static str,
    /// A one-line hint: how to capture.
    pub tip: &'static str,
    /// Houses per side when a new game gives none.
    pub default_houses: u8,
    /// Seeds per house when a new game gives none.
    pub default_seeds: u8,
    /// The most houses per side (the fewest is 1).
    pub max_houses: u8,
    /// The most seeds per house (the fewest is 1).
    pub max_seeds: u8,
    /// The rule options the variant takes.
    pub options: Vec<OptionView>,
    /// Whether seeds are sown into stores on the board.
    pub stores: bool,
    /// Whether a move can give its player another move.
    pub extra_turns: bool,
    /// Whether a position coming round again since the last capture ends the game.
    pub repetition: bool,
    /// Whether a player must give seeds to an opponent who has none, when a move can.
    pub must_feed: bool,
    /// What happens to the seeds left at the end: `own-row`,
    /// `own-row-unless-decided` or `nobody`.
    pub leftover: &'static str,
    /// The same in words.
    pub leftover_text: &'static str,
    /// What the game calls a house a player claims, from its description's `[claim]
    /// word`, where players claim houses (then game views carry `claimed`); `null`
    /// otherwise.
    pub claim_word: Option<String>,
    /// What a player's banked seeds are called: `store` or `captured`.
    pub bank: &'static str,
    /// The game's other names and spellings.
    pub aliases: Vec<String>,
    /// Where it is played, and by whom.
    pub region: String,
    /// The game in one sentence.
    pub summary: String,
    /// The mechanics of the family it uses, in words (`relay sowing`, `feeding`), as
    /// forms filter by.
    pub mechanics: Vec<&'static str>,
    /// What a search by name looks in: key, name, region and aliases, in lower-case
    /// ASCII (accents and other scripts transliterated), so that a page finds
    /// `Ünee tugalluulax` by `unee` as the command line does.
    pub search: String,
}

/// A rule option of a variant.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct OptionView {
    /// Its key: `empty-capture`.
    pub key: &'static str,
    /// The field of `POST /api/games` (and of a game view's `rules`) that holds it:
    /// the key with `_` for `-`. A switch (values `off`, `on`) is `false` or `true`
    /// there; any other option one of its values.
    pub field: String,
    /// What it does, in a sentence.
    pub summary: &'static str,
    /// The values it takes, the default first.
    pub values: &'static [&'static str],
}

/// The computer players menus offer (`GET /api/players`), in the engine's order.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerList {
    /// The players.
    pub players: Vec<ComputerView>,
}

/// A computer player as the engine's catalogue describes it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ComputerView {
    /// The name to give as a game's `opponent`: `medium`, `greedy`.
    pub name: &'static str,
    /// What it does, in a few words.
    pub summary: &'static str,
    /// Roughly how long it thinks a move: `instant`, `fraction` or `second`.
    pub cost: &'static str,
    /// The keys of the variants it plays.
    pub variants: Vec<&'static str>,
}

/// The word for a rule about leftover seeds.
fn leftover_key(leftover: Leftover) -> &'static str {
    match leftover {
        Leftover::OwnRow => "own-row",
        Leftover::OwnRowUnlessDecided => "own-row-unless-decided",
        Leftover::Nobody => "nobody",
    }
}

fn option_view(o: &RuleOptionInfo) -> OptionView {
    OptionView {
        key: o.key,
        field: crate::rule_options::field(o.key),
        summary: o.summary,
        values: o.values,
    }
}

/// The word of the shipped description of game `key` for a claimed house, if its
/// players claim houses.
impl VariantView {
    /// The description of one variant.
    #[must_use]
    pub fn of(variant: Variant) -> VariantView {
        let info = variant.info();
        let description = variant.description();
        VariantView {
            key: info.key,
            name: info.name,
            rules: info.rules,
            tip: info.tip,
            default_houses: info.default_houses,
            default_seeds: info.default_seeds,
            max_houses: info.max_houses,
            max_seeds: info.max_seeds,
            options: info.options.iter().map(option_view).collect(),
            stores: info.stores,
            extra_turns: info.extra_turns,
            repetition: info.repetition,
            must_feed: info.must_feed,
            leftover: leftover_key(info.leftover),
            leftover_text: info.leftover.describe(),
            claim_word: (!info.claim_word.is_empty()).then(|| info.claim_word.to_owned()),
            bank: info.bank,
            mechanics: description.mechanics().iter().map(|m| m.words()).collect(),
            search: description.search_text(),
            aliases: description.aliases,
            region: description.region,
            summary: description.summary,
        }
    }
}

impl VariantList {
    /// Every variant.
    #[must_use]
    pub fn all() -> VariantList {
        VariantList {
            variants: Variant::catalogue()
                .iter()
                .map(|&v| VariantView::of(v))
                .collect(),
        }
    }
}

impl PlayerList {
    /// The players menus offer, each with the variants it plays.
    #[must_use]
    pub fn in_menus() -> PlayerList {
        PlayerList {
            players: PlayerInfo::ALL
                .iter()
                .filter(|p| p.in_menus)
                .map(|p| ComputerView {
                    name: p.name,
                    summary: p.summary,
                    cost: p.cost.key(),
                    variants: Variant::catalogue()
                        .iter()
                        .filter(|&&v| p.plays(v))
                        .map(|v| v.info().key)
                        .collect(),
                })
                .collect(),
        }
    }
}

/// A JSON answer made once: its text and its entity tag.
pub(crate) struct Fixed {
    /// The JSON.
    pub body: String,
    /// A strong `ETag` of it (quoted).
    pub etag: String,
}

impl Fixed {
    fn of<T: Serialize>(value: &T) -> Fixed {
        let body = serde_json::to_string(value).expect("the catalogue serialises");
        let hash = Sha256::digest(body.as_bytes());
        let etag = format!(
            "\"{}\"",
            hash[..8]
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        Fixed { body, etag }
    }
}

/// `GET /api/variants`'s answer.
pub(crate) fn variants_json() -> &'static Fixed {
    static JSON: OnceLock<Fixed> = OnceLock::new();
    JSON.get_or_init(|| Fixed::of(&VariantList::all()))
}

/// `GET /api/players`'s answer.
pub(crate) fn players_json() -> &'static Fixed {
    static JSON: OnceLock<Fixed> = OnceLock::new();
    JSON.get_or_init(|| Fixed::of(&PlayerList::in_menus()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_described_in_order() {
        let keys: Vec<&str> = VariantList::all().variants.iter().map(|v| v.key).collect();
        let catalogue: Vec<&str> = Variant::catalogue().iter().map(|v| v.name()).collect();
        assert_eq!(keys, catalogue);
        assert!(
            keys.len() >= 40 && keys.starts_with(&["kalah", "oware"]),
            "{keys:?}"
        );
    }

    #[test]
    fn options_name_their_fields() {
        let kalah = VariantView::of(Variant::Kalah);
        let fields: Vec<&str> = kalah.options.iter().map(|o| o.field.as_str()).collect();
        assert_eq!(fields, ["empty_capture", "end_rule"]);
    }

    #[test]
    fn claim_words_come_from_the_descriptions() {
        let words: Vec<Option<String>> = VariantList::all()
            .variants
            .into_iter()
            .map(|v| v.claim_word)
            .collect();
        let described: Vec<Option<String>> = Variant::catalogue()
            .iter()
            .map(|v| v.description().claim.map(|c| c.word))
            .collect();
        assert_eq!(words, described);
        assert!(words.contains(&Some("tuzdyk".to_owned())));
    }

    #[test]
    fn the_robot_plays_only_variants_with_extra_turns() {
        let players = PlayerList::in_menus().players;
        let robot = players.iter().find(|p| p.name == "robot").unwrap();
        let with_extra_turns: Vec<&str> = Variant::catalogue()
            .iter()
            .filter(|v| v.info().extra_turns)
            .map(|v| v.name())
            .collect();
        assert_eq!(robot.variants, with_extra_turns);
        assert!(!robot.variants.contains(&"oware"));
        assert!(players.iter().all(|p| p.name != "alphabeta"));
    }
}
