//! Snapshots of the main screens, drawn on ratatui's `TestBackend` (text only, no
//! colours). Every game is reached by a fixed list of moves between two people, with no
//! clock and no computer player, so each screen is the same on every run.
//!
//! A deliberate change of a screen: run the tests, look at the `.snap.new` files (or
//! `cargo insta review`), and accept them; `tests/snapshots/` holds the accepted ones.

use std::time::Instant;

use insta::assert_snapshot;
use mancala_core::{Rules, Variant};
use mancala_tui::{App, BoardShape, GameLayout, Setup, draw};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use unicode_width::UnicodeWidthStr;

const W: u16 = 100;
const H: u16 = 35;

/// The screen as text, one line per row, trailing spaces cut. A wide character (CJK,
/// an emoji) is followed by nothing, as a terminal shows it, not by the buffer's
/// blank cell under its second column.
fn screen(app: &App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| draw(f, app)).unwrap();
    let buf = terminal.backend().buffer();
    let rows = (0..h).map(|y| {
        let mut row = String::new();
        let mut x = 0;
        while x < w {
            let symbol = buf[(x, y)].symbol();
            row.push_str(symbol);
            x += u16::try_from(symbol.width().max(1)).unwrap();
        }
        row.trim_end().to_owned()
    });
    rows.collect::<Vec<_>>().join("\n")
}

/// The part of the screen in `r`.
fn crop(screen: &str, r: Rect) -> String {
    let rows = screen
        .lines()
        .skip(usize::from(r.y))
        .take(usize::from(r.height));
    rows.map(|row| {
        let cut: String = row
            .chars()
            .skip(usize::from(r.x))
            .take(usize::from(r.width))
            .collect();
        cut.trim_end().to_owned()
    })
    .collect::<Vec<_>>()
    .join("\n")
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::from(code), Instant::now());
}

fn people(variant: Variant, houses: u8, seeds: u8) -> Setup {
    Setup {
        variant,
        houses,
        seeds,
        players: ["human".into(), "human".into()],
        names: ["Ann".into(), "Bob".into()],
        ..Setup::default()
    }
}

/// A game under `setup` after `moves` (house numbers of the player to move), each
/// sowing shown to its end.
fn game_after(setup: Setup, moves: &[u8]) -> App {
    let mut app = App::new(setup, true, Instant::now());
    for &house in moves {
        let key = if house == 10 {
            '0'
        } else {
            char::from(b'0' + house)
        };
        press(&mut app, KeyCode::Char(key));
        press(&mut app, KeyCode::Char(' '));
        let records = app.game().unwrap().session.records();
        assert_eq!(
            records.last().map(|r| r.mv.house()),
            Some(house),
            "house {house} was played"
        );
    }
    app
}

/// Oware 6x4, each player sowing their first house with seeds, until Bob has captured
/// more than half: 84 moves.
const OWARE_FIRST_HOUSES: [u8; 84] = [
    1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 1, 2, 1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 4, 1, 5, 1, 6, 2, 2, 3,
    1, 4, 1, 1, 2, 2, 3, 1, 4, 1, 5, 1, 6, 5, 5, 1, 6, 2, 1, 1, 2, 2, 3, 3, 1, 4, 1, 5, 1, 6, 1, 1,
    2, 2, 3, 1, 4, 1, 5, 1, 6, 2, 1, 1, 2, 2, 3, 3, 1, 4, 1, 5,
];

#[test]
fn start_screen() {
    let app = App::new(Setup::default(), false, Instant::now());
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn start_screen_with_a_player_that_cannot_play_the_variant() {
    let setup = Setup {
        variant: Variant::Oware,
        players: ["robot".into(), "human".into()],
        names: ["Robot".into(), "Bob".into()],
        ..Setup::default()
    };
    let mut app = App::new(setup, false, Instant::now());
    press(&mut app, KeyCode::Up);
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn kalah_6x4_in_progress() {
    // An extra turn first, a capture last.
    let app = game_after(people(Variant::Kalah, 6, 4), &[3, 1, 1, 4, 2, 3]);
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn oware_6x4_in_progress() {
    let app = game_after(people(Variant::Oware, 6, 4), &OWARE_FIRST_HOUSES[..30]);
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn a_sowing_half_shown() {
    let mut app = game_after(people(Variant::Kalah, 6, 4), &[3, 6]);
    let start = Instant::now();
    app.handle_key(KeyEvent::from(KeyCode::Char('5')), start);
    app.tick(start + app.step_time() * 3);
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn history_panel_keeps_the_latest_moves() {
    let app = game_after(people(Variant::Oware, 6, 4), &OWARE_FIRST_HOUSES[..60]);
    let oware = BoardShape::of(Rules::oware(6, 4));
    let layout = GameLayout::new(Rect::new(0, 0, W, H), oware).unwrap();
    let history = layout.history.expect("the move list fits in 100 columns");
    assert_snapshot!(crop(&screen(&app, W, H), history));
}

#[test]
fn the_quit_question() {
    let mut app = game_after(people(Variant::Kalah, 6, 4), &[3]);
    press(&mut app, KeyCode::Char('q'));
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn kalah_end_says_why_and_where_the_last_seeds_went() {
    // Player 1 runs out of seeds; player 2 takes the 36 left in their houses.
    let app = game_after(
        people(Variant::Kalah, 6, 4),
        &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1],
    );
    assert!(app.game().unwrap().finished());
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn oware_end_says_why_and_where_the_last_seeds_went() {
    // Bob cannot feed Ann, so Bob takes the seed left in his houses.
    let app = game_after(people(Variant::Oware, 3, 2), &[2, 2, 3, 3, 3, 2, 2, 3, 3]);
    assert!(app.game().unwrap().finished());
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn oware_end_by_majority() {
    let app = game_after(people(Variant::Oware, 6, 4), &OWARE_FIRST_HOUSES);
    assert!(app.game().unwrap().finished());
    assert_snapshot!(screen(&app, W, H));
}

#[test]
fn a_terminal_too_small() {
    let app = game_after(people(Variant::Kalah, 6, 4), &[]);
    assert_snapshot!(screen(&app, 50, 12));
}

#[test]
fn kalah_end_with_the_result_put_away_shows_the_final_board() {
    // As above; `v` puts the box away: every house, the stores holding the final score
    // (Bob's 36 seeds swept into his store), and where the last seeds went.
    let mut app = game_after(
        people(Variant::Kalah, 6, 4),
        &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1],
    );
    press(&mut app, KeyCode::Char('v'));
    let s = screen(&app, W, H);
    assert!(!s.contains("Play again?"), "{s}");
    assert!(s.contains("to the stores: Bob +36"), "{s}");
    assert_snapshot!(s);
    press(&mut app, KeyCode::Char('v'));
    assert!(screen(&app, W, H).contains("Play again? (y/n)"));
}

#[test]
fn the_help_screen() {
    let mut app = game_after(people(Variant::Kalah, 6, 4), &[3]);
    press(&mut app, KeyCode::Char('?'));
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn the_help_screen_scrolled_on_the_smallest_terminal() {
    let mut app = App::new(Setup::default(), false, Instant::now());
    app.resize(50, 20);
    press(&mut app, KeyCode::Char('?'));
    press(&mut app, KeyCode::PageDown);
    assert_snapshot!(screen(&app, 50, 20));
}

/// Player 2's name in the tests of long names: wide characters and an emoji (two
/// columns each), longer than a line of the board.
const WIDE_NAME: &str = "李小龍🎉Ann of the Northern Seas and the Eastern Mountains";

fn wide_name_to_move() -> App {
    let setup = Setup {
        names: ["Ann".into(), WIDE_NAME.into()],
        ..people(Variant::Kalah, 6, 4)
    };
    game_after(setup, &[3, 1])
}

#[test]
fn a_long_wide_name_at_50x20() {
    let mut app = wide_name_to_move();
    app.resize(50, 20);
    assert_snapshot!(screen(&app, 50, 20));
}

#[test]
fn a_long_wide_name_at_80x24() {
    let mut app = wide_name_to_move();
    app.resize(80, 24);
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn kalah_end_at_50x20() {
    let mut app = game_after(
        people(Variant::Kalah, 6, 4),
        &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1],
    );
    app.resize(50, 20);
    assert_snapshot!(screen(&app, 50, 20));
}

#[test]
fn oware_end_at_50x20_and_80x24() {
    let mut app = game_after(people(Variant::Oware, 3, 2), &[2, 2, 3, 3, 3, 2, 2, 3, 3]);
    app.resize(50, 20);
    assert_snapshot!("oware_end_at_50x20", screen(&app, 50, 20));
    app.resize(80, 24);
    assert_snapshot!("oware_end_at_80x24", screen(&app, 80, 24));
}

#[test]
fn start_screen_at_50x20_with_no_name_and_a_player_replaced() {
    let setup = Setup {
        players: ["robot".into(), "medium".into()],
        names: ["Robot".into(), String::new()],
        ..Setup::default()
    };
    let mut app = App::new(setup, false, Instant::now());
    app.resize(50, 20);
    // Up to the variant (past the two Kalah options), then Oware: no robot there.
    for _ in 0..9 {
        press(&mut app, KeyCode::Up);
    }
    press(&mut app, KeyCode::Right);
    assert_snapshot!(screen(&app, 50, 20));
}

#[test]
fn the_help_screen_on_the_smallest_terminal() {
    let mut app = game_after(people(Variant::OwareSimplified, 6, 4), &[]);
    app.resize(50, 20);
    press(&mut app, KeyCode::Char('?'));
    assert_snapshot!(screen(&app, 50, 20));
}

/// A Togyz Kumalak game (9x9) of the session's record corpus
/// (`togyz-majority-two-digit.txt`): player 1 claims player 2's house 2 as a tuzdyk
/// in the 17th move, player 2 claims player 1's house 3 in the 38th, and player 1
/// wins by majority in the 49th.
const TOGYZ_GAME: [u8; 49] = [
    2, 8, 3, 7, 6, 1, 5, 6, 4, 2, 6, 6, 1, 9, 2, 5, 5, 1, 6, 3, 7, 9, 9, 5, 4, 1, 8, 5, 9, 1, 6, 4,
    7, 6, 8, 6, 9, 9, 2, 7, 8, 4, 5, 8, 1, 3, 7, 5, 9,
];

/// Togyz Kumalak after both tuzdyks are claimed: each drawn `x` (in its owner's
/// colour, which the text does not show), nine houses a row.
fn togyz_with_both_tuzdyks() -> App {
    let app = game_after(people(Variant::TogyzKumalak, 9, 9), &TOGYZ_GAME[..38]);
    let tuzdyks = app.game().unwrap().session.position().claims();
    assert!(tuzdyks.iter().all(Option::is_some), "{tuzdyks:?}");
    app
}

#[test]
fn togyz_kumalak_with_both_tuzdyks_at_80x24() {
    let mut app = togyz_with_both_tuzdyks();
    app.resize(80, 24);
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn togyz_kumalak_with_both_tuzdyks_at_50x20() {
    let mut app = togyz_with_both_tuzdyks();
    app.resize(50, 20);
    assert_snapshot!(screen(&app, 50, 20));
}

/// Player 1's house 2 sows its 9 seeds along their row, the first back into it; the
/// second falls into player 1's house 3, player 2's tuzdyk, and goes to player 2's
/// store: 38, and 7 seeds left in hand. (The tuzdyk and the store are lit in the
/// accent colour, which the text does not show: `tests/app.rs` checks the board.)
#[test]
fn togyz_kumalak_a_seed_sown_into_a_tuzdyk() {
    let mut app = togyz_with_both_tuzdyks();
    app.resize(80, 24);
    let start = Instant::now();
    app.handle_key(KeyEvent::from(KeyCode::Char('2')), start);
    app.tick(start + app.step_time() * 3);
    let board = app.game().unwrap().board();
    assert_eq!((board.stores[1], board.in_hand), (38, 7));
    assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn togyz_kumalak_end_by_majority() {
    let app = game_after(people(Variant::TogyzKumalak, 9, 9), &TOGYZ_GAME);
    assert!(app.game().unwrap().finished());
    assert_snapshot!(screen(&app, 80, 24));
}
