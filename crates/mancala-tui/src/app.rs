//! The application state and what every key, click and tick does to it.
//!
//! Nothing here touches the terminal: [`App::handle_key`], [`App::handle_mouse`] and
//! [`App::tick`] take the current time as an argument, so tests drive the whole game
//! with scripted keys and a fake clock, and [`crate::draw`] renders the state.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use mancala_core::{Game, IllegalMove, Move, Pit, Position, Side, SowStep, Variant};
use mancala_engine::{Choice, Player};
use mancala_session::{MoveRecord, Seat, Session};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::labels::{house_label, house_letter, house_of_letter};
use crate::layout::GameLayout;
use crate::setup::{Field, Setup, SetupForm, build_player};

/// Time between two seeds of a sowing, at each speed, slowest first.
pub const SPEEDS_MS: [u64; 7] = [700, 420, 250, 150, 90, 50, 20];

/// The speed a game starts at (an index into [`SPEEDS_MS`]).
pub const DEFAULT_SPEED: usize = 2;

/// The spec tried for hints, and the one used when it cannot be built.
pub const HINT_PLAYERS: [&str; 2] = ["expert", "greedy"];

/// The name of the threads computer players think on.
pub const THINKER_THREAD: &str = "mancala-thinker";

/// What a message line says and how it is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// Plain information.
    Info,
    /// An extra turn or a hint: good news.
    Good,
    /// A capture.
    Capture,
    /// A key that did nothing, an illegal move.
    Warning,
}

/// The message line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// How it is shown.
    pub kind: MessageKind,
}

impl Message {
    fn new(kind: MessageKind, text: impl Into<String>) -> Message {
        Message {
            text: text.into(),
            kind,
        }
    }
}

/// The seeds on the board as drawn: the real position, or a moment of a sowing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Seeds in each house, player 1's row first, houses 1..H.
    pub houses: [Vec<u16>; 2],
    /// Seeds in each store (Kalah) or taken (Oware), player 1 first.
    pub stores: [u16; 2],
    /// Seeds still in the sower's hand.
    pub in_hand: u16,
    /// The house being sown from, during a sowing.
    pub origin: Option<Pit>,
    /// Where the last seed dropped.
    pub last_drop: Option<Pit>,
    /// Houses emptied by a capture.
    pub captured: Vec<Pit>,
}

impl BoardView {
    fn of(p: &Position) -> BoardView {
        BoardView {
            houses: Side::BOTH.map(|s| p.houses(s).to_vec()),
            stores: p.stores(),
            in_hand: 0,
            origin: None,
            last_drop: None,
            captured: Vec::new(),
        }
    }

    /// The seeds in `pit`.
    #[must_use]
    pub fn count(&self, pit: Pit) -> u16 {
        match pit {
            Pit::House { side, house } => self.houses[side.index()][usize::from(house) - 1],
            Pit::Store(side) => self.stores[side.index()],
        }
    }

    fn slot(&mut self, pit: Pit) -> &mut u16 {
        match pit {
            Pit::House { side, house } => &mut self.houses[side.index()][usize::from(house) - 1],
            Pit::Store(side) => &mut self.stores[side.index()],
        }
    }

    fn apply(&mut self, step: SowStep, mover: Side) {
        match step {
            SowStep::Lift { pit, seeds } => {
                *self.slot(pit) = 0;
                self.in_hand = seeds;
                self.origin = Some(pit);
            }
            SowStep::Drop(pit) => {
                *self.slot(pit) += 1;
                self.in_hand = self.in_hand.saturating_sub(1);
                self.last_drop = Some(pit);
            }
            SowStep::Capture { pit, seeds } => {
                let slot = self.slot(pit);
                *slot = slot.saturating_sub(seeds);
                self.stores[mover.index()] += seeds;
                self.captured.push(pit);
            }
        }
    }
}

/// A sowing being shown seed by seed.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The move being shown.
    pub record: MoveRecord,
    /// Steps shown so far.
    pub shown: usize,
    next_at: Instant,
}

impl Animation {
    /// The board after the steps shown so far.
    #[must_use]
    pub fn board(&self) -> BoardView {
        let mut b = BoardView::of(&self.record.before);
        b.origin = Some(Pit::House {
            side: self.record.side,
            house: self.record.mv.house(),
        });
        for step in &self.record.sowing[..self.shown] {
            b.apply(*step, self.record.side);
        }
        b
    }
}

/// A game on screen: the session, its computer players, and what is shown.
pub struct GameState {
    /// The settings it was started with.
    pub setup: Setup,
    /// The game itself.
    pub session: Session,
    /// The computer players (`None` for people, and while a player is thinking).
    players: [Option<Box<dyn Player>>; 2],
    /// The player that suggests moves.
    hinter: Option<Box<dyn Player>>,
    /// The spec the hinter was built from.
    pub hinter_name: String,
    /// Which game this is, so that replies for an earlier game are dropped.
    game_id: u64,
    /// Changes on every undo and redo, so that replies for a position left are dropped.
    epoch: u64,
    /// The computer's move, chosen and waiting for the animation before it to end.
    choice: Option<(u64, usize, Choice)>,
    /// A hint asked for and not answered yet.
    pub hint_pending: bool,
    /// Not before this time does the computer play (a pause after each move).
    computer_at: Instant,
    /// The house the arrow keys select, for the person to move.
    pub cursor: u8,
    /// The sowing on screen, if any.
    pub anim: Option<Animation>,
    /// The message line.
    pub message: Message,
    /// The quit question is open.
    pub confirm_quit: bool,
    /// A first digit typed on a board of ten or more houses.
    pub digit: Option<u8>,
}

impl GameState {
    /// The board as drawn now.
    #[must_use]
    pub fn board(&self) -> BoardView {
        match &self.anim {
            Some(a) => a.board(),
            None => BoardView::of(self.session.position()),
        }
    }

    /// Whether the game is over and its last sowing has been shown.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.session.is_over() && self.anim.is_none()
    }

    /// Whether a computer player is choosing a move (and nothing is being sown).
    #[must_use]
    pub fn thinking(&self) -> Option<Side> {
        if self.anim.is_some() {
            return None;
        }
        self.session.computer_to_move().map(|(side, _)| side)
    }

    /// Whether a person is to move and may move now.
    #[must_use]
    pub fn awaiting_human(&self) -> bool {
        self.anim.is_none() && self.session.human_to_move()
    }

    /// The letter and number of `side`'s house `house`, e.g. `c3`.
    #[must_use]
    pub fn label(&self, side: Side, house: u8) -> String {
        house_label(side, house, self.session.rules().houses())
    }

    fn name(&self, side: Side) -> &str {
        self.session.name(side)
    }

    fn any_human(&self) -> bool {
        self.session.seats().iter().any(Seat::is_human)
    }

    /// Puts the cursor on a legal house of the person to move, keeping it if it is one.
    fn fix_cursor(&mut self) {
        let legal = self.session.legal_moves();
        if !legal.iter().any(|m| m.house() == self.cursor) {
            if let Some(first) = legal.first() {
                self.cursor = first.house();
            }
        }
    }
}

/// What a computer was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Job {
    Move(Side),
    Hint,
}

/// A thinker thread's answer: the player comes back with its choice.
struct Reply {
    job: Job,
    game_id: u64,
    epoch: u64,
    ply: usize,
    player: Box<dyn Player>,
    choice: Result<Choice, String>,
}

/// Which screen is up.
pub enum Screen {
    /// The start screen.
    Setup(SetupForm),
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
    /// Ticks so far (for the thinking spinner).
    pub ticks: u64,
    quit: bool,
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
            screen: Screen::Setup(SetupForm::new(setup.clone())),
            speed: DEFAULT_SPEED,
            size: (100, 35),
            ticks: 0,
            quit: false,
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
            g.anim.is_some() || g.hint_pending || (!g.confirm_quit && g.thinking().is_some())
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
                self.screen = Screen::Setup(form);
                self.failure = Some(e.to_string());
                return;
            }
        };
        self.next_game_id += 1;
        let mut notes = Vec::new();
        let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
        let mut session = Session::new(rules).with_names(setup.names.clone());
        for (i, side) in Side::BOTH.into_iter().enumerate() {
            if setup.is_human(i) {
                continue;
            }
            let seed = setup.seed.wrapping_add(i as u64);
            let (player, used, why) = build_player(&setup.players[i], rules, seed);
            if let Some(why) = why {
                notes.push(format!(
                    "{} plays {used}: {why}.",
                    setup.names[i],
                    why = why.trim_end_matches('.')
                ));
            }
            players[i] = Some(player);
            let seat = Seat::computer(&used).unwrap_or(Seat::Human);
            session = session.with_seat(side, seat);
        }
        let (hinter, hinter_name, _) = build_player(HINT_PLAYERS[0], rules, setup.seed);
        let message = if notes.is_empty() {
            Message::new(
                MessageKind::Info,
                format!(
                    "{} against {}: {} moves first.",
                    setup.names[0], setup.names[1], setup.names[0]
                ),
            )
        } else {
            Message::new(MessageKind::Warning, notes.join(" "))
        };
        let mut game = GameState {
            setup,
            session,
            players,
            hinter: Some(hinter),
            hinter_name,
            game_id: self.next_game_id,
            epoch: 0,
            choice: None,
            hint_pending: false,
            computer_at: now + self.step_time() * 2,
            cursor: 1,
            anim: None,
            message,
            confirm_quit: false,
            digit: None,
        };
        game.fix_cursor();
        self.screen = Screen::Game(Box::new(game));
    }

    /// Handles a key press.
    pub fn handle_key(&mut self, key: KeyEvent, now: Instant) {
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c' | 'C'))
        {
            self.quit = true;
            return;
        }
        match &mut self.screen {
            Screen::Setup(form) => {
                let start = setup_key(form, key, &mut self.quit);
                if start {
                    let setup = form.setup().clone();
                    self.start_game(setup, now);
                }
            }
            Screen::Game(_) => self.game_key(key, now),
        }
    }

    fn game_key(&mut self, key: KeyEvent, now: Instant) {
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.confirm_quit {
            match key.code {
                KeyCode::Char('y' | 'Y') => self.quit = true,
                KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => {
                    g.confirm_quit = false;
                    g.message = Message::new(MessageKind::Info, "Back to the game.");
                }
                _ => {}
            }
            return;
        }
        if g.finished() {
            match key.code {
                KeyCode::Char('y' | 'Y') => {
                    let setup = g.setup.clone();
                    self.start_game(setup, now);
                }
                KeyCode::Char('n' | 'N' | 'q' | 'Q') | KeyCode::Esc => self.quit = true,
                KeyCode::Char('s' | 'S') => {
                    let form = SetupForm::new(g.setup.clone());
                    self.screen = Screen::Setup(form);
                }
                KeyCode::Char('u') => self.undo(now),
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Char('+' | '=') => return self.change_speed(1),
            KeyCode::Char('-' | '_') => return self.change_speed(-1),
            KeyCode::Char('q') => {
                g.confirm_quit = true;
                return;
            }
            _ => {}
        }
        if g.anim.is_some() {
            // Any other key shows the rest of the sowing at once.
            finish_animation(g, now, step);
            return;
        }
        match key.code {
            KeyCode::Char('u') => self.undo(now),
            KeyCode::Char('r') => self.redo(now),
            KeyCode::Char('h') => self.hint(),
            KeyCode::Left | KeyCode::Right | KeyCode::Home | KeyCode::End => {
                move_cursor(g, key.code);
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                let house = g.cursor;
                self.try_house(None, house, now);
            }
            KeyCode::Esc => {
                g.digit = None;
            }
            KeyCode::Char(c) if c.is_ascii_digit() => self.digit_key(c, now),
            KeyCode::Char(c) if c.is_ascii_alphabetic() => {
                let houses = g.session.rules().houses();
                match house_of_letter(c, houses) {
                    Some((side, house)) => self.try_house(Some(side), house, now),
                    None => {
                        g.message = Message::new(
                            MessageKind::Warning,
                            format!("No house is lettered {c:?}; {}", key_help(g)),
                        );
                    }
                }
            }
            KeyCode::Char(c) => {
                g.message = Message::new(
                    MessageKind::Warning,
                    format!("The key {c:?} does nothing here; {}", key_help(g)),
                );
            }
            _ => {}
        }
    }

    fn digit_key(&mut self, c: char, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        let d = c as u8 - b'0';
        let houses = g.session.rules().houses() as u8;
        if let Some(first) = g.digit.take() {
            let house = first * 10 + d;
            return self.try_house(None, house, now);
        }
        if houses >= 10 && d >= 1 && d * 10 <= houses {
            g.digit = Some(d);
            g.message = Message::new(
                MessageKind::Info,
                format!("House {d}_: type a second digit, or Enter for house {d}."),
            );
            g.cursor = d;
            return;
        }
        let house = if d == 0 { 10 } else { d };
        self.try_house(None, house, now)
    }

    /// Plays `house` for the person to move, if they may; `side` is the row the key
    /// named (letters name a row, numbers the mover's).
    fn try_house(&mut self, side: Option<Side>, house: u8, now: Instant) {
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        g.digit = None;
        let Some(mover) = g.session.to_move() else {
            return;
        };
        if !g.session.human_to_move() {
            g.message = Message::new(
                MessageKind::Warning,
                format!("Wait for {}: it is their turn.", g.name(mover)),
            );
            return;
        }
        let houses = g.session.rules().houses();
        if let Some(side) = side {
            if side != mover {
                let (lo, hi) = (
                    house_label(mover, 1, houses),
                    house_label(mover, houses as u8, houses),
                );
                g.message = Message::new(
                    MessageKind::Warning,
                    format!(
                        "House {} is {}'s. {}, choose one of yours ({lo} to {hi}).",
                        house_label(side, house, houses),
                        g.name(side),
                        g.name(mover)
                    ),
                );
                return;
            }
        }
        let Some(mv) = Move::new(house).filter(|_| usize::from(house) <= houses) else {
            g.message = Message::new(
                MessageKind::Warning,
                format!("There is no house {house}: houses are 1 to {houses}."),
            );
            return;
        };
        match g.session.position().check(mv) {
            Ok(()) => {
                g.cursor = house;
                play(g, mv, now, step);
            }
            Err(e) => {
                let label = g.label(mover, house);
                let text = match e {
                    IllegalMove::EmptyHouse { .. } => {
                        format!("House {label} is empty: choose a house with seeds.")
                    }
                    IllegalMove::MustFeed { .. } => format!(
                        "House {label} gives {} no seeds, and they have none: feed them.",
                        g.name(mover.opponent())
                    ),
                    other => other.to_string(),
                };
                g.message = Message::new(MessageKind::Warning, text);
            }
        }
    }

    fn change_speed(&mut self, delta: isize) {
        let new = (self.speed as isize + delta).clamp(0, SPEEDS_MS.len() as isize - 1) as usize;
        self.speed = new;
        if let Screen::Game(g) = &mut self.screen {
            g.message = Message::new(
                MessageKind::Info,
                format!("Sowing speed {} of {}.", new + 1, SPEEDS_MS.len()),
            );
        }
    }

    fn undo(&mut self, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if !g.any_human() {
            g.message = Message::new(MessageKind::Warning, "Undo is for games with a person.");
            return;
        }
        let n = g.session.undo();
        if n == 0 {
            g.message = Message::new(MessageKind::Warning, "Nothing to take back.");
            return;
        }
        after_jump(g, now);
        let who = g.session.to_move().map_or("", |s| g.name(s)).to_owned();
        g.message = Message::new(
            MessageKind::Info,
            format!("Took back {n} move{}: {who} to move. (r: redo)", plural(n)),
        );
    }

    fn redo(&mut self, now: Instant) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if !g.any_human() {
            g.message = Message::new(MessageKind::Warning, "Redo is for games with a person.");
            return;
        }
        let n = g.session.redo();
        if n == 0 {
            g.message = Message::new(MessageKind::Warning, "Nothing to redo.");
            return;
        }
        after_jump(g, now);
        g.message = Message::new(
            MessageKind::Info,
            format!("Replayed {n} move{}.", plural(n)),
        );
    }

    fn hint(&mut self) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if !g.awaiting_human() {
            return;
        }
        let Some(hinter) = g.hinter.take() else {
            g.message = Message::new(MessageKind::Info, "Still looking for a hint...");
            return;
        };
        g.hint_pending = true;
        g.message = Message::new(MessageKind::Info, "Looking for a hint...");
        spawn_thinker(
            &self.tx,
            Job::Hint,
            g.game_id,
            g.epoch,
            g.session.game().clone(),
            hinter,
        );
    }

    /// Handles a mouse event: a left click on a house plays it.
    pub fn handle_mouse(&mut self, ev: MouseEvent, now: Instant) {
        if ev.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        let size = self.size;
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if g.confirm_quit || g.finished() {
            return;
        }
        if g.anim.is_some() {
            finish_animation(g, now, step);
            return;
        }
        let houses = g.session.rules().houses();
        // The layout the screen was drawn with, so the click finds the house under it.
        let area = ratatui::layout::Rect::new(0, 0, size.0, size.1);
        let Some(layout) = GameLayout::new(area, houses) else {
            return;
        };
        if let Some((side, house)) = layout.board.house_at(ev.column, ev.row) {
            self.try_house(Some(side), house, now);
        }
    }

    /// Advances time: the sowing on screen, the computer's replies and moves.
    pub fn tick(&mut self, now: Instant) {
        self.ticks += 1;
        while let Ok(reply) = self.rx.try_recv() {
            self.on_reply(reply);
        }
        let step = self.step_time();
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if let Some(a) = &mut g.anim {
            while now >= a.next_at {
                if a.shown < a.record.sowing.len() {
                    a.shown += 1;
                    a.next_at += step;
                } else {
                    finish_animation(g, now, step);
                    break;
                }
            }
        }
        if g.confirm_quit {
            return;
        }
        let Some((side, _)) = g.session.computer_to_move() else {
            return;
        };
        let ply = g.session.records().len();
        match &g.choice {
            Some((epoch, at, choice)) if *epoch == g.epoch && *at == ply => {
                if g.anim.is_none() && now >= g.computer_at {
                    let mv = choice.mv;
                    g.choice = None;
                    if g.session.position().check(mv).is_ok() {
                        play(g, mv, now, step);
                    } else {
                        self.failure = Some(format!("computer chose an illegal move {mv}"));
                    }
                }
            }
            _ => {
                g.choice = None;
                if let Some(player) = g.players[side.index()].take() {
                    spawn_thinker(
                        &self.tx,
                        Job::Move(side),
                        g.game_id,
                        g.epoch,
                        g.session.game().clone(),
                        player,
                    );
                }
            }
        }
    }

    fn on_reply(&mut self, reply: Reply) {
        let Screen::Game(g) = &mut self.screen else {
            return;
        };
        if reply.game_id != g.game_id {
            return;
        }
        let current = reply.epoch == g.epoch && reply.ply == g.session.records().len();
        let choice = match reply.choice {
            Ok(c) => c,
            Err(e) => {
                self.failure = Some(e);
                return;
            }
        };
        match reply.job {
            Job::Move(side) => {
                g.players[side.index()] = Some(reply.player);
                if current {
                    g.choice = Some((reply.epoch, reply.ply, choice));
                }
            }
            Job::Hint => {
                g.hinter = Some(reply.player);
                g.hint_pending = false;
                if current && g.session.human_to_move() {
                    let side = g.session.to_move().expect("a person is to move");
                    g.cursor = choice.mv.house();
                    let label = g.label(side, choice.mv.house());
                    let why = choice
                        .reason
                        .map(|r| format!(": it {r}"))
                        .unwrap_or_default();
                    g.message = Message::new(
                        MessageKind::Good,
                        format!(
                            "Hint ({}): house {label}{why}. Enter plays it.",
                            g.hinter_name
                        ),
                    );
                }
            }
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// How to choose a house, for messages.
fn key_help(g: &GameState) -> String {
    let houses = g.session.rules().houses();
    let side = g.session.to_move().unwrap_or(Side::South);
    let letters = match (
        house_letter(side, 1, houses),
        house_letter(side, houses as u8, houses),
    ) {
        (Some(a), Some(b)) => format!(", {a}-{b}"),
        _ => String::new(),
    };
    format!("choose a house with the arrows and Enter, 1-{houses}{letters}, or a click.")
}

/// After undo or redo: no sowing on screen, replies for the old position dropped.
fn after_jump(g: &mut GameState, now: Instant) {
    g.anim = None;
    g.epoch += 1;
    g.choice = None;
    g.digit = None;
    g.computer_at = now;
    g.fix_cursor();
}

fn move_cursor(g: &mut GameState, code: KeyCode) {
    let Some(side) = g.session.to_move() else {
        return;
    };
    let legal: Vec<u8> = g.session.legal_moves().iter().map(|m| m.house()).collect();
    if legal.is_empty() {
        return;
    }
    // Player 1's row runs left to right on screen, player 2's right to left.
    let rightwards_up = side == Side::South;
    let up = match code {
        KeyCode::Right => rightwards_up,
        KeyCode::Left => !rightwards_up,
        KeyCode::End => {
            g.cursor = if rightwards_up {
                legal[legal.len() - 1]
            } else {
                legal[0]
            };
            return;
        }
        _ => {
            g.cursor = if rightwards_up {
                legal[0]
            } else {
                legal[legal.len() - 1]
            };
            return;
        }
    };
    let next = if up {
        legal.iter().find(|&&h| h > g.cursor).copied()
    } else {
        legal.iter().rev().find(|&&h| h < g.cursor).copied()
    };
    if let Some(h) = next {
        g.cursor = h;
    }
}

fn play(g: &mut GameState, mv: Move, now: Instant, step: Duration) {
    let record = match g.session.play(mv) {
        Ok(r) => r.clone(),
        Err(e) => {
            g.message = Message::new(MessageKind::Warning, e.to_string());
            return;
        }
    };
    // The status line says who sows; the message line waits for what the move did.
    g.message = Message::new(MessageKind::Info, "");
    g.choice = None;
    g.anim = Some(Animation {
        record,
        shown: 0,
        next_at: now + step,
    });
}

/// Ends the sowing on screen and announces what the move did.
fn finish_animation(g: &mut GameState, now: Instant, step: Duration) {
    let Some(anim) = g.anim.take() else {
        return;
    };
    let r = &anim.record;
    let name = g.name(r.side).to_owned();
    let houses = g.session.rules().houses();
    let captured: Vec<Pit> = r
        .sowing
        .iter()
        .filter_map(|s| match s {
            SowStep::Capture { pit, .. } => Some(*pit),
            _ => None,
        })
        .collect();
    let label = |pit: &Pit| match *pit {
        Pit::House { side, house } => house_label(side, house, houses),
        Pit::Store(_) => "store".to_owned(),
    };
    let mut text = Vec::new();
    let mut kind = MessageKind::Info;
    if r.report.captured > 0 {
        kind = MessageKind::Capture;
        let n = r.report.captured;
        if r.before.variant() == Variant::Kalah {
            // As the classic homework says it: the opponent's house first.
            let mut pits: Vec<String> = captured.iter().map(label).collect();
            pits.reverse();
            text.push(format!(
                "{name} captured the contents of houses {}: {n} seeds!",
                pits.join(" and ")
            ));
        } else {
            let pits: Vec<String> = captured.iter().map(label).collect();
            text.push(format!(
                "{name} captured {n} seeds from house{} {}!",
                plural(pits.len()),
                pits.join(", ")
            ));
        }
    }
    let over = g.session.is_over() && r.ply + 1 == g.session.records().len();
    if r.report.ended_in_store && !over {
        kind = if kind == MessageKind::Capture {
            kind
        } else {
            MessageKind::Good
        };
        text.push(format!("{name} gets an extra turn!"));
    }
    if text.is_empty() {
        text.push(format!("{name} sowed house {}.", label(&r.sowing[0].pit())));
    }
    if g.session.game().ended_by_repetition() {
        text.push("The position came round again: the game is over.".to_owned());
    }
    g.message = Message::new(kind, text.join(" "));
    g.computer_at = now + step * 3;
    g.fix_cursor();
}

trait StepPit {
    fn pit(&self) -> Pit;
}

impl StepPit for SowStep {
    fn pit(&self) -> Pit {
        match *self {
            SowStep::Lift { pit, .. } | SowStep::Capture { pit, .. } | SowStep::Drop(pit) => pit,
        }
    }
}

fn spawn_thinker(
    tx: &Sender<Reply>,
    job: Job,
    game_id: u64,
    epoch: u64,
    game: Game,
    mut player: Box<dyn Player>,
) {
    let tx = tx.clone();
    let ply = game.ply();
    let spawned = std::thread::Builder::new()
        .name(THINKER_THREAD.to_owned())
        .spawn(move || {
            let choice = catch_unwind(AssertUnwindSafe(|| player.choose(&game)))
                .map_err(|_| format!("the computer player {} stopped (panicked)", player.name()));
            // The app may be gone; then nobody needs the answer.
            let _ = tx.send(Reply {
                job,
                game_id,
                epoch,
                ply,
                player,
                choice,
            });
        });
    if let Err(e) = spawned {
        panic!("cannot start a thread for the computer player: {e}");
    }
}

/// Start-screen keys; returns whether to start the game.
fn setup_key(form: &mut SetupForm, key: KeyEvent, quit: &mut bool) -> bool {
    let on_name = matches!(form.focus, Field::Name(_));
    match key.code {
        KeyCode::Enter => return true,
        KeyCode::Esc => *quit = true,
        KeyCode::Up | KeyCode::BackTab => form.move_focus(-1),
        KeyCode::Down | KeyCode::Tab => form.move_focus(1),
        KeyCode::Left => form.change(-1),
        KeyCode::Right => form.change(1),
        KeyCode::Backspace => form.backspace(),
        KeyCode::Char(c) if on_name => form.type_char(c),
        KeyCode::Char(' ') if form.focus == Field::Start => return true,
        KeyCode::Char(' ') => form.change(1),
        KeyCode::Char('q') => *quit = true,
        _ => {}
    }
    false
}
