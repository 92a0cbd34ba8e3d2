//! Logs (issue 16, docs/logging.md): the records a host's sink receives for a fire, their
//! levels and fields, what never appears above TRACE, and that logging cannot fail a fire.
//! The sink is process-wide, so the tests of this file take turns (`SERIAL`).
#![allow(clippy::unwrap_used)]

use hookwire_core::{Dispatcher, LogLevel, LogRecord, LogSinkError, log_level, set_log_sink};
use serde_json::Value;
use std::sync::{Arc, Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

/// Every test holds its turn from start to end: no other test's dispatcher logs meanwhile.
fn turn() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers a sink collecting records at `level` for the life of the returned guard.
struct Captured {
    records: Arc<Mutex<Vec<LogRecord>>>,
}

impl Captured {
    fn at(level: LogLevel) -> Captured {
        let records = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&records);
        set_log_sink(Some(Arc::new(move |r: &LogRecord| sink.lock().unwrap().push(r.clone()))), level)
            .unwrap();
        Captured { records }
    }

    fn take(&self) -> Vec<LogRecord> {
        std::mem::take(&mut *self.records.lock().unwrap())
    }
}

impl Drop for Captured {
    fn drop(&mut self) {
        set_log_sink(None, LogLevel::Off).unwrap();
    }
}

fn event_of(r: &LogRecord) -> &str {
    r.fields["event"].as_str().unwrap()
}

fn named<'a>(records: &'a [LogRecord], event: &str) -> Vec<&'a LogRecord> {
    records.iter().filter(|r| event_of(r) == event).collect()
}

const BASH: &str = r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

fn deny_config() -> String {
    serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 0"}]},
        {"matcher": "Bash", "hooks": [{"type": "command",
            "command": "echo 's3cret-out' >&2; echo '{\"decision\":\"block\",\"reason\":\"s3cret-reason\"}'"}]}
    ]}})
    .to_string()
}

#[test]
fn a_fire_logs_its_start_why_each_hook_runs_or_not_its_process_its_verdict_and_its_end() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    let cap = Captured::at(LogLevel::Debug);
    let result: Value = serde_json::from_str(&d.fire_json(BASH).unwrap()).unwrap();
    assert_eq!(result["decision"], "deny");
    let records = cap.take();
    let events: Vec<&str> = records.iter().map(event_of).collect();
    assert_eq!(
        events,
        [
            "fire.start",
            "hook.skipped",
            "hook.selected",
            "hook.spawned",
            "hook.exited",
            "hook.verdict",
            "fire.fold",
            "fire.done"
        ],
        "{records:#?}"
    );
    let fire_id = records[0].fields["fire_id"].as_u64().unwrap();
    assert!(fire_id > 0);
    for r in &records {
        assert_eq!(r.fields["fire_id"].as_u64(), Some(fire_id), "{r:?}");
        assert!(r.target == "hookwire::fire" || r.target == "hookwire::hook", "{r:?}");
        assert!(!r.message.is_empty());
    }
    let start = &records[0];
    assert_eq!(start.fields["hook_event_name"], "PreToolUse");
    assert_eq!(start.fields["session_id"], "s");

    let skipped = named(&records, "hook.skipped")[0];
    assert_eq!(skipped.fields["skip_reason"], "matcher");
    assert_eq!(skipped.fields["hook_id"], "session:PreToolUse[0].hooks[0]");
    assert!(skipped.fields["source"].as_str().is_some_and(|s| !s.is_empty()), "{skipped:?}");

    let selected = named(&records, "hook.selected")[0];
    assert_eq!(selected.fields["hook_id"], "session:PreToolUse[1].hooks[0]");
    assert_eq!(selected.fields["hook_type"], "command");
    assert_eq!(selected.fields["mode"], "sync");
    assert!(selected.fields["timeout_s"].as_f64().unwrap() > 0.0);

    let spawned = named(&records, "hook.spawned")[0];
    let pid = spawned.fields["pid"].as_i64().unwrap();
    assert!(pid > 0);
    assert!(spawned.fields["program"].as_str().unwrap().ends_with("sh"));
    let exited = named(&records, "hook.exited")[0];
    assert_eq!(exited.fields["pid"].as_i64(), Some(pid));
    assert_eq!(exited.fields["exit_code"], 0);
    assert!(exited.fields["duration_ms"].as_f64().unwrap() >= 0.0);

    let verdict = named(&records, "hook.verdict")[0];
    assert_eq!(verdict.level, LogLevel::Debug);
    assert_eq!(verdict.fields["status"], "ok");
    assert_eq!(verdict.fields["decision"], "deny");
    assert_eq!(verdict.fields["verdict_source"], "json");
    assert_eq!(verdict.fields["stop"], false);

    let fold = named(&records, "fire.fold")[0];
    assert_eq!((fold.fields["decision"].as_str(), fold.fields["hooks"].as_u64()), (Some("deny"), Some(1)));
    let done = named(&records, "fire.done")[0];
    assert_eq!(done.level, LogLevel::Info);
    assert_eq!(done.fields["decision"], "deny");
    assert_eq!(done.fields["hooks"], 1);
    assert_eq!(done.fields["fast_path"], false);
    assert!(done.fields["duration_ms"].as_f64().is_some());

    // What the hook printed, and the reason it wrote, stay out of every record above TRACE.
    let all = records.iter().map(LogRecord::to_json).collect::<String>();
    assert!(!all.contains("s3cret"), "{all}");
}

#[test]
fn trace_adds_the_hook_input_and_output() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    let cap = Captured::at(LogLevel::Trace);
    d.fire_json(BASH).unwrap();
    let records = cap.take();
    let input = named(&records, "hook.input")[0];
    assert_eq!(input.level, LogLevel::Trace);
    assert!(input.fields["payload"].as_str().unwrap().contains(r#""tool_name":"Bash""#));
    let output = named(&records, "hook.output")[0];
    assert_eq!(output.fields["stderr"], "s3cret-out\n");
    assert_eq!(output.fields["reason"], "s3cret-reason");
    assert!(output.fields["stdout"].as_str().unwrap().contains("block"));
}

#[test]
fn the_level_filters_records_and_info_is_one_record_per_fire_that_ran_hooks() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    let cap = Captured::at(LogLevel::Info);
    assert_eq!(log_level(), LogLevel::Info);
    d.fire_json(BASH).unwrap();
    // No match: nothing at INFO (the fast path answers it).
    d.fire_json(r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}"#).unwrap();
    let records = cap.take();
    assert_eq!(records.len(), 1, "{records:#?}");
    assert_eq!(event_of(&records[0]), "fire.done");
    assert_eq!(records[0].level.as_str(), "info");
}

#[test]
fn a_failed_hook_is_a_warning_and_a_timeout_is_told_as_it_happens() {
    let _turn = turn();
    let d = Dispatcher::new(
        r#"{"hooks":{"Stop":[{"hooks":[
            {"type":"command","command":"exit 1"},
            {"type":"command","command":"sleep 5","timeout":0.2},
            {"type":"command","command":"/nonexistent/hook","args":[]}
        ]}]}}"#,
    )
    .unwrap();
    let cap = Captured::at(LogLevel::Debug);
    d.fire_json(r#"{"hook_event_name":"Stop","cwd":"/"}"#).unwrap();
    let records = cap.take();
    let verdicts = named(&records, "hook.verdict");
    let statuses: Vec<(&str, LogLevel)> =
        verdicts.iter().map(|r| (r.fields["status"].as_str().unwrap(), r.level)).collect();
    assert_eq!(
        statuses,
        [("error", LogLevel::Warn), ("timed_out", LogLevel::Warn), ("spawn_failed", LogLevel::Warn)],
        "{records:#?}"
    );
    assert_eq!(verdicts[0].fields["exit_code"], 1);
    let timed_out = named(&records, "hook.timed_out");
    assert_eq!(timed_out.len(), 1, "{records:#?}");
    assert_eq!(timed_out[0].fields["started"], true);
    assert_eq!(timed_out[0].fields["hook_id"], "session:Stop[0].hooks[1]");
    let reason = named(&records, "hook.spawn_failed")[0].fields["reason"].as_str().unwrap();
    assert!(reason.contains("/nonexistent/hook"), "{reason}");
}

#[test]
fn a_no_match_fire_says_why_each_hook_of_the_event_did_not_run() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    let cap = Captured::at(LogLevel::Debug);
    let event = r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}"#;
    let logged: Value = serde_json::from_str(&d.fire_json(event).unwrap()).unwrap();
    let records = cap.take();
    let skips: Vec<(&str, &str)> = named(&records, "hook.skipped")
        .iter()
        .map(|r| (r.fields["hook_id"].as_str().unwrap(), r.fields["skip_reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        skips,
        [("session:PreToolUse[0].hooks[0]", "matcher"), ("session:PreToolUse[1].hooks[0]", "matcher")]
    );
    let done = named(&records, "fire.done")[0];
    assert_eq!((done.level, done.fields["hooks"].as_u64()), (LogLevel::Debug, Some(0)));
    drop(cap);
    // The same answer as the fast path gives with logging off.
    let quiet: Value = serde_json::from_str(&d.fire_json(event).unwrap()).unwrap();
    assert_eq!(logged, quiet);
}

#[test]
fn loading_logs_the_configuration_and_each_warning() {
    let _turn = turn();
    let cap = Captured::at(LogLevel::Debug);
    Dispatcher::new(r#"{"hooks":{"NoSuchEvent":[{"hooks":[{"type":"command","command":"true"}]}]}}"#)
        .unwrap();
    let records = cap.take();
    let done = named(&records, "load.done")[0];
    assert_eq!(done.target, "hookwire::load");
    assert_eq!(done.fields["dialect"], "claude-code");
    assert_eq!(done.fields["warnings"], 1);
    let warning = named(&records, "load.warning")[0];
    assert_eq!(warning.level, LogLevel::Warn);
    assert!(warning.fields["warning"].as_str().unwrap().contains("NoSuchEvent"));
}

#[test]
fn with_no_sink_nothing_is_delivered_and_the_level_is_off() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    let cap = Captured::at(LogLevel::Debug);
    let records = Arc::clone(&cap.records);
    drop(cap);
    assert_eq!(log_level(), LogLevel::Off);
    assert!(tracing_off());
    d.fire_json(BASH).unwrap();
    assert!(records.lock().unwrap().is_empty());
    // A sink at Off is no sink.
    set_log_sink(Some(Arc::new(|_: &LogRecord| panic!("called at Off"))), LogLevel::Off).unwrap();
    d.fire_json(BASH).unwrap();
    assert_eq!(log_level(), LogLevel::Off);
}

/// The global maximum level `tracing` checks first at every event.
fn tracing_off() -> bool {
    tracing::level_filters::LevelFilter::current() == tracing::level_filters::LevelFilter::OFF
}

#[test]
fn a_panicking_sink_never_fails_a_fire() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    set_log_sink(Some(Arc::new(|_: &LogRecord| panic!("the host's logger is broken"))), LogLevel::Trace)
        .unwrap();
    let result: Value = serde_json::from_str(&d.fire_json(BASH).unwrap()).unwrap();
    set_log_sink(None, LogLevel::Off).unwrap();
    assert_eq!(result["decision"], "deny");
}

#[test]
fn the_sink_cannot_replace_itself_and_its_own_events_are_not_delivered_again() {
    let _turn = turn();
    let d = Dispatcher::new(&deny_config()).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let inner_seen = Arc::clone(&seen);
    let sink = move |r: &LogRecord| {
        inner_seen.lock().unwrap().push(Ok(r.fields["event"].as_str().unwrap().to_string()));
        if r.fields["event"] == "fire.done" {
            // A logger that logs through hookwire's targets, and tries to swap itself out.
            tracing::warn!(target: "hookwire::fire", event = "nested", "from inside the sink");
            inner_seen.lock().unwrap().push(set_log_sink(None, LogLevel::Off).map(|()| String::new()));
        }
    };
    set_log_sink(Some(Arc::new(sink)), LogLevel::Info).unwrap();
    d.fire_json(BASH).unwrap();
    set_log_sink(None, LogLevel::Off).unwrap();
    assert_eq!(*seen.lock().unwrap(), [Ok("fire.done".to_string()), Err(LogSinkError::FromSink)]);
}

#[test]
fn an_async_hook_is_logged_with_its_fire_when_it_ends() {
    let _turn = turn();
    let d = Dispatcher::new(
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"exit 0","async":true}]}]}}"#,
    )
    .unwrap();
    let cap = Captured::at(LogLevel::Debug);
    d.fire_json(r#"{"hook_event_name":"Stop","session_id":"a","cwd":"/"}"#).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut records = Vec::new();
    while named(&records, "hook.verdict").is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        records.extend(cap.take());
    }
    let fire_id = &named(&records, "fire.start")[0].fields["fire_id"];
    assert_eq!(named(&records, "hook.selected")[0].fields["mode"], "async");
    let verdict = named(&records, "hook.verdict")[0];
    assert_eq!(&verdict.fields["fire_id"], fire_id, "{records:#?}");
    assert_eq!(verdict.fields["status"], "ok");
}
