//! What game to play: the settings the start screen edits and the command line fills in.

use std::path::Path;

use mancala_core::{MAX_HOUSES, MAX_SEEDS, RuleOptions, Rules, Side, Variant};
use mancala_engine::{Player, PlayerError, PlayerSpec};
use mancala_match::{Contestant, ExternalSpec, Seated};
use mancala_session::{Record, RuleChoice, Seat, SetupError, option_value, with_option};

use crate::fit;

/// The computer player used when a seat's spec cannot be built for the rules.
pub const FALLBACK_PLAYER: &str = "greedy";

/// The seat an external engine (`ext:COMMAND`, given on the command line) has in the
/// session and in a saved record: a computer seat of this name, since a record has no
/// place for a command (a game loaded from it seats [`FALLBACK_PLAYER`] instead, and
/// says so).
pub const EXTERNAL_SEAT: &str = "ext";

/// Whether `spec` names an external engine, `ext:COMMAND`: a program speaking the
/// engine protocol (docs/engine-protocol.md), as `mancala match` plays them. Only the
/// command line seats one; the start screen offers the suite's players.
#[must_use]
pub fn is_external(spec: &str) -> bool {
    spec.trim_start().starts_with(ExternalSpec::PREFIX)
}

/// The settings of a game: rules, who plays each seat, and names.
///
/// ```
/// use mancala_core::Variant;
/// use mancala_tui::Setup;
/// let setup = Setup { variant: Variant::Oware, ..Setup::default() };
/// let rules = setup.rules().unwrap();
/// assert_eq!(rules.total_seeds(), 48);
/// assert_eq!(setup.players[0], "human");
/// assert_eq!(Setup::for_variant(Variant::TogyzKumalak).rules().unwrap().total_seeds(), 162);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The variant.
    pub variant: Variant,
    /// Houses per side.
    pub houses: u8,
    /// Seeds per house at the start.
    pub seeds: u8,
    /// The rule options, kept for every variant: a game takes those its variant takes
    /// ([`VariantInfo::options`](mancala_core::variants::VariantInfo::options)).
    pub options: RuleOptions,
    /// Player specs, player 1 first: `human` or a computer player such as `medium`.
    pub players: [String; 2],
    /// Names, player 1 first.
    pub names: [String; 2],
    /// Seed for computer players that use randomness.
    pub seed: u64,
}

impl Default for Setup {
    /// The first variant of [`Variant::ALL`] on its own board, a person against
    /// `medium`.
    fn default() -> Setup {
        Setup::for_variant(Variant::ALL[0])
    }
}

impl Setup {
    /// `variant` on its default board with its default options, a person against
    /// `medium`.
    #[must_use]
    pub fn for_variant(variant: Variant) -> Setup {
        let info = variant.info();
        Setup {
            variant,
            houses: info.default_houses,
            seeds: info.default_seeds,
            options: RuleOptions::default(),
            players: [Seat::Human.to_string(), "medium".to_owned()],
            names: ["Player 1".to_owned(), "Medium bot".to_owned()],
            seed: 1,
        }
    }

    /// The rules these settings describe: the options the variant takes, checked by
    /// the session as every front end's are.
    ///
    /// # Errors
    /// When the board size is out of range.
    pub fn rules(&self) -> Result<Rules, SetupError> {
        RuleChoice::new(self.variant, self.houses, self.seeds)
            .options_taken(self.options)
            .rules()
    }

    /// The settings of a recorded game: its rules, its players' kinds and names, and
    /// `seed` for the randomness of computer players.
    #[must_use]
    pub fn of_record(record: &Record, seed: u64) -> Setup {
        let rules = record.rules();
        Setup {
            variant: rules.variant(),
            houses: u8::try_from(rules.houses()).unwrap_or(u8::MAX),
            seeds: u8::try_from(rules.seeds()).unwrap_or(u8::MAX),
            options: rules.options(),
            players: record.seats().clone().map(|s| s.to_string()),
            names: record.names().clone(),
            seed,
        }
    }

    /// Who plays seat `i` (0 or 1), or why its spec is not a player spec at all.
    ///
    /// # Errors
    /// When `players[i]` is not `human` or a well-formed player spec.
    pub fn seat(&self, i: usize) -> Result<Seat, PlayerError> {
        if is_external(&self.players[i]) {
            return Seat::computer(EXTERNAL_SEAT);
        }
        Seat::computer(&self.players[i])
    }

    /// The same settings with the names the game is played under: each as given,
    /// trimmed, or when empty the seat's default name (`Player 2`, `Medium bot`), as
    /// the start screen shows while a name is empty, cut to [`NAME_MAX`] columns (as
    /// the start screen lets one type them). Two players of one name (two
    /// `master` bots) are told apart by their seat: `Master bot 1`, `Master bot 2`.
    ///
    /// ```
    /// use mancala_tui::Setup;
    /// let bots = Setup { players: ["master".into(), "master".into()], ..Setup::default() };
    /// let named = Setup { names: [String::new(), String::new()], ..bots }.named();
    /// assert_eq!(named.names, ["Master bot 1", "Master bot 2"]);
    /// ```
    #[must_use]
    pub fn named(mut self) -> Setup {
        for (i, side) in Side::BOTH.into_iter().enumerate() {
            let seat = self.seat(i).unwrap_or(Seat::Human);
            let name = mancala_session::name_or_default(&self.names[i], side, &seat);
            self.names[i] = fit::truncate(&name, NAME_MAX).trim_end().to_owned();
        }
        if self.names[0] == self.names[1] {
            let name = fit::truncate(&self.names[0], NAME_MAX - 2);
            self.names = [1, 2].map(|n| format!("{} {n}", name.trim_end()));
        }
        self
    }

    /// Whether seat `i` (0 or 1) is played by a person.
    #[must_use]
    pub fn is_human(&self, i: usize) -> bool {
        self.seat(i).is_ok_and(|seat| seat.is_human())
    }
}

/// Builds the computer player named `spec` for `rules`, falling back to
/// [`FALLBACK_PLAYER`] (then `random`) when it cannot be built. Returns the player, the
/// spec actually used, and the reason for a fallback.
pub fn build_player(
    spec: &str,
    rules: Rules,
    seed: u64,
) -> (Box<dyn Player>, String, Option<String>) {
    let first = try_build(spec, rules, seed);
    match first {
        Ok(p) => (p, spec.trim().to_owned(), None),
        Err(e) => {
            let why = e.to_string();
            for fallback in [FALLBACK_PLAYER, "random"] {
                if let Ok(p) = try_build(fallback, rules, seed) {
                    return (p, fallback.to_owned(), Some(why));
                }
            }
            unreachable!("the random player plays every variant")
        }
    }
}

/// Seats the computer player named `spec` for `rules`: one of the suite's players as
/// [`build_player`] builds it, or for `ext:COMMAND` the engine started and greeted,
/// its standard error appended to `stderr_log` (so that it never writes over the
/// screen), falling back as `build_player` does (with the engine's failure as the
/// reason) when it cannot be. Returns the player, the spec actually used, and the
/// reason for a fallback.
pub fn build_seated(
    spec: &str,
    rules: Rules,
    seed: u64,
    stderr_log: &Path,
) -> (Seated, String, Option<String>) {
    if spec.trim() == EXTERNAL_SEAT {
        // The seat of an external engine in a saved game, which keeps no command.
        let (player, used, _) = build_player(FALLBACK_PLAYER, rules, seed);
        let why = "the saved game does not say how to start its external engine";
        return (Seated::Builtin(player), used, Some(why.to_owned()));
    }
    if !is_external(spec) {
        let (player, used, why) = build_player(spec, rules, seed);
        return (Seated::Builtin(player), used, why);
    }
    let logged = |c: Contestant| match c {
        Contestant::External(ext) => Contestant::External(ext.with_stderr_log(stderr_log)),
        builtin @ Contestant::Builtin(_) => builtin,
    };
    match spec
        .parse::<Contestant>()
        .and_then(|c| logged(c).seat(rules, seed))
    {
        Ok(seated) => (seated, spec.trim().to_owned(), None),
        Err(e) => {
            let (player, used, _) = build_player(FALLBACK_PLAYER, rules, seed);
            (Seated::Builtin(player), used, Some(e.to_string()))
        }
    }
}

/// Every computer player the crate builds is built here, so a test can count them.
fn try_build(spec: &str, rules: Rules, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
    #[cfg(test)]
    build_count::add_one();
    spec.parse::<PlayerSpec>()?.build(rules, seed)
}

/// Why `spec` cannot be built for `rules`, if it cannot. Finding out builds the
/// player, which can be expensive (a `medium` player allocates a 16 MiB table).
fn seat_problem(spec: &str, rules: Rules) -> Option<PlayerError> {
    if is_external(spec) {
        // Started when the game starts (the command line has checked it once).
        return None;
    }
    match Seat::computer(spec) {
        Ok(Seat::Human) => None,
        Ok(Seat::Computer(_)) => try_build(spec, rules, 0).err(),
        Err(e) => Some(e),
    }
}

/// What the start screen says about a seat whose player cannot play `rules`: the
/// engine's reason, or for a name it does not know, that this build lacks it.
fn seat_note(spec: &str, rules: Rules) -> Option<String> {
    seat_problem(spec, rules).map(|e| match e {
        PlayerError::Unknown(_) => format!("{spec} is not available in this build"),
        other => other.to_string(),
    })
}

#[cfg(test)]
pub(crate) mod build_count {
    //! A count of the computer players built on this thread. Thread-local, so that
    //! tests running in parallel do not see each other's players.

    use std::cell::Cell;

    thread_local! {
        static BUILT: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn add_one() {
        BUILT.with(|n| n.set(n.get() + 1));
    }

    /// Players built on this thread so far.
    pub(crate) fn get() -> usize {
        BUILT.with(Cell::get)
    }
}

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
}

impl SetupForm {
    /// A form editing `setup`, the focus on the start button.
    #[must_use]
    pub fn new(setup: Setup) -> SetupForm {
        // Specs the menus do not list for any variant, offered as well.
        let listed = |p: &str| {
            Variant::ALL
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
                let i = Variant::ALL
                    .iter()
                    .position(|v| *v == s.variant)
                    .unwrap_or(0);
                s.variant = Variant::ALL[cycle(i, delta, Variant::ALL.len())];
                if !self.board_chosen {
                    let info = s.variant.info();
                    (s.houses, s.seeds) = (info.default_houses, info.default_seeds);
                }
                self.replaced = [None, None];
                self.replace_players();
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
                    let now = option_value(s.options, option.key);
                    let at = option.values.iter().position(|v| Some(*v) == now);
                    let next = option.values[cycle(at.unwrap_or(0), delta, option.values.len())];
                    s.options = with_option(s.options, option.key, next).unwrap_or(s.options);
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

/// The most columns a name takes (a wide character, CJK or an emoji, counts two):
/// the start screen accepts no more, names given on the command line are cut to it,
/// and the board shows every name whole.
pub const NAME_MAX: usize = 16;

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
/// name otherwise.
///
/// ```
/// use mancala_tui::default_name;
/// assert_eq!(default_name(1, "human"), "Player 2");
/// assert_eq!(default_name(1, "random:seed=4"), "Random bot");
/// ```
#[must_use]
pub fn default_name(seat: usize, player: &str) -> String {
    let side = if seat == 0 { Side::South } else { Side::North };
    match Seat::computer(player) {
        Ok(s) => mancala_session::default_name(side, &s),
        // A spec that does not parse is refused before a game starts; until then the
        // start screen names it after the player's name as typed.
        Err(_) => {
            let typed = player.split(':').next().unwrap_or(player);
            match typed.parse::<Seat>() {
                Ok(seat) => mancala_session::default_name(side, &seat),
                Err(_) => "Computer".to_owned(),
            }
        }
    }
}

fn cycle(i: usize, delta: i32, n: usize) -> usize {
    (i as i64 + i64::from(delta)).rem_euclid(n as i64) as usize
}

fn step(v: u8, delta: i32, lo: u8, hi: u8) -> u8 {
    (i32::from(v) + delta).clamp(i32::from(lo), i32::from(hi)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_options_the_variant_takes_are_shown() {
        let mut f = SetupForm::new(Setup::default());
        let options = |f: &SetupForm| {
            let n = f.setup.variant.info().options.len();
            assert!(f.fields().contains(&Field::Option(n.saturating_sub(1))) == (n > 0));
            !f.fields().contains(&Field::Option(n))
        };
        for _ in Variant::ALL {
            assert!(options(&f), "{:?}", f.setup.variant);
            f.focus = Field::Variant;
            f.change(1);
        }
        assert_eq!(f.setup.variant, Variant::ALL[0]);
        f.change(-1);
        assert_eq!(f.setup.variant, Variant::ALL[Variant::ALL.len() - 1]);
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
        let chosen = option_value(f.setup.options, option.key);
        assert_eq!(chosen, Some(option.values[1]));
        // Another variant's game leaves the option out; back again, it is as chosen.
        f.focus = Field::Variant;
        f.change(1);
        assert!(f.setup.rules().is_ok());
        f.change(-1);
        assert_eq!(
            option_value(f.setup.rules().unwrap().options(), option.key),
            chosen
        );
    }

    #[test]
    fn the_board_follows_the_variant_until_it_is_changed_by_hand() {
        let mut f = SetupForm::new(Setup::default());
        f.focus = Field::Variant;
        for _ in Variant::ALL {
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
        for _ in Variant::ALL {
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
    fn seats_are_read_as_the_session_reads_them() {
        let s = Setup {
            players: ["Human".into(), "random:seed".into()],
            ..Setup::default()
        };
        assert!(s.is_human(0));
        assert!(!s.is_human(1));
        assert!(s.seat(1).is_err());
        assert_eq!(default_name(0, "Human"), "Player 1");
        assert_eq!(default_name(1, "random:seed"), "Random bot");
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
    fn build_player_falls_back_and_says_why() {
        use mancala_core::Rules;
        let (_, used, why) = build_player("no-such-bot", Rules::kalah(6, 4), 1);
        assert_eq!(used, "greedy");
        assert!(why.unwrap().contains("no-such-bot"));
        let (_, used, why) = build_player("random", Rules::kalah(6, 4), 1);
        assert_eq!((used.as_str(), why), ("random", None));
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
}
