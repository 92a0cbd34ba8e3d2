//! The engine's modules form layers: vocabulary (`catalog`) at the bottom, then the typed model
//! (`config`), the dialects, loading, and the fire's stages, with `dispatcher` on top. No module
//! may import one that imports it back, at any depth of the tree: this test reads every
//! `crate::` and `super::` path in core/src and fails on the first import circle, naming it.
//!
//! `bash`-free equivalent of the check in the redesign note (issue 15).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("core/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `dialect/claude_code/mod.rs` → `dialect::claude_code`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src").with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The code of a file without its `#[cfg(test)] mod tests { … }` tail and without comments.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests {") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Module paths (`a::b::c`) named after `prefix` in `code`, including `prefix{a, b::c}` lists.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let end = list.find('}').unwrap_or(list.len());
            for item in list[..end].split(',') {
                out.push(ident_path(item.trim()));
            }
        } else {
            out.push(ident_path(rest));
        }
    }
    out
}

fn ident_path(s: &str) -> Vec<String> {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).unwrap_or(s.len());
    s[..end]
        .split("::")
        .filter(|p| !p.is_empty() && p.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect()
}

fn graph(depth: usize) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let cut = |p: &[String]| p[..p.len().min(depth)].join("::");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let module = module_of(&src, &file);
        if module.is_empty() {
            continue; // lib.rs only declares and re-exports
        }
        let text = code(&std::fs::read_to_string(&file).expect("a source file"));
        let from = cut(&module);
        let mut targets: Vec<Vec<String>> = paths_after(&text, "crate::");
        for p in paths_after(&text, "super::") {
            let mut full = module[..module.len() - 1].to_vec();
            full.extend(p);
            targets.push(full);
        }
        for t in targets.into_iter().filter(|t| !t.is_empty()) {
            let to = cut(&t);
            // A module's own children and itself are not an import circle.
            if to != from && !to.starts_with(&format!("{from}::")) {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// A circle through `start`, if there is one.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in edges.get(&node).into_iter().flatten() {
            if next == start {
                let mut c = path.clone();
                c.push(start.to_string());
                return Some(c);
            }
            if seen.insert(next.clone()) {
                let mut p = path.clone();
                p.push(next.clone());
                stack.push((next.clone(), p));
            }
        }
    }
    None
}

#[test]
fn no_module_of_core_imports_one_that_imports_it_back() {
    for depth in 1..=3 {
        let edges = graph(depth);
        assert!(edges.contains_key("dispatcher"), "the scan found no imports: {edges:?}");
        for module in edges.keys() {
            if let Some(c) = circle(&edges, module) {
                panic!("import circle at depth {depth}: {}", c.join(" -> "));
            }
        }
    }
}

#[test]
fn the_vocabulary_imports_nothing_of_the_crate() {
    let edges = graph(1);
    assert_eq!(edges.get("catalog"), None, "catalog imports {:?}", edges.get("catalog"));
}
