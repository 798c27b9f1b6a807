//! External engines: any program speaking the line protocol ([`crate::protocol`]) on
//! its standard input and output, run as a child process for the length of a game.
//!
//! Every wait for the engine is bounded: the handshake by
//! [`ExternalSpec::handshake`], each move by the time budget plus
//! [`ExternalSpec::grace`]. The engine's output is read on a thread of its own, so a
//! silent or stuck engine never blocks the caller; the process is killed when the
//! [`ExternalEngine`] is dropped.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use mancala_core::{Game, Move};

use mancala_engine::Choice;

use crate::protocol::{Command, Reply, VERSION};

/// How to run an external engine: `ext:COMMAND` on a command line, the command split
/// into words as a POSIX shell would (quotes group words; nothing is expanded).
///
/// ```
/// use std::time::Duration;
/// use mancala_match::ExternalSpec;
/// let spec: ExternalSpec = "ext:python3 'my engine.py' --fast".parse().unwrap();
/// assert_eq!(spec.argv(), ["python3", "my engine.py", "--fast"]);
/// assert_eq!(spec.to_string(), "ext:python3 'my engine.py' --fast");
/// assert_eq!(spec.budget, Duration::from_millis(1000));
/// assert!("ext:".parse::<ExternalSpec>().is_err());
/// assert!("ext:unclosed 'quote".parse::<ExternalSpec>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    text: String,
    argv: Vec<String>,
    /// The time budget sent with each `go`.
    pub budget: Duration,
    /// How much later than the budget a `bestmove` may come before the move is late.
    pub grace: Duration,
    /// How long the engine may take to answer `protocol` with `ready` (loading a
    /// program, importing libraries).
    pub handshake: Duration,
    /// The file the engine's standard error is appended to (`None`: it goes where
    /// ours goes). A full-screen front end keeps it off its screen this way.
    pub stderr_log: Option<PathBuf>,
}

/// What went wrong with an external engine: each ends its game (a loss for the
/// engine) or, before any game, the match.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    /// The spec is not `ext:COMMAND`.
    #[error("bad external engine {0:?}: expected ext:COMMAND")]
    Syntax(String),
    /// The program could not be started.
    #[error("cannot start {command:?}: {source}")]
    Spawn {
        /// The command.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The engine closed its output (exited, crashed) or its input.
    #[error("the engine stopped talking (exited or closed its pipes)")]
    Closed,
    /// No answer in time.
    #[error("no {expected} within {waited} ms")]
    Timeout {
        /// What was awaited.
        expected: &'static str,
        /// How long.
        waited: u128,
    },
    /// A line that is not part of the protocol, or not the one expected.
    #[error("garbled reply {0:?}")]
    Garbled(String),
    /// The engine said `error`.
    #[error("the engine reported an error: {0}")]
    Engine(String),
    /// A `bestmove` that is not legal in the game.
    #[error("illegal move {0}")]
    Illegal(Move),
}

impl ExternalSpec {
    /// The prefix of an external engine on a command line.
    pub const PREFIX: &'static str = "ext:";

    /// The program and its arguments.
    #[must_use]
    pub fn argv(&self) -> &[String] {
        &self.argv
    }

    /// The same engine with another time budget per move.
    #[must_use]
    pub fn with_budget(self, budget: Duration) -> ExternalSpec {
        ExternalSpec { budget, ..self }
    }

    /// The same engine with another grace period.
    #[must_use]
    pub fn with_grace(self, grace: Duration) -> ExternalSpec {
        ExternalSpec { grace, ..self }
    }

    /// The same engine with its standard error appended to the file `path` (created
    /// when missing) instead of going to ours.
    #[must_use]
    pub fn with_stderr_log(self, path: impl Into<PathBuf>) -> ExternalSpec {
        ExternalSpec {
            stderr_log: Some(path.into()),
            ..self
        }
    }

    /// Starts the engine and waits for its `ready`.
    ///
    /// # Errors
    /// When it cannot be started or does not answer the handshake in time.
    pub fn start(&self) -> Result<ExternalEngine, ExternalError> {
        ExternalEngine::start(self.clone())
    }
}

impl FromStr for ExternalSpec {
    type Err = ExternalError;
    fn from_str(s: &str) -> Result<ExternalSpec, ExternalError> {
        let syntax = || ExternalError::Syntax(s.to_owned());
        let command = s.trim().strip_prefix(Self::PREFIX).ok_or_else(syntax)?;
        let argv = shlex::split(command).ok_or_else(syntax)?;
        if argv.is_empty() {
            return Err(syntax());
        }
        Ok(ExternalSpec {
            text: command.trim().to_owned(),
            argv,
            budget: Duration::from_millis(1000),
            grace: Duration::from_millis(1000),
            handshake: Duration::from_secs(30),
            stderr_log: None,
        })
    }
}

impl fmt::Display for ExternalSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Self::PREFIX, self.text)
    }
}

/// A running external engine: the child process, its input, and the lines its output
/// thread has read.
pub struct ExternalEngine {
    spec: ExternalSpec,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    name: Option<String>,
}

impl ExternalEngine {
    fn start(spec: ExternalSpec) -> Result<ExternalEngine, ExternalError> {
        let spawn_error = |source| ExternalError::Spawn {
            command: spec.text.clone(),
            source,
        };
        let stderr = match &spec.stderr_log {
            Some(path) => Stdio::from(
                File::options()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(spawn_error)?,
            ),
            None => Stdio::inherit(),
        };
        let mut child = Process::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(spawn_error)?;
        let input = child.stdin.take().expect("stdin is piped");
        let output = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = channel();
        // Ends when the engine closes its output (it exits or is killed on drop).
        thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            spec,
            child,
            input,
            lines,
            name: None,
        };
        engine.send(&Command::Protocol { version: VERSION })?;
        let deadline = Wait::new("ready", engine.spec.handshake);
        loop {
            match engine.reply(deadline)? {
                Reply::Ready => return Ok(engine),
                Reply::Name(name) => engine.name = Some(name),
                Reply::Info(_) => {}
                other => return Err(unexpected(other)),
            }
        }
    }

    /// The name the engine gave (`id name`), or its command.
    #[must_use]
    pub fn name(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.spec.to_string())
    }

    /// Tells the engine that a new game starts.
    ///
    /// # Errors
    /// When the engine's input is closed.
    pub fn new_game(&mut self) -> Result<(), ExternalError> {
        self.send(&Command::NewGame)
    }

    /// Asks the engine for a move in `game` (which must not be over) and checks it.
    ///
    /// # Errors
    /// When the engine does not answer in the budget plus the grace period, answers
    /// something else than a legal `bestmove`, or has stopped.
    pub fn choose(&mut self, game: &Game) -> Result<Choice, ExternalError> {
        self.send(&Command::position_of(game))?;
        let ms = self.spec.budget.as_millis().try_into().unwrap_or(u64::MAX);
        self.send(&Command::Go { ms })?;
        let deadline = Wait::new("bestmove", self.spec.budget + self.spec.grace);
        let mut said = None;
        loop {
            match self.reply(deadline)? {
                Reply::BestMove(mv) if game.legal_moves().contains(&mv) => {
                    return Ok(Choice { mv, reason: said });
                }
                Reply::BestMove(mv) => return Err(ExternalError::Illegal(mv)),
                Reply::Info(text) => said = Some(text),
                other => return Err(unexpected(other)),
            }
        }
    }

    fn send(&mut self, command: &Command) -> Result<(), ExternalError> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|_| ExternalError::Closed)
    }

    /// The next line, parsed, if it comes before `deadline`.
    fn reply(&mut self, deadline: Wait) -> Result<Reply, ExternalError> {
        let left = deadline.at.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => line.parse().map_err(|_| ExternalError::Garbled(line)),
            Err(RecvTimeoutError::Disconnected) => Err(ExternalError::Closed),
            Err(RecvTimeoutError::Timeout) => Err(ExternalError::Timeout {
                expected: deadline.expected,
                waited: deadline.allowed.as_millis(),
            }),
        }
    }
}

/// A bounded wait for a reply.
#[derive(Clone, Copy)]
struct Wait {
    expected: &'static str,
    allowed: Duration,
    at: Instant,
}

impl Wait {
    fn new(expected: &'static str, allowed: Duration) -> Wait {
        Wait {
            expected,
            allowed,
            at: Instant::now() + allowed,
        }
    }
}

/// The error for a well-formed reply that was not expected now.
fn unexpected(reply: Reply) -> ExternalError {
    match reply {
        Reply::Error(text) => ExternalError::Engine(text),
        other => ExternalError::Garbled(other.to_string()),
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        // A polite `quit`, then no waiting on the engine's goodwill: it is killed and
        // reaped, so no process outlives its game.
        let _ = writeln!(self.input, "{}", Command::Quit);
        let _ = self.input.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
