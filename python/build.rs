//! The `mancala` command in the wheel. With the `cli` feature, which pyproject.toml
//! turns on (so `pip install ./python` has it, and `cargo clippy` on this crate does
//! not), this builds the suite's `mancala` binary from the workspace next door and
//! leaves it in `wheel-data/scripts/`, maturin's wheel data directory: pip installs a
//! wheel's scripts into the environment's `bin/`, beside `python`, as it installs
//! ruff's and uv's binaries. A pip user then has the whole suite: the terminal game,
//! `mancala match`, `mancala serve`.
//!
//! maturin builds either a Python module or binaries, not both (its issue 368), so
//! the binary is built here, with the workspace's own lock and release profile, in a
//! target directory of its own: the one this build runs in is locked by it.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CARGO_FEATURE_CLI");
    if env::var_os("CARGO_FEATURE_CLI").is_none() {
        return;
    }
    if let Err(e) = build_cli() {
        // A build script's panic is how it fails the build; the message says why.
        panic!("building the `mancala` command for the wheel failed: {e}");
    }
}

fn build_cli() -> Result<(), String> {
    let here = PathBuf::from(var("CARGO_MANIFEST_DIR")?);
    let scripts = here.join("wheel-data").join("scripts");
    fs::create_dir_all(&scripts).map_err(|e| format!("{}: {e}", scripts.display()))?;
    // The test command has just built the binary (a debug build, for its own tests):
    // it names it here rather than have a second, release build of the whole suite
    // take ten minutes of every run on a small machine.
    println!("cargo::rerun-if-env-changed=MANCALA_CLI_FROM");
    if let Ok(built) = env::var("MANCALA_CLI_FROM") {
        println!("cargo::rerun-if-changed={built}");
        return copy(Path::new(&built), &scripts.join(exe("mancala")));
    }
    let repo = here.parent().ok_or("python/ has no parent directory")?;
    for watched in ["crates", "Cargo.toml", "Cargo.lock"] {
        println!("cargo::rerun-if-changed={}", repo.join(watched).display());
    }
    let target = cli_target_dir()?;
    let status = Command::new(var("CARGO")?)
        .args(["build", "--release", "--locked", "--package", "mancala"])
        .arg("--manifest-path")
        .arg(repo.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        // The flags of this build (maturin's, for a Python module) are not the
        // binary's.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build -p mancala: {status}"));
    }
    let built = target.join("release").join(exe("mancala"));
    copy(&built, &scripts.join(exe("mancala")))
}

/// `<this build's target directory>/mancala-cli`: OUT_DIR is
/// `<target>/<profile>/build/<package>-<hash>/out`.
fn cli_target_dir() -> Result<PathBuf, String> {
    let out = PathBuf::from(var("OUT_DIR")?);
    let target = out
        .ancestors()
        .nth(4)
        .ok_or_else(|| format!("OUT_DIR {} is not in a target directory", out.display()))?;
    Ok(target.join("mancala-cli"))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("copying {} to {}: {e}", from.display(), to.display()))
}

fn var(name: &str) -> Result<String, String> {
    env::var(name).map_err(|_| format!("cargo did not set {name}"))
}

fn exe(name: &str) -> String {
    format!("{name}{}", env::consts::EXE_SUFFIX)
}
