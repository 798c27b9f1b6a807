//! The spec format (`#` comment, `>` expected output line, `<` input line) and a runner
//! that feeds a spec to the real binary and compares its output.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// A parsed specification: the bytes to feed to standard input and the exact bytes
/// expected on standard output.
#[derive(Debug, Default)]
pub struct Spec {
    pub input: String,
    pub expected: String,
}

/// Parses a spec: each `>` line is a line of output, except that a `>` line directly
/// followed by a `<` line is a prompt, printed without its newline; `<` lines are input.
pub fn parse(text: &str) -> Spec {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let mut spec = Spec::default();
    for (i, line) in lines.iter().enumerate() {
        if let Some(out) = line.strip_prefix('>') {
            spec.expected.push_str(out);
            let prompt = lines.get(i + 1).is_some_and(|next| next.starts_with('<'));
            if !prompt {
                spec.expected.push('\n');
            }
        } else if let Some(input) = line.strip_prefix('<') {
            spec.input.push_str(input);
            spec.input.push('\n');
        } else if !line.trim().is_empty() {
            panic!("not a spec line: {line:?}");
        }
    }
    spec
}

/// Runs the binary with `args` on `input`; returns (status ok, stdout, stderr).
pub fn run_binary(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mancala");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    // Write from another thread so a chatty child cannot deadlock on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("wait for mancala");
    writer.join().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The first difference between expected and actual output, readably.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let e: Vec<&str> = expected.split_inclusive('\n').collect();
    let a: Vec<&str> = actual.split_inclusive('\n').collect();
    let i = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let context: String = e[i.saturating_sub(3)..i]
        .iter()
        .map(|l| format!("    {l:?}\n"))
        .collect();
    Some(format!(
        "first difference at output line {}:\n  after:\n{context}  expected: {:?}\n  actual:   {:?}",
        i + 1,
        e.get(i).copied().unwrap_or("<end of output>"),
        a.get(i).copied().unwrap_or("<end of output>"),
    ))
}

/// Runs one spec file; `Err` holds a readable report.
pub fn run_spec_file(path: &Path, args: &[&str]) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let spec = parse(&text);
    let (ok, stdout, stderr) = run_binary(args, &spec.input);
    let name = path.display();
    if let Some(diff) = first_difference(&spec.expected, &stdout) {
        return Err(format!("{name} (mancala {}):\n{diff}", args.join(" ")));
    }
    if !ok {
        return Err(format!("{name}: exit status was not 0; stderr: {stderr}"));
    }
    Ok(())
}
