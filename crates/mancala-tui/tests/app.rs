//! The terminal game without a terminal: scripted keys, clicks and a fake clock on the
//! [`App`], checked on what ratatui's `TestBackend` shows.

use std::time::Instant;

use mancala_core::{Rules, Side, Variant};
use mancala_tui::{App, BoardShape, GameLayout, Setup};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

mod common;

use common::{against, chars, press, run_until, screen, two_people};

const W: u16 = 100;
const H: u16 = 35;

fn show(app: &App) -> String {
    screen(app, W, H)
}

/// The rows of the board's frame.
fn board_rows(s: &str) -> String {
    s.lines()
        .filter(|l| {
            l.trim_start().starts_with('│')
                || l.trim_start().starts_with('╭')
                || l.trim_start().starts_with('╰')
        })
        .map(|l| l.trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn start_screen_lists_the_choices_and_enter_starts() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    let s = show(&app);
    for want in [
        "Mancala · new game",
        "◂ Kalah ▸",
        "Houses per side",
        "◂ 6 ▸",
        "Empty capture",
        "Player 1 (first)",
        "◂ human ▸",
        "◂ medium ▸",
        "Start the game",
        "Enter start",
    ] {
        assert!(s.contains(want), "{want:?} missing from\n{s}");
    }
    // Up from Start to the second name, type over it; up twice more to the variant.
    press(&mut app, KeyCode::Up, now);
    for _ in 0..20 {
        press(&mut app, KeyCode::Backspace, now);
    }
    chars(&mut app, "Zoe", now);
    for _ in 0..8 {
        press(&mut app, KeyCode::Up, now);
    }
    press(&mut app, KeyCode::Right, now);
    let s = show(&app);
    assert!(s.contains("◂ Oware ▸"), "{s}");
    assert!(
        !s.contains("Empty capture"),
        "Kalah's options hidden for Oware:\n{s}"
    );
    assert!(s.contains("Zoe"), "{s}");
    press(&mut app, KeyCode::Enter, now);
    let s = show(&app);
    assert!(s.contains("Oware · 6 houses × 4 seeds"), "{s}");
    assert!(s.contains("Zoe"), "{s}");
    assert!(
        s.contains("captured"),
        "Oware shows the seeds captured, by its description's word:\n{s}"
    );
}

#[test]
fn the_board_is_drawn_as_a_board() {
    let now = Instant::now();
    let app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    let s = show(&app);
    let expected = "\
        ╭─────────────────────────────────────────────────────────────────────╮ ╭───────── Moves ─────────╮
        │                          ◀  Bob  player 2                           │ │ no moves yet            │
        │             l6      k5      j4      i3      h2      g1              │ │                         │
        │ ╭───────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭───────╮ │ │                         │
        │ │       │ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │       │ │ │                         │
        │ │ store │ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ │ store │ │ │                         │
        │ │   0   │        ⟲ end in your store to move again        │   0   │ │ │                         │
        │ │       │ ┏━━━━━┓ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ ╭─────╮ │       │ │ │                         │
        │ │       │ ┃  4  ┃ │  4  │ │  4  │ │  4  │ │  4  │ │  4  │ │       │ │ │                         │
        │ ╰───────╯ ┗━━━━━┛ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰─────╯ ╰───────╯ │ │                         │
        │             a1      b2      c3      d4      e5      f6              │ │                         │
        │                      Ann  player 1 ▶  ● to move                     │ │                         │
        ╰─────────────────────────────────────────────────────────────────────╯ ╰─────────────────────────╯";
    let expected: Vec<&str> = expected.lines().map(str::trim_start).collect();
    assert_eq!(board_rows(&s), expected.join("\n"), "\n{s}");
    assert!(s.contains("MANCALA  Kalah · 6 houses × 4 seeds"), "{s}");
    assert!(
        s.contains("Ann, choose a house: ←→ + Enter, 1-6, a-f or click"),
        "{s}"
    );
    // The move list is beside the board: the keys offer no `m` to show it.
    assert!(s.contains("u undo r redo h hint +- speed"), "{s}");
}

#[test]
fn a_move_is_sown_seed_by_seed_then_announced() {
    let mut now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    press(&mut app, KeyCode::Char('3'), now);
    let step = app.step_time();
    let s = show(&app);
    assert!(s.contains("Ann sows house c3   (space skips)"), "{s}");
    // One step: the four seeds are lifted.
    now += step;
    app.tick(now);
    let s = show(&app);
    assert!(s.contains("in hand ●●●● 4"), "{s}");
    assert!(
        s.contains("║  0  ║"),
        "the origin house is empty and marked:\n{s}"
    );
    // Two more: houses d4 and e5 have one seed more, two seeds left in hand.
    now += step * 2;
    app.tick(now);
    let s = show(&app);
    assert!(s.contains("in hand ●● 2"), "{s}");
    assert_eq!(app.game().unwrap().board().houses[0], [4, 4, 0, 5, 5, 4]);
    // The rest: the last seed in the store, an extra turn.
    now += step * 3;
    app.tick(now);
    let g = app.game().unwrap();
    assert!(g.anim.is_none());
    let s = show(&app);
    assert!(s.contains("Ann gets an extra turn!"), "{s}");
    assert!(s.contains("1 Ann        c3  ↻"), "the move list:\n{s}");
    assert!(s.contains("Ann, choose a house"), "{s}");
}

#[test]
fn any_key_skips_the_sowing_and_plus_minus_change_the_speed() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    let speed = app.speed;
    press(&mut app, KeyCode::Char('+'), now);
    assert_eq!(app.speed, speed + 1);
    press(&mut app, KeyCode::Char('-'), now);
    press(&mut app, KeyCode::Char('-'), now);
    assert_eq!(app.speed, speed - 1);
    assert!(show(&app).contains(&format!("Sowing speed {} of 7.", speed)));
    press(&mut app, KeyCode::Char('1'), now);
    assert!(app.game().unwrap().anim.is_some());
    // Speed keys during a sowing do not skip it.
    press(&mut app, KeyCode::Char('+'), now);
    assert!(app.game().unwrap().anim.is_some());
    press(&mut app, KeyCode::Char(' '), now);
    let g = app.game().unwrap();
    assert!(g.anim.is_none());
    assert_eq!(g.session.to_move(), Some(Side::North));
    assert!(show(&app).contains("Ann sowed house a1."));
    assert!(show(&app).contains("Bob, choose a house: ←→ + Enter, 1-6, g-l or click"));
}

#[test]
fn illegal_keys_get_a_message_and_change_nothing() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    press(&mut app, KeyCode::Char('9'), now);
    assert!(show(&app).contains("There is no house 9 (houses are 1 to 6)."));
    press(&mut app, KeyCode::Char('j'), now);
    assert!(
        show(&app).contains("House j4 is Bob's. Ann, choose one of yours (a1 to f6)."),
        "{}",
        show(&app)
    );
    press(&mut app, KeyCode::Char('!'), now);
    assert!(show(&app).contains("The key '!' does nothing here"));
    press(&mut app, KeyCode::Char('z'), now);
    assert!(show(&app).contains("No house is lettered 'z'"));
    assert!(app.game().unwrap().session.records().is_empty());
    // c3 ends in the store; then c3 is empty.
    press(&mut app, KeyCode::Char('c'), now);
    press(&mut app, KeyCode::Enter, now);
    press(&mut app, KeyCode::Char('3'), now);
    assert!(show(&app).contains("House c3 is empty: choose a house with seeds."));
    assert_eq!(app.game().unwrap().session.records().len(), 1);
}

#[test]
fn arrows_and_enter_follow_the_row_on_screen() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    press(&mut app, KeyCode::Right, now);
    press(&mut app, KeyCode::Right, now);
    assert_eq!(app.game().unwrap().cursor, 3);
    press(&mut app, KeyCode::Left, now);
    press(&mut app, KeyCode::Enter, now);
    press(&mut app, KeyCode::Esc, now);
    let g = app.game().unwrap();
    assert_eq!(g.session.records()[0].mv.house(), 2);
    // Player 2's row runs right to left on screen: Right goes to lower numbers.
    assert_eq!(g.session.to_move(), Some(Side::North));
    press(&mut app, KeyCode::End, now);
    assert_eq!(app.game().unwrap().cursor, 1);
    press(&mut app, KeyCode::Left, now);
    assert_eq!(app.game().unwrap().cursor, 2);
}

#[test]
fn a_click_on_a_house_plays_it() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    app.resize(W, H);
    let shape = BoardShape::of(Rules::kalah(6, 4));
    let layout = GameLayout::new(Rect::new(0, 0, W, H), shape).unwrap();
    let r = layout.board.house_rect(Side::South, 5);
    let click = |x, y| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    let opp = layout.board.house_rect(Side::North, 5);
    app.handle_mouse(click(opp.x + 2, opp.y + 1), now);
    assert!(show(&app).contains("House k5 is Bob's."), "{}", show(&app));
    app.handle_mouse(click(r.x + 3, r.y + 1), now);
    let g = app.game().unwrap();
    assert_eq!(g.session.records().len(), 1);
    assert_eq!(g.session.records()[0].mv.house(), 5);
}

#[test]
fn undo_and_redo_against_the_computer_go_by_turns() {
    let mut now = Instant::now();
    let mut app = App::new(against("greedy", 6, 4), true, now);
    press(&mut app, KeyCode::Char('1'), now);
    press(&mut app, KeyCode::Char(' '), now);
    // The computer thinks on its own thread, then sows.
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().session.human_to_move() && a.game().unwrap().anim.is_none()
    });
    let n = app.game().unwrap().session.records().len();
    assert!(n >= 2, "the computer replied");
    assert!(show(&app).contains("Robo"));
    press(&mut app, KeyCode::Char('u'), now);
    let s = show(&app);
    assert!(
        s.contains(&format!("Took back {n} moves: Ann to move. (r: redo)")),
        "{s}"
    );
    assert!(app.game().unwrap().session.records().is_empty());
    assert!(s.contains("no moves yet"), "{s}");
    press(&mut app, KeyCode::Char('u'), now);
    assert!(show(&app).contains("Nothing to take back."));
    press(&mut app, KeyCode::Char('r'), now);
    assert_eq!(app.game().unwrap().session.records().len(), n);
    assert!(show(&app).contains(&format!("Replayed {n} moves.")));
    press(&mut app, KeyCode::Char('r'), now);
    assert!(show(&app).contains("Nothing to redo."));
}

#[test]
fn the_hint_comes_from_the_engine() {
    let mut now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    press(&mut app, KeyCode::Char('h'), now);
    assert!(show(&app).contains("Looking for a hint..."));
    run_until(&mut app, &mut now, |a| !a.game().unwrap().hint_pending);
    let s = show(&app);
    assert!(s.contains("Hint ("), "{s}");
    assert!(s.contains("Enter plays it."), "{s}");
    // The cursor is on the hinted house; Enter plays it.
    let cursor = app.game().unwrap().cursor;
    press(&mut app, KeyCode::Enter, now);
    assert_eq!(app.game().unwrap().session.records()[0].mv.house(), cursor);
}

#[test]
fn a_player_that_cannot_be_built_is_replaced_and_said_so() {
    let mut now = Instant::now();
    let mut app = App::new(against("deep-blue", 6, 4), true, now);
    let s = show(&app);
    assert!(
        s.contains("Robo plays greedy: unknown player \"deep-blue\""),
        "{s}"
    );
    press(&mut app, KeyCode::Char('2'), now);
    press(&mut app, KeyCode::Char(' '), now);
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().session.records().len() >= 2
    });
}

#[test]
fn the_end_screen_names_the_winner_and_offers_another_game() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 2, 1), true, now);
    // Play the first legal house each turn, skipping the sowing.
    let mut guard = 0;
    while !app.game().unwrap().finished() {
        press(&mut app, KeyCode::Enter, now);
        press(&mut app, KeyCode::Char(' '), now);
        guard += 1;
        assert!(guard < 50);
    }
    let g = app.game().unwrap();
    let outcome = g.session.outcome().unwrap();
    let s = show(&app);
    assert!(s.contains("Game over"), "{s}");
    assert!(s.contains("Play again? (y/n)"), "{s}");
    let [a, b] = outcome.scores;
    let headline = match outcome.winner {
        Some(Side::South) => format!("Ann wins {} to {}.", a.max(b), a.min(b)),
        Some(Side::North) => format!("Bob wins {} to {}.", a.max(b), a.min(b)),
        None => format!("A draw, {a} to {b}."),
    };
    assert!(s.contains(&headline), "{headline:?} in\n{s}");
    press(&mut app, KeyCode::Char('y'), now);
    let g = app.game().unwrap();
    assert!(g.session.records().is_empty());
    assert!(!app.should_quit());
    // Again to the end, then n quits.
    while !app.game().unwrap().finished() {
        press(&mut app, KeyCode::Enter, now);
        press(&mut app, KeyCode::Char(' '), now);
    }
    press(&mut app, KeyCode::Char('n'), now);
    assert!(app.should_quit());
}

#[test]
fn two_computers_play_a_whole_game_on_the_clock() {
    let mut now = Instant::now();
    let setup = Setup {
        variant: Variant::Oware,
        houses: 3,
        seeds: 2,
        players: ["random:seed=3".into(), "greedy".into()],
        names: ["R".into(), "G".into()],
        ..Setup::default()
    };
    let mut app = App::new(setup, true, now);
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().thinking().is_some() || a.game().unwrap().anim.is_some()
    });
    assert!(show(&app).contains("is thinking...") || app.game().unwrap().anim.is_some());
    run_until(&mut app, &mut now, |a| a.game().unwrap().finished());
    assert!(show(&app).contains("Play again? (y/n)"));
}

#[test]
fn q_asks_first_and_ctrl_c_quits_at_once() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    press(&mut app, KeyCode::Char('q'), now);
    assert!(show(&app).contains("Quit the game? (y/n)"));
    press(&mut app, KeyCode::Char('3'), now);
    assert!(
        app.game().unwrap().session.records().is_empty(),
        "keys wait for the answer"
    );
    press(&mut app, KeyCode::Char('n'), now);
    assert!(!show(&app).contains("Quit the game?"));
    assert!(!app.should_quit());
    press(&mut app, KeyCode::Char('q'), now);
    press(&mut app, KeyCode::Char('y'), now);
    assert!(app.should_quit());

    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    app.handle_key(
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
        now,
    );
    assert!(app.should_quit());
    // On the start screen q quits without asking.
    let mut app = App::new(Setup::default(), false, now);
    press(&mut app, KeyCode::Char('q'), now);
    assert!(app.should_quit());
}

#[test]
fn a_terminal_too_small_gets_a_clear_message() {
    let now = Instant::now();
    let app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    let s = screen(&app, 40, 12);
    assert!(s.contains("too small"), "{s}");
    assert!(s.contains("It is 40x12; this screen needs"), "{s}");
    assert!(!s.contains("store"), "no garbled board:\n{s}");
    // A narrower terminal still fits six houses, without the move list.
    let s = screen(&app, 72, 22);
    assert!(s.contains("a1") && !s.contains("Moves"), "{s}");
    // Sixteen houses fit in 100 columns with narrow houses.
    let app = App::new(two_people(Variant::Kalah, 16, 4), true, now);
    let s = show(&app);
    assert!(s.contains("p16") && !s.contains("too small"), "{s}");
    let app = App::new(Setup::default(), false, now);
    assert!(screen(&app, 50, 15).contains("too small"));
}

#[test]
fn captures_are_announced_with_the_players_name() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    let mut found = false;
    for _ in 0..200 {
        let g = app.game().unwrap();
        if g.finished() {
            break;
        }
        // Play the first legal house whose sowing ends in a capture, else the first.
        let p = *g.session.position();
        let legal = g.session.legal_moves();
        let pick = legal
            .iter()
            .copied()
            .find(|m| p.play_with_report(*m).unwrap().1.captured > 0)
            .unwrap_or(legal[0]);
        let capture = p.play_with_report(pick).unwrap().1.captured > 0;
        let who = g.session.name(p.to_move()).to_owned();
        press(&mut app, KeyCode::Char((b'0' + pick.house()) as char), now);
        press(&mut app, KeyCode::Char(' '), now);
        if capture {
            let s = show(&app);
            assert!(
                s.contains(&format!("{who} captured the contents of houses")),
                "{s}"
            );
            found = true;
            break;
        }
    }
    assert!(found, "a capture happened");
}

#[test]
fn every_terminal_size_draws_without_panicking() {
    let now = Instant::now();
    let setup_screen = App::new(Setup::default(), false, now);
    let mut sowing = App::new(two_people(Variant::Kalah, 16, 64), true, now);
    press(&mut sowing, KeyCode::Char('1'), now);
    let mut asking = App::new(two_people(Variant::Oware, 1, 1), true, now);
    press(&mut asking, KeyCode::Char('q'), now);
    let mut over = App::new(two_people(Variant::Kalah, 1, 1), true, now);
    press(&mut over, KeyCode::Char('1'), now);
    press(&mut over, KeyCode::Char(' '), now);
    assert!(over.game().unwrap().finished());
    for w in (0..=130).step_by(9) {
        for h in (0..=40).step_by(4) {
            for app in [&setup_screen, &sowing, &asking, &over] {
                screen(app, w, h);
            }
        }
    }
}

#[test]
fn two_digits_choose_a_house_on_big_boards() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 12, 1), true, now);
    chars(&mut app, "1", now);
    assert!(show(&app).contains("House 1_: type a second digit, or Enter for house 1."));
    chars(&mut app, "1 ", now);
    assert_eq!(app.game().unwrap().session.records()[0].mv.house(), 11);
    // Player 2: 1 then Enter is house 1.
    chars(&mut app, "1", now);
    press(&mut app, KeyCode::Enter, now);
    assert_eq!(app.game().unwrap().session.records()[1].mv.house(), 1);
}

fn ctrl(app: &mut App, c: char, now: Instant) {
    app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL), now);
}

#[test]
fn control_keys_never_act_as_their_letter() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    let before = show(&app);
    for c in ['d', 'a', 'h', 'q', 'u', 'x'] {
        ctrl(&mut app, c, now);
    }
    let g = app.game().unwrap();
    assert!(g.session.records().is_empty(), "Ctrl-D played house d");
    assert!(!g.confirm_quit && !g.hint_pending && !app.should_quit());
    assert_eq!(show(&app), before, "other Ctrl keys do nothing");
    // Ctrl-Z asks the terminal loop to suspend, once.
    assert!(!app.take_suspend());
    ctrl(&mut app, 'z', now);
    assert!(app.take_suspend());
    assert!(!app.take_suspend());
    assert!(!show(&app).contains("No house is lettered"));
    // Ctrl-L asks it to draw the whole screen anew, once, and is not house l.
    assert!(!app.take_repaint());
    ctrl(&mut app, 'l', now);
    assert!(app.take_repaint());
    assert!(!app.take_repaint());
    assert_eq!(show(&app), before);
}

#[test]
fn control_keys_edit_a_name_as_in_a_shell() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    // From Start, up to player 2's name ("Medium bot").
    press(&mut app, KeyCode::Up, now);
    ctrl(&mut app, 'w', now);
    assert!(show(&app).contains("Medium ▏"), "{}", show(&app));
    ctrl(&mut app, 'h', now);
    ctrl(&mut app, 'u', now);
    chars(&mut app, "Zed Two", now);
    ctrl(&mut app, 'w', now);
    press(&mut app, KeyCode::Backspace, now);
    chars(&mut app, "!", now);
    ctrl(&mut app, 'd', now);
    press(&mut app, KeyCode::Enter, now);
    let g = app.game().unwrap();
    assert_eq!(g.session.name(Side::North), "Zed!");
}

#[test]
fn on_a_screen_too_small_q_quits_at_once() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    app.resize(50, 12);
    assert!(!app.fits());
    press(&mut app, KeyCode::Char('3'), now);
    assert!(
        app.game().unwrap().session.records().is_empty(),
        "unseen move"
    );
    press(&mut app, KeyCode::Char('q'), now);
    assert!(app.should_quit(), "no question nobody can see");
    // The start screen too, even with a name focused.
    let mut app = App::new(Setup::default(), false, now);
    press(&mut app, KeyCode::Up, now);
    app.resize(40, 10);
    press(&mut app, KeyCode::Char('q'), now);
    assert!(app.should_quit());
}

#[test]
fn small_boards_show_no_stray_arrow_and_the_robot_is_just_robot() {
    let now = Instant::now();
    let setup = Setup {
        houses: 3,
        players: ["human".into(), "robot".into()],
        names: ["Ann".into(), mancala_tui::default_name(1, "robot")],
        ..Setup::default()
    };
    let app = App::new(setup, true, now);
    let s = show(&app);
    assert!(!s.contains('⟲'), "{s}");
    assert!(s.contains("Robot") && !s.contains("Robot bot"), "{s}");
}

#[test]
fn the_final_board_adds_up_to_the_score_in_every_variant() {
    let now = Instant::now();
    for variant in Variant::ALL {
        for (houses, seeds) in [(2, 1), (3, 2), (4, 3), (6, 4)] {
            let mut app = App::new(two_people(variant, houses, seeds), true, now);
            let mut guard = 0;
            while !app.game().unwrap().finished() {
                press(&mut app, KeyCode::Enter, now);
                press(&mut app, KeyCode::Char(' '), now);
                guard += 1;
                assert!(guard < 2000, "{variant} {houses}x{seeds} ends");
            }
            let g = app.game().unwrap();
            let outcome = g.session.outcome().unwrap();
            let board = g.board();
            assert_eq!(board.stores, outcome.scores, "{variant} {houses}x{seeds}");
            let end = g.session.end().unwrap();
            let left: u16 = board.houses.iter().flatten().sum();
            assert_eq!(left, end.unclaimed, "{variant} {houses}x{seeds}");
            let reason = g.session.end_text().unwrap().reason_sentence();
            let first_words: String = reason.chars().take(20).collect();
            assert!(
                show(&app).contains(&first_words),
                "{reason}\n{}",
                show(&app)
            );
        }
    }
}

#[test]
fn every_house_of_the_biggest_board_has_a_label_of_its_own() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 16, 4), true, now);
    let s = show(&app);
    for label in ["a1", "p16", "q1", "z10", "A11", "F16"] {
        assert!(s.contains(label), "{label} missing from\n{s}");
    }
    // Ann sows house 1; Bob's houses 11 to 16 are lettered A to F.
    chars(&mut app, "a ", now);
    let s = show(&app);
    assert!(
        s.contains("Bob, choose a house: ←→ + Enter, 1-16, q-z, A-F or click"),
        "{s}"
    );
    assert!(
        s.contains("q, r, u, w are commands: type the numbers"),
        "{s}"
    );
    chars(&mut app, "a", now);
    assert!(
        show(&app).contains("House a1 is Ann's. Bob, choose one of yours (q1 to F16)."),
        "{}",
        show(&app)
    );
    chars(&mut app, "D ", now);
    let g = app.game().unwrap();
    assert_eq!(g.session.records()[1].mv.house(), 14);
    assert!(
        show(&app).contains("Bob sowed house D14."),
        "{}",
        show(&app)
    );
}

#[test]
fn the_prompt_says_how_to_choose_a_house_whose_letter_is_a_command() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    chars(&mut app, "1 ", now);
    let s = show(&app);
    assert!(s.contains("(h is hint: type H or 2 for h2)"), "{s}");
    chars(&mut app, "H ", now);
    assert_eq!(app.game().unwrap().session.records()[1].mv.house(), 2);
}

/// Plays `moves` (house numbers of the player to move), each sowing skipped.
fn play_houses(app: &mut App, moves: &[u8], now: Instant) {
    for &h in moves {
        press(app, KeyCode::Char(char::from(b'0' + h)), now);
        press(app, KeyCode::Char(' '), now);
    }
}

#[test]
fn a_capture_stays_in_view_after_the_next_move_and_is_marked_once_sown() {
    let mut now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    play_houses(&mut app, &[3, 1, 1, 4, 2], now);
    // Ann's c3 captures; while it is sown the list has the move but not the mark.
    press(&mut app, KeyCode::Char('3'), now);
    let s = screen(&app, 80, 24);
    assert!(s.contains("  6 c3") && !s.contains("×8"), "{s}");
    now += app.step_time() * 20;
    app.tick(now);
    let s = screen(&app, 80, 24);
    assert!(s.contains("  6 c3  ×8"), "{s}");
    // Bob moves: at 80x24 Ann's capture is still there, above Bob's move.
    play_houses(&mut app, &[1], now);
    let s = screen(&app, 80, 24);
    assert!(
        s.contains("Ann captured the contents of houses i3 and d4"),
        "{s}"
    );
    assert!(
        s.contains("Bob captured the contents of houses e5 and h2"),
        "{s}"
    );
}

#[test]
fn the_move_list_is_there_at_80x24_and_scrolls() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Oware, 6, 4), true, now);
    let houses = [
        1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 1, 2, 1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 4, 1, 5, 1, 6, 2,
    ];
    play_houses(&mut app, &houses, now);
    let s = screen(&app, 80, 24);
    assert!(s.contains("Moves") && s.contains(" 30 h2"), "{s}");
    assert!(!s.contains("  1 a1"), "the latest moves first:\n{s}");
    for _ in 0..10 {
        press(&mut app, KeyCode::PageUp, now);
    }
    let s = screen(&app, 80, 24);
    assert!(s.contains("Moves 1-11") && s.contains("  1 a1"), "{s}");
    assert!(!s.contains(" 30 h2"), "{s}");
    press(&mut app, KeyCode::PageDown, now);
    assert!(screen(&app, 80, 24).contains("Moves 6-16"));
    // The mouse wheel scrolls it too, three lines a turn.
    wheel(&mut app, MouseEventKind::ScrollDown, now);
    assert!(screen(&app, 80, 24).contains("Moves 9-19"));
    wheel(&mut app, MouseEventKind::ScrollUp, now);
    assert!(screen(&app, 80, 24).contains("Moves 6-16"));
    // Where no list fits beside the board, m shows it over the board.
    app.resize(60, 24);
    let s = screen(&app, 60, 24);
    assert!(!s.contains("Moves"), "{s}");
    press(&mut app, KeyCode::Char('m'), now);
    let s = screen(&app, 60, 24);
    assert!(s.contains("Moves") && s.contains("Ann"), "{s}");
    press(&mut app, KeyCode::Char('m'), now);
    assert!(screen(&app, 60, 24).contains("captured"));
}

#[test]
fn perfect_falling_back_to_expert_is_said_with_its_move() {
    let mut now = Instant::now();
    // Too big to solve in a millisecond: the expert player chooses instead.
    let mut app = App::new(against("perfect:ms=1", 12, 12), true, now);
    press(&mut app, KeyCode::Char('2'), now);
    press(&mut app, KeyCode::Char(' '), now);
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().session.human_to_move() && a.game().unwrap().anim.is_none()
    });
    let s = show(&app);
    assert!(
        s.contains("(Perfect could not solve this position: expert play instead.)"),
        "{s}"
    );
}

#[test]
fn help_opens_on_question_mark_and_f1_and_any_key_closes_it() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Oware, 6, 4), true, now);
    press(&mut app, KeyCode::Char('?'), now);
    let s = show(&app);
    for want in [
        "Keys",
        "Oware under the Abapa tournament rules",
        "Tip: make 2 or 3 over there to capture.",
        "The boxes at the ends count the seeds each player has captured.",
        "Computer players",
        "perfect",
    ] {
        assert!(s.contains(want), "{want:?} missing from\n{s}");
    }
    press(&mut app, KeyCode::Char('3'), now);
    assert!(
        !app.help && app.game().unwrap().session.records().is_empty(),
        "the key only closes"
    );
    press(&mut app, KeyCode::F(1), now);
    assert!(app.help);
    press(&mut app, KeyCode::Esc, now);
    assert!(!app.help);
    // On the start screen too, but ? is a character in a name.
    let mut app = App::new(Setup::default(), false, now);
    press(&mut app, KeyCode::Char('?'), now);
    assert!(
        show(&app).contains("Tip: end in your store to move again."),
        "{}",
        show(&app)
    );
    press(&mut app, KeyCode::Esc, now);
    assert!(!app.should_quit(), "Esc closes the help only");
    press(&mut app, KeyCode::Up, now);
    press(&mut app, KeyCode::Char('?'), now);
    assert!(!app.help);
}

/// On the smallest terminal the start screen takes, the help does not fit: it says so in
/// its title, the arrows and PgUp/PgDn/Home/End scroll it to its last line and back,
/// and a key past either end is not lost (the next key back moves at once).
#[test]
fn help_scrolls_when_it_does_not_fit() {
    let now = Instant::now();
    let (w, h) = (50, 20);
    let mut app = App::new(Setup::default(), false, now);
    app.resize(w, h);
    press(&mut app, KeyCode::Char('?'), now);
    let top = screen(&app, w, h);
    assert!(top.contains("Keys") && top.contains("↓ PgDn more"), "{top}");
    // The last line: the last computer player of the engine's catalogue.
    let last = "the house with the most";
    assert!(!top.contains(last), "the last line does not fit:\n{top}");
    for _ in 0..200 {
        press(&mut app, KeyCode::Down, now);
    }
    let bottom = screen(&app, w, h);
    assert!(bottom.contains(last), "{bottom}");
    assert!(
        bottom.contains("↑ PgUp back") && !bottom.contains("Keys"),
        "{bottom}"
    );
    press(&mut app, KeyCode::Up, now);
    let one_up = screen(&app, w, h);
    assert_ne!(
        one_up, bottom,
        "one key up moves at once after pressing past the end"
    );
    // The whole title does not fit in 50 columns: a shorter one does.
    assert!(
        one_up.contains("Help · ↑↓ scroll · other keys close"),
        "{one_up}"
    );
    press(&mut app, KeyCode::Home, now);
    assert_eq!(screen(&app, w, h), top);
    press(&mut app, KeyCode::End, now);
    assert_eq!(screen(&app, w, h), bottom);
    press(&mut app, KeyCode::PageUp, now);
    press(&mut app, KeyCode::PageUp, now);
    press(&mut app, KeyCode::PageUp, now);
    assert_eq!(screen(&app, w, h), top);
    wheel(&mut app, MouseEventKind::ScrollDown, now);
    let three_down = screen(&app, w, h);
    assert_ne!(three_down, top, "the wheel scrolls the help");
    assert!(app.help, "and does not close it");
    for _ in 0..3 {
        press(&mut app, KeyCode::Up, now);
    }
    assert_eq!(
        screen(&app, w, h),
        top,
        "a turn of the wheel is three lines"
    );
    press(&mut app, KeyCode::Char('x'), now);
    assert!(!app.help, "any other key closes");
    // Opened again, it starts at the top; where it fits, the arrows scroll nothing.
    press(&mut app, KeyCode::Char('?'), now);
    assert_eq!(screen(&app, w, h), top);
    app.resize(W, H);
    let all = show(&app);
    assert!(
        all.contains("Help · any key closes") && all.contains(last),
        "{all}"
    );
    press(&mut app, KeyCode::Down, now);
    assert_eq!(show(&app), all);
}

/// A fresh empty directory for files a test writes.
fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-tui-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn w_saves_a_record_that_loads_back_to_the_same_game() {
    let now = Instant::now();
    let dir = temp_dir("save");
    let mut app = App::new(against("greedy", 6, 4), true, now).with_save_dir(&dir);
    let mut clock = now;
    play_houses(&mut app, &[3, 1], clock);
    run_until(&mut app, &mut clock, |a| {
        a.game().unwrap().session.human_to_move() && a.game().unwrap().anim.is_none()
    });
    press(&mut app, KeyCode::Char('w'), clock);
    let s = show(&app);
    assert!(s.contains("Saved to") && s.contains("--load"), "{s}");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("mancala-") && name.ends_with(".txt"),
        "{name}"
    );
    // A second save in the same second gets a name of its own.
    press(&mut app, KeyCode::Char('w'), clock);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);

    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("[Player2Kind \"greedy\"]"), "{text}");
    let record: mancala_session::Record = text.parse().unwrap();
    let loaded = App::load(&record, 1, clock);
    let (a, b) = (app.game().unwrap(), loaded.game().unwrap());
    assert_eq!(
        b.session.game(),
        a.session.game(),
        "the same position and history"
    );
    assert_eq!(b.session.names(), a.session.names());
    assert_eq!(b.session.seats(), a.session.seats());
    let s = show(&loaded);
    assert!(
        s.contains(&format!(
            "Loaded {} moves: Ann to move.",
            a.session.records().len()
        )),
        "{s}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_game_loads_for_review_and_undo_steps_back() {
    let now = Instant::now();
    let setup = two_people(Variant::Kalah, 6, 4);
    let mut app = App::new(setup, true, now);
    play_houses(&mut app, &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1], now);
    assert!(app.game().unwrap().finished());
    let record = mancala_session::Record::from_session(&app.game().unwrap().session);
    let mut loaded = App::load(&record, 1, now);
    let s = show(&loaded);
    assert!(
        s.contains("Bob wins 36 to 12") && s.contains("Play again? (y/n)"),
        "{s}"
    );
    press(&mut loaded, KeyCode::Char('u'), now);
    assert_eq!(loaded.game().unwrap().session.records().len(), 10);
    assert!(show(&loaded).contains("Bob, choose a house"));
}

/// A game loaded from a record that started from a position of its own is played again
/// from that position, not from the rules' start.
#[test]
fn play_again_after_a_loaded_game_starts_from_its_start() {
    let now = Instant::now();
    let start =
        mancala_core::Position::from_notation("kalah 6x4 0,0,0,0,0,1/20 1,0,0,0,0,0/26 1").unwrap();
    let session = mancala_session::Session::from_position(start)
        .with_seats([mancala_session::Seat::Human, mancala_session::Seat::Human])
        .with_names(["Ann", "Bob"]);
    let record = mancala_session::Record::from_session(&session);
    let mut app = App::load(&record, 1, now);
    play_houses(&mut app, &[6], now);
    assert!(app.game().unwrap().finished(), "{}", show(&app));
    // The players swap seats (the default): Bob is player 1 now, to move at the start.
    press(&mut app, KeyCode::Char('y'), now);
    let again = app.game().unwrap();
    assert!(again.session.records().is_empty());
    assert_eq!(again.session.position(), &start, "{}", show(&app));
    assert_eq!(again.session.names(), &["Bob".to_owned(), "Ann".to_owned()]);
    assert!(
        show(&app).contains("Again from the same start: Bob to move."),
        "{}",
        show(&app)
    );
    // A game from the rules' start is played again from the rules' start.
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    play_houses(&mut app, &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1], now);
    press(&mut app, KeyCode::Char('y'), now);
    let s = show(&app);
    assert!(s.contains("Bob against Ann: Bob moves first."), "{s}");
}

fn wheel(app: &mut App, kind: MouseEventKind, now: Instant) {
    app.handle_mouse(
        MouseEvent {
            kind,
            column: 40,
            row: 10,
            modifiers: KeyModifiers::NONE,
        },
        now,
    );
}

fn click(app: &mut App, x: u16, y: u16, now: Instant) {
    app.handle_mouse(
        MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        },
        now,
    );
}

#[test]
fn the_start_screen_takes_typing_numbers_and_clicks_in_50x20() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    app.resize(50, 20);
    assert!(app.fits());
    let s = screen(&app, 50, 20);
    assert!(
        s.contains("Start the game") && !s.contains("too small"),
        "{s}"
    );
    // Typing into a name replaces the default, as in a selected field.
    press(&mut app, KeyCode::Up, now);
    chars(&mut app, "Zed", now);
    assert!(screen(&app, 50, 20).contains("Zed▏"));
    assert!(!screen(&app, 50, 20).contains("Medium botZed"));
    // Numbers are typed: 1 then 4 is fourteen houses; 9 then 9 is nine (99 is too many).
    for _ in 0..7 {
        press(&mut app, KeyCode::Up, now);
    }
    chars(&mut app, "14", now);
    assert!(
        screen(&app, 50, 20).contains("◂ 14 ▸"),
        "{}",
        screen(&app, 50, 20)
    );
    press(&mut app, KeyCode::Down, now);
    chars(&mut app, "99", now);
    assert!(
        screen(&app, 50, 20).contains("◂ 9 ▸"),
        "{}",
        screen(&app, 50, 20)
    );
    // A click focuses a line; a second click on a choice changes it; Start starts.
    let rows: Vec<String> = screen(&app, 50, 20).lines().map(str::to_owned).collect();
    let row = |want: &str| rows.iter().position(|r| r.contains(want)).unwrap() as u16;
    click(&mut app, 10, row("Empty capture"), now);
    assert!(screen(&app, 50, 20).contains("▸ Empty capture"));
    click(&mut app, 10, row("Empty capture"), now);
    assert!(screen(&app, 50, 20).contains("◂ on ▸"));
    click(&mut app, 25, row("Start the game"), now);
    let g = app.game().expect("the click started the game");
    let rules = g.session.rules();
    assert_eq!((rules.houses(), rules.seeds()), (14, 9));
    assert!(rules.options().empty_capture);
    assert_eq!(g.session.name(Side::North), "Zed");
}

/// Plays the first legal house each turn until the game is over.
fn play_out(app: &mut App, now: Instant) {
    for _ in 0..200 {
        if app.game().unwrap().finished() {
            return;
        }
        press(app, KeyCode::Enter, now);
        press(app, KeyCode::Char(' '), now);
    }
    panic!("the game did not end");
}

#[test]
fn games_in_a_row_keep_a_score_and_swap_who_moves_first() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 3, 2), true, now);
    play_out(&mut app, now);
    let first = app.score();
    assert_eq!(first.games, 1);
    let s = show(&app);
    assert!(s.contains(&format!("Games: {}", first.words())), "{s}");
    assert!(s.contains("Next: Bob moves first"), "{s}");
    // y: Bob and Ann swap seats; the score goes on.
    press(&mut app, KeyCode::Char('y'), now);
    let g = app.game().unwrap();
    assert_eq!(g.session.names(), &["Bob".to_owned(), "Ann".to_owned()]);
    assert!(show(&app).contains("Bob against Ann: Bob moves first."));
    play_out(&mut app, now);
    assert_eq!(app.score().games, 2);
    let wins: u32 = app.score().wins.iter().map(|(_, w)| w).sum();
    assert_eq!(wins + app.score().draws, 2);
    // f keeps the order for the next game.
    press(&mut app, KeyCode::Char('f'), now);
    assert!(
        show(&app).contains("Next: Bob moves first"),
        "{}",
        show(&app)
    );
    press(&mut app, KeyCode::Char('y'), now);
    assert_eq!(app.game().unwrap().session.name(Side::South), "Bob");
    assert_eq!(app.score().games, 2, "the new game is not counted yet");
}

/// The screen's text with every run of spaces made one, so text wrapped onto the
/// next row reads on (rows are centred, so a wrap leaves spaces around it).
fn flowing(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn an_empty_name_falls_back_to_the_seats_default_and_the_start_screen_says_so() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    app.resize(50, 20);
    // Up from Start to player 2's name; Ctrl-U empties it; spaces are no name either.
    press(&mut app, KeyCode::Up, now);
    ctrl(&mut app, 'u', now);
    chars(&mut app, "   ", now);
    let s = screen(&app, 50, 20);
    assert!(s.contains("Medium bot (no name given)"), "{s}");
    press(&mut app, KeyCode::Enter, now);
    let g = app.game().unwrap();
    assert_eq!(g.session.name(Side::North), "Medium bot");
    let s = show(&app);
    assert!(
        s.contains("Player 1 against Medium bot: Player 1 moves first."),
        "{s}"
    );
}

#[test]
fn every_finished_game_counts_when_it_ends_and_s_keeps_the_score() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 3, 2), true, now);
    assert_eq!(app.score().games, 0);
    play_out(&mut app, now);
    let first = app.score();
    assert_eq!(first.games, 1, "counted as it ends, before any key");
    // s: the start screen; the game just played still counts there and after.
    press(&mut app, KeyCode::Char('s'), now);
    assert!(app.game().is_none());
    assert_eq!(app.score(), first, "s drops no result");
    press(&mut app, KeyCode::Enter, now);
    play_out(&mut app, now);
    let second = app.score();
    assert_eq!(second.games, 2);
    let wins: u32 = second.wins.iter().map(|(_, w)| w).sum();
    assert_eq!(wins + second.draws, 2);
    let s = flowing(&show(&app));
    assert!(s.contains(&format!("Games: {}", second.words())), "{s}");
    // An undo after the end does not take the result back.
    press(&mut app, KeyCode::Char('u'), now);
    assert!(!app.game().unwrap().finished());
    assert_eq!(app.score(), second);
}

#[test]
fn s_after_a_game_sets_up_the_next_as_the_end_box_announced() {
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 3, 2), true, now);
    play_out(&mut app, now);
    assert!(show(&app).contains("Next: Bob moves first"));
    press(&mut app, KeyCode::Char('s'), now);
    let s = show(&app);
    let first_line = s
        .lines()
        .find(|l| l.contains("Player 1 (first)"))
        .expect(&s);
    let name_line = s
        .lines()
        .skip_while(|l| !l.contains("Player 1 (first)"))
        .nth(1)
        .unwrap();
    assert!(
        first_line.contains("human") && name_line.contains("Bob"),
        "{s}"
    );
    press(&mut app, KeyCode::Enter, now);
    assert!(show(&app).contains("Bob against Ann: Bob moves first."));
    // f at the end keeps the order: Bob, who moved first, moves first again.
    play_out(&mut app, now);
    press(&mut app, KeyCode::Char('f'), now);
    assert!(show(&app).contains("Next: Bob moves first"));
    press(&mut app, KeyCode::Char('s'), now);
    press(&mut app, KeyCode::Enter, now);
    assert_eq!(app.game().unwrap().session.name(Side::South), "Bob");
}

#[test]
fn the_title_counts_in_the_singular_too() {
    let now = Instant::now();
    let app = App::new(two_people(Variant::Kalah, 3, 1), true, now);
    let s = show(&app);
    assert!(
        s.contains("Kalah · 3 houses × 1 seed") && !s.contains("1 seeds"),
        "{s}"
    );
    let app = App::new(two_people(Variant::Oware, 1, 4), true, now);
    let s = show(&app);
    assert!(s.contains("Oware · 1 house × 4 seeds"), "{s}");
}

/// Player 2's name in the tests of long names: wide characters and an emoji (two
/// columns each), and longer than any line of the board.
const WIDE_NAME: &str = "李小龍🎉Ann of the Northern Seas and the Eastern Mountains";

#[test]
fn a_long_wide_name_is_shortened_everywhere_and_the_prompt_is_whole() {
    use unicode_width::UnicodeWidthStr;
    let now = Instant::now();
    let setup = Setup {
        names: ["Ann".into(), WIDE_NAME.into()],
        ..two_people(Variant::Kalah, 6, 4)
    };
    let mut app = App::new(setup, true, now);
    play_houses(&mut app, &[3, 1], now);
    for (w, h) in [(50, 20), (80, 24), (120, 40)] {
        app.resize(w, h);
        let s = screen(&app, w, h);
        // The name row keeps who moves, the name cut to 16 columns when the game
        // started, so shown whole.
        let row = s.lines().find(|l| l.contains("◀")).unwrap();
        assert!(
            row.contains("● to move") && row.contains("李小龍🎉Ann of t"),
            "{s}"
        );
        assert!(!row.contains('…') && !row.contains("Mountains"), "{s}");
        // The prompt shows whole: its last words too.
        let text = flowing(&s);
        assert!(
            text.contains("or click (h is hint: type H or 2 for h2)"),
            "{w}x{h}:\n{s}"
        );
        assert!(!text.contains("Mountains"), "{s}");
        for line in s.lines() {
            assert!(line.width() <= usize::from(w), "{line}");
        }
    }
    // Messages use the same name.
    let shown = "李小龍🎉Ann of t";
    assert!(shown.width() <= mancala_tui::NAME_SHOWN);
    play_houses(&mut app, &[2], now);
    let g = app.game().unwrap();
    assert!(g.message.text.starts_with(shown), "{}", g.message.text);
    let text = flowing(&show(&app));
    assert!(text.contains(&g.message.text), "{text}");
    assert!(
        text.contains(&format!("Ann against {shown}: Ann moves first.")),
        "{text}"
    );
}

#[test]
fn messages_wrap_onto_the_message_rows_and_the_latest_comes_first() {
    let now = Instant::now();
    let setup = Setup {
        names: ["Ann".into(), WIDE_NAME.into()],
        ..two_people(Variant::Kalah, 6, 4)
    };
    let mut app = App::new(setup, true, now);
    app.resize(50, 20);
    play_houses(&mut app, &[3, 1], now);
    // Player 2 types player 1's house: a long answer, wrapped, not cut.
    press(&mut app, KeyCode::Char('c'), now);
    let message = app.game().unwrap().message.text.clone();
    assert!(message.len() > 50, "{message}");
    let text = flowing(&screen(&app, 50, 20));
    assert!(text.contains(&message), "{message:?} whole in\n{text}");
}

#[test]
fn w_puts_the_whole_load_command_on_a_row_of_its_own() {
    let now = Instant::now();
    let dir = temp_dir("save-command");
    let mut app = App::new(two_people(Variant::Kalah, 6, 4), true, now).with_save_dir(&dir);
    play_houses(&mut app, &[3, 1], now);
    press(&mut app, KeyCode::Char('w'), now);
    let g = app.game().unwrap();
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let command = format!("mancala tui --load {}", file.display());
    assert_eq!(g.message.command.as_deref(), Some(command.as_str()));
    // On a wide screen the command is a row by itself; narrower, it takes rows of its
    // own, whole, and it is the last thing the messages say.
    for (w, h) in [(200, 50), (120, 40), (80, 24), (50, 20)] {
        app.resize(w, h);
        let s = screen(&app, w, h);
        let rows: Vec<&str> = s.lines().map(str::trim).collect();
        let at = rows
            .iter()
            .rposition(|r| r.starts_with("mancala tui --load"));
        let at = at.unwrap_or_else(|| panic!("{w}x{h}:\n{s}"));
        // The rows from there to the keys are the command: broken, if at all, where
        // the row ends.
        let upto = rows[at..].iter().position(|r| r.contains("undo")).unwrap() + at;
        let joined: String = rows[at..upto].concat();
        let unbroken: String = command.split_whitespace().collect();
        assert_eq!(joined.replace(' ', ""), unbroken, "{w}x{h}:\n{s}");
        if w >= 120 {
            assert_eq!(rows[at], command, "a row of its own:\n{s}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_footer_keeps_help_and_quit_to_the_last() {
    let now = Instant::now();
    let app = App::new(two_people(Variant::Kalah, 6, 4), true, now);
    let s = screen(&app, 50, 20);
    let footer = s.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    assert!(
        footer.contains("? help") && footer.contains("q quit"),
        "{s}"
    );
    assert!(
        footer.contains("h hint"),
        "the hint is kept while there is room: {footer}"
    );
    let s = screen(&app, 100, 35);
    assert!(s.contains("+- speed"), "{s}");
}

#[test]
fn the_simplified_oware_help_says_every_seed_that_makes_2_captures() {
    use mancala_core::{Move, Rules, SowStep};
    use mancala_session::Session;
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::OwareSimplified, 6, 4), true, now);
    press(&mut app, KeyCode::Char('?'), now);
    let help = flowing(&show(&app).replace('║', " "));
    assert!(
        help.contains(
            "Every seed that turns a house on your opponent's row from 1 into 2 captures both \
             at once"
        ),
        "{help}"
    );
    assert!(!help.contains("A last seed"), "{help}");
    // What the help says is what the game does: a move whose seeds take two houses.
    let rules = Rules::oware_simplified(3, 1);
    let takes_two = (1..=3u8).any(|a| {
        (1..=3u8).any(|b| {
            (1..=3u8).any(|c| {
                let Ok(mut s) = Session::replay(rules, &[a, b]) else {
                    return false;
                };
                s.play(Move::new(c).unwrap()).is_ok_and(|r| {
                    let takes = r.sowing.iter();
                    takes
                        .filter(|s| matches!(s, SowStep::Capture { .. }))
                        .count()
                        >= 2
                })
            })
        })
    });
    assert!(
        takes_two,
        "a move of simplified Oware takes from two houses"
    );
}

#[test]
fn the_end_box_is_centred_over_the_board_and_never_on_its_frame() {
    let now = Instant::now();
    let games: [(Setup, &[u8]); 3] = [
        (
            two_people(Variant::Oware, 3, 2),
            &[2, 2, 3, 3, 3, 2, 2, 3, 3],
        ),
        (
            two_people(Variant::Kalah, 6, 4),
            &[1, 1, 2, 3, 1, 4, 1, 5, 1, 6, 1],
        ),
        (two_people(Variant::Kalah, 1, 1), &[1]),
    ];
    for (setup, moves) in games {
        let houses = usize::from(setup.houses);
        let shape = BoardShape::of(setup.rules().unwrap());
        let mut app = App::new(setup, true, now);
        play_houses(&mut app, moves, now);
        assert!(app.game().unwrap().finished());
        for (w, h) in [(50, 20), (80, 24), (100, 35), (120, 40), (200, 50)] {
            app.resize(w, h);
            let s = screen(&app, w, h);
            let frame = GameLayout::new(Rect::new(0, 0, w, h), shape).unwrap().frame;
            let rows: Vec<Vec<char>> = s.lines().map(|l| l.chars().collect()).collect();
            let top = rows.iter().position(|r| r.contains(&'╔')).expect(&s);
            let at = |row: usize, c: char| rows[row].iter().position(|x| *x == c).unwrap() as u16;
            let (left, right) = (at(top, '╔'), at(top, '╗'));
            let bottom = rows.iter().position(|r| r.contains(&'╚')).unwrap() as u16;
            let top = top as u16;
            let ctx = format!("{houses} houses, {w}x{h}:\n{s}");
            // Exactly centred inside the frame, or, on a board too narrow for it,
            // on the screen.
            let inside = left > frame.x && right < frame.right() - 1;
            let (from, to) = if inside {
                (frame.x, frame.right() - 1)
            } else {
                (0, w - 1)
            };
            assert_eq!(left - from, to - right, "{ctx}");
            // No edge of the box on an edge of the frame.
            assert!(left != frame.x && right != frame.right() - 1, "{ctx}");
            assert!(top != frame.y && bottom != frame.bottom() - 1, "{ctx}");
            assert!(s.contains("Play again? (y/n)"), "{ctx}");
        }
    }
}

#[test]
fn the_running_score_keeps_each_name_with_its_count_when_wrapped() {
    let now = Instant::now();
    let setup = Setup {
        names: [
            "Bartholomew the Magnificent".into(),
            "Greedy bot of Bern".into(),
        ],
        ..two_people(Variant::Kalah, 3, 2)
    };
    let mut app = App::new(setup, true, now);
    play_out(&mut app, now);
    let s = show(&app);
    let rows: Vec<&str> = s
        .lines()
        .map(|l| l.split('║').nth(1).unwrap_or("").trim())
        .collect();
    let games = rows.iter().position(|r| r.starts_with("Games:")).expect(&s);
    // Each name on the row of its count.
    let (first, second) = (rows[games], rows[games + 1]);
    // Names are cut to 16 columns when the game starts, so they show whole.
    assert!(first.contains("Bartholomew the 0"), "{s}");
    assert!(
        second.starts_with("Greedy bot of Be ") && second.ends_with(char::is_numeric),
        "{s}"
    );
    assert!(
        rows.iter()
            .any(|r| r.contains("Bartholomew the 5") || r.contains("7 Greedy bot of Be")),
        "the final score keeps names and scores together: {s}"
    );
}

#[test]
fn the_help_box_on_a_tall_terminal_is_as_tall_as_its_text() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    app.resize(200, 50);
    press(&mut app, KeyCode::Char('?'), now);
    let s = screen(&app, 200, 50);
    let rows: Vec<&str> = s.lines().collect();
    let top = rows.iter().position(|r| r.contains('╔')).expect(&s);
    let bottom = rows.iter().position(|r| r.contains('╚')).expect(&s);
    assert!(
        top > 0 && bottom < 49,
        "centred, not the whole height:\n{s}"
    );
    assert!(top.abs_diff(49 - bottom) <= 1, "centred:\n{s}");
    assert!(
        rows[bottom - 1].contains("the house with the most seeds"),
        "no empty rows:\n{s}"
    );
}

#[test]
fn a_wide_name_being_typed_shows_its_end_inside_the_box() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    app.resize(50, 20);
    press(&mut app, KeyCode::Up, now);
    ctrl(&mut app, 'u', now);
    chars(&mut app, "李小龍🎉李小龍🎉李小龍🎉ABCD", now);
    let s = screen(&app, 50, 20);
    let row = s
        .lines()
        .find(|l| l.contains("name") && l.contains('▏'))
        .expect(&s);
    // A name takes at most 16 columns: the rest is refused, and the limit shown; the
    // row keeps a column from the border.
    let inner = |row: &str| row.trim_end().trim_end_matches('│').to_owned();
    let typed = inner(row);
    assert!(typed.contains("李小龍🎉李小龍🎉▏  16/16"), "{s}");
    assert!(typed.ends_with(' '), "a column from the border:\n{s}");
    press(&mut app, KeyCode::Up, now);
    let s = screen(&app, 50, 20);
    let row = s.lines().find(|l| l.contains("李小龍")).expect(&s);
    let shown = inner(row);
    assert!(
        shown.contains("李小龍🎉李小龍🎉") && shown.ends_with(' ') && !shown.contains('…'),
        "not focused, whole:\n{s}"
    );
}

/// The first 38 moves of the Togyz Kumalak game of the snapshots: player 1 owns
/// player 2's house 2 (k2), player 2 owns player 1's house 3 (c3).
const TOGYZ_OPENING: [u8; 38] = [
    2, 8, 3, 7, 6, 1, 5, 6, 4, 2, 6, 6, 1, 9, 2, 5, 5, 1, 6, 3, 7, 9, 9, 5, 4, 1, 8, 5, 9, 1, 6, 4,
    7, 6, 8, 6, 9, 9,
];

#[test]
fn a_seed_sown_into_a_tuzdyk_is_shown_falling_into_it_and_its_owners_store_lit() {
    use mancala_core::Pit;
    let now = Instant::now();
    let mut app = App::new(two_people(Variant::TogyzKumalak, 9, 9), true, now);
    play_houses(&mut app, &TOGYZ_OPENING, now);
    let board = app.game().unwrap().board();
    let c3 = Pit::House {
        side: Side::South,
        house: 3,
    };
    let k2 = Pit::House {
        side: Side::North,
        house: 2,
    };
    assert_eq!(board.claim_owner(c3), Some(Side::North));
    assert_eq!(board.claim_owner(k2), Some(Side::South));
    // Ann's house 2: the first seed back into it, the second into c3, Bob's tuzdyk.
    press(&mut app, KeyCode::Char('2'), now);
    app.tick(now + app.step_time() * 3);
    let board = app.game().unwrap().board();
    assert_eq!(board.last_drop, Some(c3));
    assert_eq!(board.banked, Some(Side::North));
    assert_eq!(board.count(c3), 0, "a tuzdyk holds no seeds");
    // The next seed falls into d4: the store is no longer lit.
    app.tick(now + app.step_time() * 4);
    let board = app.game().unwrap().board();
    assert_eq!(board.banked, None);
    // What the move did, when it is over, says where that seed went.
    press(&mut app, KeyCode::Char(' '), now);
    let s = show(&app);
    assert!(
        s.contains("1 seed fell into Bob's tuzdyk."),
        "the message says where that seed went:\n{s}"
    );
}

#[test]
fn togyz_kumalak_from_the_start_screen_and_its_help() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    // Up from Start past the names and players, and the variant's options, to the
    // variant; round to Togyz Kumalak: its own board, no options.
    let fields = 4 + 2 + Variant::ALL[0].info().options.len() + 1;
    for _ in 0..fields {
        press(&mut app, KeyCode::Up, now);
    }
    while !show(&app).contains("◂ Togyz Kumalak ▸") {
        press(&mut app, KeyCode::Right, now);
    }
    let s = show(&app);
    assert!(s.contains("◂ 9 ▸") && !s.contains("Empty capture"), "{s}");
    press(&mut app, KeyCode::Enter, now);
    let s = show(&app);
    assert!(s.contains("Togyz Kumalak · 9 houses × 9 seeds"), "{s}");
    press(&mut app, KeyCode::Char('?'), now);
    app.resize(100, 60);
    let help = flowing(&screen(&app, 100, 60).replace('║', " "));
    for want in [
        "Togyz Kumalak Kazakhstan's national mancala game.",
        "Tip: make it even over there to capture, 3 for a tuzdyk.",
        "count the seeds each player has captured.",
        "x in a house, in its owner's colour: a tuzdyk. Seeds sown there go to its owner.",
        "expert",
    ] {
        assert!(help.contains(want), "{want:?} missing from {help}");
    }
    // Only the players that play it: the robot reasons about extra moves.
    assert!(!help.contains("robot"), "{help}");
}

#[test]
fn a_focused_rule_option_says_what_it_does() {
    let now = Instant::now();
    let mut app = App::new(Setup::default(), false, now);
    let Some(option) = Variant::ALL[0].info().options.first() else {
        return;
    };
    // Down from Start (wrapping) to the variant, houses, seeds, then the option.
    for _ in 0..4 {
        press(&mut app, KeyCode::Down, now);
    }
    let s = flowing(&show(&app).replace('│', " "));
    let mut summary = option.summary.chars();
    let first = summary.next().unwrap().to_uppercase().collect::<String>();
    assert!(s.contains(&format!("{first}{}.", summary.as_str())), "{s}");
}

#[test]
fn a_finished_game_is_reviewed_move_by_move_with_the_best_move() {
    let mut now = Instant::now();
    let mut app = App::new(two_people(Variant::Kalah, 3, 2), true, now);
    while !app.game().unwrap().finished() {
        press(&mut app, KeyCode::Enter, now);
        press(&mut app, KeyCode::Char(' '), now);
    }
    let plies = app.game().unwrap().session.records().len();
    press(&mut app, KeyCode::Char('a'), now);
    let s = show(&app);
    assert!(!s.contains("Play again?"), "the result box makes way:\n{s}");
    assert!(s.contains(&format!("Review 1/{plies}")), "{s}");
    // The analysis runs on its own thread; the screen is drawn meanwhile.
    run_until(&mut app, &mut now, |a| {
        a.game()
            .unwrap()
            .review
            .as_ref()
            .is_some_and(|r| !r.computing())
    });
    let s = show(&app);
    assert!(s.contains("Move 1 of"), "{s}");
    assert!(s.contains("accuracy Ann"), "{s}");
    press(&mut app, KeyCode::Right, now);
    let g = app.game().unwrap();
    let review = g.review.as_ref().unwrap();
    assert_eq!(review.ply, 1);
    let entry = review.entry().unwrap();
    let board = g.board();
    // The board is the position before the move shown, its best houses lit.
    assert_eq!(board.houses, {
        let before = g.session.records()[1].before;
        Side::BOTH.map(|s| before.houses(s).to_vec())
    });
    assert_eq!(board.best.len(), entry.best.len());
    assert!(show(&app).contains(&format!("Move 2 of {plies}")));
    press(&mut app, KeyCode::End, now);
    assert_eq!(app.game().unwrap().review.as_ref().unwrap().ply, plies - 1);
    press(&mut app, KeyCode::Esc, now);
    assert!(app.game().unwrap().review.is_none());
    assert!(show(&app).contains("Play again? (y/n)"));
}

/// An engine in `sh` speaking the engine protocol: it plays house 1 for its first
/// `moves` turns, then stops (a forfeit).
fn sh_engine(moves: u32) -> String {
    format!(
        "ext:sh -c 'n=0; while read -r line; do case \"$line\" in \
         protocol*) echo \"id name shbot\"; echo ready;; \
         go*) n=$((n+1)); if [ $n -gt {moves} ]; then exit 0; fi; echo \"bestmove 1\";; \
         quit) exit 0;; esac; done'"
    )
}

#[test]
fn an_external_engine_plays_a_seat_and_its_forfeit_hands_the_seat_over() {
    let mut now = Instant::now();
    let mut app = App::new(against(&sh_engine(1), 6, 4), true, now);
    let seat = app
        .game()
        .unwrap()
        .session
        .seat(Side::North)
        .spec()
        .cloned();
    assert_eq!(
        seat.map(|s| s.name().to_owned()).as_deref(),
        Some(mancala_tui::EXTERNAL_SEAT)
    );
    // Ann sows a1; the engine answers with its house 1 (l6 on screen would be 6).
    press(&mut app, KeyCode::Char('1'), now);
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().session.records().len() == 2 && a.game().unwrap().anim.is_none()
    });
    assert_eq!(app.game().unwrap().session.records()[1].mv.house(), 1);
    // Ann sows f6 (no extra turn); the engine, asked again, stops.
    press(&mut app, KeyCode::Char('6'), now);
    run_until(&mut app, &mut now, |a| {
        a.game().unwrap().message.text.contains("forfeits")
    });
    assert_eq!(app.failure(), None, "a forfeit does not end the program");
    let g = app.game().unwrap();
    assert_eq!(g.session.records().len(), 3, "the moves played are kept");
    assert!(
        g.session.human_to_move(),
        "the person plays Robo's seat now"
    );
    let s = flowing(&show(&app));
    assert!(
        s.contains("shbot forfeits: the engine stopped talking")
            && s.contains("You play Robo's moves from here."),
        "{s}"
    );
    // And the game goes on: the person sows Robo's house 2 (once Ann's sowing, which
    // may still be shown, is skipped).
    press(&mut app, KeyCode::Esc, now);
    press(&mut app, KeyCode::Char('2'), now);
    press(&mut app, KeyCode::Char(' '), now);
    assert_eq!(app.game().unwrap().session.records().len(), 4);
}

#[test]
fn an_external_engine_that_cannot_start_is_replaced_and_said_so() {
    let now = Instant::now();
    let app = App::new(
        against("ext:/nonexistent/engine --level 3", 6, 4),
        true,
        now,
    );
    let s = flowing(&show(&app));
    assert!(
        s.contains(
            "Robo plays greedy: external engine ext:/nonexistent/engine --level 3: cannot start"
        ),
        "{s}"
    );
    assert_eq!(app.failure(), None);
}

#[test]
fn the_seat_of_an_external_engine_in_a_saved_game_goes_to_the_fallback_player() {
    let now = Instant::now();
    let app = App::new(against(mancala_tui::EXTERNAL_SEAT, 6, 4), true, now);
    let s = flowing(&show(&app));
    assert!(
        s.contains(
            "Robo plays greedy: the saved game does not say how to start its external engine."
        ),
        "{s}"
    );
}
