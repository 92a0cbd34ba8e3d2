//! Core benchmarks (issue 10, figure 1), through the public API only: hookwire-core's matcher,
//! verdict and fold modules are private.
//!
//! Each hookwire figure sits in a criterion group beside its baseline, measured in the same
//! process: loading a 200-handler settings file beside parsing the same text with
//! `serde_json::from_str::<Value>`; a no-match fire beside parsing the event. `benches/run`
//! turns the two into a ratio (`benches/summarize.py` reads criterion's `sample.json`).
//!
//! The binary also counts heap allocations per no-match fire with a counting global allocator
//! and writes them to `target/bench/core-allocs.json` (allocations are deterministic, so one
//! count is enough).

#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use hookwire_core::Dispatcher;
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// 200 command handlers: 50 groups of 4 over four tool events, regex and exact matchers, half
/// exec form, some with `if` rules and timeouts; none of them matches tool `NoSuchTool`.
fn settings_200() -> String {
    let events = ["PreToolUse", "PostToolUse", "PermissionRequest", "PostToolUseFailure"];
    let mut hooks = serde_json::Map::new();
    for (e, name) in events.iter().enumerate() {
        let mut groups = Vec::new();
        for g in 0..50 / events.len() + usize::from(e < 50 % events.len()) {
            let matcher = if g % 2 == 0 { format!("Tool{g}|Edit{g}") } else { format!("^mcp__srv{g}__.*$") };
            let handlers: Vec<Value> = (0..4)
                .map(|k| {
                    let mut h = serde_json::json!({"type": "command", "timeout": 30});
                    if k % 2 == 0 {
                        h["command"] =
                            format!("${{CLAUDE_PROJECT_DIR}}/hooks/check-{e}-{g}-{k}.sh --strict").into();
                    } else {
                        h["command"] = "/usr/bin/env".into();
                        h["args"] = serde_json::json!(["python3", format!("/opt/hooks/h{e}_{g}_{k}.py")]);
                    }
                    if k == 3 {
                        h["if"] = format!("Bash(git push:*{g})").into();
                    }
                    h
                })
                .collect();
            groups.push(serde_json::json!({"matcher": matcher, "hooks": handlers}));
        }
        hooks.insert((*name).to_string(), Value::Array(groups));
    }
    serde_json::to_string_pretty(&serde_json::json!({"hooks": hooks})).unwrap()
}

const NO_MATCH_EVENT: &str = r#"{"session_id":"s-1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"NoSuchTool","tool_input":{"command":"ls -la","description":"list files"},"tool_use_id":"toolu_01"}"#;
const UNCONFIGURED_EVENT: &str = r#"{"session_id":"s-1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"Notification","message":"hi","notification_type":"idle_prompt"}"#;

fn bench(c: &mut Criterion) {
    let settings = settings_200();
    let d = Dispatcher::new(&settings).unwrap();
    let handlers = settings.matches("\"type\"").count();
    assert_eq!(handlers, 200, "the settings file must hold 200 handlers");
    // Sanity: the no-match fire really matches nothing.
    let r: Value = serde_json::from_str(&d.fire_json(NO_MATCH_EVENT).unwrap()).unwrap();
    assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0), "{r}");

    write_alloc_counts(&d);

    let mut g = c.benchmark_group("config_load_200");
    g.bench_function("hookwire", |b| b.iter(|| Dispatcher::new(black_box(&settings)).unwrap()));
    g.bench_function("baseline", |b| b.iter(|| serde_json::from_str::<Value>(black_box(&settings)).unwrap()));
    g.finish();

    let mut g = c.benchmark_group("no_match_fire_200");
    g.bench_function("hookwire", |b| b.iter(|| d.fire_json(black_box(NO_MATCH_EVENT)).unwrap()));
    g.bench_function("baseline", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(NO_MATCH_EVENT)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("unconfigured_event_fire");
    g.bench_function("hookwire", |b| b.iter(|| d.fire_json(black_box(UNCONFIGURED_EVENT)).unwrap()));
    g.bench_function("baseline", |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(UNCONFIGURED_EVENT)).unwrap())
    });
    g.finish();

    let event: Value = serde_json::from_str(NO_MATCH_EVENT).unwrap();
    let mut g = c.benchmark_group("no_match_fire_value_200");
    g.bench_function("hookwire", |b| b.iter(|| d.fire(black_box(&event)).unwrap()));
    g.bench_function("baseline", |b| b.iter(|| black_box(&event).clone()));
    g.finish();
}

fn write_alloc_counts(d: &Dispatcher) {
    let count = |f: &dyn Fn()| {
        f(); // warm: lazily built state is not per-fire cost
        let before = ALLOCS.load(Ordering::Relaxed);
        for _ in 0..100 {
            f();
        }
        (ALLOCS.load(Ordering::Relaxed) - before) as f64 / 100.0
    };
    let fire = count(&|| {
        black_box(d.fire_json(NO_MATCH_EVENT).unwrap());
    });
    let parse = count(&|| {
        black_box(serde_json::from_str::<Value>(NO_MATCH_EVENT).unwrap());
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    let _ = std::fs::create_dir_all(&dir);
    let json = serde_json::json!({"no_match_fire_allocs": fire, "event_parse_allocs": parse});
    let _ = std::fs::write(dir.join("core-allocs.json"), json.to_string());
}

fn config() -> Criterion {
    let quick = std::env::var_os("HOOKWIRE_BENCH_QUICK").is_some();
    Criterion::default()
        .sample_size(if quick { 10 } else { 40 })
        .warm_up_time(Duration::from_millis(if quick { 100 } else { 700 }))
        .measurement_time(Duration::from_millis(if quick { 300 } else { 2000 }))
        .without_plots()
}

criterion_group! { name = benches; config = config(); targets = bench }
criterion_main!(benches);
