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
    fn wait_for(&self, want: &str, limit: Duration, mut meanwhile: impl FnMut(&str)) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(want) {
                return screen;
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
        let started = self.run(&[
            "new-session",
            "-d",
            "-s",
            "game",
            "-x",
            "100",
            "-y",
            "35",
            cmd,
        ]);
        assert!(started.status.success(), "{started:?}");
    }
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
    tmux.wait_for("Saved to ./mancala-", Duration::from_secs(5), |_| {});
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
