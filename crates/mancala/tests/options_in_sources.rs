//! Outside the rules core, no source names a game's rule option or a game's word for
//! a claimed house: front ends, the session, the computer players, the web's scripts
//! and styles and the Python package offer them from the games' own lists
//! (`VariantInfo::options`, `claim_word`), so that a game that brings an option or a
//! claimed house of its own needs no code outside core. Read from the sources, so a new
//! `"empty_capture"` in a front end fails here. Comments, Python docstrings and the
//! `#[cfg(test)]` tails of files are left out: a test or an example may name anything.

use std::path::{Path, PathBuf};

use mancala_core::{RuleOptions, Variant};

/// The directories whose sources must not name an option, from the workspace root.
const SCANNED: [&str; 12] = [
    "crates/mancala/src",
    "crates/mancala-cli/src",
    "crates/mancala-console/src",
    "crates/mancala-engine/src",
    "crates/mancala-match/src",
    "crates/mancala-session/src",
    "crates/mancala-tui/src",
    "crates/mancala-web/src",
    "crates/mancala-web/static",
    "crates/mancala-bench/src",
    "python/src",
    "python/mancala_rs",
];

/// Files that may, and why.
const ALLOWED: [(&str, &str); 1] = [(
    "crates/mancala-web/src/store/games.rs",
    "the games table's columns of the releases before the rules became one value, \
     still written during a rolling upgrade; a later release drops them",
)];

/// The words that name an option or a claimed house, in every form the sources could
/// write them: the key (`end-rule`), its field (`end_rule`), its record tag
/// (`EndRule`), the values of an option that is not a switch, and each claim word.
fn needles() -> Vec<String> {
    let mut words = Vec::new();
    for option in RuleOptions::all() {
        let tag: String = option
            .key
            .split('-')
            .map(|w| w[..1].to_uppercase() + &w[1..])
            .collect();
        words.extend([option.key.to_owned(), option.key.replace('-', "_"), tag]);
        if !option.is_switch() {
            words.extend(option.values.iter().map(|v| (*v).to_owned()));
        }
    }
    for variant in Variant::catalogue() {
        let word = variant.info().claim_word;
        if !word.is_empty() && !words.iter().any(|w| w == word) {
            words.push(word.to_owned());
        }
    }
    words
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(path) = todo.pop() {
        if path.is_dir() {
            todo.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path
            .extension()
            .is_some_and(|e| ["rs", "js", "css", "py", "html"].contains(&e.to_str().unwrap()))
        {
            found.push(path);
        }
    }
    found
}

/// The lines of code of a file, by number: no comments, docstrings or test tail.
fn code_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    let python = path.extension().is_some_and(|e| e == "py");
    let text = match text.find("#[cfg(test)]") {
        Some(at) if !python => &text[..at],
        _ => text,
    };
    let mut in_docstring = false;
    let mut code = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if python && trimmed.matches("\"\"\"").count() % 2 == 1 {
            in_docstring = !in_docstring;
            continue;
        }
        let comment = ["//", "/*", "* ", "*/", "<!--"]
            .iter()
            .any(|c| trimmed.starts_with(c))
            || trimmed == "*"
            || (python && (trimmed.starts_with('#') || trimmed.starts_with("\"\"\"")));
        if !in_docstring && !comment {
            code.push((i + 1, line.to_owned()));
        }
    }
    code
}

#[test]
fn no_front_end_names_a_games_option_or_claimed_house() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let needles = needles();
    assert!(
        needles.iter().any(|n| n == "empty_capture") && needles.iter().any(|n| n == "tuzdyk"),
        "the needles come from the catalogue: {needles:?}"
    );
    let mut found = Vec::new();
    for dir in SCANNED {
        let dir = root.join(dir);
        assert!(dir.is_dir(), "{} is gone: update SCANNED", dir.display());
        for path in files(&dir) {
            let shown = path.strip_prefix(&root).unwrap().display().to_string();
            if ALLOWED.iter().any(|(allowed, _)| shown == *allowed) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in code_lines(&path, &text) {
                let lower = line.to_lowercase();
                if let Some(word) = needles.iter().find(|w| lower.contains(&w.to_lowercase())) {
                    found.push(format!("{shown}:{n}: {word}: {}", line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "outside core, sources name a game's option or claimed house (offer them from \
         the games' lists instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_code_and_not_comments() {
    let rs = Path::new("x.rs");
    let text = "/// empty_capture\nlet x = \"empty_capture\";\n#[cfg(test)]\nmod t { tuzdyk }";
    let lines = code_lines(rs, text);
    assert_eq!(lines, [(2, "let x = \"empty_capture\";".to_owned())]);
    let py = Path::new("x.py");
    let text = "def f():\n    \"\"\"end_rule\n    more\"\"\"\n    return end_rule\n# tuzdyk";
    assert_eq!(
        code_lines(py, text),
        [
            (1, "def f():".to_owned()),
            (4, "    return end_rule".to_owned())
        ]
    );
}
