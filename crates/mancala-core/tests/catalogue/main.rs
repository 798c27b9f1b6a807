//! The catalogue of shipped games (`crates/mancala-core/games/`): every file is shipped
//! and valid, says what the game is and where its rules come from, and every game has a
//! worked example played through the description engine (the `examples_*` modules).

mod example;
mod examples_count;
mod examples_relay;
mod examples_stores;

use std::collections::HashMap;
use std::path::PathBuf;

use mancala_core::description::Description;

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Every `games/*.toml` (name and text), read from the folder at test time.
fn files_in_folder() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(games_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_file_in_the_games_folder_is_shipped_valid_and_named_by_its_key() {
    let files = files_in_folder();
    assert_eq!(Description::builtins().len(), files.len());
    for (name, text) in &files {
        let d = Description::from_toml(text, name).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            name.strip_suffix(".toml"),
            Some(d.key.as_str()),
            "{name}: a game's file is named by its key"
        );
        assert_eq!(Description::builtin(&d.key).as_ref(), Some(&d), "{name}");
        assert_eq!(Description::builtin_text(&d.key), Some(text.as_str()));
        assert!(text.starts_with('#'), "{name}: starts with a comment line");
    }
}

#[test]
fn every_game_says_what_it_is_where_it_is_played_and_where_its_rules_come_from() {
    for d in Description::builtins() {
        let key = &d.key;
        for (field, value) in [
            ("name", &d.name),
            ("region", &d.region),
            ("summary", &d.summary),
            ("rules", &d.rules),
            ("tip", &d.tip),
        ] {
            assert!(!value.trim().is_empty(), "{key}: {field} is empty");
        }
        assert!(!d.sources.is_empty(), "{key}: no source");
        for source in &d.sources {
            assert!(
                !source.cite.trim().is_empty(),
                "{key}: a source without a cite"
            );
        }
        assert!(!d.summary.contains('\n'), "{key}: the summary is one line");
    }
}

/// A name folded for comparison: lower case, without accents or punctuation.
fn folded(name: &str) -> String {
    name.chars()
        .filter_map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'Á' => Some('a'),
            'é' | 'è' | 'ê' | 'ë' | 'É' => Some('e'),
            'í' | 'ì' | 'î' | 'ï' => Some('i'),
            'ó' | 'ò' | 'ô' | 'ö' | 'Ö' => Some('o'),
            'ú' | 'ù' | 'û' | 'ü' | 'Ü' => Some('u'),
            c if c.is_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

#[test]
fn no_name_or_alias_of_one_game_is_a_name_of_another() {
    let mut owner: HashMap<String, String> = HashMap::new();
    for d in Description::builtins() {
        let mut names = vec![d.key.clone(), d.name.clone()];
        names.extend(d.aliases.iter().cloned());
        names.sort_by_key(|n| folded(n));
        names.dedup_by_key(|n| folded(n));
        for name in names {
            if let Some(other) = owner.insert(folded(&name), d.key.clone()) {
                panic!("{name:?} names both {other} and {}", d.key);
            }
        }
    }
}

#[test]
fn every_game_has_a_worked_example() {
    let mut covered = example::games_of(examples_count::EXAMPLES);
    covered.extend(example::games_of(examples_stores::EXAMPLES));
    covered.extend(example::games_of(examples_relay::EXAMPLES));
    for d in Description::builtins() {
        assert!(
            covered.contains(&d.key.as_str()),
            "{} has no worked example",
            d.key
        );
    }
}
