//! Within every crate of the workspace, the top-level modules depend on each other one
//! way: no module reaches itself through `crate::` or `super::` paths, directly or
//! through a name the crate root re-exports (`pub use x::Y` at the root makes
//! `crate::Y` a use of module `x`). Read from the sources, so a new `use` that closes a
//! cycle fails here, in whichever crate it is written. Test modules (`#[cfg(test)]`
//! tails of files) are left out: a test may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Where a crate-root name comes from: a module, or the root re-exporting a module's item.
type RootNames = BTreeMap<String, String>;

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

fn ident(s: &str) -> String {
    s.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The code of a file without comment lines and without its `#[cfg(test)]` tail.
fn code_of(text: &str) -> String {
    let text = text.find("#[cfg(test)]").map_or(text, |at| &text[..at]);
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segments of the paths that follow each occurrence of `prefix` in `code`:
/// `prefix x::…` gives `x`, and `prefix {x::…, Y, z::{…}}` gives `x`, `Y` and `z`.
fn first_segments(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, _) in code.match_indices(prefix) {
        if code[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let rest = &code[i + prefix.len()..];
        let Some(group) = rest.strip_prefix('{') else {
            names.insert(ident(rest));
            continue;
        };
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
                    names.insert(ident(&group[j..]));
                    item_start = false;
                }
                _ => {}
            }
        }
    }
    names.remove("");
    names.remove("self");
    names
}

/// The names the crate root (`lib.rs` or `main.rs`) declares or re-exports, each with the
/// top-level module it comes from.
fn root_names(root: &str) -> RootNames {
    let code = code_of(root);
    let mut names = RootNames::new();
    for line in code.lines() {
        let line = line.trim_start();
        let line = line.strip_prefix("pub ").unwrap_or(line);
        if let Some(module) = line.strip_prefix("mod ") {
            let module = ident(module);
            names.insert(module.clone(), module);
        }
    }
    for (i, _) in code.match_indices("pub use ") {
        let rest = &code[i + "pub use ".len()..];
        let module = ident(rest);
        let Some(items) = rest[module.len()..].strip_prefix("::") else {
            continue;
        };
        let items = &items[..items.find(';').unwrap_or(items.len())];
        let items = items.trim_start_matches('{');
        for item in items.split([',', '{', '}']).map(str::trim) {
            let alias = item.rsplit(" as ").next().unwrap_or_default();
            let last = ident(alias.rsplit("::").next().unwrap_or_default());
            if !last.is_empty() && last != "self" {
                names.entry(last).or_insert_with(|| module.clone());
            }
        }
    }
    names
}

/// The top-level modules a file's code reaches: `crate::` paths, and `super::` paths
/// that climb to the crate root from a file `depth` modules deep, each resolved through
/// the root's names.
fn modules_used(code: &str, depth: usize, root: &RootNames) -> BTreeSet<String> {
    let mut names = first_segments(code, "crate::");
    for supers in depth..=depth + 2 {
        names.extend(first_segments(code, &"super::".repeat(supers)));
    }
    names.iter().filter_map(|n| root.get(n).cloned()).collect()
}

/// Each top-level module of the crate whose sources are in `src`, with the other
/// top-level modules it uses (an exported macro counts as its defining module's).
fn module_graph(src: &Path) -> Graph {
    let root = ["lib.rs", "main.rs"]
        .iter()
        .find_map(|f| std::fs::read_to_string(src.join(f)).ok())
        .unwrap_or_default();
    let mut root = root_names(&root);
    let mut files = Vec::new();
    for path in rust_files(src) {
        let relative = path.strip_prefix(src).unwrap();
        let parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
            .collect();
        if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
            continue;
        }
        // `x.rs` and `x/mod.rs` are one module deep, `x/y.rs` two.
        let depth = parts.iter().filter(|p| *p != "mod").count();
        let code = code_of(&std::fs::read_to_string(&path).unwrap());
        for (i, _) in code.match_indices("#[macro_export]") {
            if let Some(at) = code[i..].find("macro_rules!") {
                let name = ident(code[i + at + "macro_rules!".len()..].trim_start());
                root.entry(name).or_insert_with(|| parts[0].clone());
            }
        }
        files.push((parts[0].clone(), depth, code));
    }
    let mut graph = Graph::new();
    for (module, depth, code) in files {
        let used = modules_used(&code, depth, &root);
        let edges = graph.entry(module.clone()).or_default();
        edges.extend(used.into_iter().filter(|m| *m != module));
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
    let mut cycles = Vec::new();
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        if let Some(cycle) = a_cycle(&module_graph(&src)) {
            cycles.push(format!("{}: {}", src.display(), cycle.join(" -> ")));
        }
        checked += 1;
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
    assert!(checked >= 9, "only {checked} crates found under {crates:?}");
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn the_check_reads_grouped_uses() {
    let root = root_names("mod a;\nmod b;\nmod d;\n");
    let used = modules_used(
        "use crate::{a::X, b::{Y, Z}, C};\nlet x = crate::d::f();",
        1,
        &root,
    );
    assert_eq!(used, set(&["a", "b", "d"]));
}

#[test]
fn the_check_follows_re_exports_and_super_paths_but_not_tests() {
    let root = root_names(
        "mod a;\nmod b;\npub mod c;\npub use a::{Alpha, inner::Deep as D};\npub use b::Beta;\n",
    );
    assert_eq!(root.get("Alpha").map(String::as_str), Some("a"));
    assert_eq!(root.get("D").map(String::as_str), Some("a"));
    assert_eq!(modules_used("use crate::Alpha;", 1, &root), set(&["a"]));
    assert_eq!(
        modules_used("use crate::{Beta, c::X};", 1, &root),
        set(&["b", "c"])
    );
    // From `x/y.rs`, `super::` is `x`; `super::super::` is the crate root.
    assert_eq!(modules_used("use super::Beta;", 2, &root), set(&[]));
    assert_eq!(
        modules_used("use super::super::Beta;", 2, &root),
        set(&["b"])
    );
    assert_eq!(
        modules_used("use super::{Alpha, Beta};", 1, &root),
        set(&["a", "b"])
    );
    let code = code_of("use crate::Alpha;\n#[cfg(test)]\nmod tests { use crate::Beta; }");
    assert_eq!(modules_used(&code, 1, &root), set(&["a"]));
}

#[test]
fn the_check_finds_a_cycle() {
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
