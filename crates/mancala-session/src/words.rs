//! What a move did, in words: captures, claimed houses, extra turns and the feeding rule, the
//! same sentences for every front end that prints them.

use mancala_core::{Move, Pit, Side, SowStep};

use crate::MoveRecord;

impl MoveRecord {
    /// Sentences saying what this move did beyond sowing, in order: what it captured
    /// (and a house it claimed), the seeds claimed houses took, whether the mover moves
    /// again, and whether the next player must feed an empty row. Empty for a plain
    /// sowing.
    ///
    /// ```
    /// use mancala_core::{Move, Rules};
    /// use mancala_session::Session;
    ///
    /// let mut s = Session::new(Rules::kalah(6, 4)).with_names(["Ann", "Bob"]);
    /// let record = s.play(Move::new(3).unwrap()).unwrap();
    /// assert_eq!(record.describe(["Ann", "Bob"]), ["Ann moves again."]);
    ///
    /// // Oware (2,1): Ann's house 2 makes Bob's house 1 two seeds, which she takes.
    /// let mut s = Session::new(Rules::oware(2, 1));
    /// let record = s.play(Move::new(2).unwrap()).unwrap();
    /// assert_eq!(record.describe(["Ann", "Bob"]), ["Ann captures 2 seeds from Bob's house 1."]);
    /// ```
    #[must_use]
    pub fn describe(&self, names: [&str; 2]) -> Vec<String> {
        let me = self.side;
        let (mover, other) = (names[me.index()], names[me.opponent().index()]);
        let mut lines = Vec::new();
        if let Some(capture) = self.capture_sentence(mover, other) {
            lines.push(capture);
        }
        let word = self.claim_word();
        for owner in [me, me.opponent()] {
            let n = self.claim_seeds(owner);
            if n > 0 {
                let seeds = if n == 1 { "seed" } else { "seeds" };
                let name = names[owner.index()];
                lines.push(format!("{name}'s {word} takes {n} {seeds}."));
            }
        }
        if self.after.is_over() {
            return lines;
        }
        if self.after.to_move() == me {
            lines.push(if self.report.ended_in_store {
                format!("{mover} moves again.")
            } else {
                format!("{other} has no seeds to move, so {mover} moves again.")
            });
        } else if self.after.variant().info().must_feed && self.after.row_sum(me) == 0 {
            lines.push(format!(
                "{mover} has no seeds left: {other} must give {mover} some."
            ));
        }
        lines
    }

    /// "Ann captures 5 seeds from Bob's houses 2 and 1." (Kalah: "... from her house 3
    /// and Bob's house 4"), or `None` without a capture.
    fn capture_sentence(&self, mover: &str, other: &str) -> Option<String> {
        let taken: Vec<(Side, u8)> = self
            .sowing
            .iter()
            .filter_map(|step| match step {
                SowStep::Capture {
                    pit: Pit::House { side, house },
                    ..
                } => Some((*side, *house)),
                _ => None,
            })
            .collect();
        if self.report.captured == 0 {
            return None;
        }
        let own: Vec<u8> = pick(&taken, self.side);
        let theirs: Vec<u8> = pick(&taken, self.side.opponent());
        let mut parts = Vec::new();
        if !own.is_empty() {
            parts.push(format!("{mover}'s {}", houses(&own)));
        }
        if !theirs.is_empty() {
            parts.push(format!("{other}'s {}", houses(&theirs)));
        }
        let n = self.report.captured;
        let seeds = if n == 1 { "seed" } else { "seeds" };
        let claim = match self.claimed_house() {
            Some(_) => format!(", which becomes {mover}'s {}", self.claim_word()),
            None => String::new(),
        };
        Some(format!(
            "{mover} captures {n} {seeds} from {}{claim}.",
            parts.join(" and ")
        ))
    }

    /// The house of the opponent's row (numbered as the opponent numbers it) that
    /// this move claimed for the mover, in a game whose captures claim houses.
    ///
    /// ```
    /// use mancala_core::{Move, Rules};
    /// use mancala_session::Session;
    /// // Togyz Kumalak (3,2): Ann's house 3 sows its two seeds into itself and Bob's
    /// // house 1, which then holds 3: her tuzdyk.
    /// let mut s = Session::new(Rules::togyz_kumalak(3, 2));
    /// let record = s.play(Move::new(3).unwrap()).unwrap();
    /// assert_eq!(record.claimed_house(), Move::new(1));
    /// assert_eq!(
    ///     record.describe(["Ann", "Bob"]),
    ///     ["Ann captures 3 seeds from Bob's house 1, which becomes Ann's tuzdyk."]
    /// );
    /// ```
    #[must_use]
    pub fn claimed_house(&self) -> Option<Move> {
        let me = self.side;
        self.after
            .claimed(me)
            .filter(|_| self.before.claimed(me).is_none())
    }

    /// What the game calls a claimed house (its `claim_word`), or "claimed house"
    /// for a game whose description leaves the word out.
    #[must_use]
    pub fn claim_word(&self) -> &'static str {
        claim_word(self.after.variant().info().claim_word)
    }

    /// Seeds this move sowed into `owner`'s claimed house, which went to `owner`'s
    /// store (0 in a game without claims).
    #[must_use]
    pub fn claim_seeds(&self, owner: Side) -> u16 {
        if self.before.claimed(owner).is_none() {
            return 0;
        }
        let n = self
            .sowing
            .iter()
            .filter(|s| **s == SowStep::Drop(Pit::Store(owner)))
            .count();
        u16::try_from(n).unwrap_or(u16::MAX)
    }
}

/// The word for a claimed house: the game's own, else a generic one.
#[must_use]
pub fn claim_word(word: &'static str) -> &'static str {
    if word.is_empty() {
        "claimed house"
    } else {
        word
    }
}

fn pick(taken: &[(Side, u8)], side: Side) -> Vec<u8> {
    taken
        .iter()
        .filter(|(s, _)| *s == side)
        .map(|&(_, h)| h)
        .collect()
}

/// "house 3", or "houses 2 and 1", or "houses 4, 3 and 2".
fn houses(list: &[u8]) -> String {
    let numbers: Vec<String> = list.iter().map(ToString::to_string).collect();
    match numbers.as_slice() {
        [one] => format!("house {one}"),
        [init @ .., last] => format!("houses {} and {last}", init.join(", ")),
        [] => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use mancala_core::{Move, Rules, Side};

    use crate::Session;

    fn play(rules: Rules, moves: &[u8]) -> Vec<Vec<String>> {
        let mut s = Session::new(rules);
        moves
            .iter()
            .map(|&h| {
                s.play(Move::new(h).unwrap())
                    .unwrap()
                    .describe(["Ann", "Bob"])
            })
            .collect()
    }

    #[test]
    fn kalah_capture_names_both_houses() {
        // Kalah(3,2): in the eighth move Bob's last seed lands in his empty house 3,
        // which takes it and Ann's house 1 opposite.
        let said = play(Rules::kalah(3, 2), &[3, 1, 2, 1, 2, 3, 3, 1]);
        assert_eq!(
            said[7],
            ["Bob captures 2 seeds from Bob's house 3 and Ann's house 1."]
        );
    }

    #[test]
    fn oware_says_when_the_opponent_must_feed() {
        // Oware(3,2): Ann's house 3 makes Bob's houses 2 and 1 three seeds each and takes
        // both. Bob's house 3 then sows his last two seeds into Ann's houses 1 and 2,
        // making them three (a grand slam, so no capture): Bob has nothing left.
        let said = play(Rules::oware(3, 2), &[3, 3]);
        assert_eq!(said[0], ["Ann captures 6 seeds from Bob's houses 2 and 1."]);
        assert_eq!(said[1], ["Bob has no seeds left: Ann must give Bob some."]);
    }

    #[test]
    fn simplified_oware_says_who_is_skipped() {
        // Simplified Oware (2,2): after the seventh move Bob's row is empty, so he is
        // skipped and Ann moves again.
        let said = play(Rules::oware_simplified(2, 2), &[1, 2, 1, 1, 1, 2, 1]);
        assert_eq!(said[6], ["Bob has no seeds to move, so Ann moves again."]);
    }

    #[test]
    fn togyz_kumalak_says_what_the_tuzdyks_took() {
        // Togyz Kumalak (3,2): Ann's house 3 makes Bob's house 1 three: her tuzdyk.
        let mut s = Session::new(Rules::togyz_kumalak(3, 2));
        let claim = s.play(Move::new(3).unwrap()).unwrap().clone();
        assert_eq!(
            claim.describe(["Ann", "Bob"]),
            ["Ann captures 3 seeds from Bob's house 1, which becomes Ann's tuzdyk."]
        );
        assert_eq!(
            s.position().to_notation(),
            "togyzkumalak 3x2 2,2,1/3 x,2,2/0 2"
        );
        // Bob's house 3: a seed back into it, one into Ann's house 1, making 3 (not his
        // tuzdyk: it has the number of Ann's). Then Ann's house 2 and Bob's house 2
        // sow along their own rows.
        let r = s.play(Move::new(3).unwrap()).unwrap().clone();
        assert!(r.describe(["Ann", "Bob"]).is_empty());
        s.play(Move::new(2).unwrap()).unwrap();
        s.play(Move::new(2).unwrap()).unwrap();
        // Ann's house 3 (2 seeds): into itself, then into Bob's house 1, her tuzdyk.
        let r = s.play(Move::new(3).unwrap()).unwrap().clone();
        assert_eq!(
            (r.claim_seeds(Side::South), r.claim_seeds(Side::North)),
            (1, 0)
        );
        assert_eq!(r.describe(["Ann", "Bob"]), ["Ann's tuzdyk takes 1 seed."]);
    }

    #[test]
    fn a_plain_sowing_says_nothing() {
        assert!(play(Rules::oware(6, 4), &[1])[0].is_empty());
    }
}
