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
//!
//! Scale (issue 20) is measured outside criterion, because one load of 100,000 handlers takes
//! long enough that criterion's minimum sample count would dominate the quick mode. The binary
//! writes `target/bench/core-scale.jsonl` in `benches/run`'s row format: 1f (a no-match fire
//! with 100,000 handlers against the same fire with 200), 1g (bytes live after loading the
//! 100,000-handler settings against the file's size; the peak during the load beside it), and
//! the scaling rows `7load-N` and `7fire-N` for N = 200 … 100,000, each against N = 200. The
//! two sizes of each ratio are measured in alternating rounds in this one process.

#![allow(clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use hookwire_core::Dispatcher;
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

struct Counting;
static ALLOCS: AtomicU64 = AtomicU64::new(0);
/// Bytes requested and not yet freed, and the most that ever were (reset by `reset_peak`).
static LIVE: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by as u64, Ordering::Relaxed) + by as u64;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrank(by: usize) {
    LIVE.fetch_sub(by as u64, Ordering::Relaxed);
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        shrank(l.size());
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        let q = unsafe { System.realloc(p, l, n) };
        if !q.is_null() {
            grew(n);
            shrank(l.size());
        }
        q
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

/// Claude Code settings with `n` command handlers (a multiple of 4), shaped like a large real
/// file: groups of 4 on PreToolUse and PostToolUse (a few on PostToolUseFailure); most groups
/// name one tool or an alternation (`Edit|Write|MultiEdit`, MCP tool names; one in 10 an MCP
/// name of its own project), one in 50 is a regex from a handful of texts; every handler has
/// its own script and a timeout, one in 4 is exec form, one in 4 has a status message, one in 8
/// an `if` rule (from a handful of texts). No group matches `NoSuchTool`. Compact JSON (so the
/// file size counts no indentation): 100,000 handlers make about 12 MB.
fn settings_n(n: usize) -> String {
    const NAMES: &[&str] = &[
        "Bash",
        "Edit|Write|MultiEdit",
        "Read",
        "Write",
        "Glob|Grep",
        "WebFetch",
        "Edit",
        "Task",
        "mcp__github__create_issue|mcp__github__create_pull_request",
        "NotebookEdit",
        "Bash|PowerShell",
        "TodoWrite",
    ];
    const REGEXES: &[&str] = &["mcp__memory__.*", "^Notebook", "mcp__.*__delete_.*", "Web(Fetch|Search)$"];
    const IFS: &[&str] = &["Bash(git push:*)", "Bash(rm -rf:*)", "Edit(src/**/*.rs)", "Write(*.env)"];
    let events = ["PreToolUse", "PostToolUse", "PreToolUse", "PostToolUse", "PostToolUseFailure"];
    let mut hooks: Vec<(&str, Vec<Value>)> =
        ["PreToolUse", "PostToolUse", "PostToolUseFailure"].iter().map(|e| (*e, Vec::new())).collect();
    for g in 0..n / 4 {
        let e = events[g % events.len()];
        let matcher = if g % 50 == 49 {
            REGEXES[g / 50 % REGEXES.len()].to_string()
        } else if g % 10 == 7 {
            format!("mcp__srv{}__tool", g % 997)
        } else {
            NAMES[g % NAMES.len()].to_string()
        };
        let handlers: Vec<Value> = (0..4)
            .map(|k| {
                let i = g * 4 + k;
                let mut h = serde_json::json!({"type": "command"});
                if k == 1 {
                    h["command"] = "/usr/bin/env".into();
                    h["args"] = serde_json::json!(["python3", format!("/opt/hooks/h{i}.py")]);
                } else {
                    h["command"] = format!("$CLAUDE_PROJECT_DIR/.claude/hooks/check-{i}.sh --strict").into();
                }
                h["timeout"] = 30.into();
                if k == 2 {
                    h["statusMessage"] = ["Checking the command", "Formatting", "Linting"][g % 3].into();
                }
                if i % 8 == 3 {
                    h["if"] = IFS[i / 8 % IFS.len()].into();
                }
                h
            })
            .collect();
        let slot = hooks.iter_mut().find(|(name, _)| *name == e).unwrap();
        slot.1.push(serde_json::json!({"matcher": matcher, "hooks": handlers}));
    }
    let hooks: serde_json::Map<String, Value> =
        hooks.into_iter().map(|(k, v)| (k.to_string(), Value::Array(v))).collect();
    serde_json::to_string(&serde_json::json!({"hooks": hooks})).unwrap()
}

const NO_MATCH_EVENT: &str = r#"{"session_id":"s-1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"NoSuchTool","tool_input":{"command":"ls -la","description":"list files"},"tool_use_id":"toolu_01"}"#;
const UNCONFIGURED_EVENT: &str = r#"{"session_id":"s-1","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"Notification","message":"hi","notification_type":"idle_prompt"}"#;

/// A test run as coding agents write it: `&&`, a pipe, redirections.
const IF_SKIP_EVENT: &str = r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"cd /proj && npm test -- --coverage 2>&1 | tail -20 && git status --short"}}"#;

/// A commit as coding agents write it: a here-document in a command substitution, `&&`-chained.
const IF_SKIP_HEREDOC_EVENT: &str = r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"git add -A && git commit -m \"$(cat <<'EOF'\nfix(core): read the command line as bash does\n\nThe guard runs whenever bash would run what it guards.\n\nCo-Authored-By: Agent <agent@example.com>\nEOF\n)\" && git push origin HEAD 2>&1 | tail -5"}}"#;

/// A Bash call every PreToolUse hook matches.
const SPAWN_EVENT: &str =
    r#"{"hook_event_name":"PreToolUse","session_id":"b","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

fn bench(c: &mut Criterion) {
    let settings = settings_200();
    let d = Dispatcher::new(&settings).unwrap();
    let handlers = settings.matches("\"type\"").count();
    assert_eq!(handlers, 200, "the settings file must hold 200 handlers");
    // Sanity: the no-match fire really matches nothing.
    let r: Value = serde_json::from_str(&d.fire_json(NO_MATCH_EVENT).unwrap()).unwrap();
    assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0), "{r}");

    write_alloc_counts(&d);
    write_scale_rows();

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

    // 1h, 1i: a Bash guard whose `if` rule skips it, for the kind of command agents write.
    let guard = Dispatcher::new(
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "if": "Bash(rm *)", "command": "exit 2"}]}]}}"#,
    )
    .unwrap();
    for (group, event) in [("if_rule_skip", IF_SKIP_EVENT), ("if_rule_skip_heredoc", IF_SKIP_HEREDOC_EVENT)] {
        let r: Value = serde_json::from_str(&guard.fire_json(event).unwrap()).unwrap();
        assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0), "the guard must be skipped: {r}");
        assert!(r["warnings"].as_array().is_none_or(Vec::is_empty), "and decided: {r}");
        let mut g = c.benchmark_group(group);
        g.bench_function("hookwire", |b| b.iter(|| guard.fire_json(black_box(event)).unwrap()));
        g.bench_function("baseline", |b| b.iter(|| serde_json::from_str::<Value>(black_box(event)).unwrap()));
        g.finish();
    }

    // 1s: the cost of the sandbox per spawn (Landlock ruleset, seccomp filters, pids cgroup).
    let spawn = |sandbox: &str| {
        let hooks = format!(
            r#"{{"hooks": {{"PreToolUse": [{{"hooks": [{{"type": "command", "command": "/bin/true", "args": []{sandbox}}}]}}]}}}}"#
        );
        Dispatcher::new(&hooks).unwrap()
    };
    let (plain, boxed) = (spawn(""), spawn(r#", "sandbox": "strict""#));
    let r: Value = serde_json::from_str(&boxed.fire_json(SPAWN_EVENT).unwrap()).unwrap();
    assert_eq!(r["outcomes"][0]["status"], "ok", "the sandboxed hook runs: {r}");
    let mut fires = |group: &str, hookwire: &Dispatcher, baseline: &Dispatcher| {
        let mut g = c.benchmark_group(group);
        g.bench_function("hookwire", |b| b.iter(|| hookwire.fire_json(black_box(SPAWN_EVENT)).unwrap()));
        g.bench_function("baseline", |b| b.iter(|| baseline.fire_json(black_box(SPAWN_EVENT)).unwrap()));
        g.finish();
    };
    fires("sandboxed_spawn", &boxed, &plain);

    // 1n: the cost of a network allow-list on top of the strict sandbox (the name resolved per
    // fire, the supervisor thread and its handshake with the hook before `execve`).
    let listed = spawn(r#", "sandbox": {"network": ["localhost:443"]}"#);
    let r: Value = serde_json::from_str(&listed.fire_json(SPAWN_EVENT).unwrap()).unwrap();
    assert_eq!(r["outcomes"][0]["status"], "ok", "the hook with an allow-list runs: {r}");
    fires("netallow_spawn", &listed, &boxed);

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
    let json = serde_json::json!({"no_match_fire_allocs": fire, "event_parse_allocs": parse});
    let _ = std::fs::write(bench_dir().join("core-allocs.json"), json.to_string());
}

/// `target/bench` of the build: `$CARGO_TARGET_DIR/bench` when that is set (as `benches/run`
/// reads it), else the workspace's `target/bench`.
fn bench_dir() -> std::path::PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let dir = target.join("bench");
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn quantile(xs: &[f64], p: f64) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let i = ((p * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1;
    s[i]
}

/// One row in `benches/run`'s format, from the samples of both sides.
fn row(
    figure: &str,
    name: &str,
    baseline: &str,
    unit: &str,
    hw: &[f64],
    base: &[f64],
) -> serde_json::Map<String, Value> {
    let (m, p9, bm, bp9) = (quantile(hw, 0.5), quantile(hw, 0.9), quantile(base, 0.5), quantile(base, 0.9));
    let v = serde_json::json!({
        "figure": figure, "name": name, "baseline": baseline, "unit": unit, "n": hw.len(),
        "median": m, "p90": p9, "base_median": bm, "base_p90": bp9,
        "ratio_median": m / bm, "ratio_p90": p9 / bp9,
    });
    match v {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

/// Seconds per call of `f`, timed over enough calls to take about `min` (at least one).
fn per_call(min: Duration, f: &mut dyn FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u32;
    while calls == 0 || start.elapsed() < min {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(calls)
}

/// 1f, 1g and the scaling rows 7load-N / 7fire-N (see the module comment).
fn write_scale_rows() {
    let quick = std::env::var_os("HOOKWIRE_BENCH_QUICK").is_some();
    let sizes = [200usize, 1_000, 10_000, 100_000];
    let texts: Vec<String> = sizes.iter().map(|&n| settings_n(n)).collect();
    for (t, n) in texts.iter().zip(sizes) {
        assert_eq!(t.matches("\"type\"").count(), n, "settings_n({n}) must hold {n} handlers");
    }
    let mut rows = Vec::new();

    // 1g first, on a quiet heap: what the dispatcher keeps, and the most the load held at once.
    let big = texts.last().unwrap();
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let d = Dispatcher::new(big).unwrap();
    let (live, peak) = (LIVE.load(Ordering::Relaxed) - before, PEAK.load(Ordering::Relaxed) - before);
    drop(d);
    let file = big.len() as f64;
    let mut r = row(
        "1g",
        "bytes live after Dispatcher::new, 100,000 handlers",
        "size of the settings text",
        "B",
        &[live as f64],
        &[file],
    );
    r.insert("goal".into(), 5.into());
    r.insert("peak".into(), peak.into());
    r.insert(
        "note".into(),
        format!(
            "counting allocator, one load (deterministic); peak during the load {peak} B = {:.2} x the file",
            peak as f64 / file
        )
        .into(),
    );
    rows.push(r);
    rows.push(row(
        "1g-peak",
        "most bytes live during Dispatcher::new, 100,000 handlers",
        "size of the settings text",
        "B",
        &[peak as f64],
        &[file],
    ));

    let loaded: Vec<Dispatcher> = texts.iter().map(|t| Dispatcher::new(t).unwrap()).collect();
    for d in &loaded {
        let r: Value = serde_json::from_str(&d.fire_json(NO_MATCH_EVENT).unwrap()).unwrap();
        assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(0), "{r}");
        assert!(d.answer_without_running(NO_MATCH_EVENT).is_some(), "the no-match fire takes the fast path");
    }
    let rounds = |n: usize| match (quick, n) {
        (true, 100_000) => 3,
        (true, _) => 5,
        (false, 100_000) => 11,
        (false, 10_000) => 21,
        (false, _) => 31,
    };
    for (i, &n) in sizes.iter().enumerate() {
        let (mut hw, mut base) = (Vec::new(), Vec::new());
        let min = Duration::from_millis(if quick { 5 } else { 20 });
        for _ in 0..rounds(n) {
            hw.push(per_call(min, &mut || drop(black_box(Dispatcher::new(black_box(&texts[i])).unwrap()))));
            base.push(per_call(min, &mut || drop(black_box(Dispatcher::new(black_box(&texts[0])).unwrap()))));
        }
        let name = format!("Dispatcher::new, {n} handlers");
        rows.push(row(
            &format!("7load-{n}"),
            &name,
            "Dispatcher::new, 200 handlers of the same shape",
            "s",
            &hw,
            &base,
        ));
    }
    for (i, &n) in sizes.iter().enumerate() {
        let (mut hw, mut base) = (Vec::new(), Vec::new());
        let min = Duration::from_millis(if quick { 2 } else { 10 });
        for _ in 0..if quick { 15 } else { 61 } {
            hw.push(per_call(min, &mut || {
                drop(black_box(loaded[i].fire_json(black_box(NO_MATCH_EVENT)).unwrap()))
            }));
            base.push(per_call(min, &mut || {
                drop(black_box(loaded[0].fire_json(black_box(NO_MATCH_EVENT)).unwrap()))
            }));
        }
        let name = format!("fire_json, no match, {n} handlers");
        let baseline = "the same fire, 200 handlers of the same shape";
        if n == 100_000 {
            let mut r = row("1f", &name, baseline, "s", &hw, &base);
            r.insert("goal".into(), 2.into());
            let why = "both through fire_json's no-match path; the 200 handlers are settings_n(200), the shape of the 100,000 (figure 1b's settings_200 is another file)";
            r.insert("note".into(), why.into());
            rows.push(r);
        }
        rows.push(row(&format!("7fire-{n}"), &name, baseline, "s", &hw, &base));
    }
    let text: String = rows.iter().map(|r| format!("{}\n", Value::Object(r.clone()))).collect();
    eprint!("{text}");
    let _ = std::fs::write(bench_dir().join("core-scale.jsonl"), text);
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
