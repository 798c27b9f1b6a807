//! The crate's modules depend on each other one way, as `lib.rs` says: drawing (`ui`)
//! reads the app state, the app never draws, and the geometry both use (`layout`)
//! depends on neither. Read from the sources, so a new `use` that closes a cycle fails
//! here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and the other top-level modules its code names as `crate::x`
/// (doc comments left out: a link is not a dependency).
fn dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = vec![src.clone()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let relative = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let module = relative.split(['/', '.']).next().unwrap().to_owned();
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
        let used = deps.entry(module.clone()).or_default();
        for line in code {
            for (i, _) in line.match_indices("crate::") {
                let rest = &line[i + "crate::".len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name != module {
                    used.insert(name);
                }
            }
        }
    }
    deps
}

#[test]
fn modules_depend_one_way() {
    let deps = dependencies();
    let set = |names: &[&str]| {
        names
            .iter()
            .map(|s| (*s).to_owned())
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(deps["fit"], set(&[]));
    assert_eq!(deps["layout"], set(&[]));
    // Names are cut to their length with `fit`, which any module may use.
    assert_eq!(deps["setup"], set(&["fit"]));
    assert_eq!(deps["style"], set(&[]));
    assert_eq!(
        deps["help"],
        set(&["fit", "keymap", "style"]),
        "the help's text draws nothing"
    );
    // The key table is data both the app and the help read: it depends on nothing.
    assert_eq!(deps["keymap"], set(&[]));
    assert!(
        !deps["app"].contains("ui"),
        "the app does not draw: {:?}",
        deps["app"]
    );
    // No cycle of any length: peel off modules that depend on nothing left.
    let mut left = deps.clone();
    while !left.is_empty() {
        let free: Vec<String> = left
            .iter()
            .filter(|(_, used)| used.iter().all(|u| !left.contains_key(u)))
            .map(|(m, _)| m.clone())
            .collect();
        assert!(!free.is_empty(), "a cycle among {left:?}");
        for m in free {
            left.remove(&m);
        }
    }
}
