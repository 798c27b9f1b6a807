//! Runs the Auckland Kalah specifications against the real `mancala console` binary.
//!
//! The specifications are the test transcripts of the University of Auckland's Kalah
//! assignment (docs/rules.md, Sources, says where public copies are); they are not
//! copied into the repository. The runner reads them at test time from the folder
//! named by `KALAH_SPECS_DIR`, or else from the folder `kalah-specs` (or
//! `shared/kalah-specs`) beside the project's folder: the 19 standard files at its top,
//! the variant sets under `variants/`. Run it with
//!
//! ```sh
//! KALAH_SPECS_DIR=/path/to/kalah-specs cargo test -p mancala --test kalah_specs
//! ```
//!
//! Where the folder is absent the runner says so and skips, except under `CI=true`,
//! where a missing folder fails the run.

mod spec;

use std::path::{Path, PathBuf};

/// Where the specifications are looked for when `KALAH_SPECS_DIR` is not set, beside
/// the project's folder: `kalah-specs`, or `shared/kalah-specs`, where the team's
/// workplace (and so CI) lays its reference material.
const BESIDE_THE_PROJECT: [&str; 2] = ["kalah-specs", "shared/kalah-specs"];

/// The folder of specifications: `KALAH_SPECS_DIR`, else the first of
/// [`BESIDE_THE_PROJECT`] that exists. `None` (with a message) when it is absent, which
/// fails under `CI=true`.
fn specs_dir() -> Option<PathBuf> {
    // The manifest folder is <project>/crates/mancala, so ../../.. holds the project.
    let parent = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let dir = match std::env::var_os("KALAH_SPECS_DIR") {
        Some(d) => PathBuf::from(d),
        None => BESIDE_THE_PROJECT
            .iter()
            .map(|d| parent.join(d))
            .find(|d| d.is_dir())
            .unwrap_or_else(|| parent.join(BESIDE_THE_PROJECT[0])),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    let message = format!(
        "the Kalah specifications are not at {} (set KALAH_SPECS_DIR)",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("SKIPPED: {message}");
    None
}

/// Runs every spec file in `folder` (except the legacy test1/test2) with `args`.
fn run_folder(folder: &str, args: &[&str], expected_files: usize) {
    let Some(root) = specs_dir() else { return };
    let dir = root.join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .filter(|p| {
            !matches!(
                p.file_stem().and_then(|s| s.to_str()),
                Some("test1" | "test2")
            )
        })
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        expected_files,
        "spec files in {}",
        dir.display()
    );
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| spec::run_spec_file(f, args).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} specs failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn standard_specs() {
    run_folder(".", &["console"], 19);
}

#[test]
fn robot_specs() {
    run_folder("variants/robot-bmf-2020", &["console", "--p2", "robot"], 13);
}

#[test]
fn menu_specs() {
    run_folder("variants/load-save-new-2021", &["console", "--menu"], 31);
}

#[test]
fn pre_2020_copy_of_exactlapemptycapture() {
    run_folder("variants/standard-pre2020-07", &["console"], 1);
}
