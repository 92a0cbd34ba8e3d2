//! Every dialect against hostile input (issue 33: "hostile input is bounded in every new
//! reader"): documents of the wrong shape, types and size, and native events of the wrong shape
//! fired at each dialect's `canonical`. Each must load, fail with a clear error, or fire; never
//! panic or hang. The dialects come from the one list, so a new dialect is covered unasked.

use hookwire_core::{Dispatcher, dialects};
use serde_json::{Value, json};
use std::path::PathBuf;

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hookwire-hostile-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

/// An entry with every key a dialect might read, each of a type it does not expect.
fn wrong_types() -> Value {
    json!({"type": 7, "command": [], "bash": {}, "powershell": 1, "exec": [], "args": "x", "matcher": 5,
           "match": [], "timeout": "x", "timeoutSec": -1, "timeout_ms": {}, "hooks": "x", "env": [1],
           "cwd": {}, "name": null, "trigger": 3, "action": "x", "enabled": "yes", "strict": 2,
           "working_directory": [], "show_output": "x", "version": "v1", "event": [], "url": 1})
}

/// Documents no agent wrote, as JSON text.
fn documents(events: &[&str]) -> Vec<String> {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut docs = vec![
        deep.clone(),
        format!(r#"{{"version": 1, "hooks": {{"PreToolUse": {deep}}}}}"#),
        json!([1, 2]).to_string(),
        json!({"hooks": []}).to_string(),
        json!({"version": "v1", "hooks": [wrong_types(), 5, null]}).to_string(),
        json!({"agent": {"PreToolUse": 5, "Stop": [wrong_types()], "enabled": "x"}}).to_string(),
    ];
    let mut hooks = serde_json::Map::new();
    for e in events {
        let many: Vec<Value> =
            (0..100).map(|i| json!({"command": "exit 0", "matcher": format!("t{i}|(a+)+$")})).collect();
        hooks.insert((*e).to_string(), json!([wrong_types(), {"hooks": [wrong_types()]}, "x", 5]));
        hooks.insert(format!("{e} "), Value::Array(many));
    }
    docs.push(json!({"version": 1, "hooks": hooks}).to_string());
    docs.push(Value::Object(hooks).to_string());
    docs
}

/// Native events of the wrong shape, under `name`.
fn events(name: &str) -> Vec<Value> {
    let mut deep = json!("x");
    for _ in 0..400 {
        deep = json!([deep]);
    }
    vec![
        json!({"hook_event_name": name}),
        json!({"hook_event_name": name, "toolArgs": "{{{{", "toolName": 5, "sessionId": 5, "timestamp": "x"}),
        json!({"hook_event_name": name, "toolArgs": [1], "toolName": "bash", "toolResult": 5}),
        json!({"hook_event_name": name, "toolCall": [], "conversationId": [], "stepIdx": "x"}),
        json!({"hook_event_name": name, "toolCall": {"name": 5, "args": "x"}, "conversationId": "c"}),
        json!({"hook_event_name": name, "tool_info": "x", "agent_action_name": 5, "trajectory_id": []}),
        json!({"hook_event_name": name, "tool_info": {"edits": 5, "command_line": [], "file_path": {}}, "trajectory_id": "t"}),
        json!({"hook_event_name": name, "hookName": {}, "clineVersion": 1, "preToolUse": 5, "taskId": []}),
        json!({"hook_event_name": name, "hookName": "tool_call", "preToolUse": {"parameters": [], "toolName": 1},
               "tool_call": {"input": "x", "name": []}}),
        json!({"hook_event_name": name, "hookEventName": 5, "tool_name": "runTerminalCommand", "tool_input": "x"}),
        json!({"hook_event_name": name, "event": 5, "tool_name": 5, "tool_input": [], "session_id": {}}),
        json!({"hook_event_name": name, "tool_name": "bash", "tool_input": {"command": deep}, "cwd": 5}),
    ]
}

#[test]
fn hostile_documents_load_or_fail_clearly_in_every_dialect() {
    let scratch = Scratch::new("docs");
    for d in dialects() {
        for (i, doc) in documents(&d.events).into_iter().enumerate() {
            for ext in ["json", "toml", "yaml"] {
                let file = scratch.0.join(format!("{}-{i}.{ext}", d.name));
                std::fs::write(&file, &doc).expect("a scratch file");
                let config = json!({"dialect": d.name, "sources": [{"scope": "user", "path": file}]});
                // Inline too: the strict reading of the same document.
                let inline: Option<Value> = serde_json::from_str::<Value>(&doc).ok().filter(|_| i != 1);
                let mut configs = vec![config];
                if let Some(v) = inline {
                    configs.push(json!({"dialect": d.name, "sources": [{"scope": "user", "settings": v}]}));
                }
                for config in configs {
                    let Ok(dispatcher) = Dispatcher::from_value(config) else { continue };
                    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/",
                                       "tool_name": "Bash", "tool_input": {"command": "ls"}});
                    dispatcher.fire(&event).unwrap_or_else(|e| panic!("{}: {e:?}", d.name));
                }
            }
        }
    }
}

#[test]
fn hostile_native_events_fire_or_fail_clearly_in_every_dialect() {
    for d in dialects() {
        let dispatcher =
            Dispatcher::from_value(json!({"dialect": d.name})).expect("an envelope naming only its dialect");
        let names = d.events.iter().copied().chain(["PreToolUse", "Stop", "nonsense"]);
        for name in names {
            for event in events(name) {
                // An error is a clear outcome; a panic fails the test.
                let _ = dispatcher.fire(&event);
                let _ = dispatcher.plan(&event);
            }
        }
    }
}

/// Every number or duration string of `doc` that says `seconds` (as `7`, `7000` or `"7s"`, the
/// forms the writers give a 7-second timeout) replaced by `huge`.
fn with_timeout(doc: &Value, huge: &str) -> Value {
    match doc {
        Value::Number(n) if n.as_f64() == Some(7.0) || n.as_f64() == Some(7000.0) => {
            serde_json::from_str(huge).expect("a JSON number")
        }
        Value::String(s) if s == "7s" => Value::String(format!("{huge}s")),
        Value::Array(a) => Value::Array(a.iter().map(|v| with_timeout(v, huge)).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), with_timeout(v, huge))).collect())
        }
        other => other.clone(),
    }
}

/// A timeout past what a `Duration` or an `Instant` holds (`1e20` seconds, `u64::MAX`, `1e308`)
/// in any dialect's own file is a hook that runs as if it had no timeout: the same verdict as
/// with 7 seconds, or, where the agent itself refuses such a timeout (Kimi: 1 to 600 s), the
/// hook skipped with a warning naming its `timeout`; never a panic of the host (Cursor's,
/// Copilot CLI's, Crush's, Kiro's and Mistral Vibe's files crashed `hookwire fire` with
/// "cannot convert float seconds to Duration" or "overflow when adding duration to instant").
#[test]
fn a_huge_timeout_in_any_dialects_file_runs_the_hook_as_seven_seconds_do() {
    let source = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "exit 2", "timeout": 7}]}]}});
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/",
                       "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let fire = |dialect: &str, doc: Value| -> Option<Value> {
        let config = json!({"dialect": dialect, "sources": [{"scope": "user", "settings": doc}]});
        let d = Dispatcher::from_value(config).ok()?;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| d.fire(&event)));
        let r = r.unwrap_or_else(|_| panic!("{dialect}: the fire panicked"));
        Some(serde_json::to_value(r.expect("a result")).expect("a result as JSON"))
    };
    let (mut same, mut refused) = (0, 0);
    for to in hookwire_core::port::writers() {
        let Ok(port) =
            hookwire_core::port::port(hookwire_core::port::Input::Document(&source), "claude-code", to)
        else {
            continue;
        };
        let Some(base) = fire(to, port.document.clone()) else { continue };
        if base["decision"] != "deny" {
            continue;
        }
        for huge in ["1e20", "18446744073709551615", "9223372036854775807", "1e308"] {
            let Some(got) = fire(to, with_timeout(&port.document, huge)) else { continue };
            if got["decision"] == base["decision"] {
                same += 1;
                continue;
            }
            let said = got["warnings"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|w| w.as_str().is_some_and(|w| w.contains("timeout")));
            assert!(
                said && got["outcomes"].as_array().is_some_and(Vec::is_empty),
                "{to}: timeout {huge}: {got}"
            );
            refused += 1;
        }
    }
    assert!(same >= 60, "only {same} dialect documents ran their hook ({refused} refused it)");
}
