//! An external engine at a seat: what it writes on its standard error stays off the
//! board (in a log the message points to), and the board calls it by its own name.

mod common;

use std::time::Instant;

use common::{flowing, press, run_until, screen};
use mancala_core::Side;
use mancala_tui::{App, Setup};
use ratatui::crossterm::event::KeyCode;

/// An engine in `sh` that names itself `mybot:bad` and, asked for a move, writes a
/// traceback on its standard error and exits, as a Python bot that raises does.
const BAD_ENGINE: &str = "ext:sh -c 'while read -r line; do case \"$line\" in \
     protocol*) echo \"id name mybot:bad\"; echo ready;; \
     go*) echo \"Traceback (most recent call last):\" >&2; \
          echo \"ValueError: no move for you\" >&2; exit 1;; esac; done'";

#[test]
fn an_engines_error_output_goes_to_a_log_and_the_board_names_it_as_it_names_itself() {
    let mut now = Instant::now();
    let setup = Setup {
        players: ["human".into(), BAD_ENGINE.into()],
        names: ["Ann".into(), String::new()],
        ..Setup::default()
    };
    let mut app = App::new(setup, true, now);
    assert_eq!(app.game().unwrap().session.name(Side::North), "mybot:bad");
    assert!(screen(&app, 80, 24).contains("mybot:bad"));
    press(&mut app, KeyCode::Char('1'), now);
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().message.text.contains("forfeits")
    });
    let log = mancala_tui::engine_log(1);
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(written.contains("ValueError: no move for you"), "{written}");
    let s = flowing(&screen(&app, 100, 35));
    assert!(s.contains("mybot:bad forfeits"), "{s}");
    assert!(s.contains("You play mybot:bad's moves from here."), "{s}");
    assert!(
        s.contains(&format!(
            "Its last error line: ValueError: no move for you (all it wrote is in {}).",
            log.display()
        )),
        "{s}"
    );
    assert!(!s.contains("Traceback"), "{s}");
}
