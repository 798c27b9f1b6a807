//! The terminal game end to end: the real binary in a real (tmux) terminal, driven by
//! keys sent to it and checked on the screen it draws.
//!
//! Needs `tmux`; `scripts/test.sh` installs it when missing. Under `CI=true` a missing
//! tmux fails the test; elsewhere the test is skipped with a note.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "game"]).stdout)
            .into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "game"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// Waits for `want` on the screen, doing `meanwhile` with each screen that lacks it.
    ///
    /// The game writes only what changed, top to bottom, so a capture can catch a frame
    /// half written: the screen returned is one that stayed the same over a short
    /// while, so that the rest of the frame is there too.
    fn wait_for(&self, want: &str, limit: Duration, mut meanwhile: impl FnMut(&str)) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(want) {
                std::thread::sleep(Duration::from_millis(40));
                let again = self.screen();
                // A screen that keeps moving (a spinner, a sowing) is taken as it is
                // once the time is up.
                if again == screen || start.elapsed() >= limit {
                    return again;
                }
                continue;
            }
            assert!(
                start.elapsed() < limit,
                "{want:?} did not appear within {limit:?}; the screen:\n{screen}"
            );
            meanwhile(&screen);
            std::thread::sleep(Duration::from_millis(60));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .stderr(Stdio::null())
            .status();
    }
}

fn tmux_available() -> bool {
    Command::new("tmux")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A tmux server of our own named after the test, or `None` (with a note) when tmux is
/// missing; under `CI=true` a missing tmux fails the test instead.
fn tmux_or_skip(test: &str) -> Option<Tmux> {
    if !tmux_available() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(
            !ci,
            "tmux is missing: scripts/test.sh installs it (apt-get install tmux)"
        );
        eprintln!("SKIPPED: tmux is not installed; run scripts/test.sh to install it");
        return None;
    }
    Some(Tmux {
        socket: format!("mancala-e2e-{test}-{}", std::process::id()),
    })
}

impl Tmux {
    /// Runs the shell command `cmd` in a 100x35 session named `game`.
    fn start(&self, cmd: &str) {
        self.start_sized(cmd, 100, 35);
    }

    /// Runs the shell command `cmd` in a `width` x `height` session named `game`.
    fn start_sized(&self, cmd: &str, width: u16, height: u16) {
        let (w, h) = (width.to_string(), height.to_string());
        let started = self.run(&["new-session", "-d", "-s", "game", "-x", &w, "-y", &h, cmd]);
        assert!(started.status.success(), "{started:?}");
    }

    /// The bytes the program in the pane writes to its terminal while `act` runs and
    /// over `time` after, caught by tmux's pipe-pane into `file`.
    fn written_over(&self, time: Duration, file: &std::path::Path, act: impl FnOnce()) -> u64 {
        let _ = std::fs::remove_file(file);
        let catch = format!("cat > '{}'", file.display());
        assert!(
            self.run(&["pipe-pane", "-t", "game", &catch])
                .status
                .success()
        );
        // The pipe's shell starts on its own time.
        std::thread::sleep(Duration::from_millis(300));
        act();
        std::thread::sleep(time);
        // pipe-pane with no command closes the pipe.
        assert!(self.run(&["pipe-pane", "-t", "game"]).status.success());
        std::thread::sleep(Duration::from_millis(200));
        std::fs::metadata(file).map_or(0, |m| m.len())
    }
}

/// The screen's text with every run of spaces made one, so text wrapped onto the next
/// row reads on.
fn flowing(screen: &str) -> String {
    screen.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A fresh empty directory for the files a test writes.
fn temp_dir(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-e2e-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The pid of the one game process started as `mancala <args>`: its command line starts
/// with the binary (the shell's and tmux's contain it later).
fn game_pid(args: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_mancala");
    let out = Command::new("pgrep")
        .args(["-f", &format!("^{bin} {args}")])
        .output()
        .expect("pgrep runs");
    let pid = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert!(
        !pid.is_empty() && !pid.contains('\n'),
        "one game process, got {pid:?}"
    );
    pid
}

#[test]
fn a_short_game_against_the_computer_in_a_real_terminal() {
    let Some(tmux) = tmux_or_skip("game") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    tmux.start(&format!(
        "{bin} tui --houses 3 --seeds 2 --p2 greedy --name1 Ann --name2 Robo --seed 7; \
         echo EXIT=$?; sleep 60"
    ));

    // The flags skip the start screen: straight to the board.
    let screen = tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
    for want in [
        "Kalah · 3 houses × 2 seeds",
        "a1",
        "c3",
        "d1",
        "f3",
        "store",
        "Robo",
    ] {
        assert!(screen.contains(want), "{want:?} missing from\n{screen}");
    }
    // The fastest sowing, then a bad key, then play the highlighted house each turn.
    for _ in 0..7 {
        tmux.keys(&["+"]);
    }
    tmux.keys(&["9"]);
    tmux.wait_for("There is no house 9", Duration::from_secs(5), |_| {});
    let end = tmux.wait_for("Play again? (y/n)", Duration::from_secs(20), |screen| {
        if screen.contains("Ann, choose a house") {
            tmux.keys(&["Enter"]);
        }
    });
    assert!(end.contains("Game over"), "{end}");
    assert!(
        end.contains("Ann wins") || end.contains("Robo wins") || end.contains("Tie game!"),
        "{end}"
    );
    assert!(end.contains("Moves"), "the move list:\n{end}");
    // n ends the program and gives the terminal back.
    tmux.keys(&["n"]);
    let after = tmux.wait_for("EXIT=0", Duration::from_secs(5), |_| {});
    assert!(after.contains("Thanks for playing!"), "{after}");
    assert!(
        !after.contains("Play again?"),
        "the alternate screen is left:\n{after}"
    );
}

/// Togyz Kumalak in an 80x24 terminal: its nine houses a side fit, and after the
/// moves of docs/rules.md's example (1, 3, 2, 1) player 2 owns player 1's house 1,
/// drawn `x` on the board, and the message says so.
#[test]
fn togyz_kumalak_claims_a_tuzdyk_in_a_real_terminal() {
    let Some(tmux) = tmux_or_skip("togyz") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    tmux.start_sized(
        &format!(
            "{bin} tui --variant togyzkumalak --p2 human --name1 Ann --name2 Bob; \
             echo EXIT=$?; sleep 60"
        ),
        80,
        24,
    );
    let screen = tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
    for want in [
        "Togyz Kumalak · 9 houses × 9 seeds",
        "a1",
        "i9",
        "j1",
        "r9",
        "captured",
    ] {
        assert!(screen.contains(want), "{want:?} missing from\n{screen}");
    }
    // The fastest sowing; each house once its player is asked for one.
    for _ in 0..7 {
        tmux.keys(&["+"]);
    }
    for (house, next) in [("1", "Bob"), ("3", "Ann"), ("2", "Bob"), ("1", "Ann")] {
        tmux.keys(&[house]);
        tmux.wait_for(
            &format!("{next}, choose a house"),
            Duration::from_secs(10),
            |_| {},
        );
    }
    let screen = tmux.wait_for("tuzdyk now!", Duration::from_secs(5), |_| {});
    assert!(
        flowing(&screen).contains("Bob captured 3 seeds from house a1: Bob's tuzdyk now!"),
        "{screen}"
    );
    // Player 1's row (the one above the labels a1..i9) starts with the tuzdyk.
    let rows: Vec<&str> = screen.lines().collect();
    let labels = rows.iter().position(|l| l.contains("a1")).expect(&screen);
    assert!(
        rows[labels - 2].contains("║ x ║ ┃ 1 ┃"),
        "the tuzdyk is drawn x:\n{screen}"
    );
    tmux.keys(&["q"]);
    tmux.keys(&["y"]);
    tmux.wait_for("EXIT=", Duration::from_secs(5), |_| {});
}

#[test]
fn a_termination_signal_gives_the_terminal_back() {
    let Some(tmux) = tmux_or_skip("signal") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    // The shell reports the exit status and whether the terminal is back in canonical
    // (line) mode: raw mode shows as `-icanon`.
    tmux.start(&format!(
        "{bin} tui --p2 greedy --name1 Sigterm; echo EXIT=$?; \
         stty -a | tr ' ' '\\n' | grep -x -- '-\\?icanon' | sed 's/^/MODE=/'; sleep 60"
    ));
    tmux.wait_for("Sigterm, choose a house", Duration::from_secs(10), |_| {});
    let pid = game_pid("tui --p2 greedy --name1 Sigterm");
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let after = tmux.wait_for("MODE=", Duration::from_secs(5), |_| {});
    // 128 + 15, as shells report a process ended by SIGTERM.
    assert!(after.contains("EXIT=143"), "{after}");
    assert!(
        after.contains("MODE=icanon"),
        "the terminal is left in raw mode:\n{after}"
    );
    assert!(
        !after.contains("choose a house"),
        "the alternate screen is left:\n{after}"
    );
}

/// The state letter of process `pid` (`R`, `S`, `T` for stopped, ...).
fn state(pid: &str) -> char {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("State:"));
    line.and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.chars().next())
        .unwrap_or('?')
}

#[test]
fn ctrl_z_suspends_and_the_game_comes_back_when_continued() {
    let Some(tmux) = tmux_or_skip("suspend") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    // A shell with job control, as a person has: the game runs as a job of its own.
    tmux.start("env PS1='$ ' bash --norc --noprofile");
    tmux.keys(&[&format!("{bin} tui --p2 human --name1 Suspend"), "Enter"]);
    tmux.wait_for("Suspend, choose a house", Duration::from_secs(10), |_| {});
    let pid = game_pid("tui --p2 human --name1 Suspend");
    tmux.keys(&["C-z"]);
    let stopped = tmux.wait_for("Stopped", Duration::from_secs(5), |_| {});
    assert_eq!(state(&pid), 'T', "{stopped}");
    assert!(
        !stopped.contains("choose a house"),
        "the terminal is given back while stopped:\n{stopped}"
    );
    // The shell's own line editing works: the terminal is out of raw mode.
    tmux.keys(&["fg", "Enter"]);
    let back = tmux.wait_for("Suspend, choose a house", Duration::from_secs(5), |_| {});
    assert!(back.contains("MANCALA") && back.contains("store"), "{back}");
    tmux.keys(&["3", "Space"]);
    tmux.wait_for(
        "Suspend gets an extra turn!",
        Duration::from_secs(5),
        |_| {},
    );
    tmux.keys(&["q", "y"]);
    tmux.wait_for("Thanks for playing!", Duration::from_secs(5), |_| {});
}

/// Whether process `pid` has ended (gone, or a zombie nobody has reaped yet).
fn ended(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/status")).map_or(true, |s| {
        s.lines()
            .any(|l| l.starts_with("State:") && l.contains('Z'))
    })
}

#[test]
fn the_game_ends_when_its_terminal_goes_away() {
    let Some(tmux) = tmux_or_skip("hangup") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    tmux.start(&format!("{bin} tui --p2 greedy --name1 Hangup"));
    tmux.wait_for("Hangup, choose a house", Duration::from_secs(10), |_| {});
    let pid = game_pid("tui --p2 greedy --name1 Hangup");
    // The terminal disappears under the game (a closed window, a dropped ssh session).
    assert!(tmux.run(&["kill-server"]).status.success());
    let start = Instant::now();
    while !ended(&pid) {
        if start.elapsed() > Duration::from_secs(5) {
            let _ = Command::new("kill").args(["-9", &pid]).status();
            panic!("the game was still running 5 s after its terminal went away");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn without_a_terminal_mancala_explains_the_console() {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a terminal"), "{err}");
    assert!(err.contains("mancala console"), "{err}");
    assert!(out.stdout.is_empty());
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("tui")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mancala console"));
}

#[test]
fn a_game_saved_with_w_loads_back_with_tui_load() {
    let Some(tmux) = tmux_or_skip("save") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    let dir = std::env::temp_dir().join(format!("mancala-e2e-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.display();
    tmux.start(&format!(
        "cd {d} && {bin} tui --p2 human --name1 Saver --name2 Other --seed 1; \
         {bin} tui --load {d}/mancala-*.txt --seed 1; echo EXIT=$?; sleep 60"
    ));
    tmux.wait_for("Saver, choose a house", Duration::from_secs(10), |_| {});
    // Saver sows c3 (an extra turn), then a1; Other is to move.
    tmux.keys(&["3", "Space"]);
    tmux.wait_for("Saver gets an extra turn!", Duration::from_secs(5), |_| {});
    tmux.keys(&["1", "Space"]);
    tmux.wait_for("Other, choose a house", Duration::from_secs(5), |_| {});
    tmux.keys(&["w"]);
    tmux.wait_for("Saved to mancala-", Duration::from_secs(5), |_| {});
    tmux.keys(&["q", "y"]);
    // The second command loads the file: the same position, the moves listed.
    let loaded = tmux.wait_for("Loaded 2 moves", Duration::from_secs(10), |_| {});
    assert!(
        loaded.contains("Loaded 2 moves: Other to move."),
        "{loaded}"
    );
    assert!(loaded.contains("1 Saver      c3  ↻"), "{loaded}");
    assert!(loaded.contains("2 Saver      a1"), "{loaded}");
    assert!(loaded.contains("Other, choose a house"), "{loaded}");
    tmux.keys(&["q", "y"]);
    tmux.wait_for("EXIT=0", Duration::from_secs(5), |_| {});
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nothing_is_written_to_the_terminal_while_nothing_happens() {
    let Some(tmux) = tmux_or_skip("idle") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    let dir = temp_dir("idle");
    let file = dir.join("written");
    tmux.start_sized(&format!("{bin} tui; sleep 60"), 80, 24);
    tmux.wait_for("Mancala · new game", Duration::from_secs(10), |_| {});
    std::thread::sleep(Duration::from_millis(300));
    let idle = Duration::from_secs(2);
    assert_eq!(tmux.written_over(idle, &file, || {}), 0, "the start screen");
    // The pipe does catch what is written: a key redraws a line.
    let key = tmux.written_over(Duration::from_millis(500), &file, || tmux.keys(&["Down"]));
    assert!(key > 0, "a key is answered on the screen");
    // A game waiting for the person's key (player 1 against medium).
    tmux.keys(&["Enter"]);
    tmux.wait_for("Player 1, choose a house", Duration::from_secs(10), |_| {});
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        tmux.written_over(idle, &file, || {}),
        0,
        "a game waiting for a key"
    );
    tmux.keys(&["q", "y"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_long_wide_name_and_the_saved_games_load_command_fit_at_80x24() {
    let Some(tmux) = tmux_or_skip("fit") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    let dir = temp_dir("fit");
    let d = dir.display();
    let wide = "李小龍🎉Ann of the Northern Seas and the Eastern Mountains";
    tmux.start_sized(
        &format!("cd {d} && {bin} tui --p2 human --name2 '{wide}' --seed 1; sleep 60"),
        80,
        24,
    );
    tmux.wait_for("Player 1, choose a house", Duration::from_secs(10), |_| {});
    tmux.keys(&["3", "Space"]);
    tmux.wait_for(
        "Player 1 gets an extra turn!",
        Duration::from_secs(5),
        |_| {},
    );
    tmux.keys(&["1", "Space"]);
    // The name is cut to 16 columns when the game starts, so it shows whole.
    let screen = tmux.wait_for(
        "李小龍🎉Ann of t, choose a house",
        Duration::from_secs(5),
        |_| {},
    );
    let text = flowing(&screen);
    assert!(
        text.contains("g-l or click (h is hint: type H or 2 for h2)"),
        "the prompt whole:\n{screen}"
    );
    assert!(!screen.contains("Mountains"), "{screen}");
    let row = screen.lines().find(|l| l.contains('◀')).unwrap();
    assert!(
        row.contains("player 2") && row.contains("● to move"),
        "{screen}"
    );
    tmux.keys(&["w"]);
    let screen = tmux.wait_for("mancala tui --load", Duration::from_secs(5), |_| {});
    let saved = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap();
    let name = saved.file_name().to_string_lossy().into_owned();
    let command = format!("mancala tui --load {name}");
    assert!(
        screen.lines().any(|l| l.trim() == command),
        "{command:?} on a row of its own:\n{screen}"
    );
    tmux.keys(&["q", "y"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_name_for_player_2_without_p2_seats_a_person_and_an_empty_name_is_the_default() {
    let Some(tmux) = tmux_or_skip("name2") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    tmux.start(&format!(
        "{bin} tui --p1 greedy --name1 '' --name2 Xena --houses 3 --seeds 2 --seed 1; sleep 60"
    ));
    // Greedy moves first; then Xena, a person, is asked for a house.
    let screen = tmux.wait_for("Xena, choose a house", Duration::from_secs(10), |_| {});
    assert!(screen.contains("Greedy bot against Xena"), "{screen}");
    let row = screen.lines().find(|l| l.contains('◀')).unwrap();
    assert!(row.contains("Xena") && !row.contains("medium"), "{screen}");
    tmux.keys(&["q", "y"]);
}

#[test]
fn the_score_keeps_every_game_and_s_sets_up_who_moves_first_next() {
    let Some(tmux) = tmux_or_skip("series") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    // One house, one seed: Ann's first move ends the game, a draw.
    tmux.start(&format!(
        "{bin} tui --houses 1 --seeds 1 --p2 human --name1 Ann --name2 Bob; sleep 60"
    ));
    tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
    tmux.keys(&["1", "Space"]);
    let end = tmux.wait_for("Play again? (y/n)", Duration::from_secs(5), |_| {});
    assert!(end.contains("Games: Ann 0 · Bob 0 · 1 draw"), "{end}");
    assert!(end.contains("Next: Bob moves first"), "{end}");
    // s: the start screen with Bob first, as announced.
    tmux.keys(&["s"]);
    // The row under "Player 1 (first)" names who plays it. A capture can catch a frame
    // half written, so look again until the whole screen is there.
    let first_is_bob = |screen: &str| {
        let rows: Vec<&str> = screen.lines().collect();
        let first = rows.iter().position(|r| r.contains("Player 1 (first)"));
        first.is_some_and(|i| rows.get(i + 1).is_some_and(|r| r.contains("Bob")))
    };
    let start = Instant::now();
    loop {
        let setup = tmux.screen();
        if setup.contains("Mancala · new game") && first_is_bob(&setup) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{setup}");
        std::thread::sleep(Duration::from_millis(60));
    }
    tmux.keys(&["Enter"]);
    tmux.wait_for(
        "Bob against Ann: Bob moves first.",
        Duration::from_secs(5),
        |_| {},
    );
    tmux.keys(&["1", "Space"]);
    let end = tmux.wait_for("Play again? (y/n)", Duration::from_secs(5), |_| {});
    assert!(
        end.contains("Games: Ann 0 · Bob 0 · 2 draws"),
        "the first game still counts:\n{end}"
    );
    tmux.keys(&["n"]);
}

/// An external engine at seat 2 in an 80x24 terminal (docs/engine-protocol.md, "The
/// terminal game"): it plays its moves, and when it stops, the message says it forfeits
/// and the person plays its seat on. The engine is `sh`, playing house 1 once.
#[test]
fn an_external_engine_plays_then_forfeits_in_a_real_terminal() {
    let Some(tmux) = tmux_or_skip("ext") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    let engine = temp_dir("ext").join("engine.sh");
    std::fs::write(
        &engine,
        "n=0\nwhile read -r l; do case \"$l\" in\n\
         protocol*) echo 'id name shbot'; echo ready;;\n\
         go*) n=$((n+1)); [ $n -gt 1 ] && exit 0; echo 'bestmove 1';;\n\
         esac; done\n",
    )
    .unwrap();
    tmux.start_sized(
        &format!(
            "{bin} tui --p2 'ext:sh {}' --name1 Ann --name2 Shbot; echo EXIT=$?; sleep 60",
            engine.display()
        ),
        80,
        24,
    );
    tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
    // Ann sows a1; the engine answers with its house 1 (g1 on the board).
    tmux.keys(&["1"]);
    tmux.wait_for("Shbot sowed house g1", Duration::from_secs(10), |_| {});
    // Ann sows f6; the engine, asked again, stops: its seat is handed over.
    tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
    tmux.keys(&["6"]);
    let screen = tmux.wait_for("Shbot's moves from here", Duration::from_secs(10), |_| {});
    assert!(flowing(&screen).contains("shbot forfeits"), "{screen}");
    tmux.wait_for("Shbot, choose a house", Duration::from_secs(10), |_| {});
    tmux.keys(&["2"]);
    tmux.wait_for("Shbot sowed house h2", Duration::from_secs(10), |_| {});
    tmux.keys(&["q", "y"]);
    tmux.wait_for("EXIT=0", Duration::from_secs(5), |_| {});
}

#[test]
fn an_engines_traceback_stays_off_the_board_and_space_never_sows() {
    let bin = env!("CARGO_BIN_EXE_mancala");
    let engine = temp_dir("stderr").join("engine.sh");
    std::fs::write(
        &engine,
        "while read -r l; do case \"$l\" in\n\
         protocol*) echo 'id name mybot:bad'; echo ready;;\n\
         go*) echo 'Traceback (most recent call last):' >&2; \
              echo 'ValueError: bad bot' >&2; exit 1;;\n\
         esac; done\n",
    )
    .unwrap();
    for (w, h) in [(80, 24), (50, 20)] {
        // A server per size: killing the last session ends a tmux server, and a new
        // session started on its socket while it shuts down fails ("server exited
        // unexpectedly").
        let Some(tmux) = tmux_or_skip(&format!("stderr-{w}x{h}")) else {
            return;
        };
        tmux.start_sized(
            &format!(
                "{bin} tui --p2 'ext:sh {}' --name1 Ann; sleep 60",
                engine.display()
            ),
            w,
            h,
        );
        tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
        // Space on one's own turn sows nothing.
        tmux.keys(&["Space"]);
        let screen = tmux.wait_for("Space only skips", Duration::from_secs(5), |_| {});
        assert!(!screen.contains("sows house"), "{w}x{h}:\n{screen}");
        // The board calls the engine by its own name; its traceback goes to its log.
        assert!(screen.contains("mybot:bad"), "{w}x{h}:\n{screen}");
        tmux.keys(&["1"]);
        let screen = tmux.wait_for("moves from here", Duration::from_secs(10), |_| {});
        let text = flowing(&screen);
        assert!(text.contains("mybot:bad forfeits"), "{w}x{h}:\n{screen}");
        assert!(!screen.contains("Traceback"), "{w}x{h}:\n{screen}");
        assert!(!screen.contains("Ext bot"), "{w}x{h}:\n{screen}");
    }
}

/// Ayoayo, a game the description engine plays (relay sowing), in an 80x24 terminal
/// against the computer: the board and its labels fit, and a whole game is played to
/// its end by pressing Enter on the highlighted house.
#[test]
fn a_described_game_is_played_to_the_end_at_80x24() {
    let Some(tmux) = tmux_or_skip("described") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_mancala");
    tmux.start_sized(
        &format!(
            "{bin} tui --variant ayoayo --p2 greedy --name1 Ann --name2 Robo --seed 3; \
             echo EXIT=$?; sleep 60"
        ),
        80,
        24,
    );
    let screen = tmux.wait_for("Ann, choose a house", Duration::from_secs(10), |_| {});
    for want in [
        "Ayoayo · 6 houses × 4 seeds",
        "a1",
        "f6",
        "g1",
        "l6",
        "Robo",
    ] {
        assert!(screen.contains(want), "{want:?} missing from\n{screen}");
    }
    for _ in 0..7 {
        tmux.keys(&["+"]);
    }
    let end = tmux.wait_for("Play again? (y/n)", Duration::from_secs(60), |screen| {
        if screen.contains("Ann, choose a house") {
            tmux.keys(&["Enter"]);
        }
    });
    assert!(end.contains("Game over"), "{end}");
    tmux.keys(&["n"]);
    let after = tmux.wait_for("EXIT=0", Duration::from_secs(5), |_| {});
    assert!(after.contains("Thanks for playing!"), "{after}");
}
