//! The start screen's state: the settings being edited, the focused line, what the
//! screen says about the chosen players and about the last key refused.

use mancala_core::{MAX_HOUSES, MAX_SEEDS, Variant};
use mancala_engine::PlayerSpec;
use mancala_session::Seat;

use super::{FALLBACK_PLAYER, NAME_MAX, Setup, default_name, seat_note};
use crate::fit;

/// One line of the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The variant.
    Variant,
    /// Houses per side.
    Houses,
    /// Seeds per house.
    Seeds,
    /// The variant's rule option of this index in its
    /// [`VariantInfo::options`](mancala_core::variants::VariantInfo::options).
    Option(usize),
    /// Who plays seat 0 or 1.
    Player(usize),
    /// The name of seat 0 or 1.
    Name(usize),
    /// The start button.
    Start,
}

/// The start screen's state: the settings being edited, the focused line, and what the
/// screen says about the chosen players.
#[derive(Clone, Debug)]
pub struct SetupForm {
    /// Changed only through the methods below, which keep `notes` up to date with it.
    setup: Setup,
    /// The focused line.
    pub focus: Field,
    /// Specs given on the command line that are not plain names (`random:seed=4`),
    /// offered as well where they play the variant.
    extra: Vec<String>,
    /// For each seat, a player the start screen put in place of the one chosen, since
    /// that one does not play the variant chosen since: the note says so.
    replaced: [Option<String>; 2],
    /// Why each seat's chosen player cannot play, worked out when the settings change
    /// rather than when the screen is drawn, since finding out builds the player.
    notes: [Option<String>; 2],
    /// The focused line was just reached: like a selected field, the first character
    /// or digit typed replaces its value instead of adding to it.
    fresh: bool,
    /// What the screen says about the last key typed, when it was refused: a number
    /// out of range, a name at its longest.
    said: Option<String>,
    /// The board was changed by hand (or given so): a change of variant keeps it
    /// rather than taking the new variant's default board.
    board_chosen: bool,
    /// The words typed to find a game (after `/`), and the game chosen before, which
    /// Esc goes back to; `None` when not finding.
    finding: Option<(String, Variant)>,
}

impl SetupForm {
    /// A form editing `setup`, the focus on the start button.
    #[must_use]
    pub fn new(setup: Setup) -> SetupForm {
        // Specs the menus do not list for any variant, offered as well.
        let listed = |p: &str| {
            Variant::catalogue()
                .iter()
                .any(|&v| Seat::choices(v).any(|c| c == p))
        };
        let extra = setup
            .players
            .iter()
            .filter(|p| !listed(p))
            .cloned()
            .collect();
        let info = setup.variant.info();
        let board_chosen = (setup.houses, setup.seeds) != (info.default_houses, info.default_seeds);
        let mut form = SetupForm {
            setup,
            focus: Field::Start,
            extra,
            replaced: [None, None],
            notes: [None, None],
            fresh: false,
            said: None,
            board_chosen,
            finding: None,
        };
        form.replace_players();
        form.check_players();
        form
    }

    /// The players offered for each seat: a person and the computer players the
    /// engine's catalogue offers for the chosen variant, in its order
    /// ([`Seat::choices`]), then the specs given on the command line that play it.
    #[must_use]
    pub fn choices(&self) -> Vec<String> {
        let variant = self.setup.variant;
        let mut choices: Vec<String> = Seat::choices(variant).map(str::to_owned).collect();
        let plays = |spec: &&String| {
            let name = spec.split(':').next().unwrap_or(spec);
            PlayerSpec::cannot_play(name, variant).is_none()
        };
        choices.extend(self.extra.iter().filter(plays).cloned());
        choices
    }

    /// Puts [`FALLBACK_PLAYER`] in each seat whose player does not play the variant,
    /// keeping a note of it: the screen shows the player who will play.
    fn replace_players(&mut self) {
        let variant = self.setup.variant;
        for seat in 0..2 {
            let spec = self.setup.players[seat].clone();
            let name = spec.split(':').next().unwrap_or(&spec);
            if let Some(why) = PlayerSpec::cannot_play(name, variant) {
                self.set_player(seat, FALLBACK_PLAYER.to_owned());
                self.replaced[seat] = Some(format!(
                    "{name} does not play {} ({why}): {FALLBACK_PLAYER} plays for player {} instead",
                    variant.info().name,
                    seat + 1
                ));
            }
        }
    }

    /// Seats `player` in `seat`, renaming the seat when it had its old player's
    /// default name (a name the person typed stays).
    fn set_player(&mut self, seat: usize, player: String) {
        let s = &mut self.setup;
        let old_default = default_name(seat, &s.players[seat]);
        if s.names[seat] == old_default {
            s.names[seat] = default_name(seat, &player);
        }
        s.players[seat] = player;
    }

    /// The settings.
    #[must_use]
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// For each seat, player 1 first, what the screen says about its player: why the
    /// player chosen does not play the variant and who plays instead, or why the
    /// chosen computer player cannot play these rules (a fallback plays instead).
    #[must_use]
    pub fn notes(&self) -> [Option<String>; 2] {
        [0, 1].map(|i| {
            self.replaced[i].clone().or_else(|| {
                self.notes[i]
                    .as_ref()
                    .map(|why| format!("{why}; {FALLBACK_PLAYER} plays for player {}", i + 1))
            })
        })
    }

    fn check_players(&mut self) {
        self.notes = match self.setup.rules() {
            Ok(rules) => [0, 1].map(|i| seat_note(&self.setup.players[i], rules)),
            Err(_) => [None, None],
        };
    }

    /// The lines shown, in order: the rule options only those the variant takes.
    #[must_use]
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::Variant, Field::Houses, Field::Seeds];
        f.extend((0..self.setup.variant.info().options.len()).map(Field::Option));
        f.extend([
            Field::Player(0),
            Field::Name(0),
            Field::Player(1),
            Field::Name(1),
            Field::Start,
        ]);
        f
    }

    /// Moves the focus `delta` lines down (negative: up), wrapping.
    pub fn move_focus(&mut self, delta: isize) {
        let fields = self.fields();
        let i = fields.iter().position(|f| *f == self.focus).unwrap_or(0) as isize;
        let n = fields.len() as isize;
        self.focus_on(fields[(i + delta).rem_euclid(n) as usize]);
    }

    /// Puts the focus on `field`; what is typed first there replaces its value.
    pub fn focus_on(&mut self, field: Field) {
        self.fresh = field != self.focus || self.fresh;
        self.focus = field;
        self.said = None;
    }

    /// What the screen says about the last key typed, when it was refused.
    #[must_use]
    pub fn said(&self) -> Option<&str> {
        self.said.as_deref()
    }

    /// Types the digit `d` into the focused number (houses or seeds): the first digit
    /// typed replaces the number, the next ones add to it. A number out of its range
    /// ([`number_range`]) is refused, saying so, and the number stays as it was.
    pub fn type_digit(&mut self, d: u8) {
        let Some((label, max)) = number_range(self.focus) else {
            return;
        };
        let value = match self.focus {
            Field::Houses => &mut self.setup.houses,
            _ => &mut self.setup.seeds,
        };
        let fresh = std::mem::take(&mut self.fresh);
        let new = if fresh {
            u16::from(d)
        } else {
            u16::from(*value) * 10 + u16::from(d)
        };
        if !(1..=u16::from(max)).contains(&new) {
            self.said = Some(format!(
                "{label} go from 1 to {max}: {new} is out of range."
            ));
            return;
        }
        self.said = None;
        *value = new as u8;
        self.board_chosen = true;
        self.check_players();
    }

    /// Changes the focused setting by one step (`delta` is +1 or -1).
    pub fn change(&mut self, delta: i32) {
        self.said = None;
        let choices = self.choices();
        let s = &mut self.setup;
        match self.focus {
            Field::Variant => {
                let games = Variant::catalogue();
                let i = games.iter().position(|v| *v == s.variant).unwrap_or(0);
                self.finding = None;
                self.choose_variant(games[cycle(i, delta, games.len())]);
            }
            Field::Houses => {
                s.houses = step(s.houses, delta, 1, MAX_HOUSES as u8);
                self.board_chosen = true;
            }
            Field::Seeds => {
                s.seeds = step(s.seeds, delta, 1, MAX_SEEDS as u8);
                self.board_chosen = true;
            }
            Field::Option(i) => {
                if let Some(option) = s.variant.info().options.get(i) {
                    let now = s.options.value(option.key);
                    let at = option.values.iter().position(|v| Some(*v) == now);
                    let next = option.values[cycle(at.unwrap_or(0), delta, option.values.len())];
                    s.options = s.options.with(option.key, next).unwrap_or(s.options);
                }
            }
            Field::Player(seat) => {
                let i = choices
                    .iter()
                    .position(|c| *c == s.players[seat])
                    .unwrap_or(0);
                let new = choices[cycle(i, delta, choices.len())].clone();
                self.replaced[seat] = None;
                self.set_player(seat, new);
            }
            Field::Name(_) | Field::Start => return,
        }
        self.fresh = false;
        self.check_players();
    }

    /// Plays `variant`: its board unless one was chosen, and players that play it.
    fn choose_variant(&mut self, variant: Variant) {
        let s = &mut self.setup;
        s.variant = variant;
        if !self.board_chosen {
            let info = variant.info();
            (s.houses, s.seeds) = (info.default_houses, info.default_seeds);
        }
        self.replaced = [None, None];
        self.replace_players();
    }

    /// The words typed to find a game, while finding one (after `/`).
    #[must_use]
    pub fn finding(&self) -> Option<&str> {
        self.finding.as_ref().map(|(words, _)| words.as_str())
    }

    /// Starts finding a game by its name, another of its names or its region: the
    /// focus goes to the game, and what is typed next chooses it.
    pub fn start_finding(&mut self) {
        self.focus = Field::Variant;
        self.finding = Some((String::new(), self.setup.variant));
        self.said = Some("Type a game's name or region; Enter keeps it, Esc goes back.".into());
    }

    /// Ends finding a game, keeping the game found (`keep`) or going back to the one
    /// chosen before.
    pub fn end_finding(&mut self, keep: bool) {
        if let Some((_, before)) = self.finding.take() {
            if !keep && before != self.setup.variant {
                self.choose_variant(before);
            }
        }
        self.said = None;
    }

    /// Adds `c` to the words being found (`None`: deletes the last character) and
    /// chooses the first game of the catalogue they find, or says none does.
    pub fn find(&mut self, c: Option<char>) {
        let Some((words, _)) = &mut self.finding else {
            return;
        };
        match c {
            Some(c) if !c.is_control() => words.push(c),
            Some(_) => return,
            None => {
                words.pop();
            }
        }
        let words = words.clone();
        // The best match, the first in the catalogue among equals.
        let found = Variant::catalogue()
            .iter()
            .filter_map(|&v| v.description().rank(&words).map(|rank| (rank, v)))
            .min_by_key(|&(rank, _)| rank)
            .map(|(_, v)| v);
        match found {
            Some(v) => {
                self.said = None;
                if v != self.setup.variant {
                    self.choose_variant(v);
                }
            }
            None => self.said = Some(format!("No game is called {words:?}.")),
        }
    }

    /// Types `c` into the focused name (the first character typed there replaces it);
    /// a character that would take the name past [`NAME_MAX`] columns is refused,
    /// and the note says so.
    pub fn type_char(&mut self, c: char) {
        if let Field::Name(seat) = self.focus {
            if std::mem::take(&mut self.fresh) {
                self.setup.names[seat].clear();
            }
            self.said = None;
            let name = &mut self.setup.names[seat];
            if c.is_control() {
                return;
            }
            if fit::width(name) + fit::width(c.encode_utf8(&mut [0; 4])) > NAME_MAX {
                self.said = Some(format!("A name takes at most {NAME_MAX} columns."));
            } else {
                name.push(c);
            }
        }
    }

    /// Deletes the last character of the focused name, or all of it when it was just
    /// reached (as a selected field).
    pub fn backspace(&mut self) {
        self.said = None;
        if let Field::Name(seat) = self.focus {
            if std::mem::take(&mut self.fresh) {
                self.setup.names[seat].clear();
            } else {
                self.setup.names[seat].pop();
            }
        }
    }

    /// Empties the focused name (Ctrl-U, as in a shell).
    pub fn clear_name(&mut self) {
        if let Field::Name(seat) = self.focus {
            self.setup.names[seat].clear();
            self.fresh = false;
        }
    }

    /// Deletes the last word of the focused name and the spaces after it (Ctrl-W, as
    /// in a shell).
    pub fn delete_word(&mut self) {
        if let Field::Name(seat) = self.focus {
            let name = &mut self.setup.names[seat];
            let kept = name.trim_end().rfind(' ').map_or(0, |i| i + 1);
            name.truncate(kept);
            self.fresh = false;
        }
    }
}

/// The focused number field's label as the range says it and its largest value (the
/// smallest is 1), or `None` when the field is not a number.
#[must_use]
pub fn number_range(field: Field) -> Option<(&'static str, u8)> {
    match field {
        Field::Houses => Some(("Houses per side", MAX_HOUSES as u8)),
        Field::Seeds => Some(("Seeds per house", MAX_SEEDS as u8)),
        _ => None,
    }
}

/// The name a seat gets by default: "Player N" for a person, the computer player's
fn cycle(i: usize, delta: i32, n: usize) -> usize {
    (i as i64 + i64::from(delta)).rem_euclid(n as i64) as usize
}

fn step(v: u8, delta: i32, lo: u8, hi: u8) -> u8 {
    (i32::from(v) + delta).clamp(i32::from(lo), i32::from(hi)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::build_count;

    #[test]
    fn only_the_options_the_variant_takes_are_shown() {
        let mut f = SetupForm::new(Setup::default());
        let options = |f: &SetupForm| {
            let n = f.setup.variant.info().options.len();
            assert!(f.fields().contains(&Field::Option(n.saturating_sub(1))) == (n > 0));
            !f.fields().contains(&Field::Option(n))
        };
        for _ in Variant::catalogue() {
            assert!(options(&f), "{:?}", f.setup.variant);
            f.focus = Field::Variant;
            f.change(1);
        }
        assert_eq!(f.setup.variant, Variant::ALL[0]);
        f.change(-1);
        assert_eq!(Some(&f.setup.variant), Variant::catalogue().last());
    }

    #[test]
    fn an_option_cycles_through_its_values_and_is_kept_across_variants() {
        let mut f = SetupForm::new(Setup::default());
        let kalah = f.setup.variant;
        let Some(option) = kalah.info().options.first() else {
            return;
        };
        f.focus = Field::Option(0);
        f.change(1);
        let chosen = f.setup.options.value(option.key);
        assert_eq!(chosen, Some(option.values[1]));
        // Another variant's game leaves the option out; back again, it is as chosen.
        f.focus = Field::Variant;
        f.change(1);
        assert!(f.setup.rules().is_ok());
        f.change(-1);
        assert_eq!(f.setup.rules().unwrap().options().value(option.key), chosen);
    }

    #[test]
    fn the_board_follows_the_variant_until_it_is_changed_by_hand() {
        let mut f = SetupForm::new(Setup::default());
        f.focus = Field::Variant;
        for _ in Variant::catalogue() {
            f.change(1);
            let info = f.setup.variant.info();
            assert_eq!(
                (f.setup.houses, f.setup.seeds),
                (info.default_houses, info.default_seeds)
            );
        }
        f.focus = Field::Houses;
        f.change(1);
        let chosen = (f.setup.houses, f.setup.seeds);
        f.focus = Field::Variant;
        for _ in Variant::catalogue() {
            f.change(1);
            assert_eq!((f.setup.houses, f.setup.seeds), chosen);
        }
        // A board given (on the command line) is kept too.
        let given = Setup {
            houses: 3,
            ..Setup::default()
        };
        let mut f = SetupForm::new(given);
        f.focus = Field::Variant;
        f.change(1);
        assert_eq!(f.setup.houses, 3);
    }

    #[test]
    fn sizes_stay_in_range_and_names_follow_the_seat() {
        let mut f = SetupForm::new(Setup::default());
        f.focus = Field::Houses;
        for _ in 0..40 {
            f.change(1);
        }
        assert_eq!(f.setup.houses, MAX_HOUSES as u8);
        f.focus = Field::Player(0);
        f.setup.names[0] = default_name(0, "human");
        f.change(1);
        assert_eq!(f.setup.players[0], "easy");
        assert_eq!(f.setup.names[0], "Easy bot");
        f.focus = Field::Name(0);
        f.backspace();
        f.type_char('!');
        assert_eq!(f.setup.names[0], "Easy bo!");
    }

    #[test]
    fn notes_follow_the_settings_and_typing_a_name_builds_nothing() {
        let setup = Setup {
            players: ["robot".into(), "no-such-bot".into()],
            ..Setup::default()
        };
        let mut f = SetupForm::new(setup);
        assert_eq!(f.notes()[0], None);
        assert_eq!(
            f.notes()[1].as_deref(),
            Some("no-such-bot is not available in this build; greedy plays for player 2")
        );
        let built = build_count::get();
        f.focus = Field::Name(0);
        f.type_char('x');
        f.backspace();
        f.change(1);
        assert_eq!(build_count::get(), built);
        f.focus = Field::Variant;
        f.change(1);
        assert!(build_count::get() > built);
        assert!(f.notes()[0].as_deref().unwrap().contains("does not play"));
        assert_eq!(f.setup.players[0], "greedy");
    }

    #[test]
    fn the_players_offered_are_those_that_play_the_variant() {
        use mancala_core::Variant;
        let setup = Setup {
            players: ["robot".into(), "human".into()],
            names: ["Robot".into(), "Player 2".into()],
            ..Setup::default()
        };
        let mut form = SetupForm::new(setup);
        assert_eq!(form.notes(), [None, None]);
        assert!(form.choices().contains(&"robot".to_owned()));
        form.focus = Field::Variant;
        form.change(1);
        assert_eq!(form.setup().variant, Variant::Oware);
        // Oware is not offered the robot, and the robot chosen for Kalah is replaced
        // by the player who will play, as the note says.
        let choices = form.choices();
        assert!(!choices.contains(&"robot".to_owned()), "{choices:?}");
        assert!(choices.contains(&"greedy".to_owned()) && choices[0] == "human");
        assert_eq!(form.setup().players[0], "greedy");
        assert_eq!(form.setup().names[0], "Greedy bot");
        let note = form.notes()[0].clone().unwrap();
        assert!(
            note.starts_with("robot does not play Oware")
                && note.ends_with("greedy plays for player 1 instead"),
            "{note}"
        );
        // Going round the players never lands on the robot.
        form.focus = Field::Player(0);
        for _ in 0..choices.len() {
            form.change(1);
            assert_ne!(form.setup().players[0], "robot");
        }
        assert_eq!(form.notes(), [None, None], "a player chosen by hand");
    }

    #[test]
    fn slash_finds_a_game_by_name_and_esc_goes_back() {
        let mut f = SetupForm::new(Setup::default());
        let before = f.setup().variant;
        f.start_finding();
        assert_eq!((f.focus, f.finding()), (Field::Variant, Some("")));
        for c in "ayo".chars() {
            f.find(Some(c));
        }
        // Ayoayo by its name, before Oware, which has Ayo among its other names.
        assert_eq!(f.setup().variant.name(), "ayoayo");
        assert_eq!(f.setup().houses, f.setup().variant.info().default_houses);
        f.end_finding(false);
        assert_eq!((f.setup().variant, f.finding()), (before, None));
        // Accents do not matter, Enter keeps the game, a miss says so and keeps it.
        f.start_finding();
        for c in "unee".chars() {
            f.find(Some(c));
        }
        assert_eq!(f.setup().variant.name(), "unee-tugalluulax");
        f.find(Some('z'));
        assert_eq!(f.setup().variant.name(), "unee-tugalluulax");
        assert!(
            f.said().is_some_and(|s| s.contains("No game")),
            "{:?}",
            f.said()
        );
        f.find(None);
        f.end_finding(true);
        assert_eq!(f.setup().variant.name(), "unee-tugalluulax");
    }
}
