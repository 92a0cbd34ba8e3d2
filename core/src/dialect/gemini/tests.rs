//! Whole-dialect tests through the dispatcher: hostile settings files, the switches, and the
//! per-fire strategy.

use crate::Dispatcher;
use serde_json::{Value, json};
use std::path::PathBuf;

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hookwire-gemini-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("settings.json");
    std::fs::write(&path, bytes).unwrap();
    path
}

fn load_file(name: &str, bytes: &[u8]) -> Vec<String> {
    let path = temp_file(name, bytes);
    let config = json!({"dialect": "gemini", "sources": [{"scope": "user", "path": path}]});
    let d = Dispatcher::from_value(config).unwrap();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    d.load_warnings()
}

#[test]
fn hostile_settings_files_are_skipped_with_a_clear_warning_never_a_crash() {
    let deep = "[".repeat(100_000);
    let w = load_file("deep", deep.as_bytes());
    assert!(w.iter().any(|w| w.contains("invalid JSON") && w.contains("source skipped")), "{w:?}");

    let nested_in_hooks = format!("{{\"hooks\": {}}}", "{\"a\":".repeat(100_000));
    let w = load_file("nested", nested_in_hooks.as_bytes());
    assert!(w.iter().any(|w| w.contains("invalid JSON")), "{w:?}");

    let comments = format!("{}{{}}", "/* x */ // y\n".repeat(200_000));
    assert!(load_file("comments", comments.as_bytes()).is_empty());

    let unclosed = format!("{{\n  {}", "/* x ".repeat(100_000));
    let w = load_file("unclosed", unclosed.as_bytes());
    assert!(w.iter().any(|w| w.contains("invalid JSON at 2:3: unterminated /* comment")), "{w:?}");

    let many_events: String = (0..20_000).map(|i| format!("\"E{i}\": [],")).collect();
    let w = load_file("events", format!("{{\"hooks\": {{{many_events} \"BeforeTool\": []}}}}").as_bytes());
    assert_eq!(w.len(), 20_000);
}

fn fire(d: &Dispatcher, event: Value) -> Value {
    serde_json::from_str(&d.fire_json(&event.to_string()).unwrap()).unwrap()
}

#[test]
fn a_hook_named_in_a_user_disabled_list_is_dropped_but_a_managed_one_is_not() {
    let hook = |name: &str| json!({"type": "command", "command": format!("echo {name}"), "name": name});
    let config = json!({"dialect": "gemini", "sources": [
        {"scope": "managed", "settings": {"hooks": {"BeforeTool": [{"hooks": [hook("keep")]}]}}},
        {"scope": "user", "settings": {"hooksConfig": {"disabled": ["keep", "drop"]},
                                         "hooks": {"BeforeTool": [{"hooks": [hook("drop"), hook("other")]}]}}},
    ]});
    let d = Dispatcher::from_value(config).unwrap();
    let r = fire(&d, json!({"hook_event_name": "BeforeTool", "tool_name": "Bash", "tool_input": {}}));
    let ids: Vec<&str> =
        r["outcomes"].as_array().unwrap().iter().map(|o| o["hook"].as_str().unwrap()).collect();
    assert_eq!(ids, ["user:BeforeTool[0].hooks[1]", "managed:BeforeTool[0].hooks[0]"]);
}

#[test]
fn inline_switches_of_the_wrong_type_are_invalid_config() {
    for (settings, pointer) in [
        (json!({"hooksConfig": {"enabled": "no"}}), "/sources/0/settings/hooksConfig/enabled"),
        (json!({"hooksConfig": {"disabled": "x"}}), "/sources/0/settings/hooksConfig/disabled"),
        (json!({"hooksConfig": []}), "/sources/0/settings/hooksConfig"),
        (
            json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "x", "timeout": 0}]}]}}),
            "/sources/0/settings/hooks/BeforeTool/0/hooks/0/timeout",
        ),
        (
            json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "x", "env": {"A": 1}}]}]}}),
            "/sources/0/settings/hooks/BeforeTool/0/hooks/0/env/A",
        ),
    ] {
        let config = json!({"dialect": "gemini", "sources": [{"scope": "user", "settings": settings}]});
        let Err(err) = Dispatcher::from_value(config) else { panic!("{pointer}: loaded") };
        assert_eq!(err.details().pointer.as_deref(), Some(pointer), "{err:?}");
    }
}

#[test]
fn after_tool_registers_under_both_tool_outcome_events() {
    let config = json!({"dialect": "gemini", "hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "true"}]}]}});
    let d = Dispatcher::from_value(config).unwrap();
    for name in ["PostToolUse", "PostToolUseFailure", "AfterTool"] {
        let r = fire(&d, json!({"hook_event_name": name, "tool_name": "Bash", "tool_input": {}}));
        assert_eq!(r["outcomes"][0]["hook"], "session:AfterTool[0].hooks[0]", "{name}");
    }
}
