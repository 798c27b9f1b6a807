//! `mancala solve`: the exact value of a position under perfect play.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use mancala_core::{Game, Move, Position, Side};
use mancala_session::parse_house_number;
use mancala_solver::{EndgameInfo, Estimate, Progress, Solution, SolveConfig, SolveError, Solver};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use mancala_cli::{RulesArgs, StartArgs};

/// The most memory a solve takes without `--hash-mb` (when a third of the memory
/// available is more).
const DEFAULT_HASH_MB: usize = 8 << 10;

/// The largest table `--hash-mb` accepts, whatever the machine.
const MAX_HASH_MB: usize = 16 << 10;

/// Arguments of `mancala solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    rules: RulesArgs,

    #[command(flatten)]
    start: StartArgs,

    /// Solve the position after these moves (house numbers as the mover sees them;
    /// after the moves of --record)
    #[arg(long, value_name = "M", num_args = 1..)]
    moves: Vec<String>,

    /// Print one JSON object instead of text
    #[arg(long)]
    json: bool,

    /// Most memory for the transposition table and the endgame database (Kalah: each
    /// is sized to the problem within it) or the positions reachable (Oware), in MiB
    /// (default: a third of the memory available, at most 8192)
    #[arg(long, value_name = "MB")]
    hash_mb: Option<usize>,

    /// Kalah: build the endgame database for boards of at most N seeds in play (default:
    /// sized to the problem; 0 for none)
    #[arg(long, value_name = "N")]
    endgame_seeds: Option<usize>,

    /// Kalah: keep the endgame database in this file: read it from there when the file
    /// holds at least the boards this solve needs, else build it and write it there
    #[arg(long, value_name = "PATH")]
    endgame_file: Option<PathBuf>,

    /// Prove only the value and one best move, not every move's value (several times
    /// faster on large boards)
    #[arg(long)]
    best_only: bool,

    /// Give up after this many seconds, saying what was proved by then
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,

    /// Solve even a problem judged too large to finish
    #[arg(long)]
    force: bool,
}

/// The JSON answer: the documented keys first.
#[derive(Serialize)]
struct Report<'a> {
    value: i32,
    best_moves: Vec<u8>,
    move_values: MoveValues<'a>,
    nodes: u64,
    seconds: f64,
    memory_bytes: usize,
    rules: String,
    to_move: Option<u8>,
    /// The Kalah endgame database used, if any.
    endgame: Option<EndgameReport>,
}

/// The endgame database in the JSON answer.
#[derive(Serialize)]
struct EndgameReport {
    seeds: usize,
    read_from_file: bool,
    written_to_file: bool,
}

/// Move values as an object `{"1": v1, ...}`.
struct MoveValues<'a>(&'a [(Move, i32)]);

impl Serialize for MoveValues<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (mv, v) in self.0 {
            map.serialize_entry(&mv.house().to_string(), v)?;
        }
        map.end()
    }
}

/// Solves the position and prints the answer.
pub fn run(args: &SolveArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let game = game_to_solve(args)?;
    let mut config = SolveConfig {
        force: args.force,
        endgame_seeds: args.endgame_seeds,
        ..SolveConfig::default().with_table_mb(table_mb(args)?)
    };
    if let Some(t) = args.time_limit {
        anyhow::ensure!(
            t.is_finite() && t > 0.0,
            "--time-limit must be a positive number of seconds"
        );
        config = config.with_time_limit(Duration::from_secs_f64(t));
    }
    // Judge the size before any work (and before allocating the table).
    let estimate = Solver::estimate(game.position(), config)?;
    // Progress (and a warning of a long solve) only on a terminal.
    let terminal = std::io::stderr().is_terminal();
    if let Some(note) = long_solve_note(estimate, args.best_only).filter(|_| terminal) {
        eprintln!("{note}");
    }

    // Each root move's MTD(f) starts from the heuristic alpha-beta search's guess.
    let mut solver = Solver::new(config).with_first_guess(mancala_engine::first_guess);
    if let Some(path) = &args.endgame_file {
        solver = solver.with_endgame_file(path);
    }
    let mut shown = ProgressLine::new();
    let show = |p| {
        shown.update(p);
        if terminal {
            shown.draw();
        }
    };
    let result = if args.best_only {
        solver.best_move_with_progress(&game, show).map(|(_, s)| s)
    } else {
        solver.solve_with_progress(&game, show)
    };
    if terminal {
        eprint!("\r\x1b[K");
    }
    let solution = match result {
        Err(e @ SolveError::OutOfTime) => anyhow::bail!(
            "{e} after {:.1} s (--time-limit); {}",
            shown.started.elapsed().as_secs_f64(),
            shown.proved()
        ),
        other => other?,
    };
    print_solution(&game, &solution, solver.endgame(), args, out)
}

/// The start (`--position`, `--record` or the initial position) after `--moves`.
fn game_to_solve(args: &SolveArgs) -> anyhow::Result<Game> {
    let mut game = args.start.game(&args.rules)?;
    let rules = game.rules();
    let before = game.ply();
    for (i, text) in args.moves.iter().enumerate() {
        let ply = before + i + 1;
        let mv = parse_house_number(text, rules.houses())
            .map_err(|e| anyhow::anyhow!("move {ply} ({text:?}): {e}"))?;
        game.play(mv)
            .map_err(|e| anyhow::anyhow!("move {ply} ({text}): {e}"))?;
    }
    Ok(game)
}

/// The table size: `--hash-mb` if it fits in the memory available, or a third of that
/// memory within bounds.
fn table_mb(args: &SolveArgs) -> anyhow::Result<usize> {
    let available = mancala_cli::available_memory();
    Ok(match args.hash_mb {
        Some(mb) => {
            anyhow::ensure!(mb >= 1, "--hash-mb must be at least 1");
            anyhow::ensure!(
                mb <= MAX_HASH_MB,
                "--hash-mb {mb} is more than the {MAX_HASH_MB} MiB this command allows"
            );
            if let Some(available) = available {
                anyhow::ensure!(
                    mb << 20 <= available / 10 * 8,
                    "--hash-mb {mb} needs {mb} MiB but only {} MiB of memory is available; \
                     ask for less",
                    available >> 20
                );
            }
            mb
        }
        None => available
            .map_or(DEFAULT_HASH_MB, |a| (a >> 20) / 3)
            .clamp(16, DEFAULT_HASH_MB),
    })
}

/// About how many nodes a second the solver visits on a small (2-core) machine, for
/// the time a warning predicts (docs/solver.md gives the measured rate it comes from).
const NODES_PER_SEC: f64 = 1e7;

/// Solves expected to take longer than this get a warning first.
const LONG_SOLVE_SECS: f64 = 60.0;

/// A warning for a solve expected to take minutes or more: how long, roughly, and (for
/// every move's value) that `--best-only` is quicker (Kalah(6,5): 8.5 times fewer nodes).
fn long_solve_note(estimate: Estimate, best_only: bool) -> Option<String> {
    let expected = estimate.expected_nodes?;
    let nodes = if best_only {
        expected.best_move
    } else {
        expected.every_move
    } as f64;
    let secs = nodes / NODES_PER_SEC;
    if secs < LONG_SOLVE_SECS {
        return None;
    }
    let time = if secs < 90.0 * 60.0 {
        format!("{:.0} minutes", secs / 60.0)
    } else {
        format!("{:.0} hours", secs / 3600.0)
    };
    let hint = if best_only {
        String::new()
    } else {
        "; --best-only proves the value and one best move several times faster".into()
    };
    Some(format!(
        "note: a long solve: about {nodes:.1e} nodes expected, some {time} on 2 cores at \
         {:.0} M nodes a second{hint}",
        NODES_PER_SEC / 1e6
    ))
}

/// What a solve has reported so far: the database build, then the bounds proved on
/// each root move (they are solved in parallel) and the nodes. Drawn as one line on a
/// terminal, and said in the error of a solve that runs out of time.
struct ProgressLine {
    started: Instant,
    last: Instant,
    database: Option<(usize, usize)>,
    /// Oware: positions done of those reachable.
    positions: Option<(usize, usize)>,
    moves: BTreeMap<Move, (i32, i32, u64)>,
    /// The position's own bounds (`--best-only`).
    position: Option<(i32, i32, u64)>,
}

impl ProgressLine {
    fn new() -> ProgressLine {
        let now = Instant::now();
        ProgressLine {
            started: now,
            last: now,
            database: None,
            positions: None,
            moves: BTreeMap::new(),
            position: None,
        }
    }

    /// Records `p` (drawing is [`ProgressLine::draw`]'s).
    fn update(&mut self, p: Progress) {
        match p {
            Progress::Database { seeds, of } => self.database = Some((seeds, of)),
            Progress::Positions { solved, of } => self.positions = Some((solved, of)),
            Progress::Bounds {
                mv,
                lower,
                upper,
                nodes,
            } => match mv {
                Some(mv) => _ = self.moves.insert(mv, (lower, upper, nodes)),
                None => self.position = Some((lower, upper, nodes)),
            },
        }
    }

    /// What the solve had proved, for a solve stopped before the end.
    fn proved(&self) -> String {
        let range = |lo: i32, hi: i32| {
            if lo == hi {
                format!("{lo:+}")
            } else {
                format!("{lo:+} to {hi:+}")
            }
        };
        let mut said = Vec::new();
        if let Some((seeds, of)) = self.database.filter(|&(seeds, of)| seeds < of) {
            said.push(format!(
                "the endgame database was built up to {seeds} of its {of} seeds"
            ));
        }
        if let Some((solved, of)) = self.positions.filter(|&(solved, of)| solved < of) {
            said.push(format!("{solved} of the {of} positions were solved"));
        }
        if let Some((lo, hi, _)) = self.position {
            said.push(format!("the value is {}", range(lo, hi)));
        }
        said.extend(
            self.moves
                .iter()
                .map(|(mv, &(lo, hi, _))| format!("move {mv} is {}", range(lo, hi))),
        );
        if said.is_empty() {
            "nothing was proved yet".to_owned()
        } else {
            format!("proved so far: {}", said.join("; "))
        }
    }

    /// Redraws the line, at most five times a second.
    fn draw(&mut self) {
        if self.last.elapsed() < Duration::from_millis(200) {
            return;
        }
        self.last = Instant::now();
        let mut line = String::new();
        if let Some((seeds, of)) = self.database {
            line += &format!("endgame database {seeds}/{of} seeds");
        }
        if let Some((solved, of)) = self.positions {
            line += &format!("positions solved {solved}/{of}");
        }
        let mut nodes = 0;
        for (mv, &(lo, hi, n)) in &self.moves {
            nodes += n;
            line += &if lo == hi {
                format!("  {mv}: {lo:+}")
            } else {
                format!("  {mv}: {lo:+}..{hi:+}")
            };
        }
        if let Some((lo, hi, n)) = self.position {
            nodes += n;
            line += &format!("  value {lo:+}..{hi:+}");
        }
        if !self.moves.is_empty() || self.position.is_some() {
            line += &format!("  {:.1} M nodes", nodes as f64 / 1e6);
        }
        eprint!(
            "\r\x1b[K{line}  {:.1} s",
            self.started.elapsed().as_secs_f64()
        );
    }
}

fn print_solution(
    game: &Game,
    s: &Solution,
    endgame: Option<EndgameInfo>,
    args: &SolveArgs,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    if args.json {
        return print_json(game, s, endgame, out);
    }
    writeln!(out, "{} {}", game.rules(), where_from(game))?;
    let verdict = match s.value {
        0 => "a draw".to_owned(),
        v if v > 0 => format!("player 1 wins by {v}"),
        v => format!("player 2 wins by {}", -v),
    };
    writeln!(
        out,
        "value: {:+} (player 1's final score minus player 2's under perfect play: {verdict})",
        s.value
    )?;
    match game.to_move() {
        None => writeln!(out, "the game is over")?,
        Some(side) => print_moves(game, side, s, out)?,
    }
    writeln!(
        out,
        "nodes: {}  time: {:.3} s  memory: {} MiB",
        s.nodes,
        s.elapsed.as_secs_f64(),
        s.memory_bytes >> 20
    )?;
    if let Some(e) = endgame {
        let file = args.endgame_file.as_ref().map(|p| p.display());
        let source = match (e.read, e.written, file) {
            (true, _, Some(file)) => format!(", read from {file}"),
            (_, true, Some(file)) => format!(", built and written to {file}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "endgame database: every board of up to {} seeds{source}",
            e.seeds
        )?;
    }
    Ok(())
}

fn print_json(
    game: &Game,
    s: &Solution,
    endgame: Option<EndgameInfo>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let report = Report {
        value: s.value,
        best_moves: s.best_moves.iter().map(|m| m.house()).collect(),
        move_values: MoveValues(&s.move_values),
        nodes: s.nodes,
        seconds: s.elapsed.as_secs_f64(),
        memory_bytes: s.memory_bytes,
        rules: game.rules().to_string(),
        to_move: game.to_move().map(|side| side.index() as u8 + 1),
        endgame: endgame.map(|e| EndgameReport {
            seeds: e.seeds,
            read_from_file: e.read,
            written_to_file: e.written,
        }),
    };
    serde_json::to_writer(&mut *out, &report)?;
    writeln!(out)?;
    Ok(())
}

/// Where the solved position comes from: "from the start", the start's notation, and
/// the moves played.
fn where_from(game: &Game) -> String {
    let from = if *game.start() == Position::new(game.rules()) {
        String::new()
    } else {
        format!("from {} ", game.start().to_notation())
    };
    if game.moves().is_empty() && from.is_empty() {
        "from the start".to_owned()
    } else if game.moves().is_empty() {
        from.trim_end().to_owned()
    } else {
        let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
        format!("{from}after {}", moves.join(" "))
    }
}

/// Who is to move, the best moves and every move's value.
fn print_moves(game: &Game, side: Side, s: &Solution, out: &mut impl Write) -> anyhow::Result<()> {
    let player = if side == Side::South { 1 } else { 2 };
    let best: Vec<String> = s.best_moves.iter().map(ToString::to_string).collect();
    let values: Vec<String> = s
        .move_values
        .iter()
        .map(|(m, v)| format!("{m}: {v:+}"))
        .collect();
    // `--best-only` proves one best move's value (Oware proves them all anyway).
    if s.move_values.len() < game.legal_moves().len() {
        writeln!(
            out,
            "player {player} to move; a best move: {}",
            best.join(" ")
        )?;
        writeln!(
            out,
            "move values: {} (only the best move's; drop --best-only for every move)",
            values.join("  ")
        )?;
    } else {
        writeln!(
            out,
            "player {player} to move; best move(s): {}",
            best.join(" ")
        )?;
        writeln!(out, "move values: {}", values.join("  "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use mancala_core::Rules;

    use super::*;

    #[test]
    fn a_long_solve_is_announced_with_a_rough_time() {
        let estimate = |rules: Rules| {
            let config = SolveConfig {
                force: true,
                ..SolveConfig::default()
            };
            Solver::estimate(&Position::new(rules), config).unwrap()
        };
        let note = long_solve_note(estimate(Rules::kalah(6, 5)), false).unwrap();
        assert_eq!(
            note,
            "note: a long solve: about 2.5e10 nodes expected, some 42 minutes on 2 cores at \
             10 M nodes a second; --best-only proves the value and one best move several \
             times faster"
        );
        let note = long_solve_note(estimate(Rules::kalah(6, 5)), true).unwrap();
        assert!(note.contains("some 10 minutes"), "{note}");
        assert!(!note.contains("--best-only"), "{note}");
        let note = long_solve_note(estimate(Rules::kalah(6, 6)), true).unwrap();
        assert!(note.contains("hours"), "{note}");
        // Kalah(6,4) takes seconds; Oware's solve is bounded by its positions instead.
        assert_eq!(long_solve_note(estimate(Rules::kalah(6, 4)), false), None);
        // So do narrow boards with many seeds (0.7 and 1.4 s, database build
        // included): the estimate from the seeds in play alone said 7 and 20 minutes.
        assert_eq!(long_solve_note(estimate(Rules::kalah(4, 7)), false), None);
        assert_eq!(long_solve_note(estimate(Rules::kalah(4, 8)), false), None);
        assert_eq!(long_solve_note(estimate(Rules::oware(3, 3)), false), None);
    }

    fn bounds(mv: Option<u8>, lower: i32, upper: i32) -> Progress {
        Progress::Bounds {
            mv: mv.map(|house| Move::from_index(usize::from(house) - 1)),
            lower,
            upper,
            nodes: 1000,
        }
    }

    #[test]
    fn a_stopped_solve_says_what_it_had_proved() {
        let mut line = ProgressLine::new();
        assert_eq!(line.proved(), "nothing was proved yet");

        line.update(Progress::Database { seeds: 12, of: 19 });
        assert_eq!(
            line.proved(),
            "proved so far: the endgame database was built up to 12 of its 19 seeds"
        );
        // A finished database is not news; the last bounds of each move are.
        line.update(Progress::Database { seeds: 19, of: 19 });
        line.update(bounds(Some(3), -48, 8));
        line.update(bounds(Some(1), -14, -14));
        line.update(bounds(Some(3), 6, 8));
        assert_eq!(
            line.proved(),
            "proved so far: move 1 is -14; move 3 is +6 to +8"
        );

        let mut best = ProgressLine::new();
        best.update(bounds(None, 8, 48));
        assert_eq!(best.proved(), "proved so far: the value is +8 to +48");

        let mut oware = ProgressLine::new();
        oware.update(Progress::Positions {
            solved: 10,
            of: 300,
        });
        assert_eq!(
            oware.proved(),
            "proved so far: 10 of the 300 positions were solved"
        );
    }
}
