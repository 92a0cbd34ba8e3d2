//! A dialect is one unit (issue 32): outside its own folder under `core/src/dialect/` it is
//! named only by the one list (`catalog/dialects.rs`) and the enum generated from it, and the
//! engine reaches it only through a small trait. These tests read the source, so that the next
//! dialect cannot quietly add a branch on its name somewhere else, or a method to the trait.

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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The code of a file without its test module tail and without comments.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Whether `file` belongs to one dialect's own folder (`dialect/<name>/…`).
fn in_a_dialect_folder(src: &Path, file: &Path) -> bool {
    let rel = file.strip_prefix(src).expect("a file under core/src");
    let parts: Vec<_> = rel.iter().collect();
    parts.len() >= 3 && parts[0] == "dialect" && parts[1] != "settings"
}

#[test]
fn outside_its_folder_a_dialect_is_named_only_by_the_list() {
    let src = src();
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut named = Vec::new();
    for file in &files {
        if in_a_dialect_folder(&src, file) || file.ends_with("catalog/dialects.rs") {
            continue;
        }
        let code = code(&std::fs::read_to_string(file).expect("a readable source"));
        for (at, _) in code.match_indices("Dialect::") {
            let rest = &code[at + "Dialect::".len()..];
            let variant: String =
                rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // Variants are CamelCase; `Dialect::DEFAULT`, `Dialect::parse` are not dialects.
            let is_variant = variant.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && variant.chars().any(|c| c.is_ascii_lowercase());
            if is_variant {
                named.push(format!(
                    "{}: Dialect::{variant}",
                    file.strip_prefix(&src).expect("under src").display()
                ));
            }
        }
    }
    assert!(named.is_empty(), "a dialect named outside its folder and the list:\n{}", named.join("\n"));
}

#[test]
fn the_dialect_trait_has_at_most_a_dozen_methods() {
    let text = std::fs::read_to_string(src().join("dialect/mod.rs")).expect("dialect/mod.rs is readable");
    let start = text.find("pub trait DialectRules").expect("the trait is in dialect/mod.rs");
    let body = &text[start..];
    let end = body.find("\n}\n").expect("the trait ends");
    let methods = body[..end].lines().filter(|l| l.trim_start().starts_with("fn ")).count();
    assert!(methods <= 12, "DialectRules has {methods} methods; what is a value belongs in Profile");
    assert!(methods >= 3, "the trait was not found whole ({methods} methods)");
}

/// The files a dialect folder may hold, each with one job; a missing file means the default
/// (Claude Code's reading, the precedence fold, no tool-name map, ...). Tests sit beside them.
const DIALECT_FILES: &[&str] = &[
    "mod.rs",      // the unit, its `static PROFILE` and its `DialectRules` impl
    "config.rs",   // reading its documents (a `SettingsShape` configuration, or its own reader)
    "matcher.rs",  // its group matcher
    "tools.rs",    // its tool names against Claude Code's
    "native.rs",   // a host's fire of the agent's own payload, as the canonical event
    "payload.rs",  // what its hook is given: stdin bytes and variables
    "reading.rs",  // one finished hook into a step
    "fold.rs",     // the steps of one fire into one decision
    "answer.rs",   // a result in the agent's own answer form, for the bridge
    "install.rs",  // where and how `hookwire install` writes the bridge into its configuration
    "kind.rs",     // Cursor: the kind of hook an event name gives (its payload and answer)
    "timeouts.rs", // Claude Code: the per-event default timeouts (§5.6)
];

#[test]
fn every_dialect_folder_holds_the_same_files() {
    let dir = src().join("dialect");
    let mut odd = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("core/src/dialect is readable") {
        let folder = entry.expect("a directory entry").path();
        if !folder.is_dir() || folder.ends_with("settings") {
            continue;
        }
        for file in std::fs::read_dir(&folder).expect("a dialect folder is readable") {
            let path = file.expect("a directory entry").path();
            let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
            let test = name == "tests.rs" || name.ends_with("_tests.rs") || path.is_dir();
            if !test && !DIALECT_FILES.contains(&name.as_str()) {
                odd.push(format!("{}/{name}", folder.file_name().expect("a folder name").to_string_lossy()));
            }
        }
    }
    assert!(odd.is_empty(), "files outside the dialect layout (docs/dialects.md): {odd:?}");
}
