//! Every reference in the repository points inside it. The protocol, the API and the agents'
//! rules live in `docs/` (`protocol.md`, `api.md`, `agents.md`, `agents-2.md`); no file may
//! send a reader to the team's specification outside the repository, and every
//! `protocol.md §N.M`, `abi.md §N`, `agents.md §N` or `agents-2.md §N` a file cites must be a
//! section of the page it means (a bare `abi.md` is `docs/api.md`: CONTRIBUTING.md).
//! `.ci/` is left out: it is CI's own (and, as it happens, uses no outside path either).

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's text files, without build output, dependencies, hidden folders and `.ci/`.
fn text_files() -> Vec<(String, String)> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            let rel = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                let skipped = name.starts_with('.')
                    || matches!(name.as_str(), "target" | "node_modules" | "__pycache__" | "venv");
                if !skipped {
                    walk(&path, &rel, out);
                }
            } else if kind.is_file() {
                let small = entry.metadata().map(|m| m.len() < 4 << 20).unwrap_or(false);
                if let (true, Ok(text)) = (small, std::fs::read_to_string(&path)) {
                    out.push((rel, text));
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), "", &mut out);
    assert!(out.iter().any(|(p, _)| p == "docs/protocol.md"), "the walk found the repository");
    out
}

#[test]
fn no_file_points_at_the_specification_outside_the_repository() {
    // Spelled in pieces so that this file does not match itself.
    let outside = [concat!("..", "/shared/"), concat!("shared", "/spec")];
    let mut found = Vec::new();
    for (path, text) in text_files() {
        for (i, line) in text.lines().enumerate() {
            if outside.iter().any(|o| line.contains(o)) {
                found.push(format!("{path}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "these lines point outside the repository; cite docs/protocol.md, docs/api.md, \
         docs/agents.md, docs/agents-2.md or docs/dialects.md instead:\n{}",
        found.join("\n")
    );
}

/// The section numbers of a page: `## 5. Running hooks` gives `5`, `### 5.10 Async` `5.10`.
fn sections(page: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("docs").join(page)).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("## ").or_else(|| l.strip_prefix("### ")))
        .filter_map(|h| h.split_whitespace().next())
        .map(|n| n.trim_end_matches('.').to_string())
        .filter(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect()
}

/// A reader of the citations of one page's name: `protocol.md §5.10–5.11, §6` gives 5.10,
/// 5.11 and 6 (the `§N` groups after the name, joined by commas, dashes or "and").
struct Citations {
    cite: regex::Regex,
    number: regex::Regex,
}

impl Citations {
    fn of(name: &str) -> Citations {
        let name = regex::escape(name);
        let group = r"§\s*\d+(?:\.\d+)*(?:\s*[–-]\s*\d+(?:\.\d+)*)?(?:\s*(?:,|and)\s*)?";
        Citations {
            cite: regex::Regex::new(&format!(r"(?:^|[^\w-]){name}`?\s*\(?((?:{group})+)")).unwrap(),
            number: regex::Regex::new(r"\d+(?:\.\d+)*").unwrap(),
        }
    }

    fn read(&self, line: &str) -> Vec<String> {
        if !line.contains('§') {
            return Vec::new();
        }
        let mut out = Vec::new();
        for c in self.cite.captures_iter(line) {
            let cited = c.get(1).map_or("", |m| m.as_str());
            out.extend(self.number.find_iter(cited).map(|m| m.as_str().to_string()));
        }
        out
    }
}

fn citations(line: &str, name: &str) -> Vec<String> {
    Citations::of(name).read(line)
}

#[test]
fn every_cited_section_exists_in_the_page_it_means() {
    let pages = [
        ("protocol.md", "protocol.md"),
        ("abi.md", "api.md"),
        ("api.md", "api.md"),
        ("agents.md", "agents.md"),
        ("agents-2.md", "agents-2.md"),
    ];
    let known: Vec<(&str, Citations, BTreeSet<String>)> =
        pages.iter().map(|(name, page)| (*name, Citations::of(name), sections(page))).collect();
    let mut missing = Vec::new();
    for (path, text) in text_files() {
        for (i, line) in text.lines().enumerate() {
            for (name, reader, have) in &known {
                for n in reader.read(line) {
                    if !have.contains(&n) {
                        missing.push(format!("{path}:{}: {name} §{n}", i + 1));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "cited sections that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn citations_are_read_as_written() {
    assert_eq!(citations("(protocol.md §5.10–5.11, §6)", "protocol.md"), ["5.10", "5.11", "6"]);
    assert_eq!(citations("`abi.md` §2.2.", "abi.md"), ["2.2"]);
    assert_eq!(citations("agents-2.md §2.1 and agents.md §5", "agents.md"), ["5"]);
    assert_eq!(citations("docs/protocol.md §3.2 and §9", "protocol.md"), ["3.2", "9"]);
    assert!(citations("protocol.md, the spec", "protocol.md").is_empty());
}
