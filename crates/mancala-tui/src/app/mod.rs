//! The application state and what every key, click and tick does to it.
//!
//! Nothing here touches the terminal or draws: [`App::handle_key`],
//! [`App::handle_mouse`] and [`App::tick`] take the current time as an argument, so
//! tests drive the whole game with scripted keys and a fake clock. The `ui` module
//! draws the state; this one does not know it.

mod game;
mod hint;
mod keys;
mod records;
mod review;
mod series;
mod thinker;
mod view;

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use mancala_core::{Side, Variant};
use mancala_match::Seated;
use mancala_session::{Seat, Session};

use game::Players;
pub use game::{GameState, NAME_SHOWN, letter_keys, short_letter_note};
pub use review::{ESTIMATE_MARGIN, Review, Verdict};
pub use series::Score;
pub use view::{Animation, BoardView, Message, MessageKind};

use ratatui::layout::Rect;

use crate::fit;
use crate::layout::{BoardShape, GameLayout, SetupLayout};
use crate::setup::{EXTERNAL_SEAT, Field, Setup, SetupForm, build_seated, is_external};
use thinker::Reply;

/// Time between two seeds of a sowing, at each speed, slowest first.
pub const SPEEDS_MS: [u64; 7] = [700, 420, 250, 150, 90, 50, 20];

/// The speed a game starts at (an index into [`SPEEDS_MS`]).
pub const DEFAULT_SPEED: usize = 2;

/// Time between two frames of the spinner shown while a computer thinks.
pub const SPIN_STEP: Duration = Duration::from_millis(80);

/// The name of the threads computer players think on.
pub const THINKER_THREAD: &str = "mancala-thinker";

/// Which screen is up.
pub enum Screen {
    /// The start screen.
    Setup(Box<SetupForm>),
    /// A game.
    Game(Box<GameState>),
}

/// The whole application state.
///
/// ```
/// use std::time::Instant;
/// use mancala_tui::{App, Setup};
/// use ratatui::crossterm::event::{KeyCode, KeyEvent};
///
/// let now = Instant::now();
/// let setup = Setup { players: ["human".into(), "human".into()], ..Setup::default() };
/// let mut app = App::new(setup, true, now);
/// app.handle_key(KeyEvent::from(KeyCode::Char('3')), now); // player 1 sows house 3
/// app.handle_key(KeyEvent::from(KeyCode::Char(' ')), now); // skip the animation
/// let game = app.game().unwrap();
/// assert_eq!(game.session.records().len(), 1);
/// assert_eq!(game.message.text, "Player 1 gets an extra turn!");
/// ```
pub struct App {
    /// The screen up.
    pub screen: Screen,
    /// The sowing speed, an index into [`SPEEDS_MS`].
    pub speed: usize,
    /// The terminal's size, for mouse clicks.
    pub size: (u16, u16),
    /// The frame of the spinner shown while a computer thinks; it turns every
    /// `SPIN_STEP`, and only then does a thinking computer need a new frame drawn.
    pub spinner: usize,
    /// When the spinner turns next.
    spin_at: Instant,
    /// The help screen is up (`?` or F1); the arrows, PgUp/PgDn and Home/End scroll it
    /// when it does not fit, any other key closes it.
    pub help: bool,
    /// How many lines the help is scrolled down (never past its end).
    pub help_scroll: u16,
    quit: bool,
    /// The games finished in a row before the one on screen.
    score: Score,
    /// Where `w` saves games.
    save_dir: std::path::PathBuf,
    /// Ctrl-Z was pressed: the terminal loop suspends the program.
    suspend: bool,
    /// Ctrl-L was pressed: the terminal loop draws the whole screen anew.
    repaint: bool,
    failure: Option<String>,
    next_game_id: u64,
    tx: Sender<Reply>,
    rx: Receiver<Reply>,
}

impl App {
    /// The app on the start screen with `setup` filled in, or straight in a game when
    /// `skip_start` (settings given on the command line).
    #[must_use]
    pub fn new(setup: Setup, skip_start: bool, now: Instant) -> App {
        let (tx, rx) = mpsc::channel();
        let mut app = App {
            screen: Screen::Setup(Box::new(SetupForm::new(setup.clone()))),
            speed: DEFAULT_SPEED,
            size: (100, 35),
            spinner: 0,
            spin_at: now,
            help: false,
            help_scroll: 0,
            quit: false,
            save_dir: std::path::PathBuf::from("."),
            score: Score::default(),
            suspend: false,
            repaint: false,
            failure: None,
            next_game_id: 0,
            tx,
            rx,
        };
        if skip_start {
            app.start_game(setup, now);
        }
        app
    }

    /// Whether the app has finished.
    #[must_use]
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Whether Ctrl-L asked for the whole screen to be drawn anew since the last call,
    /// as in a shell: the screen is drawn only when something changes, so whatever
    /// else wrote on the terminal stays until then.
    pub fn take_repaint(&mut self) -> bool {
        std::mem::take(&mut self.repaint)
    }

    /// Whether Ctrl-Z asked to suspend the program since the last call. The app cannot
    /// suspend itself: the terminal loop gives the terminal back, stops the process,
    /// and takes the terminal again when the shell continues it.
    pub fn take_suspend(&mut self) -> bool {
        std::mem::take(&mut self.suspend)
    }

    /// The variant on screen: the one chosen on the start screen, or the game's.
    #[must_use]
    pub fn variant(&self) -> Variant {
        match &self.screen {
            Screen::Setup(form) => form.setup().variant,
            Screen::Game(g) => g.session.rules().variant(),
        }
    }

    /// Whether the screen up fits the terminal. When it does not, the app shows a note
    /// instead, and keys that would act unseen are ignored (only quitting works).
    #[must_use]
    pub fn fits(&self) -> bool {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        match &self.screen {
            Screen::Setup(_) => SetupLayout::new(area).is_some(),
            Screen::Game(g) => GameLayout::new(area, BoardShape::of(g.session.rules())).is_some(),
        }
    }

    /// Whether the terminal has room for the move list beside the board, so that `m`
    /// has nothing to show over it.
    #[must_use]
    pub fn list_beside(&self) -> bool {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        self.game().is_some_and(|g| {
            GameLayout::new(area, BoardShape::of(g.session.rules()))
                .is_some_and(|l| l.history.is_some())
        })
    }

    /// A computer player that failed (panicked), if one did.
    #[must_use]
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// The game on screen, if any.
    #[must_use]
    pub fn game(&self) -> Option<&GameState> {
        match &self.screen {
            Screen::Game(g) => Some(g),
            Screen::Setup(_) => None,
        }
    }

    /// Whether something is under way that time will finish: a sowing shown, a computer
    /// thinking or a hint looked for.
    #[must_use]
    pub fn busy(&self) -> bool {
        self.game().is_some_and(|g| {
            g.anim.is_some()
                || g.hint_pending
                || g.review.as_ref().is_some_and(Review::computing)
                || (!g.confirm_quit && !self.help && g.thinking().is_some())
        })
    }

    /// Time between two seeds at the current speed.
    #[must_use]
    pub fn step_time(&self) -> Duration {
        Duration::from_millis(SPEEDS_MS[self.speed])
    }

    /// Records the terminal's new size.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.size = (width, height);
    }

    /// Starts a game with `setup`.
    pub fn start_game(&mut self, setup: Setup, now: Instant) {
        let rules = match setup.rules() {
            Ok(r) => r,
            Err(e) => {
                // The form keeps sizes in range, so this only guards odd flags.
                let mut form = SetupForm::new(setup);
                form.focus = Field::Houses;
                self.screen = Screen::Setup(Box::new(form));
                self.failure = Some(e.to_string());
                return;
            }
        };
        self.begin(setup, Session::new(rules), None, now);
    }

    /// Puts `session` on screen, played by `setup`'s players under its names, saying
    /// `hello` (by default who plays whom and who moves first), or why a player could
    /// not be seated as asked.
    fn begin(&mut self, setup: Setup, session: Session, hello: Option<String>, now: Instant) {
        self.next_game_id += 1;
        let mut setup = setup.named();
        let (session, players, notes) = seat_players(&mut setup, session);
        let shown_names = setup.names.clone().map(|n| fit::shorten(&n, NAME_SHOWN));
        let hello = hello.unwrap_or_else(|| {
            let [a, b] = &shown_names;
            format!("{a} against {b}: {a} moves first.")
        });
        // A game loaded when it is over counts as it ended.
        let result = session.outcome();
        let message = if notes.is_empty() {
            Message::info(hello)
        } else {
            Message::warning(notes.join(" "))
        };
        let mut game = GameState {
            setup,
            session,
            shown_names,
            result,
            players,
            hinter: None,
            game_id: self.next_game_id,
            epoch: 0,
            choice: None,
            played_note: None,
            hint_pending: false,
            computer_at: now + self.step_time() * 2,
            cursor: 1,
            anim: None,
            log: vec![message.clone()],
            message,
            moves_shown: false,
            moves_scroll: 0,
            confirm_quit: false,
            result_hidden: false,
            swap_next: true,
            digit: None,
            review: None,
            pending_forfeit: None,
            save_to: None,
            saved_plies: None,
        };
        game.fix_cursor();
        self.screen = Screen::Game(Box::new(game));
    }

    /// Advances time: the sowing on screen, the computer's replies and moves, the
    /// spinner while it thinks. Returns whether anything on screen changed, so the
    /// terminal is drawn only then: nothing is written while nothing happens.
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut changed = false;
        while let Ok(reply) = self.rx.try_recv() {
            if let Screen::Game(g) = &mut self.screen {
                changed = true;
                if let Err(e) = thinker::take_reply(g, reply) {
                    self.failure = Some(e);
                }
            }
        }
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return changed;
        };
        changed |= g.advance_animation(now, step);
        if g.review.as_mut().is_some_and(Review::poll) {
            g.show_review();
            changed = true;
        }
        // The computer waits while the quit question or the help is up.
        if g.confirm_quit || self.help {
            return changed;
        }
        match thinker::computer_turn(g, &self.tx, now, step) {
            Ok(played) => changed |= played,
            Err(e) => {
                self.failure = Some(e);
                changed = true;
            }
        }
        if g.thinking().is_some() && now >= self.spin_at {
            self.spinner = self.spinner.wrapping_add(1);
            self.spin_at = now + SPIN_STEP;
            changed = true;
        }
        changed
    }
}

/// The file an external engine at seat `i` (0 or 1) writes its standard error to:
/// in the temporary directory, one for each run of the program and seat, so that
/// what it says stays off the screen and can be read after.
#[must_use]
pub fn engine_log(i: usize) -> PathBuf {
    let name = format!("mancala-engine-{}-p{}.log", std::process::id(), i + 1);
    std::env::temp_dir().join(name)
}

/// `session` with `setup`'s seats and names and its computer players built, and a
/// note for each player that could not be built as asked (another plays instead).
/// An external engine left with its seat's default name takes the name it gives
/// itself, as its messages call it.
fn seat_players(setup: &mut Setup, session: Session) -> (Session, Players, Vec<String>) {
    let mut notes = Vec::new();
    let mut players: Players = [None, None];
    let rules = session.rules();
    let mut session = session.with_seats([Seat::Human, Seat::Human]);
    for (i, side) in Side::BOTH.into_iter().enumerate() {
        if setup.is_human(i) {
            continue;
        }
        let seed = setup.seed.wrapping_add(i as u64);
        // The log tells of this game's engine only.
        let _ = std::fs::remove_file(engine_log(i));
        let (player, used, why) = build_seated(&setup.players[i], rules, seed, &engine_log(i));
        if matches!(player, Seated::External(_))
            && setup.names[i] == crate::setup::default_name(i, EXTERNAL_SEAT)
        {
            setup.names[i] = fit::truncate(&player.name(), crate::setup::NAME_MAX);
        }
        if let Some(why) = why {
            let why = why.trim_end_matches('.');
            let name = fit::shorten(&setup.names[i], NAME_SHOWN);
            notes.push(format!("{name} plays {used}: {why}."));
        }
        players[i] = Some(player);
        // `used` was just built, so it is a well-formed spec (or an engine's).
        let seat = Seat::computer(if is_external(&used) {
            EXTERNAL_SEAT
        } else {
            &used
        })
        .unwrap_or(Seat::Human);
        session = session.with_seat(side, seat);
    }
    (session.with_names(setup.names.clone()), players, notes)
}
