//! Hostile hooks directories: discovery is bounded, never blocks, never follows a symlink out
//! of the directory and never runs what it did not classify; the listing's digest covers the
//! hook files' contents.

use super::config::{MAX_ENTRIES, MAX_HOOK_BYTES, list};
use crate::Dispatcher;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn fresh(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hookwire-cline-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn listing(dir: &Path) -> Value {
    serde_json::from_slice(&list(dir).unwrap()).unwrap()
}

fn notes(doc: &Value) -> String {
    doc["notes"].as_array().unwrap().iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n")
}

#[test]
fn fifos_directories_and_giant_files_named_like_hooks_are_skipped_with_a_note() {
    let dir = fresh("odd");
    let fifo = std::ffi::CString::new(dir.join("PreToolUse").to_str().unwrap()).unwrap();
    // SAFETY: `fifo` is a valid NUL-terminated path for the duration of the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::fs::create_dir(dir.join("PostToolUse")).unwrap();
    std::fs::write(dir.join("UserPromptSubmit.sh"), vec![b'#'; MAX_HOOK_BYTES as usize + 1]).unwrap();
    std::fs::write(dir.join("TaskResume.py"), "print('{}')").unwrap();
    let started = std::time::Instant::now();
    let doc = listing(&dir);
    assert!(started.elapsed().as_secs() < 5, "a FIFO must not block the listing");
    let said = notes(&doc);
    assert!(said.contains("PreToolUse: not a regular file"), "{said}");
    assert!(said.contains("PostToolUse: not a regular file"), "{said}");
    assert!(said.contains("larger than"), "{said}");
    let hooks = doc["hooks"].as_object().unwrap();
    assert_eq!(hooks.keys().collect::<Vec<_>>(), ["TaskResume"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_of_too_many_entries_is_read_up_to_the_cap_with_a_note() {
    let dir = fresh("many");
    for i in 0..MAX_ENTRIES + 50 {
        std::fs::write(dir.join(format!("f{i}")), "").unwrap();
    }
    let doc = listing(&dir);
    assert!(notes(&doc).contains(&format!("more than {MAX_ENTRIES} entries")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_symlink_out_of_the_directory_never_runs_even_to_a_hook_file() {
    let dir = fresh("links");
    let outside = fresh("links-outside");
    std::fs::write(outside.join("PreToolUse"), "printf '{\"cancel\":true}'").unwrap();
    std::os::unix::fs::symlink(outside.join("PreToolUse"), dir.join("PreToolUse")).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("PostToolUse")).unwrap();
    let doc = listing(&dir);
    assert!(doc["hooks"].as_object().unwrap().is_empty(), "{doc}");
    assert!(notes(&doc).contains("PreToolUse: a symlink out of the hooks directory"));
    assert!(notes(&doc).contains("PostToolUse: a symlink out of the hooks directory"));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&outside).unwrap();
}

#[test]
fn the_listing_changes_when_a_hook_file_does_so_trust_covers_the_hooks() {
    let dir = fresh("digest");
    std::fs::write(dir.join("PreToolUse"), "printf '{}'").unwrap();
    let before = list(&dir).unwrap();
    std::fs::write(dir.join("PreToolUse"), "printf '{\"cancel\":true}'").unwrap();
    assert_ne!(before, list(&dir).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_source_runs_its_hook_files_and_a_file_source_is_not_listed() {
    let dir = fresh("source");
    std::fs::write(dir.join("PreToolUse"), "printf '{\"cancel\":true,\"errorMessage\":\"no\"}'").unwrap();
    let config = json!({"dialect": "cline", "sources": [{"scope": "user", "path": dir}]});
    let d = Dispatcher::from_value(config).unwrap();
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/", "tool_name": "Bash",
                       "tool_input": {"command": "ls"}});
    let r: Value = serde_json::from_str(&d.fire(&event).unwrap().to_json()).unwrap();
    assert_eq!((r["decision"].as_str(), r["reason"].as_str()), (Some("deny"), Some("no")));
    // A hook file given as the source is a document, and a shell script is not one.
    let file = json!({"dialect": "cline", "sources": [{"scope": "user", "path": dir.join("PreToolUse")}]});
    let d = Dispatcher::from_value(file).unwrap();
    assert!(d.load_warnings().iter().any(|w| w.contains("invalid JSON")), "{:?}", d.load_warnings());
    std::fs::remove_dir_all(&dir).unwrap();
}
