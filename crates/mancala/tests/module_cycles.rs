//! Within every crate of the workspace, the top-level modules depend on each other one
//! way: no module reaches itself through `crate::` paths. Read from the sources, so a
//! new `use` that closes a cycle fails here, in whichever crate it is written.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(path) = todo.pop() {
        if path.is_dir() {
            todo.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The module names a piece of code reaches through `crate::`: `crate::x::…` and the
/// first segments inside `use crate::{x::…, y::…}`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find("};").unwrap_or(group.len())];
            let mut depth = 0;
            let mut item_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if c.is_whitespace() => {}
                    _ if item_start && depth == 0 => {
                        let name = ident(&group[j..]);
                        if group[j + name.len()..].starts_with("::") {
                            names.insert(name);
                        }
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest));
        }
    }
    names
}

/// Each top-level module of the crate whose sources are in `src`, with the other
/// top-level modules it names (comments left out: a doc link is not a dependency).
fn module_graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    for path in rust_files(src) {
        let relative = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let module = relative.split(['/', '.']).next().unwrap().to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let used = graph.entry(module.clone()).or_default();
        used.extend(named_modules(&code).into_iter().filter(|m| *m != module));
    }
    graph
}

/// A cycle of `graph`, if it has one, as the modules along it.
fn a_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        module: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if !done.insert(module.to_owned()) {
            return None;
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            if graph.contains_key(next)
                && let Some(cycle) = visit(graph, next, path, done)
            {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(graph, m, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_modules_that_import_each_other_in_a_cycle() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let graph = module_graph(&src);
        assert_eq!(a_cycle(&graph), None, "in {}", src.display());
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} crates found under {crates:?}");
}

#[test]
fn the_check_finds_a_cycle_and_reads_grouped_uses() {
    let used = named_modules("use crate::{a::X, b::{Y, Z}, C};\nlet x = crate::d::f();");
    assert_eq!(used, ["a", "b", "d"].map(String::from).into());
    let graph: Graph = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
        .into_iter()
        .map(|(m, n)| (m.to_owned(), BTreeSet::from([n.to_owned()])))
        .collect();
    assert_eq!(
        a_cycle(&graph),
        Some(["a", "b", "c", "a"].map(String::from).to_vec())
    );
    let acyclic: Graph = [("a", "b"), ("b", "c")]
        .into_iter()
        .map(|(m, n)| (m.to_owned(), BTreeSet::from([n.to_owned()])))
        .collect();
    assert_eq!(a_cycle(&acyclic), None);
}
