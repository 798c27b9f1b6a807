//! The console end to end through the real binary, from transcripts written from the
//! rules (so a fresh clone tests the console without the shared specifications), and
//! every kind of bad input.

mod spec;

/// Runs a transcript in spec format with `args` and fails with the first difference.
fn check(args: &[&str], transcript: &str) {
    let spec = spec::parse(transcript);
    let (ok, stdout, stderr) = spec::run_binary(args, &spec.input);
    if let Some(diff) = spec::first_difference(&spec.expected, &stdout) {
        panic!("mancala {}:\n{diff}\nstderr: {stderr}", args.join(" "));
    }
    assert!(ok, "exit status not 0; stderr: {stderr}");
}

const BOARD_2X1_START: &str = "\
>+----+-------+-------+----+
>| P2 | 2[ 1] | 1[ 1] |  0 |
>|    |-------+-------|    |
>|  0 | 1[ 1] | 2[ 1] | P1 |
>+----+-------+-------+----+
";

#[test]
fn kalah_small_board_played_to_the_end() {
    // P1: house 2 into the store (again), house 1 into empty house 2 capturing P2's
    // house 1; P2: house 2 into its store, then has no seeds: 3 to 1.
    let t = format!(
        "{BOARD_2X1_START}\
>Player P1's turn - Specify house number or 'q' to quit: 
<2
>+----+-------+-------+----+
>| P2 | 2[ 1] | 1[ 1] |  1 |
>|    |-------+-------|    |
>|  0 | 1[ 1] | 2[ 0] | P1 |
>+----+-------+-------+----+
>Player P1's turn - Specify house number or 'q' to quit: 
<1
>+----+-------+-------+----+
>| P2 | 2[ 1] | 1[ 0] |  3 |
>|    |-------+-------|    |
>|  0 | 1[ 0] | 2[ 0] | P1 |
>+----+-------+-------+----+
>Player P2's turn - Specify house number or 'q' to quit: 
<2
>+----+-------+-------+----+
>| P2 | 2[ 0] | 1[ 0] |  3 |
>|    |-------+-------|    |
>|  1 | 1[ 0] | 2[ 0] | P1 |
>+----+-------+-------+----+
>Game over
>+----+-------+-------+----+
>| P2 | 2[ 0] | 1[ 0] |  3 |
>|    |-------+-------|    |
>|  1 | 1[ 0] | 2[ 0] | P1 |
>+----+-------+-------+----+
>\tplayer 1:3
>\tplayer 2:1
>Player 1 wins!
"
    );
    check(&["console", "--houses", "2", "--seeds", "1"], &t);
}

#[test]
fn kalah_bad_input_gets_a_message_and_the_same_prompt() {
    let prompt = ">Player P1's turn - Specify house number or 'q' to quit: ";
    let no_house =
        |n: &str| format!("{prompt}\n<{n}\n>There is no house {n} (houses are 1 to 2).\n");
    let not_number = |s: &str| {
        format!("{prompt}\n<{s}\n>Please type a house number from 1 to 2, or q to quit.\n")
    };
    let t = format!(
        "{BOARD_2X1_START}{}{}{}{}{}{}{}",
        no_house("3"),
        no_house("0"),
        no_house("18446744073709551615"),
        not_number("-1"),
        not_number("two"),
        not_number(""),
        not_number("s"),
    );
    // The input then ends: that quits, after finishing the prompt's line (the prompt
    // is followed by output, not input, so the spec format gives it its newline).
    let t = format!("{t}{prompt}\n>Game over\n{BOARD_2X1_START}");
    check(&["console", "--houses", "2", "--seeds", "1"], &t);
}

#[test]
fn menu_bad_input_no_saved_game_save_and_load() {
    let menu = ">Player P1\n>    (1-2) - house number for move\n>    N - New game\n>    S - Save game\n>    L - Load game\n>    q - Quit\n>Choice:\n";
    let after_2 = "\
>+----+-------+-------+----+
>| P2 | 2[ 1] | 1[ 1] |  1 |
>|    |-------+-------|    |
>|  0 | 1[ 1] | 2[ 0] | P1 |
>+----+-------+-------+----+
";
    let t = format!(
        "{BOARD_2X1_START}{menu}<x\n>Please choose a house from 1 to 2, or N, S, L or q.\n\
         {menu}<l\n>No saved game\n{BOARD_2X1_START}\
         {menu}<s\n{BOARD_2X1_START}\
         {menu}<2\n{after_2}\
         {menu}<L\n{BOARD_2X1_START}\
         {menu}<q\n>Game over\n{BOARD_2X1_START}"
    );
    check(&["console", "--menu", "--houses", "2", "--seeds", "1"], &t);
}

#[test]
fn simplified_oware_with_names() {
    // testOneTwo of the assignment: A1 (2 seeds) refills itself and gives B1 a seed;
    // B1's 3 seeds turn A1 from 1 into 2 (captured), refill B1 and leave A1 one seed.
    let t = "\
>       A1
>Ann:  | 2|
>Bob:  | 2|
>       B1
>Score: Ann 0, Bob 0
>Ann: moves = [1]
>Enter move => 
<1
>       A1
>Ann:  | 1|
>Bob:  | 3|
>       B1
>Score: Ann 0, Bob 0
>Bob: moves = [1]
>Enter move => 
<1
>Bob captures 2 seeds from Ann's house 1.
>       A1
>Ann:  | 1|
>Bob:  | 1|
>       B1
>Score: Ann 0, Bob 2
>Game over
>Bob wins 2 to 0: two seeds or fewer are left; the 2 seeds left on the board count for nobody.
";
    check(
        &[
            "console",
            "--variant",
            "oware-simplified",
            "--houses",
            "1",
            "--seeds",
            "2",
            "--name1",
            "Ann",
            "--name2",
            "Bob",
        ],
        t,
    );
}

/// Ann captures exactly half (6 of 12) and Bob cannot give her empty row any seeds:
/// the game ends, each takes their own row, and Bob's last seed makes it a draw.
#[test]
fn oware_exactly_half_then_no_way_to_feed_is_a_draw() {
    let input = "2\n2\n3\n3\n3\n2\n2\n3\n3\n";
    let args = [
        "console",
        "--variant",
        "oware",
        "--houses",
        "3",
        "--seeds",
        "2",
        "--name1",
        "Ann",
        "--name2",
        "Bob",
    ];
    let (ok, out, err) = spec::run_binary(&args, input);
    assert!(ok, "{err}");
    assert!(
        out.ends_with(
            "Score: Ann 6, Bob 5\nGame over\nA draw, 6 to 6: Bob cannot give Ann any seeds, \
             so Bob takes the 1 seed left in their houses.\n"
        ),
        "{out}"
    );
}

/// Simplified Oware on one house of four seeds cycles from the first move: the game
/// ends at the first repeated position, a draw.
#[test]
fn simplified_oware_ends_a_cycle_as_a_draw() {
    let args = [
        "console",
        "--variant",
        "oware-simplified",
        "--houses",
        "1",
        "--seeds",
        "4",
    ];
    let (ok, out, err) = spec::run_binary(&args, "1\n1\n1\n");
    assert!(ok, "{err}");
    assert!(
        out.ends_with(
            "Game over\nA draw, 0 to 0: the position came round again since the last \
             capture; the 8 seeds left on the board count for nobody.\n"
        ),
        "{out}"
    );
    assert_eq!(out.matches("Enter move").count(), 3, "{out}");
}

#[test]
fn oware_explains_an_empty_house_and_row_b_reads_backwards() {
    // Oware(2,1): A sows house 2's seed into B1, which goes from 1 to 2 and is captured
    // (not a grand slam: B2 keeps its seed). Row B is shown from B2 to B1.
    let t = "\
>            A1 A2
>Player 1:  | 1| 1|
>Player 2:  | 1| 1|
>            B2 B1
>Score: Player 1 0, Player 2 0
>Player 1: moves = [1, 2]
>Enter move => 
<2
>Player 1 captures 2 seeds from Player 2's house 1.
>            A1 A2
>Player 1:  | 1| 0|
>Player 2:  | 1| 0|
>            B2 B1
>Score: Player 1 2, Player 2 0
>Player 2: moves = [2]
>Enter move => 
<1
>House 1 is empty.
>Player 2: moves = [2]
>Enter move => 
<q
>Game over: Player 2 left the game unfinished, with no result
>            A1 A2
>Player 1:  | 1| 0|
>Player 2:  | 1| 0|
>            B2 B1
>Score: Player 1 2, Player 2 0
";
    check(
        &[
            "console",
            "--variant",
            "oware",
            "--houses",
            "2",
            "--seeds",
            "1",
        ],
        t,
    );
}

#[test]
fn two_computer_players_play_a_whole_game() {
    let (ok, out, err) = spec::run_binary(&["console", "--p1", "robot", "--p2", "greedy"], "");
    assert!(ok, "{err}");
    assert!(out.contains("Player P1 (Robot) chooses house #3 because it leads to an extra move\n"));
    assert!(out.contains("Player P2 (greedy) chooses house #"));
    assert!(
        !out.contains("Specify house number"),
        "no prompt for computer seats"
    );
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert!(
        tail[2].starts_with("\tplayer 1:") && tail[1].starts_with("\tplayer 2:"),
        "{tail:?}"
    );
    assert!(["Player 1 wins!", "Player 2 wins!", "A tie!"].contains(&tail[0]));
}

#[test]
fn wide_boards_stay_aligned() {
    let (ok, out, _) = spec::run_binary(&["console", "--houses", "12", "--seeds", "12"], "q\n");
    assert!(ok);
    let board: Vec<&str> = out.lines().take(5).collect();
    assert!(
        board.iter().all(|l| l.len() == board[0].len()),
        "{board:#?}"
    );
    assert!(
        board[1].starts_with("| P2  | 12[ 12] | 11[ 12] |"),
        "{}",
        board[1]
    );
    assert!(board[3].ends_with("| 12[ 12] | P1  |"), "{}", board[3]);
}

#[test]
fn bad_options_are_refused_with_status_2() {
    for (args, message) in [
        (
            &["console", "--p2", "deep-blue"][..],
            "unknown player \"deep-blue\"",
        ),
        (
            &["console", "--variant", "oware", "--p2", "robot"][..],
            "does not play oware",
        ),
        (
            &["console", "--variant", "oware", "--menu"][..],
            "--menu is the menu of the Kalah transcripts, whose board has stores; oware has \
             none",
        ),
        (&["console", "--houses", "0"][..], "0 is not in 1..=16"),
        (&["console", "--variant", "nonesuch"][..], "unknown variant"),
        (
            &["console", "--p1", "random:depth=3"][..],
            "unknown option \"depth\"",
        ),
        // The players listed are the ones this variant can seat, a person first.
        (
            &["console", "--variant", "oware", "--p2", "deep-blue"][..],
            "unknown player \"deep-blue\" (players for oware: human, easy, medium,",
        ),
        // Only the option given is named, with the variants that take it.
        (
            &[
                "console",
                "--variant",
                "oware",
                "--end-rule",
                "either-side-empty",
            ][..],
            "error: oware takes no rule options; end-rule is a Kalah option\n",
        ),
        (
            &["console", "--variant", "oware", "--empty-capture"][..],
            "error: oware takes no rule options; empty-capture is a Kalah option\n",
        ),
    ] {
        let (ok, out, err) = spec::run_binary(args, "");
        assert!(!ok, "{args:?} should fail");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn an_empty_name_is_the_seats_default() {
    let args = [
        "console",
        "--variant",
        "oware",
        "--name1",
        " ",
        "--p2",
        "greedy",
        "--name2",
        "",
    ];
    let (ok, out, _) = spec::run_binary(&args, "q\n");
    assert!(ok);
    assert!(
        out.contains("\nPlayer 1: moves = [1, 2, 3, 4, 5, 6]\n"),
        "{out}"
    );
    assert!(out.contains("Score: Player 1 0, Greedy bot 0"), "{out}");
}

/// Togyz Kumalak plays in the Oware rows on its own 9x9 board; a tuzdyk is drawn `x`
/// (as the position notation writes it) with a line saying whose it is, and `?` prints
/// the rules. The moves are those of docs/rules.md's tuzdyk example.
#[test]
fn togyz_kumalak_marks_its_tuzdyks_and_explains_them() {
    let args = [
        "console",
        "--variant",
        "togyzkumalak",
        "--name1",
        "Ann",
        "--name2",
        "Bob",
    ];
    let (ok, out, err) = spec::run_binary(&args, "?\n1\n3\n2\n1\n5\nq\n");
    assert!(ok, "{err}");
    assert!(
        out.starts_with(
            "        A1  A2  A3  A4  A5  A6  A7  A8  A9
Ann:  |  9|  9|  9|  9|  9|  9|  9|  9|  9|
Bob:  |  9|  9|  9|  9|  9|  9|  9|  9|  9|
        B9  B8  B7  B6  B5  B4  B3  B2  B1
Score: Ann 0, Bob 0
Ann: moves = [1, 2, 3, 4, 5, 6, 7, 8, 9]
Enter move => Togyz Kumalak: Kazakhstan's national mancala game."
        ),
        "{out}"
    );
    assert!(out.contains("\nTip: make it even over there to capture, 3 for a tuzdyk.\n"));
    assert!(out.contains("an x marks a tuzdyk"), "{out}");
    let claimed = "\
Enter move => Bob captures 3 seeds from Ann's house 1, which becomes Bob's tuzdyk.
        A1  A2  A3  A4  A5  A6  A7  A8  A9
Ann:  |  x|  1| 11| 11| 11| 11| 11| 11| 11|
Bob:  | 11| 11| 11| 11| 11| 11|  1| 11|  1|
        B9  B8  B7  B6  B5  B4  B3  B2  B1
Score: Ann 2, Bob 3
x: Bob's tuzdyk A1 (seeds sown into it go to Bob)
";
    assert!(out.contains(claimed), "{out}");
    assert!(out.ends_with("x: Bob's tuzdyk A1 (seeds sown into it go to Bob)\n"));
    // The Kalah layout keeps the specifications' words: `?` is not a command there.
    let (ok, out, _) = spec::run_binary(&["console", "--houses", "2", "--seeds", "1"], "?\nq\n");
    assert!(ok);
    assert!(out.contains("quit: Please type a house number from 1 to 2, or q to quit.\n"));
}

#[test]
fn unknown_players_for_oware_are_listed_without_robot() {
    let (ok, _, err) = spec::run_binary(&["console", "--variant", "oware", "--p1", "x"], "");
    assert!(!ok);
    let list = err
        .split("players for oware: ")
        .nth(1)
        .expect("a list of players");
    let names: Vec<&str> = list.trim_end().trim_end_matches(')').split(", ").collect();
    assert_eq!(names[0], "human", "{err}");
    assert!(names.contains(&"medium"), "{err}");
    assert!(!names.contains(&"robot"), "{err}");
}

/// A pasted page or a line of 100,000 digits is answered with a short message, not
/// echoed back.
#[test]
fn a_junk_line_is_quoted_in_part() {
    let digits = "9".repeat(100_000);
    for args in [&["console"][..], &["console", "--variant", "oware"][..]] {
        let (ok, out, err) = spec::run_binary(args, &format!("{digits}\nq\n"));
        assert!(ok, "{err}");
        let message = out
            .lines()
            .find(|l| l.contains("no house"))
            .expect("a message for the junk line");
        // The prompt is written without a newline, so the message follows it.
        let message = message.rsplit(['=', ':']).next().unwrap();
        let quoted = format!("{}…", &digits[..40]);
        assert!(message.contains(&quoted), "{message}");
        assert!(message.chars().count() < 90, "{message}");
        assert!(out.len() < 3_000, "{args:?}: {} bytes written", out.len());
    }
}

/// Leaving an Oware game before its end says so; the Kalah layout keeps the
/// specifications' plain "Game over".
#[test]
fn leaving_an_oware_game_says_it_is_unfinished() {
    let (ok, out, _) =
        spec::run_binary(&["console", "--variant", "oware", "--name1", "Ann"], "q\n");
    assert!(ok);
    assert!(
        out.contains("Game over: Ann left the game unfinished, with no result\n"),
        "{out}"
    );
    let (ok, out, _) = spec::run_binary(&["console"], "q\n");
    assert!(ok);
    assert!(out.contains("to quit: Game over\n+----"), "{out}");
}

#[test]
fn menu_save_writes_a_record_file_that_a_later_run_loads() {
    let dir = std::env::temp_dir().join(format!("mancala-console-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("saved.txt");
    let _ = std::fs::remove_file(&file);
    let path = file.to_str().unwrap();
    let args = ["console", "--menu", "--houses", "2", "--seeds", "1"];
    let with_file = [&args[..], &["--save-file", path]].concat();
    // The transcript is the specification's, with or without the file.
    let input = "2\ns\nq\n";
    let (ok, plain, _) = spec::run_binary(&args, input);
    let (ok_file, saved_run, err) = spec::run_binary(&with_file, input);
    assert!(ok && ok_file, "{err}");
    assert_eq!(saved_run, plain);
    // The file is a game record of the game as saved.
    let text = std::fs::read_to_string(&file).unwrap();
    let record: mancala_session::Record = text.parse().unwrap();
    assert_eq!(
        record.moves().iter().map(|m| m.house()).collect::<Vec<_>>(),
        [2]
    );
    assert_eq!(record.rules(), mancala_core::Rules::kalah(2, 1));
    // A later run loads it with L: the board after house 2, then P2 to move.
    let (ok, loaded, err) = spec::run_binary(&with_file, "l\nq\n");
    assert!(ok, "{err}");
    let after_2 = "\
+----+-------+-------+----+
| P2 | 2[ 1] | 1[ 1] |  1 |
|    |-------+-------|    |
|  0 | 1[ 1] | 2[ 0] | P1 |
+----+-------+-------+----+
";
    assert!(
        loaded.contains(&format!("Choice:{after_2}Player P1\n")),
        "{loaded}"
    );
    // Without a save file, L in a new run has nothing to load.
    let (_, nothing, _) = spec::run_binary(&args, "l\nq\n");
    assert!(nothing.contains("No saved game"), "{nothing}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_save_file_needs_the_menu() {
    let (ok, _, err) = spec::run_binary(&["console", "--save-file", "x.txt"], "");
    assert!(!ok);
    assert!(err.contains("--menu"), "{err}");
}

/// The Kalah console shows no names, and says so on standard error when one is given;
/// when the input ends mid-game its standard output stays the transcripts' ("Game
/// over" and the board) and standard error says why the game stopped.
#[test]
fn the_kalah_console_says_what_its_transcripts_leave_unsaid_on_standard_error() {
    let (ok, out, err) = spec::run_binary(&["console", "--name1", "Ann"], "1\n");
    assert!(ok, "{err}");
    assert!(err.contains("--name1 is not shown"), "{err}");
    assert!(!out.contains("Ann"), "{out}");
    assert!(out.contains("Game over\n"), "{out}");
    assert!(err.contains("The input ended before the game did"), "{err}");
    let (_, _, err) = spec::run_binary(&["console"], "q\n");
    assert!(
        !err.contains("input ended"),
        "q is not the end of the input: {err}"
    );
}

/// Games the description engine plays (relay sowing, stores of their own rules,
/// clockwise sowing) through the real binary: computer players finish a game.
#[test]
fn described_games_are_played_to_the_end_by_computer_players() {
    for key in ["ayoayo", "bohnenspiel", "pallanguzhi", "woli"] {
        let args = [
            "console",
            "--variant",
            key,
            "--p1",
            "greedy",
            "--p2",
            "random",
        ];
        let (ok, out, err) = spec::run_binary(&args, "");
        assert!(ok, "{key}: {err}");
        assert!(out.contains("Game over"), "{key}: {out}");
    }
}

/// A person plays described games: the board before and after a move as the rules
/// say, in the Kalah box for a game with stores on the board (Ayoayo) and in the Oware
/// rows with the rules on `?` for one without (Woli, sown clockwise), then quits.
#[test]
fn a_person_plays_described_games_in_the_console() {
    use mancala_core::{Move, Position, Rules, Variant};
    let names = ["Player 1".to_owned(), "Player 2".to_owned()];
    for (key, input) in [("ayoayo", "2\nq\n"), ("woli", "?\n2\nq\n")] {
        let variant: Variant = key.parse().unwrap();
        let info = variant.info();
        let rules = Rules::new(variant, info.default_houses, info.default_seeds).unwrap();
        let start = Position::new(rules);
        let after = start.play(Move::new(2).unwrap()).unwrap();
        let (ok, out, err) = spec::run_binary(&["console", "--variant", key], input);
        assert!(ok, "{key}: {err}");
        let board = |p: &Position| {
            if info.stores {
                mancala_console::store_board(p)
            } else {
                mancala_console::row_board(p, &names)
            }
        };
        let at = out.find(&board(&start)).expect("the start board");
        assert!(out[at..].contains(&board(&after)), "{key}:\n{out}");
        assert!(out.contains("Game over"), "{key}:\n{out}");
        if !info.stores {
            assert!(
                out.contains(&format!("{}: ", info.name)),
                "{key}: the rules\n{out}"
            );
        }
    }
}
