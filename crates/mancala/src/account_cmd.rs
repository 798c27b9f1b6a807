//! `mancala account`: the operator's care of the web game's accounts.
//!
//! The server sends no e-mail, so an owner who has forgotten their password asks the
//! operator, who sets a new one with `mancala account reset-password NAME` (see
//! docs/deploy.md, "Accounts").

use std::io::{BufRead, IsTerminal};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use mancala_web::{Games, Store, StoreOptions};

use crate::serve_cmd::db_location;

/// `mancala account …`
#[derive(Args, Debug)]
pub struct AccountArgs {
    #[command(subcommand)]
    command: AccountCommand,
}

#[derive(Subcommand, Debug)]
enum AccountCommand {
    /// Set a new password for an account and log out all its sessions (its bot
    /// tokens stay). The password is read from standard input (one line), or asked
    /// for twice, without echo, on a terminal; never give it as an argument, where
    /// the process list and the shell's history would keep it
    ResetPassword(ResetArgs),
}

#[derive(Args, Debug)]
struct ResetArgs {
    /// The account's username (any case)
    name: String,

    /// The server's database, as `mancala serve --db` takes it. Default:
    /// $DATABASE_URL, else games.sqlite in the data directory
    #[arg(long, value_name = "PATH|URL")]
    db: Option<String>,
}

/// Runs `mancala account …`; what it did, for standard output.
///
/// # Errors
/// No such account, a refused password, a database that does not open.
pub fn run(args: &AccountArgs, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    match &args.command {
        AccountCommand::ResetPassword(reset) => reset_password(reset, out),
    }
}

fn reset_password(args: &ResetArgs, out: &mut impl std::io::Write) -> anyhow::Result<()> {
    let password = new_password(&args.name)?;
    let db = db_location(args.db.as_deref())?;
    let runtime = tokio::runtime::Runtime::new()?;
    let ended = runtime.block_on(async {
        let store = Store::open(&db, &StoreOptions::default())
            .await
            .with_context(|| format!("opening {db}"))?;
        let games = Games::new(store);
        games
            .reset_password(&args.name, &password)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))
    })?;
    writeln!(
        out,
        "The password of {} is set; {ended} session{} logged out.",
        args.name,
        if ended == 1 { " was" } else { "s were" }
    )?;
    Ok(())
}

/// The new password: asked twice without echo on a terminal, else the first line of
/// standard input.
fn new_password(name: &str) -> anyhow::Result<String> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password(format!("New password for {name}: "))?;
        let again = rpassword::prompt_password("The same again: ")?;
        if first != again {
            bail!("the two passwords differ: nothing was changed");
        }
        return Ok(first);
    }
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .context("reading the new password from standard input")?;
    let password = line.strip_suffix('\n').unwrap_or(&line);
    let password = password.strip_suffix('\r').unwrap_or(password);
    if password.is_empty() {
        bail!("no password on standard input: nothing was changed");
    }
    Ok(password.to_owned())
}
