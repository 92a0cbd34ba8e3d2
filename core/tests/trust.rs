//! Project trust through the public API (protocol.md §2.8): what needs trust, recording it,
//! edits untrusting a file, refused stores, and `strict_files`.
#![allow(clippy::unwrap_used)]

use hookwire_core::{Dispatcher, record_trust_for};
use serde_json::{Value, json};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("hookwire-trust-it-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join(".claude")).unwrap();
        Scratch(d)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const SETTINGS: &str = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo ran"}]}]}}"#;

fn config(dir: &Path, store: &Path) -> Value {
    json!({
        "project_dir": dir,
        "trust": {"store": store},
        "sources": [{"scope": "project", "path": ".claude/settings.json"}]
    })
}

fn outcomes(d: &Dispatcher) -> usize {
    let r: Value =
        serde_json::from_str(&d.fire_json(r#"{"hook_event_name":"Stop","cwd":"/"}"#).unwrap()).unwrap();
    r["outcomes"].as_array().unwrap().len()
}

#[test]
fn recorded_project_hooks_run_and_an_edit_untrusts_them() {
    let s = Scratch::new("record");
    std::fs::write(s.path().join(".claude/settings.json"), SETTINGS).unwrap();
    let store = s.path().join("state/trust.json");
    let cfg = config(s.path(), &store);

    let before = Dispatcher::new(&cfg.to_string()).unwrap();
    assert_eq!(outcomes(&before), 0, "untrusted project hooks never run");
    let status = before.trust_status();
    assert!(!status.sources[0].trusted);
    assert_eq!(status.sources[0].key.as_deref(), Some(".claude/settings.json"));
    assert!(status.sources[0].digest.as_deref().unwrap().starts_with("sha256:"));

    let after = record_trust_for(&cfg.to_string()).unwrap();
    assert!(after.sources[0].trusted, "{}", after.to_json());
    let mode = std::fs::metadata(&store).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(outcomes(&Dispatcher::new(&cfg.to_string()).unwrap()), 1);

    std::fs::write(s.path().join(".claude/settings.json"), SETTINGS.replace("ran", "changed")).unwrap();
    let edited = Dispatcher::new(&cfg.to_string()).unwrap();
    assert_eq!(outcomes(&edited), 0, "any edit untrusts the file");
    assert!(!edited.trust_status().sources[0].trusted);
}

#[test]
fn a_world_writable_store_is_refused_with_a_warning() {
    let s = Scratch::new("ww");
    std::fs::write(s.path().join(".claude/settings.json"), SETTINGS).unwrap();
    let store = s.path().join("trust.json");
    let cfg = config(s.path(), &store);
    record_trust_for(&cfg.to_string()).unwrap();
    std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o666)).unwrap();
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    assert_eq!(outcomes(&d), 0);
    assert!(d.warnings().iter().any(|w| w.contains("world-writable")), "{:?}", d.warnings());
}

#[test]
fn recording_trust_needs_a_store_the_configuration_reads() {
    let s = Scratch::new("nostore");
    std::fs::write(s.path().join(".claude/settings.json"), SETTINGS).unwrap();
    let cfg =
        json!({"project_dir": s.path(), "sources": [{"scope": "project", "path": ".claude/settings.json"}]});
    let err = record_trust_for(&cfg.to_string()).unwrap_err().details();
    assert_eq!(err.pointer.as_deref(), Some("/trust"));
    assert!(err.message.contains("trust.project"), "{}", err.message);
}

#[test]
fn recording_trust_needs_a_project_dir() {
    let err =
        record_trust_for(r#"{"sources":[{"scope":"project","settings":{}}],"trust":{"store":"/tmp/x"}}"#)
            .unwrap_err();
    assert_eq!(err.details().pointer.as_deref(), Some("/project_dir"));
}

#[test]
fn broken_files_are_warnings_unless_strict_files() {
    let s = Scratch::new("strict");
    std::fs::write(s.path().join(".claude/settings.json"), "{\n  \"hooks\": {,\n}").unwrap();
    let mut cfg = json!({
        "project_dir": s.path(),
        "sources": [{"scope": "project", "trusted": true, "path": ".claude/settings.json"}]
    });
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    assert!(
        d.warnings().iter().any(|w| w.contains(".claude/settings.json") && w.contains("2:")),
        "{:?}",
        d.warnings()
    );
    cfg["strict_files"] = json!(true);
    let err = Dispatcher::new(&cfg.to_string()).err().unwrap().details();
    assert_eq!(err.kind.as_str(), "invalid_config");
    assert_eq!(err.pointer.as_deref(), Some("/sources/0/path"));
    assert!(
        err.message.contains(".claude/settings.json") && err.message.contains("at 2:"),
        "{}",
        err.message
    );
}

#[test]
fn hooks_and_plan_explain_what_would_run() {
    let d = Dispatcher::new(
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]},
            {"matcher":"Edit|Write","hooks":[{"type":"command","command":"false","timeout":5}]}]}}"#,
    )
    .unwrap();
    let hooks = d.hooks();
    assert_eq!(hooks.len(), 2);
    assert_eq!(hooks[1].hook, "session:PreToolUse[1].hooks[0]");
    assert_eq!(hooks[1].matcher, "exact Edit|Write");
    let plan = d.plan(&json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"})).unwrap();
    assert!(plan[0].runs && !plan[1].runs);
    assert!(plan[1].why.contains("does not match"), "{}", plan[1].why);
}

/// A configuration of one inline source of `scope` holding one Stop hook, with `trusted` when
/// given.
fn one_source(scope: &str, trusted: Option<bool>) -> String {
    let mut source = json!({"scope": scope, "settings": serde_json::from_str::<Value>(SETTINGS).unwrap()});
    if let Some(t) = trusted {
        source["trusted"] = json!(t);
    }
    json!({"sources": [source]}).to_string()
}

const SCOPES: [&str; 6] = ["managed", "user", "plugin", "session", "project", "local"];

#[test]
fn a_source_marked_trusted_false_never_runs_whatever_its_scope() {
    for scope in SCOPES {
        let d = Dispatcher::new(&one_source(scope, Some(false))).unwrap();
        assert_eq!(outcomes(&d), 0, "{scope}");
        let warning = format!("{scope} hooks in inline settings are not trusted; skipped");
        assert!(d.warnings().iter().any(|w| w.contains(&warning)), "{scope}: {:?}", d.warnings());
    }
}

#[test]
fn trusted_true_runs_every_scope_and_without_the_key_only_project_and_local_need_trust() {
    for scope in SCOPES {
        assert_eq!(outcomes(&Dispatcher::new(&one_source(scope, Some(true))).unwrap()), 1, "{scope}");
        let d = Dispatcher::new(&one_source(scope, None)).unwrap();
        let needs_trust = matches!(scope, "project" | "local");
        assert_eq!(outcomes(&d), usize::from(!needs_trust), "{scope}");
        assert_eq!(d.warnings().iter().any(|w| w.contains("not trusted")), needs_trust, "{scope}");
    }
}

#[test]
fn the_trust_status_lists_a_source_of_any_scope_marked_trusted_false() {
    let s = Scratch::new("userfalse");
    let user_file = s.path().join("user-settings.json");
    std::fs::write(&user_file, SETTINGS).unwrap();
    let store = s.path().join("trust.json");
    let cfg = json!({
        "project_dir": s.path(),
        "trust": {"store": store},
        "sources": [
            {"scope": "user", "path": user_file, "trusted": false},
            {"scope": "user", "settings": {}},
            {"scope": "plugin", "settings": {}, "trusted": true},
            {"scope": "session", "settings": {}, "trusted": false}
        ]
    });
    let status = Dispatcher::new(&cfg.to_string()).unwrap().trust_status();
    let listed: Vec<(&str, bool)> = status.sources.iter().map(|e| (e.scope, e.trusted)).collect();
    assert_eq!(listed, [("user", false), ("session", false)], "{}", status.to_json());
    let user = &status.sources[0];
    assert_eq!(user.why, "the source says \"trusted\": false");
    assert!(user.digest.as_deref().unwrap().starts_with("sha256:"));
    assert_eq!(user.key, None, "the trust store does not govern user sources");
    // Recording trust cannot override the host's `trusted: false`, and records nothing for it.
    let after = record_trust_for(&cfg.to_string()).unwrap();
    assert_eq!(after.sources.iter().filter(|e| e.trusted).count(), 0, "{}", after.to_json());
    assert!(!std::fs::read_to_string(&store).unwrap_or_default().contains("user-settings.json"));
}
