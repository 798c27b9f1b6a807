//! Runs the Auckland Kalah specifications against the real `mancala console` binary.
//!
//! The specifications are the test transcripts of the University of Auckland's Kalah
//! assignment (docs/rules.md, Sources, says where public copies are; docs/console.md how
//! to lay them out); they are not copied into the repository. The runner reads them at
//! test time from the folder named by `KALAH_SPECS_DIR`, or else from the folder
//! `kalah-specs` (or `shared/kalah-specs`, where a team keeps its reference material)
//! beside the project's folder: the 19 standard files at its top, the variant sets
//! under `variants/`. Run it with
//!
//! ```sh
//! KALAH_SPECS_DIR=/path/to/kalah-specs cargo test -p mancala --test kalah_specs
//! ```
//!
//! Where the folder is absent the runner says so and skips, except under `CI=true`,
//! where a missing folder fails the run.

mod spec;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The folders looked for beside the project's folder when `KALAH_SPECS_DIR` is not
/// set, in order: the first that exists is read.
const BESIDE_THE_PROJECT: [&str; 2] = ["kalah-specs", "shared/kalah-specs"];

/// Where the specifications are looked for: the folder named by `KALAH_SPECS_DIR`
/// (`env`) when it is set and not empty, else the first of [`BESIDE_THE_PROJECT`] in
/// `project_parent` that exists (the first when none does, to name it in the message).
/// The variable wins even when it names a missing folder, so that a typo is reported
/// rather than quietly replaced by another copy.
fn specs_location(env: Option<OsString>, project_parent: &Path) -> PathBuf {
    match env.filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => BESIDE_THE_PROJECT
            .iter()
            .map(|name| project_parent.join(name))
            .find(|dir| dir.is_dir())
            .unwrap_or_else(|| project_parent.join(BESIDE_THE_PROJECT[0])),
    }
}

/// The folder of specifications (see [`specs_location`]). `None` (with a message) when
/// it is absent, which fails under `CI=true`.
fn specs_dir() -> Option<PathBuf> {
    // The manifest folder is <project>/crates/mancala, so its third parent holds the
    // project's folder.
    let parent = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let dir = specs_location(std::env::var_os("KALAH_SPECS_DIR"), &parent);
    if dir.is_dir() {
        return Some(dir);
    }
    let message = format!(
        "the Kalah specifications are not at {} (set KALAH_SPECS_DIR to their folder; \
         docs/console.md says where they come from)",
        dir.display()
    );
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("SKIPPED: {message}");
    None
}

#[test]
fn kalah_specs_dir_wins_over_the_folder_beside_the_project() {
    let parent = tempfile::tempdir().unwrap();
    std::fs::create_dir(parent.path().join(BESIDE_THE_PROJECT[0])).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    assert_eq!(
        specs_location(Some(elsewhere.path().into()), parent.path()),
        elsewhere.path()
    );
    // Even a missing folder named by the variable is the one used (and reported).
    let missing = elsewhere.path().join("missing");
    assert_eq!(
        specs_location(Some(missing.clone().into()), parent.path()),
        missing
    );
}

#[test]
fn without_kalah_specs_dir_the_folder_beside_the_project_is_read() {
    let parent = tempfile::tempdir().unwrap();
    let beside = parent.path().join("kalah-specs");
    // None there: the first name, for the message.
    assert_eq!(specs_location(None, parent.path()), beside);
    let shared = parent.path().join("shared/kalah-specs");
    std::fs::create_dir_all(&shared).unwrap();
    assert_eq!(specs_location(None, parent.path()), shared);
    std::fs::create_dir(&beside).unwrap();
    assert_eq!(
        specs_location(None, parent.path()),
        beside,
        "kalah-specs first"
    );
    assert_eq!(specs_location(Some(OsString::new()), parent.path()), beside);
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
