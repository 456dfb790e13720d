//! The examples of README.md and docs/*.md run as written: every ```console block is a list of
//! `$ c4 ...` commands, each followed by the output it prints, compared as trycmd compares
//! (`...` on a line of its own stands for any lines, `[..]` for any text within a line, so
//! timings need not match). A command that fails, or prints something else,
//! fails this test, so a renamed flag or a changed output cannot leave the docs behind.
//!
//! A slow example is marked by a comment just before its block,
//! `<!-- quick: c4 ... -->`: that command runs instead of the block's first one, and its output
//! is checked against the block's.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One command of a block and what it must print.
struct Example {
    file: String,
    line: usize,
    command: String,
    expected: String,
}

/// The words of a command line: whitespace-separated, with single or double quotes grouping.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for ch in line.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(ch);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}

/// Every `$ ` command of every ```console block in `path`.
fn examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path
        .strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "```console" {
            i += 1;
            continue;
        }
        // A `<!-- quick: ... -->` comment right before the block.
        let quick = i
            .checked_sub(1)
            .and_then(|j| lines[j].trim().strip_prefix("<!-- quick:"))
            .and_then(|c| c.strip_suffix("-->"))
            .map(|c| c.trim().to_string());
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && lines[end].trim() != "```" {
            end += 1;
        }
        let mut current: Option<Example> = None;
        for (k, line) in lines[start..end].iter().enumerate() {
            if let Some(cmd) = line.strip_prefix("$ ") {
                out.extend(current.take());
                let command = match (&quick, out.iter().any(|e: &Example| e.line > i)) {
                    (Some(q), false) => q.clone(),
                    _ => cmd.to_string(),
                };
                current = Some(Example {
                    file: name.clone(),
                    line: start + k + 1,
                    command,
                    expected: String::new(),
                });
            } else if let Some(e) = current.as_mut() {
                e.expected.push_str(line);
                e.expected.push('\n');
            } else {
                panic!(
                    "{name}:{}: a console block must start with `$ c4 ...`",
                    start + k + 1
                );
            }
        }
        out.extend(current);
        i = end + 1;
    }
    out
}

#[test]
fn the_examples_of_the_readme_and_the_manual_run_as_written() {
    let mut files = vec![repo().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/ is there")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let all: Vec<Example> = files.iter().flat_map(|f| examples(f)).collect();
    assert!(all.len() >= 8, "only {} examples found", all.len());
    for e in &all {
        let args = words(&e.command);
        assert_eq!(args[0], "c4", "{}:{}: examples run c4", e.file, e.line);
        let out = Command::new(env!("CARGO_BIN_EXE_c4"))
            .args(&args[1..])
            .current_dir(repo())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}:{}: `{}` failed:\n{}",
            e.file,
            e.line,
            e.command,
            String::from_utf8_lossy(&out.stderr)
        );
        let actual = String::from_utf8_lossy(&out.stdout);
        let expected = format!("{}\n", e.expected.trim_end());
        let actual = format!("{}\n", actual.trim_end());
        eprintln!("{}:{}: {}", e.file, e.line, e.command);
        assert!(
            matches(&expected, &actual),
            "{}:{}: `{}` printed\n{actual}\nwhere the docs say\n{expected}",
            e.file,
            e.line,
            e.command
        );
    }
}

/// Whether `actual` is what `expected` says: line by line, where a line `...` stands for
/// any lines (none included) and `[..]` within a line for any text.
fn matches(expected: &str, actual: &str) -> bool {
    fn lines(want: &[&str], got: &[&str]) -> bool {
        match want.split_first() {
            None => got.is_empty(),
            Some((&"...", rest)) => (0..=got.len()).any(|skip| lines(rest, &got[skip..])),
            Some((w, rest)) => got
                .split_first()
                .is_some_and(|(g, more)| line(w, g) && lines(rest, more)),
        }
    }
    fn line(want: &str, got: &str) -> bool {
        let mut parts = want.split("[..]");
        let first = parts.next().unwrap_or("");
        let Some(mut rest) = got.strip_prefix(first) else {
            return false;
        };
        let parts: Vec<&str> = parts.collect();
        for (i, part) in parts.iter().enumerate() {
            if i + 1 == parts.len() {
                return rest.ends_with(part);
            }
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
        rest.is_empty()
    }
    let want: Vec<&str> = expected.lines().collect();
    let got: Vec<&str> = actual.lines().collect();
    lines(&want, &got)
}

#[test]
fn the_matcher_takes_wildcards_as_trycmd_does() {
    assert!(matches("a\nb\n", "a\nb\n"));
    assert!(!matches("a\nb\n", "a\nc\n"));
    assert!(!matches("a\n", "a\nb\n"));
    assert!(matches("took [..] s\n", "took 1.5 s\n"));
    assert!(matches("[..] x [..] y\n", "1 x 2 x 3 y\n"));
    assert!(!matches("took [..] s\n", "took 1.5 ms!\n"));
    assert!(matches("a\n...\nz\n", "a\nb\nc\nz\n"));
    assert!(matches("a\n...\nz\n", "a\nz\n"));
    assert!(!matches("a\n...\nz\n", "a\nb\n"));
}

#[test]
fn command_lines_split_like_a_shell() {
    assert_eq!(
        words(r#"c4 evaluate --agent "ntuple:depth=1,safe=true" 'a b'"#),
        [
            "c4",
            "evaluate",
            "--agent",
            "ntuple:depth=1,safe=true",
            "a b"
        ]
    );
}
