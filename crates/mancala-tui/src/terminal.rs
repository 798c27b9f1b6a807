//! The real terminal: raw mode, the alternate screen, mouse capture, the event loop,
//! and putting the terminal back on every way out (normal exit, error, panic, Ctrl-C,
//! and SIGTERM, SIGHUP or SIGINT sent from outside).

use std::io::{self, Stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::app::{App, THINKER_THREAD};
use crate::setup::Setup;
use crate::ui;

/// How often time is advanced (a sowing, the computer) while no key comes. The screen
/// is drawn only when something changed, so an idle tick writes nothing.
const TICK: Duration = Duration::from_millis(25);

/// How long the event loop has to end by itself after a signal.
const SIGNAL_GRACE: Duration = Duration::from_millis(500);

/// Puts the terminal back as it was. Safe to call more than once.
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
}

/// Restores the terminal when dropped, so `?` and early returns restore it too.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Restores the terminal before a panic message is printed, so the message is readable.
/// A panic in a computer player's thread is caught there and reported by the game, so
/// the screen is left alone for those.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(THINKER_THREAD) {
            restore();
        }
        previous(info);
    }));
}

/// How a game in the terminal ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The player quit.
    Quit,
    /// A signal from outside (SIGTERM, SIGHUP, SIGINT) ended it.
    Signal(i32),
}

impl Ended {
    /// The exit status a shell expects: 0 after quitting, 128 + the signal's number
    /// after a signal (143 for SIGTERM), so scripts and service managers can tell.
    #[must_use]
    pub fn exit_status(self) -> u8 {
        match self {
            Ended::Quit => 0,
            Ended::Signal(n) => u8::try_from(128 + n).unwrap_or(u8::MAX),
        }
    }
}

/// Plays in the terminal until the player quits or a signal ends the game.
///
/// Shows the start screen filled in with `setup`, or goes straight to the game when
/// `skip_start`.
///
/// # Errors
/// When the terminal cannot be set up or written, or a computer player fails.
pub fn run(setup: Setup, skip_start: bool) -> io::Result<Ended> {
    run_app(|now| App::new(setup, skip_start, now))
}

/// Plays the app `make` builds until the player quits or a signal ends the game.
///
/// # Errors
/// When the terminal cannot be set up or written, or a computer player fails.
pub fn run_app(make: impl FnOnce(Instant) -> App) -> io::Result<Ended> {
    install_panic_hook();
    // A signal from outside (the terminal closing, `kill`) ends the loop at the next
    // tick, and the guard below restores the terminal on the way out. If the loop does
    // not get back to check (its input is gone with the terminal, and reading it never
    // returns), the signal thread restores what it can and ends the process itself.
    let stop = Arc::new(AtomicI32::new(0));
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT])?;
    let flag = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                flag.store(signal, Ordering::Relaxed);
                std::thread::sleep(SIGNAL_GRACE);
                restore();
                std::process::exit(128 + signal);
            }
        })?;
    enable_raw_mode()?;
    let guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    let result = event_loop(&mut terminal, make(Instant::now()), &stop);
    drop(terminal);
    drop(guard);
    result
}

/// Ctrl-Z: gives the terminal back, stops the process as the shell's job control
/// expects (raw mode turns off the terminal's own Ctrl-Z, so the program does it),
/// and takes the terminal again and redraws it all when continued (`fg`).
fn suspend(terminal: &mut Terminal<CrosstermBackend<Stdout>>) -> io::Result<()> {
    restore();
    signal_hook::low_level::raise(SIGTSTP)?;
    enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    terminal.clear()
}

/// Draws the app only when something on screen changed since the last frame: input,
/// a resize, a sowing step, the computer's move, a turn of the spinner. ratatui sends
/// only the cells that differ, but every frame still writes colour resets and the
/// cursor, so an idle screen drawn 40 times a second would keep writing.
pub(crate) struct Painter {
    stale: bool,
    frames: u64,
}

impl Painter {
    /// A painter whose first call draws.
    pub(crate) fn new() -> Painter {
        Painter {
            stale: true,
            frames: 0,
        }
    }

    /// Something changed: the next [`Painter::paint`] draws.
    pub(crate) fn changed(&mut self, changed: bool) {
        self.stale |= changed;
    }

    /// Draws `app` on `terminal` if something changed since the last frame.
    pub(crate) fn paint<B: Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
        app: &App,
    ) -> io::Result<()> {
        if std::mem::take(&mut self.stale) {
            terminal.draw(|frame| ui::draw(frame, app))?;
            self.frames += 1;
        }
        Ok(())
    }

    /// Frames drawn so far.
    #[cfg(test)]
    pub(crate) fn frames(&self) -> u64 {
        self.frames
    }
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    mut app: App,
    stop: &AtomicI32,
) -> io::Result<Ended> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let mut painter = Painter::new();
    loop {
        painter.paint(terminal, &app)?;
        match stop.load(Ordering::Relaxed) {
            0 if app.should_quit() => return Ok(Ended::Quit),
            0 => {}
            signal => return Ok(Ended::Signal(signal)),
        }
        if app.take_suspend() {
            suspend(terminal)?;
            let size = terminal.size()?;
            app.resize(size.width, size.height);
            painter.changed(true);
            continue;
        }
        if app.take_repaint() {
            // Forget what the screen holds, so the next frame draws every cell.
            terminal.clear()?;
            painter.changed(true);
            continue;
        }
        if let Some(failure) = app.failure() {
            return Err(io::Error::other(failure.to_owned()));
        }
        if event::poll(TICK)? {
            // Take every event waiting, then draw once.
            loop {
                let now = Instant::now();
                match event::read()? {
                    Event::Key(key) if key.kind != KeyEventKind::Release => {
                        app.handle_key(key, now);
                        painter.changed(true);
                    }
                    Event::Mouse(mouse) => {
                        app.handle_mouse(mouse, now);
                        painter.changed(true);
                    }
                    Event::Resize(w, h) => {
                        app.resize(w, h);
                        terminal.autoresize()?;
                        painter.changed(true);
                    }
                    _ => {}
                }
                if app.should_quit() || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        painter.changed(app.tick(Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent};

    use super::{Painter, TICK};
    use crate::app::App;
    use crate::setup::Setup;

    /// Runs the loop's drawing part over `ticks` ticks of a fake clock with no input;
    /// returns the frames drawn.
    fn idle_frames(app: &mut App, now: &mut Instant, ticks: u32) -> u64 {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let mut painter = Painter::new();
        painter.paint(&mut terminal, app).unwrap();
        let first = painter.frames();
        for _ in 0..ticks {
            *now += TICK;
            painter.changed(app.tick(*now));
            painter.paint(&mut terminal, app).unwrap();
        }
        painter.frames() - first
    }

    #[test]
    fn nothing_is_drawn_while_nothing_happens() {
        let mut now = Instant::now();
        let mut app = App::new(Setup::default(), false, now);
        assert_eq!(idle_frames(&mut app, &mut now, 400), 0, "the start screen");

        let people = Setup {
            players: ["human".into(), "human".into()],
            ..Setup::default()
        };
        let mut app = App::new(people, true, now);
        assert_eq!(idle_frames(&mut app, &mut now, 400), 0, "waiting for a key");

        // A sowing is drawn step by step, then nothing more.
        app.handle_key(KeyEvent::from(KeyCode::Char('2')), now);
        let sowing = idle_frames(&mut app, &mut now, 400);
        let steps = app.game().unwrap().session.records()[0].sowing.len() as u64;
        assert!(
            sowing >= steps && sowing <= steps + 2,
            "{sowing} frames, {steps} steps"
        );
        assert_eq!(idle_frames(&mut app, &mut now, 400), 0, "after the sowing");
    }

    #[test]
    fn a_thinking_computer_is_drawn_as_its_spinner_turns() {
        let mut now = Instant::now();
        // Player 1 against medium, straight to the game.
        let mut app = App::new(Setup::default(), true, now);
        app.handle_key(KeyEvent::from(KeyCode::Char('3')), now); // 3: an extra turn
        app.handle_key(KeyEvent::from(KeyCode::Char(' ')), now);
        app.handle_key(KeyEvent::from(KeyCode::Char('1')), now); // the computer's turn
        app.handle_key(KeyEvent::from(KeyCode::Char(' ')), now);
        assert!(app.game().unwrap().thinking().is_some());
        // The spinner turns every SPIN_STEP, not every tick; a reply that comes in
        // the meantime adds the frames of the computer's sowing.
        let frames = idle_frames(&mut app, &mut now, 40);
        let most = (TICK * 40).as_millis() / crate::app::SPIN_STEP.as_millis() + 12;
        assert!(frames >= 1 && u128::from(frames) <= most, "{frames} frames");
    }
}
