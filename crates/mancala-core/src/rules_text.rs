//! A game's rules as one line of text that any process reads back: what a store keeps
//! for a game, so that it needs one column whatever the game, and no column names a
//! rule option of one game.
//!
//! A game of the catalogue is written as its name and board with the options that
//! differ from its defaults (`kalah(6,4) empty-capture`, as [`Rules`]' `Display`); a
//! game of one's own, which no other process knows by its key, as its whole
//! description in JSON (`{"format":1,...}`).

use std::str::FromStr;

use crate::description::Description;
use crate::options::RuleOptions;
use crate::rules::{Rules, RulesError, Variant};

impl Rules {
    /// These rules as one line that [`Rules::from_text`] reads back in any process.
    ///
    /// ```
    /// use mancala_core::{EndRule, RuleOptions, Rules};
    /// let rules = Rules::kalah(6, 4).with_options(RuleOptions {
    ///     empty_capture: true,
    ///     end_rule: EndRule::EitherSideEmpty,
    /// });
    /// assert_eq!(rules.to_text(), "kalah(6,4) empty-capture either-side-empty");
    /// assert_eq!(Rules::from_text(&rules.to_text()).unwrap(), rules);
    /// // A game of one's own is its description.
    /// let mut d = mancala_core::description::Description::builtin("oware").unwrap();
    /// d.key = "my-oware".into();
    /// d.turn.must_feed = false;
    /// let mine = Rules::from_description(d).unwrap();
    /// assert!(mine.to_text().starts_with('{'));
    /// assert_eq!(Rules::from_text(&mine.to_text()).unwrap(), mine);
    /// ```
    #[must_use]
    pub fn to_text(&self) -> String {
        if self.variant().is_catalogued() {
            self.to_string()
        } else {
            self.description().to_json()
        }
    }

    /// The rules [`Rules::to_text`] wrote.
    ///
    /// # Errors
    /// [`RulesError::Text`] for text of neither form; the errors of [`Rules::new`] and
    /// [`Rules::from_description`] for what it names.
    pub fn from_text(text: &str) -> Result<Rules, RulesError> {
        let text = text.trim();
        if text.starts_with('{') {
            return Rules::from_description(Description::from_json(text, "rules")?);
        }
        text.parse()
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads a game of the catalogue as [`Rules`]' `Display` writes it:
    /// `KEY(HOUSES,SEEDS)` then its options, each a word.
    ///
    /// ```
    /// use mancala_core::Rules;
    /// assert_eq!("oware(6,4)".parse::<Rules>().unwrap(), Rules::oware(6, 4));
    /// assert!("oware(6,4) empty-capture".parse::<Rules>().is_err());
    /// assert!("oware 6 4".parse::<Rules>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let malformed = || RulesError::Text(s.to_owned());
        let mut words = s.split_whitespace();
        let head = words.next().ok_or_else(malformed)?;
        let (key, board) = head
            .strip_suffix(')')
            .and_then(|h| h.split_once('('))
            .ok_or_else(malformed)?;
        let (houses, seeds) = board.split_once(',').ok_or_else(malformed)?;
        let number = |n: &str| n.parse::<u8>().map_err(|_| malformed());
        let variant: Variant = key.parse()?;
        // Each word is a switch's key (on) or a value of one of the game's options.
        let mut options = RuleOptions::default();
        for word in words {
            let option = variant.info().options.iter().find(|o| {
                (o.is_switch() && o.key == word) || (!o.is_switch() && o.values.contains(&word))
            });
            options = match option {
                Some(o) if o.is_switch() => options.with(o.key, "on")?,
                Some(o) => options.with(o.key, word)?,
                None => return Err(RulesError::Text(s.to_owned())),
            };
        }
        Ok(Rules::new(variant, number(houses)?, number(seeds)?)?.with_options(options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_of_the_catalogue_reads_back_on_other_boards() {
        for &variant in Variant::catalogue() {
            let info = variant.info();
            let houses = info.default_houses.min(info.max_houses).max(2) - 1;
            let rules = Rules::new(variant, houses, 3).unwrap();
            assert_eq!(
                Rules::from_text(&rules.to_text()).unwrap(),
                rules,
                "{variant}"
            );
            assert!(!rules.to_text().starts_with('{'), "{variant}");
        }
    }

    #[test]
    fn malformed_text_is_refused_with_the_text() {
        for bad in ["", "kalah", "kalah(6)", "kalah(6,x)", "kalah(6,4", "(6,4)"] {
            let e = Rules::from_text(bad).unwrap_err();
            assert!(
                matches!(e, RulesError::Text(_) | RulesError::UnknownVariant(_)),
                "{bad:?}: {e}"
            );
        }
        assert!(matches!(
            Rules::from_text("kalah(6,4) sideways"),
            Err(RulesError::Text(_))
        ));
        assert!(matches!(
            Rules::from_text("kalah(40,4)"),
            Err(RulesError::Houses(40))
        ));
    }
}
