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
use ratatui::backend::CrosstermBackend;
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

/// How often the screen is refreshed when nothing happens.
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

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    mut app: App,
    stop: &AtomicI32,
) -> io::Result<Ended> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    loop {
        terminal.draw(|frame| ui::draw(frame, &app))?;
        match stop.load(Ordering::Relaxed) {
            0 if app.should_quit() => return Ok(Ended::Quit),
            0 => {}
            signal => return Ok(Ended::Signal(signal)),
        }
        if app.take_suspend() {
            suspend(terminal)?;
            let size = terminal.size()?;
            app.resize(size.width, size.height);
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
                    }
                    Event::Mouse(mouse) => app.handle_mouse(mouse, now),
                    Event::Resize(w, h) => {
                        app.resize(w, h);
                        terminal.autoresize()?;
                    }
                    _ => {}
                }
                if app.should_quit() || !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        app.tick(Instant::now());
    }
}
