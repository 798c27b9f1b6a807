//! Lists the shipped games (`games/*.toml`) for `description/builtin.rs`, so that adding a
//! game is adding its file: the list of files is written to `$OUT_DIR/games.rs` as
//! `(file name, include_str!(path))` pairs, in key order.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let dir = Path::new(&env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo")).join("games");
    // A directory here makes cargo rerun this script when a file in it is added, removed
    // or changed.
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    // By key (the file stem), so that `oware` comes before `oware-simplified`.
    files.sort_by(|a, b| a.file_stem().cmp(&b.file_stem()));
    let mut code = String::from("/// Each shipped game's file name and text, in key order.\n");
    let _ = writeln!(code, "const FILES: [(&str, &str); {}] = [", files.len());
    for path in &files {
        let name = path.file_name().expect("a file").to_string_lossy();
        let _ = writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = Path::new(&env::var_os("OUT_DIR").expect("set by cargo")).join("games.rs");
    fs::write(&out, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
