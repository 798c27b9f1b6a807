//! Every relative link of the README and of `docs/*.md` leads to a file of the
//! repository, and a link to a heading (`page.md#heading`) to a heading of that page, so
//! that the documentation a newcomer follows from the README never ends in a missing
//! page. Links inside fenced code blocks are text, not links, and are left out; links to
//! web addresses are not followed.

use std::path::{Path, PathBuf};

/// The repository's top folder (the manifest folder is `<project>/crates/mancala`).
fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![project().join("README.md")];
    let docs = project().join("docs");
    for entry in std::fs::read_dir(&docs).expect("reading docs/") {
        let path = entry.expect("a docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    pages
}

/// The text of a page without its fenced code blocks.
fn prose(text: &str) -> String {
    let mut in_code = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        } else if !in_code {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The targets of the `[text](target)` links in `text`.
fn link_targets(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &text[at + 2..];
            let end = rest.find(')')?;
            let target = &rest[..end];
            (!target.is_empty() && !target.contains(char::is_whitespace)).then_some(target)
        })
        .collect()
}

/// The anchors GitHub gives a page's headings: lower case, spaces as `-`, punctuation
/// other than `-` and `_` dropped.
fn anchors(text: &str) -> Vec<String> {
    let headings = prose(text)
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect::<Vec<String>>();
    // Anchors given by hand (`<a id="key"></a>`, as docs/games.md gives each game its
    // key), which GitHub renders as link targets too.
    let ids = text.lines().filter_map(|l| {
        let rest = l.trim().strip_prefix("<a id=\"")?;
        rest.split_once('"').map(|(id, _)| id.to_owned())
    });
    headings.into_iter().chain(ids).collect()
}

/// What is wrong with `target` as a link from `page`, if anything.
fn broken(page: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let file = if path.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(path)
    };
    if !file.exists() {
        return Some(format!("{target}: no such file"));
    }
    if anchor.is_empty() || file.extension().is_none_or(|e| e != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&file).unwrap();
    (!anchors(&text).iter().any(|a| a == anchor)).then(|| format!("{target}: no such heading"))
}

#[test]
fn every_relative_link_of_the_readme_and_docs_resolves() {
    let mut problems = Vec::new();
    let pages = pages();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in link_targets(&prose(&text)) {
            if let Some(problem) = broken(page, target) {
                problems.push(format!("{}: {problem}", page.display()));
            }
        }
    }
    assert!(pages.len() > 10, "only {} pages found", pages.len());
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_check_sees_a_broken_link_and_a_missing_heading() {
    let readme = project().join("README.md");
    assert_eq!(
        link_targets("see [a](docs/a.md) and [b](#b)"),
        ["docs/a.md", "#b"]
    );
    assert!(broken(&readme, "docs/no-such-page.md").is_some());
    assert!(broken(&readme, "docs/rules.md#no-such-heading").is_some());
    assert!(broken(&readme, "docs/rules.md#sources").is_none());
    assert!(broken(&readme, "https://example.org/x").is_none());
    assert!(link_targets(&prose("```\n[a](nowhere.md)\n```\n")).is_empty());
}
