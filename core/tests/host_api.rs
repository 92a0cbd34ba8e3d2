//! What the core offers hosts and bindings so they need not re-write it (issue 15): the byte
//! and cancel entry points, the panic text, the function-hook options, and Claude Code's
//! default sources. Used through the public API only, as a binding uses it.
#![allow(clippy::unwrap_used)]

use hookwire_core::{
    CancelToken, Dispatcher, ErrorDetails, ErrorKind, FunctionHook, claude_code_defaults, event_text,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hookwire-host-api-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn fire_bytes_with_a_cancelled_token_starts_nothing_and_still_answers_a_result() {
    let cfg = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sleep 30"}]}]}});
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    let token = CancelToken::new();
    token.cancel();
    let started = Instant::now();
    let r: Value =
        serde_json::from_str(&d.fire_bytes_with(br#"{"hook_event_name":"Stop"}"#, &token).unwrap()).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!(r["outcomes"][0]["status"], "cancelled", "{r}");
}

#[test]
fn fire_bytes_with_cancelled_mid_fire_kills_the_running_hook() {
    let cfg = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sleep 30"}]}]}});
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    let token = CancelToken::new();
    let later = token.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        later.cancel();
    });
    let started = Instant::now();
    let r: Value =
        serde_json::from_str(&d.fire_bytes_with(br#"{"hook_event_name":"Stop"}"#, &token).unwrap()).unwrap();
    canceller.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert_eq!(r["outcomes"][0]["status"], "cancelled", "{r}");
}

#[test]
fn fire_bytes_with_refuses_bytes_that_are_not_utf8_before_reading_any_json() {
    let d = Dispatcher::new("{}").unwrap();
    let token = CancelToken::new();
    token.cancel();
    let bytes = b"{\"hook_event_name\":\"\xc3\x28\"";
    let e = d.fire_bytes_with(bytes, &token).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
    assert_eq!(e, event_text(bytes).unwrap_err());
    assert_eq!(e, d.fire_bytes(bytes).unwrap_err(), "the same error as the fire without a token");
}

#[test]
fn a_panic_caught_anywhere_reads_the_same() {
    let caught = std::panic::catch_unwind(|| panic!("index {} out of range", 3)).unwrap_err();
    let d = ErrorDetails::from_panic(caught);
    assert_eq!(
        d.to_json(),
        r#"{"error":{"kind":"panic","message":"hookwire panicked: index 3 out of range"}}"#
    );
}

#[test]
fn function_hook_options_from_json_register_like_the_struct() {
    let d = Dispatcher::new("{}").unwrap();
    let hook = FunctionHook::from_json(r#"{"event":"PreToolUse","matcher":"Bash","name":"guard"}"#).unwrap();
    let id = d.add_function_hook(hook, Arc::new(|_: &str| Ok(String::new()))).unwrap();
    assert_eq!(id, "function(guard):PreToolUse");
    // The reading is about shape; the event and the matcher are checked on registration.
    let unknown_event = FunctionHook::from_json(r#"{"event":"Nope"}"#).unwrap();
    let e = d.add_function_hook(unknown_event, Arc::new(|_: &str| Ok(String::new()))).unwrap_err();
    assert_eq!(e.details().pointer.as_deref(), Some("/event"));
    let e = FunctionHook::from_json(r#"{"event":"PreToolUse","timeout":5}"#).unwrap_err();
    assert_eq!((e.kind(), e.details().pointer.as_deref()), (ErrorKind::InvalidConfig, Some("/timeout")));
}

#[test]
fn claude_code_defaults_layer_user_project_and_local_files_of_the_canonical_project() {
    let dir = scratch("defaults");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let envelope = claude_code_defaults(&dir.join("sub").join("..")).unwrap();
    let canonical = dir.canonicalize().unwrap();
    assert_eq!(envelope["project_dir"], canonical.to_str().unwrap());
    assert_eq!(
        envelope["sources"],
        json!([
            {"scope": "user", "path": "~/.claude/settings.json"},
            {"scope": "project", "path": ".claude/settings.json"},
            {"scope": "local", "path": ".claude/settings.local.json"}
        ])
    );
    // The trust store is the default one, the same the dispatcher reports.
    let status = Dispatcher::from_value(envelope.clone()).unwrap().trust_status();
    match status.default_store.as_deref() {
        Some(store) => assert_eq!(envelope["trust"], json!({"store": store, "project": "store"})),
        None => assert!(envelope.get("trust").is_none(), "{envelope}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn claude_code_defaults_gate_project_files_on_the_trust_store() {
    let dir = scratch("gated");
    std::fs::create_dir_all(dir.join(".claude")).unwrap();
    let hook = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}});
    std::fs::write(dir.join(".claude/settings.json"), hook.to_string()).unwrap();
    std::fs::write(dir.join(".claude/settings.local.json"), hook.to_string()).unwrap();
    let mut envelope = claude_code_defaults(&dir).unwrap();
    // A store of this test's own, so the user's real store is neither read nor written.
    let store = dir.join("trust.json");
    envelope["trust"] = json!({"store": store.to_str().unwrap(), "project": "store"});
    let d = Dispatcher::from_value(envelope.clone()).unwrap();
    let sources = d.trust_status().sources;
    let untrusted: Vec<&str> = sources.iter().filter(|s| !s.trusted).map(|s| s.scope).collect();
    assert_eq!(untrusted, ["project", "local"], "{sources:?}");
    hookwire_core::record_trust_for(&envelope.to_string()).unwrap();
    let d = Dispatcher::from_value(envelope).unwrap();
    let r: Value = serde_json::from_str(&d.fire_json(r#"{"hook_event_name":"Stop"}"#).unwrap()).unwrap();
    assert_eq!(r["decision"], "block", "{r}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn claude_code_defaults_of_a_missing_directory_is_an_io_error() {
    let e = claude_code_defaults(Path::new("/nonexistent/hookwire/project")).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
}
