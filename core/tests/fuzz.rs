//! Structure-aware fuzzing of every parser that reads attacker-controlled input (issue 14),
//! on stable Rust with proptest: config files of every dialect (JSON and YAML, deep, long and
//! malformed, aliases included), events (deep tool inputs, lone surrogates, wrong types), hook
//! output in every dialect (deep and malformed JSON, every exit code), and `if` rules and
//! matchers against generated model-written commands (nesting, quotes, separators).
//!
//! The property everywhere: no panic and no crash; a typed error of an input kind or a result;
//! every result JSON well-formed; every `if` evaluation and config load finishes within a
//! generous bound of the calling thread's CPU time (the engine's own work, which does not grow
//! when the machine is loaded, unlike wall-clock time). A crash it finds becomes a named regression test in `hostile_input.rs`.
//!
//! Brief by default (the CI run). For a long run, one command:
//! `HOOKWIRE_FUZZ_CASES=5000 cargo test --release -p hookwire-core --test fuzz -- --nocapture`
//! (`bash tests/fuzz/run` does exactly that). Each property prints how many inputs it ran.
#![allow(clippy::unwrap_used)]

mod bounds;

use bounds::thread_cpu;
use hookwire_core::{Dispatcher, ErrorKind, FunctionHook};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Cases per property: `HOOKWIRE_FUZZ_CASES`, else 48.
fn cases() -> u32 {
    std::env::var("HOOKWIRE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
}

/// Runs `strategy` through `check` for [`cases`] cases and says how many ran.
fn fuzz<S: Strategy>(name: &str, strategy: S, check: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let n = cases();
    let config = ProptestConfig { cases: n, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = TestRunner::new(config);
    let ran = AtomicU64::new(0);
    let result = runner.run(&strategy, |v| {
        ran.fetch_add(1, Ordering::Relaxed);
        check(v)
    });
    eprintln!("fuzz {name}: {} inputs", ran.load(Ordering::Relaxed));
    if let Err(e) = result {
        panic!("fuzz {name}: {e}");
    }
}

fn scratch() -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "hookwire-fuzz-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const INPUT_KINDS: &[ErrorKind] =
    &[ErrorKind::InvalidJson, ErrorKind::InvalidUtf8, ErrorKind::InvalidConfig, ErrorKind::InvalidEvent];

// ---- generated text -------------------------------------------------------------------------

/// Deeply nested text in one of the shapes parsers recurse on, `depth` levels, with `leaf` in
/// the middle.
fn nested(shape: u8, depth: usize, leaf: &str) -> String {
    match shape % 10 {
        0 => "- ".repeat(depth) + leaf,
        1 => "[".repeat(depth) + leaf + &"]".repeat(depth),
        2 => "{\"a\":".repeat(depth) + &format!("\"{leaf}\"") + &"}".repeat(depth),
        3 => {
            (0..depth).map(|i| format!("{}a:\n", " ".repeat(i))).collect::<String>()
                + &" ".repeat(depth)
                + leaf
        }
        4 => "{a: ".repeat(depth) + leaf + &"}".repeat(depth),
        5 => "- [".repeat(depth) + leaf,
        6 => "? ".repeat(depth) + leaf,
        7 => (0..depth.min(1000)).map(|i| format!("{}- \n", " ".repeat(i * 2))).collect::<String>() + leaf,
        8 => "&a [*a, ".repeat(depth) + leaf,
        _ => "!!seq [".repeat(depth) + leaf,
    }
}

/// A YAML/JSON-ish config text: nesting, aliases, a plausible dialect document, or noise.
fn config_text() -> impl Strategy<Value = String> {
    let leaf = "[a-z0-9 :\\-\\[\\]{}&*!|>'\"#,]{0,12}";
    prop_oneof![
        // Depths past any sane limit too: 50,000 levels overflowed a recursive parser's stack.
        (any::<u8>(), prop_oneof![3 => 0usize..400, 1 => 20_000usize..60_000], leaf)
            .prop_map(|(s, d, l)| nested(s, d, &l)),
        (1usize..14, 1usize..12).prop_map(|(levels, fan)| {
            // An alias ladder: each level refers `fan` times to the one below.
            let mut t = String::from("a0: &a0 [x, y]\n");
            for i in 1..levels {
                let refs = vec![format!("*a{}", i - 1); fan].join(", ");
                t.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
            }
            t
        }),
        (plausible_document(), proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6)).prop_map(
            |(doc, edits)| {
                let mut b = doc.into_bytes();
                for (at, byte) in edits {
                    if b.is_empty() {
                        break;
                    }
                    let at = at % b.len();
                    if byte % 3 == 0 {
                        b.remove(at);
                    } else {
                        b[at] = byte;
                    }
                }
                String::from_utf8_lossy(&b).into_owned()
            }
        ),
        ".{0,200}",
    ]
}

/// Documents each dialect would accept, as YAML or JSON text.
fn plausible_document() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true","timeout":5}]}]}}"#.to_string()),
        Just("items:\n  - id: a\n    point: before_tool_call\n    match: {tool_name: bash}\n    command: true\n".to_string()),
        Just("pre_tool_execution:\n  - command: true\n    timeout: 5\n    filter: {tool_name: Bash}\n".to_string()),
        Just("hooks:\n  pre_tool_call:\n    - command: [\"true\"]\n      tools: [bash]\n      timeout: 5s\n".to_string()),
        Just(r#"{"hooks":{"pre_tool_use":[{"command":"true","match":"bash","timeout":500}]}}"#.to_string()),
    ]
}

const DIALECTS: &[(&str, &str)] = &[
    ("claude-code", ".claude/settings.json"),
    ("jcode", ".jcode/settings.json"),
    ("ok", ".ok/settings.json"),
    ("neocode", ".neocode/hooks.yaml"),
    ("j-cli", ".jcli/hooks.yaml"),
    ("ub", ".ub/hooks.yaml"),
];

#[test]
fn config_files_of_every_dialect_load_or_fail_cleanly() {
    let dir = scratch();
    fuzz("config files", (config_text(), 0..DIALECTS.len(), any::<bool>()), |(text, k, strict)| {
        let (dialect, file) = DIALECTS[k];
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        let envelope = json!({"dialect": dialect, "project_dir": dir, "strict_files": strict,
                              "sources": [{"scope": "user", "path": file}]});
        let t = thread_cpu();
        match Dispatcher::new(&envelope.to_string()) {
            Ok(d) => {
                let r = d.fire_json(r#"{"hook_event_name":"Notification","message":"x"}"#).unwrap();
                serde_json::from_str::<Value>(&r).unwrap();
            }
            Err(e) => prop_assert!(INPUT_KINDS.contains(&e.details().kind), "{dialect}: {e}"),
        }
        let work = thread_cpu() - t;
        prop_assert!(work < Duration::from_secs(2), "{dialect}: {work:?} of CPU");
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Event texts: deep tool inputs, lone and paired surrogate escapes, long strings, wrong types.
fn event_text() -> impl Strategy<Value = String> {
    let escape = prop_oneof![
        Just(r"\ud800".to_string()),
        Just(r"\udc00".to_string()),
        Just(r"\ud83d\ude00".to_string()),
        Just(r"\\ud800".to_string()),
        Just(r#"\""#.to_string()),
        Just("\\u0000".to_string()),
        "[a-z $()`'|;&]{0,8}",
    ];
    (
        proptest::collection::vec(escape, 0..8),
        any::<u8>(),
        0usize..300,
        prop_oneof!["Bash", "Write", "mcp__x__y", ".{0,6}"],
        prop_oneof!["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", ".{0,8}"],
    )
        .prop_map(|(pieces, shape, depth, tool, event)| {
            let s: String = pieces.concat();
            let deep = nested(1 + shape % 2, depth.min(140), "1");
            let tool = serde_json::to_string(&tool).unwrap();
            let event = serde_json::to_string(&event).unwrap();
            format!(
                r#"{{"hook_event_name":{event},"session_id":"s{s}","tool_name":{tool},"tool_input":{{"command":"{s}","deep":{deep},"file_path":"/p/{s}"}},"prompt":"{s}"}}"#
            )
        })
}

#[test]
fn events_give_a_result_or_a_typed_error() {
    let d = Dispatcher::new(
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash|mcp__.*", "hooks": [{"type": "command", "if": "Bash(rm *)", "command": "true"}]}],
            "UserPromptSubmit": [{"matcher": "(", "hooks": [{"type": "command", "command": "true"}]}]
        }})
        .to_string(),
    )
    .unwrap();
    fuzz("events", event_text(), |text| {
        match d.fire_json(&text) {
            Ok(r) => {
                serde_json::from_str::<Value>(&r).unwrap();
            }
            Err(e) => prop_assert!(INPUT_KINDS.contains(&e.details().kind), "{e}"),
        }
        Ok(())
    });
}

/// Hook output: JSON objects with the fields verdicts read, nested and malformed, or text.
fn hook_output() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just(json!("deny")),
        Just(json!("block")),
        Just(json!("allow")),
        Just(json!("ask")),
        Just(json!(null)),
        Just(json!(true)),
        Just(json!({"command": "x"})),
        Just(json!([1, {"a": []}])),
        ".{0,20}".prop_map(Value::String),
    ];
    let key = prop_oneof![
        "decision",
        "reason",
        "continue",
        "stopReason",
        "systemMessage",
        "suppressOutput",
        "hookSpecificOutput",
        "permissionDecision",
        "permissionDecisionReason",
        "updatedInput",
        "additionalContext",
        "hookEventName",
        "status",
        "message",
        "action",
        "tool_arguments",
        "retry_feedback",
        "user_input",
        "tool_result",
        ".{0,6}",
    ];
    (
        proptest::collection::vec((key.clone(), value.clone()), 0..8),
        proptest::collection::vec((key, value), 0..4),
        0usize..200,
        any::<u8>(),
        any::<bool>(),
    )
        .prop_map(|(outer, inner, depth, shape, cut)| {
            let mut hso = serde_json::Map::new();
            for (k, v) in inner {
                hso.insert(k, v);
            }
            let mut m = serde_json::Map::new();
            for (k, v) in outer {
                m.insert(k, v);
            }
            m.insert("hookSpecificOutput".into(), Value::Object(hso));
            let mut text = Value::Object(m).to_string();
            if shape % 3 == 0 {
                text = text.replacen('{', &format!("{{\"deep\":{},", nested(1, depth, "0")), 1);
            }
            if cut && text.len() > 2 {
                let cut = (0..=text.len() / 2).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                text.truncate(cut);
            }
            if shape % 7 == 1 {
                text = text.replace("\"x\"", r#""\ud800""#);
            }
            text
        })
}

const OUTPUT_DIALECTS: &[(&str, &str)] = &[
    ("claude-code", r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"CMD"}]}]}}"#),
    ("jcode", r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"CMD"}]}]}}"#),
    ("ok", r#"{"hooks":{"PreToolUse":[{"command":"CMD"}]}}"#),
    (
        "neocode",
        r#"{"items":[{"id":"a","kind":"command","mode":"sync","point":"before_tool_call","params":{"command":["sh","-c","CMD"]}}]}"#,
    ),
    ("j-cli", r#"{"pre_tool_execution":[{"command":"CMD"}]}"#),
    ("ub", r#"{"hooks":{"pre_tool_call":[{"command":["sh","-c","CMD"]}]}}"#),
];

#[test]
fn hook_output_of_every_dialect_and_exit_code_is_read_without_panic() {
    let dir = scratch();
    fuzz("hook output", (hook_output(), 0..OUTPUT_DIALECTS.len(), 0u8..4), |(out, k, code)| {
        let (dialect, template) = OUTPUT_DIALECTS[k];
        let file = dir.join("out");
        std::fs::write(&file, &out).unwrap();
        let code = [0, 1, 2, 3][code as usize];
        let cmd = format!("cat '{}'; exit {code}", file.display());
        // The scratch path holds no quote or backslash, so it can stand in the JSON text as is.
        let settings: Value = serde_json::from_str(&template.replace("CMD", &cmd)).unwrap();
        let envelope = json!({"dialect": dialect, "sources": [{"scope": "user", "settings": settings}]});
        let d = Dispatcher::new(&envelope.to_string()).unwrap();
        let r = d
            .fire_json(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#)
            .unwrap();
        let v: Value = serde_json::from_str(&r).unwrap();
        prop_assert_eq!(v["outcomes"].as_array().map(Vec::len), Some(1), "{}: {}", dialect, r);
        Ok(())
    });
    // The same outputs from an in-process function hook (no process at all).
    let d = Dispatcher::new(r#"{"hooks":{}}"#).unwrap();
    let slot: Arc<std::sync::Mutex<String>> = Arc::default();
    let answer = Arc::clone(&slot);
    let hook = FunctionHook {
        event: "PreToolUse".into(),
        matcher: None,
        timeout_s: Some(5.0),
        fail_closed: false,
        name: Some("fuzz".into()),
        first: false,
    };
    d.add_function_hook(hook, Arc::new(move |_| Ok(answer.lock().unwrap().clone()))).unwrap();
    fuzz("function-hook output", hook_output(), |out| {
        *slot.lock().unwrap() = out;
        let r =
            d.fire_json(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#).unwrap();
        serde_json::from_str::<Value>(&r).unwrap();
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Model-written shell commands: nesting of substitutions, quotes, separators, assignments.
fn command() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("$(".to_string()),
        Just(")".to_string()),
        Just("`".to_string()),
        Just("'".to_string()),
        Just("\"".to_string()),
        Just("\\".to_string()),
        Just(" && ".to_string()),
        Just(" | ".to_string()),
        Just(";".to_string()),
        Just("\n".to_string()),
        Just("X=1 ".to_string()),
        Just("rm -rf x".to_string()),
        Just("( ".to_string()),
        "[a-z é😀]{0,6}",
    ];
    (proptest::collection::vec(piece, 0..40), 0usize..4, 1usize..3000).prop_map(
        |(pieces, mode, n)| match mode {
            0 => pieces.concat(),
            1 => "$(".repeat(n) + &pieces.concat() + &")".repeat(n),
            2 => pieces.concat().repeat(n.min(400)),
            _ => "\"$(".repeat(n) + "rm x" + &")\"".repeat(n),
        },
    )
}

#[test]
fn if_rules_and_matchers_decide_quickly_on_any_command() {
    let rules = [
        "Bash(rm *)",
        "Bash(git push:*)",
        "Bash(*)",
        "Bash(*x*y*z*)",
        "Edit(src/**/*.rs)",
        "WebFetch(domain:*.a.b)",
    ];
    let hooks: Vec<Value> = rules
        .iter()
        .map(|r| json!({"type": "command", "if": r, "command": "exit 0", "timeout": 5}))
        .collect();
    let d = Dispatcher::new(
        &json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash|Edit|WebFetch", "hooks": hooks},
            {"matcher": "^(a+)+$|.*é.*|mcp__.*", "hooks": [{"type": "command", "command": "exit 0"}]}
        ]}})
        .to_string(),
    )
    .unwrap();
    fuzz(
        "if rules and matchers",
        (command(), prop_oneof!["Bash", "Edit", "WebFetch", "a{0,40}b?"]),
        |(cmd, tool)| {
            let event = json!({"hook_event_name": "PreToolUse", "tool_name": tool,
                           "tool_input": {"command": cmd, "file_path": cmd, "url": cmd}});
            let t = thread_cpu();
            let r: Value = serde_json::from_str(&d.fire_json(&event.to_string()).unwrap()).unwrap();
            let work = thread_cpu() - t;
            prop_assert!(work < Duration::from_secs(2), "{work:?} of CPU for {} bytes", cmd.len());
            for o in r["outcomes"].as_array().unwrap() {
                prop_assert_ne!(&o["status"], "timed_out", "{}", o);
            }
            Ok(())
        },
    );
}
