//! Saving where the directory cannot be written lets the player choose another, and
//! the quit question says when the game is not saved.

mod common;

use std::time::Instant;

use common::{chars, flowing, play_houses, press, screen, two_people};
use mancala_core::Variant;
use mancala_tui::App;
use ratatui::crossterm::event::KeyCode;

#[test]
fn a_save_that_fails_asks_for_another_directory_and_saves_there() {
    let now = Instant::now();
    let good = std::env::temp_dir().join(format!("mancala-tui-save-to-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&good);
    std::fs::create_dir_all(&good).unwrap();
    let missing = good.join("no-such-directory");
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now).with_save_dir(&missing);
    play_houses(&mut app, &[3, 1], now);
    press(&mut app, KeyCode::Char('w'), now);
    let s = flowing(&screen(&app, 80, 24));
    assert!(s.contains("Could not save the game in"), "{s}");
    assert!(s.contains("Save it in another directory?"), "{s}");
    assert!(s.contains("Save in: ▏ (Enter saves, Esc cancels)"), "{s}");
    // At 50x20 the directory and the keys show whole.
    let narrow = flowing(&screen(&app, 50, 20));
    assert!(
        narrow.contains("Save in: ▏ (Enter saves, Esc cancels)"),
        "{narrow}"
    );
    // Letters typed go into the directory, not to the game (u is not undo here).
    chars(&mut app, &good.display().to_string(), now);
    assert_eq!(app.game().unwrap().session.records().len(), 2);
    press(&mut app, KeyCode::Enter, now);
    let s = flowing(&screen(&app, 80, 24));
    assert!(s.contains("Saved to"), "{s}");
    assert_eq!(std::fs::read_dir(&good).unwrap().count(), 1);
    // Saved there from now on.
    press(&mut app, KeyCode::Char('w'), now);
    assert_eq!(std::fs::read_dir(&good).unwrap().count(), 2);
    let _ = std::fs::remove_dir_all(&good);
}

#[test]
fn esc_gives_up_a_save_and_the_quit_question_says_the_game_is_not_saved() {
    let now = Instant::now();
    let dir = std::env::temp_dir().join(format!("mancala-tui-unsaved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now).with_save_dir(&dir);
    press(&mut app, KeyCode::Char('q'), now);
    let s = flowing(&screen(&app, 80, 24));
    assert!(
        s.contains("A game is in progress."),
        "nothing played yet:\n{s}"
    );
    press(&mut app, KeyCode::Char('n'), now);
    play_houses(&mut app, &[3], now);
    press(&mut app, KeyCode::Char('w'), now);
    press(&mut app, KeyCode::Esc, now);
    assert!(app.game().unwrap().save_to.is_none());
    press(&mut app, KeyCode::Char('q'), now);
    let s = flowing(&screen(&app, 80, 24).replace('║', " "));
    assert!(
        s.contains("The game is not saved (n, then w saves it)."),
        "{s}"
    );
    assert!(!app.should_quit());
}
