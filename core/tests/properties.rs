//! Properties of the public API (`Dispatcher::new` + `fire_json`) checked with proptest:
//!
//! - any JSON value, any string and any bytes given as a configuration or an event never panic:
//!   they give a dispatcher / a result, or a typed error of an input kind (never `panic` or
//!   `internal`), whose error JSON is well formed;
//! - the fold does not depend on the order in which hooks finish: N hooks with random sleeps and
//!   random verdicts give the decision and reason computed from configuration order with the
//!   precedence deny > defer > ask > allow (protocol.md §7);
//! - every result JSON parses and re-serialises to the same text and the same value.
//!
//! Arbitrary input never runs arbitrary commands: fully arbitrary configurations are only
//! loaded, never fired; the configurations that are fired are generated with `true` as their
//! only command (shell form) or `/bin/true` (exec form), and no `http` handler. Case counts
//! are small so the file runs in a few seconds.
#![allow(clippy::unwrap_used)]

use hookwire_core::{Dispatcher, ErrorKind};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{Map, Value, json};

/// Property-test settings: `cases` cases, no regression files written into the source tree.
fn cases(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// Keys that mean something to the engine, so that arbitrary objects reach past the first
/// "unknown key" check now and then.
const KEYS: &[&str] = &[
    "hooks",
    "sources",
    "scope",
    "settings",
    "dialect",
    "rules",
    "limits",
    "env",
    "trust",
    "project_dir",
    "matcher",
    "type",
    "command",
    "args",
    "timeout",
    "if",
    "once",
    "async",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "UserPromptSubmit",
    "SessionStart",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "session_id",
    "cwd",
    "prompt",
    "disableAllHooks",
];

/// A JSON object key: a meaningful one or any string.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![proptest::sample::select(KEYS).prop_map(str::to_string), ".{0,12}"]
}

/// Any JSON value (finite numbers only: JSON has no NaN), a few levels deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        ".{0,16}".prop_map(Value::String),
        proptest::sample::select(KEYS).prop_map(|k| Value::String(k.to_string())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// Checks a configuration's load: a dispatcher, or an error of a kind the input can cause.
fn check_load(loaded: Result<Dispatcher, hookwire_core::ConfigError>) -> Option<Dispatcher> {
    match loaded {
        Ok(d) => Some(d),
        Err(e) => {
            let kind = e.kind();
            assert!(
                matches!(kind, ErrorKind::InvalidJson | ErrorKind::InvalidUtf8 | ErrorKind::InvalidConfig),
                "configuration error of kind {kind}: {e}"
            );
            assert_error_json(&e.details().to_json(), kind);
            None
        }
    }
}

/// Checks a fire: a result JSON that round-trips, or an error of a kind the input can cause.
fn check_fire(fired: Result<String, hookwire_core::EventError>) {
    match fired {
        Ok(text) => assert_result_round_trips(&text),
        Err(e) => {
            let kind = e.kind();
            assert!(
                matches!(kind, ErrorKind::InvalidJson | ErrorKind::InvalidUtf8 | ErrorKind::InvalidEvent),
                "event error of kind {kind}: {e}"
            );
            assert_error_json(&e.details().to_json(), kind);
        }
    }
}

/// The error JSON of abi.md §1: `{"error": {"kind": K, "message": M, ...}}`.
fn assert_error_json(text: &str, kind: ErrorKind) {
    let v: Value = serde_json::from_str(text).unwrap();
    assert_eq!(v["error"]["kind"], kind.as_str(), "{text}");
    assert!(v["error"]["message"].is_string(), "{text}");
}

/// The keys of the result JSON, in the order protocol.md §8 gives them.
const RESULT_KEYS: [&str; 16] = [
    "event",
    "decision",
    "reason",
    "continue",
    "stop_reason",
    "updated_input",
    "updated_tool_output",
    "additional_context",
    "system_message",
    "suppress_output",
    "env",
    "extra",
    "pending_context",
    "warnings",
    "outcomes",
    "async_outcomes",
];

/// A result JSON parses, holds every key of §8 in order, and re-serialises to the same text
/// (it is compact JSON) and the same value.
fn assert_result_round_trips(text: &str) {
    let v: Value = serde_json::from_str(text).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, RESULT_KEYS, "{text}");
    let again = serde_json::to_string(&v).unwrap();
    assert_eq!(again, text, "re-serialised text differs");
    let reparsed: Value = serde_json::from_str(&again).unwrap();
    assert_eq!(reparsed, v);
}

/// A handler whose only possible command is `true` (shell form) or `/bin/true` (exec form),
/// with arbitrary values in the other fields. No `http`: nothing may reach the network.
fn harmless_handler() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        8 => Just(json!("command")),
        1 => proptest::sample::select(vec!["prompt", "agent", "mcp_tool", "bogus"]).prop_map(|s| json!(s)),
        1 => json_value(),
    ];
    let form = prop_oneof![
        Just(json!({"command": "true"})),
        Just(json!({"command": "/bin/true", "args": []})),
        Just(json!({"command": "/bin/true", "args": ["a b", "$(x)"]})),
    ];
    // Mostly valid values, sometimes arbitrary ones, so that most configurations load.
    let optional = |p: f64, s: BoxedStrategy<Value>| proptest::option::weighted(p, s);
    (
        kind,
        form,
        optional(0.5, prop_oneof![3 => (0.05f64..2.0).prop_map(Value::from), 1 => json_value()].boxed()),
        optional(0.15, prop_oneof![Just(json!("Bash(ls*)")), json_value()].boxed()),
        optional(0.15, prop_oneof![any::<bool>().prop_map(Value::Bool), json_value()].boxed()),
        proptest::collection::vec((key(), json_value()), 0..2),
    )
        .prop_map(|(kind, form, timeout, if_rule, once, extra)| {
            let mut h = Map::new();
            // Extra keys first, so they never override the harmless command.
            for (k, v) in extra {
                h.insert(k, v);
            }
            h.insert("type".into(), kind);
            for (k, v) in form.as_object().unwrap() {
                h.insert(k.clone(), v.clone());
            }
            h.remove("shell");
            h.remove("url");
            h.remove("async");
            h.remove("asyncRewake");
            if let Some(t) = timeout {
                h.insert("timeout".into(), t);
            }
            if let Some(i) = if_rule {
                h.insert("if".into(), i);
            }
            if let Some(o) = once {
                h.insert("once".into(), o);
            }
            Value::Object(h)
        })
}

const EVENTS: &[&str] =
    &["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart", "Notification", "Bogus"];

/// A settings-shape configuration of harmless handlers under arbitrary matchers.
fn harmless_config() -> impl Strategy<Value = Value> {
    let matcher = prop_oneof![
        3 => Just(None),
        3 => Just(Some(json!("Bash"))),
        2 => Just(Some(json!("*"))),
        1 => ".{0,8}".prop_map(|s| Some(json!(s))),
        1 => json_value().prop_map(Some),
    ];
    let group = (matcher, proptest::collection::vec(harmless_handler(), 1..3)).prop_map(|(m, hooks)| {
        let mut g = json!({"hooks": hooks});
        if let Some(m) = m {
            g["matcher"] = m;
        }
        g
    });
    proptest::collection::vec(
        (proptest::sample::select(EVENTS), proptest::collection::vec(group, 0..3)),
        1..3,
    )
    .prop_map(|events| {
        let mut hooks = Map::new();
        for (e, groups) in events {
            hooks.insert(e.to_string(), Value::Array(groups));
        }
        json!({"hooks": hooks})
    })
}

/// An event: an arbitrary value, or an object naming a known event with arbitrary fields.
/// The working directory is `/` when not arbitrary, so the `true` hooks can start.
fn any_event() -> impl Strategy<Value = Value> {
    let named = (
        proptest::sample::select(EVENTS),
        proptest::collection::vec((key(), json_value()), 0..5),
        prop_oneof![Just(json!("Bash")), Just(json!("Read")), json_value()],
    )
        .prop_map(|(name, fields, tool)| {
            let mut e = Map::new();
            e.insert("cwd".into(), json!("/"));
            e.insert("session_id".into(), json!("prop"));
            for (k, v) in fields {
                e.insert(k, v);
            }
            e.insert("hook_event_name".into(), json!(name));
            e.insert("tool_name".into(), tool);
            Value::Object(e)
        });
    prop_oneof![2 => named, 1 => json_value()]
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn any_json_value_as_a_configuration_loads_or_gives_a_typed_error(v in json_value()) {
        check_load(Dispatcher::new(&v.to_string()));
    }

    #[test]
    fn any_string_as_a_configuration_loads_or_gives_a_typed_error(s in ".{0,64}") {
        check_load(Dispatcher::new(&s));
    }

    #[test]
    fn any_bytes_as_a_configuration_load_or_give_a_typed_error(b in proptest::collection::vec(any::<u8>(), 0..64)) {
        check_load(Dispatcher::from_bytes(&b));
    }
}

proptest! {
    #![proptest_config(cases(256))]

    /// The dispatcher has hooks on `PreToolUse` only; arbitrary values and strings are fired at
    /// it, so a hook (`true`) runs only for the rare arbitrary `PreToolUse` event.
    #[test]
    fn any_json_value_or_string_as_an_event_gives_a_result_or_a_typed_error(
        v in any_event(),
        s in ".{0,48}",
        b in proptest::collection::vec(any::<u8>(), 0..48),
    ) {
        let d = Dispatcher::new(r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}"#).unwrap();
        check_fire(d.fire_json(&v.to_string()));
        check_fire(d.fire_json(&s));
        check_fire(d.fire_bytes(&b));
    }
}

proptest! {
    #![proptest_config(cases(64))]

    /// Generated configurations whose only command is `true`, fired with a generated event
    /// and with one plain event per configured event name (so their hooks do run): load or a
    /// typed error, then a round-tripping result or a typed error.
    #[test]
    fn generated_configurations_of_true_hooks_fire_without_panic(cfg in harmless_config(), ev in any_event()) {
        if let Some(d) = check_load(Dispatcher::new(&cfg.to_string())) {
            check_fire(d.fire_json(&ev.to_string()));
            for name in cfg["hooks"].as_object().unwrap().keys() {
                let plain = json!({"hook_event_name": name, "session_id": "prop", "cwd": "/",
                                   "tool_name": "Bash", "tool_input": {}, "prompt": "p"});
                check_fire(d.fire_json(&plain.to_string()));
            }
        }
    }
}

/// One hook's answer in the fold property.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Answer {
    /// exit 0 with a hookSpecificOutput `permissionDecision`.
    Json(&'static str),
    /// exit 2 with the reason on stderr (a deny on PreToolUse).
    Exit2,
    /// exit 0 with nothing on stdout: no decision.
    Nothing,
}

impl Answer {
    fn decision(self) -> Option<&'static str> {
        match self {
            Answer::Json(d) => Some(d),
            Answer::Exit2 => Some("deny"),
            Answer::Nothing => None,
        }
    }

    /// The shell command of hook `i`: sleep, then answer with reason `r<i>`.
    fn command(self, i: usize, sleep_ms: u64) -> String {
        let sleep = if sleep_ms == 0 { String::new() } else { format!("sleep 0.{sleep_ms:03}; ") };
        match self {
            Answer::Json(d) => format!(
                "{sleep}printf '%s' '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\
                 \"permissionDecision\":\"{d}\",\"permissionDecisionReason\":\"r{i}\"}}}}'"
            ),
            Answer::Exit2 => format!("{sleep}echo r{i} >&2; exit 2"),
            // `: r<i>` keeps identical hooks apart: the same command twice would be one (§2.7).
            Answer::Nothing => format!(": r{i}; {sleep}exit 0"),
        }
    }
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        Just(Answer::Json("allow")),
        Just(Answer::Json("deny")),
        Just(Answer::Json("ask")),
        Just(Answer::Json("defer")),
        Just(Answer::Exit2),
        Just(Answer::Nothing),
    ]
}

/// The fold of protocol.md §7 for PreToolUse, computed from configuration order alone: the
/// decision of highest precedence, and the reason of the first hook that gave it.
fn expected_fold(answers: &[Answer]) -> (Value, Value) {
    for decision in ["deny", "defer", "ask", "allow"] {
        if let Some(i) = answers.iter().position(|a| a.decision() == Some(decision)) {
            return (json!(decision), json!(format!("r{i}")));
        }
    }
    (Value::Null, Value::Null)
}

proptest! {
    #![proptest_config(cases(16))]

    #[test]
    fn the_fold_follows_configuration_order_and_precedence_whatever_the_finish_order(
        hooks in proptest::collection::vec((answer(), 0u64..=50), 1..=5),
    ) {
        let handlers: Vec<Value> = hooks
            .iter()
            .enumerate()
            .map(|(i, (a, ms))| json!({"type": "command", "command": a.command(i, *ms), "timeout": 30}))
            .collect();
        let cfg = json!({"hooks": {"PreToolUse": [{"hooks": handlers}]}});
        let d = Dispatcher::new(&cfg.to_string()).unwrap();
        let ev = json!({"hook_event_name": "PreToolUse", "session_id": "fold", "cwd": "/",
                        "tool_name": "Bash", "tool_input": {"command": "ls"}});
        let text = d.fire_json(&ev.to_string()).unwrap();
        assert_result_round_trips(&text);
        let r: Value = serde_json::from_str(&text).unwrap();
        let answers: Vec<Answer> = hooks.iter().map(|(a, _)| *a).collect();
        let (decision, reason) = expected_fold(&answers);
        prop_assert_eq!(&r["decision"], &decision, "{:?}: {}", hooks, text);
        prop_assert_eq!(&r["reason"], &reason, "{:?}: {}", hooks, text);
        let outcomes = r["outcomes"].as_array().unwrap();
        prop_assert_eq!(outcomes.len(), hooks.len());
        for (i, (o, a)) in outcomes.iter().zip(&answers).enumerate() {
            // Outcomes are listed in configuration order, each with its own verdict.
            prop_assert!(o["hook"].as_str().unwrap().ends_with(&format!("hooks[{i}]")), "{}", o);
            prop_assert_eq!(&o["status"], "ok", "{}", o);
            prop_assert_eq!(o["verdict"]["decision"].as_str(), a.decision(), "{}", o);
        }
    }
}
