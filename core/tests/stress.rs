//! Load on one dispatcher through the public API (`Dispatcher::new` + `fire_json`): many threads
//! firing at once, then a long run of sequential fires. Every fire must give exactly the verdict
//! its hooks imply (none lost, none borrowed from a concurrent fire), and the process must end
//! with the descriptors it started with, no zombie and no child left.
//!
//! The hooks are cheap on purpose (`exit 0`, `exit 2`, a tiny JSON echo, `/bin/true`): the
//! point is the engine's bookkeeping under load, not the hooks. Each test prints one `stress:`
//! line with its figures (run with `--nocapture` to see it; `.ci/reliability.sh` does).
//!
//! Both tests count process-wide things (descriptors, children), so they take one lock for
//! their whole body and never overlap.
#![allow(clippy::unwrap_used)]

use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Threads of the concurrent test, and fires per thread.
const THREADS: usize = 16;
const FIRES_PER_THREAD: usize = 500;
/// Fires of the sequential test.
const SEQUENTIAL_FIRES: usize = 2000;

fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The number of entries of `/proc/self/fd`.
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// `(pid, state)` of every process whose parent is this process.
fn children() -> Vec<(i32, String)> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some(close) = stat.rfind(')') else { continue };
        let mut fields = stat[close + 1..].split_whitespace();
        let state = fields.next().unwrap_or("").to_string();
        let ppid = fields.next().unwrap_or("");
        if ppid == me {
            out.push((pid, state));
        }
    }
    out
}

/// Children of this process, waiting up to 2 s for any still-exiting one to be reaped (a hook
/// killed at its deadline may be handed to the engine's background reaper, §5.5).
fn children_after_settling() -> Vec<(i32, String)> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let c = children();
        if c.is_empty() || Instant::now() >= deadline {
            return c;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const ALLOW: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}"#;

/// One dispatcher with a different mix of hooks per tool:
/// - `Bash`: `exit 0` and a JSON allow echo, in parallel → allow, 2 outcomes;
/// - `Write`: `exit 2` with a reason on stderr, and `exit 0` → deny "no", 2 outcomes;
/// - `Edit`: exec-form `/bin/true` → no decision, 1 outcome;
/// - anything else: no hook (the no-match fast path) → no decision, 0 outcomes.
fn mixed_config() -> String {
    let sh = |c: &str| json!({"type": "command", "command": c, "timeout": 30});
    json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [sh("exit 0"), sh(&format!("printf '%s' '{ALLOW}'"))]},
        {"matcher": "Write", "hooks": [sh("echo no >&2; exit 2"), sh("exit 0")]},
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "/bin/true", "args": [], "timeout": 30}]},
    ]}})
    .to_string()
}

const TOOLS: [&str; 4] = ["Bash", "Write", "Edit", "Read"];

/// What a fire of `tool` must give: (decision, reason, number of outcomes).
fn expected(tool: &str) -> (Value, Value, usize) {
    match tool {
        "Bash" => (json!("allow"), json!("fine"), 2),
        "Write" => (json!("deny"), json!("no"), 2),
        "Edit" => (Value::Null, Value::Null, 1),
        _ => (Value::Null, Value::Null, 0),
    }
}

fn event(tool: &str, session: &str, n: usize) -> String {
    json!({
        "hook_event_name": "PreToolUse",
        "session_id": session,
        "cwd": "/",
        "tool_name": tool,
        "tool_input": {"command": format!("echo {n}")},
    })
    .to_string()
}

/// Fires one event and checks every field the mix pins; returns the number of hooks run.
fn fire_and_check(d: &Dispatcher, tool: &str, session: &str, n: usize) -> usize {
    let text = d.fire_json(&event(tool, session, n)).unwrap();
    let r: Value = serde_json::from_str(&text).unwrap();
    let (decision, reason, count) = expected(tool);
    assert_eq!(r["decision"], decision, "{tool} #{n}: {text}");
    assert_eq!(r["reason"], reason, "{tool} #{n}: {text}");
    let outcomes = r["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), count, "{tool} #{n}: {text}");
    for o in outcomes {
        assert_eq!(o["status"], "ok", "{tool} #{n}: {text}");
        assert_eq!(o["timed_out"], false, "{tool} #{n}: {text}");
    }
    count
}

#[test]
fn sixteen_threads_firing_five_hundred_times_each_lose_no_verdict_and_leak_nothing() {
    let _g = serial();
    let d = Arc::new(Dispatcher::new(&mixed_config()).unwrap());
    // Warm-up: one fire of every kind, so lazily created state is already there.
    for tool in TOOLS {
        fire_and_check(&d, tool, "warm-up", 0);
    }
    let fds_before = open_fds();
    let children_before = children();
    let t0 = Instant::now();
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let d = Arc::clone(&d);
            std::thread::spawn(move || {
                let session = format!("thread-{t}");
                let mut hooks = 0;
                for i in 0..FIRES_PER_THREAD {
                    // Each thread walks the four tools from its own offset, so at any moment
                    // the threads fire different mixes.
                    hooks += fire_and_check(&d, TOOLS[(t + i) % TOOLS.len()], &session, i);
                }
                hooks
            })
        })
        .collect();
    let hooks: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    let took = t0.elapsed();
    let fds_after = open_fds();
    let children_after = children_after_settling();
    // The dispatcher owns a descriptor of its own (a wake-up eventfd); dropping it gives it back.
    drop(d);
    let fds_after_drop = open_fds();
    println!(
        "stress: {THREADS} threads x {FIRES_PER_THREAD} fires = {} fires on one dispatcher, {hooks} hook \
         processes, {:.1} s; descriptors before {fds_before} after {fds_after} (after dropping the \
         dispatcher {fds_after_drop}); children before {} after {}",
        THREADS * FIRES_PER_THREAD,
        took.as_secs_f64(),
        children_before.len(),
        children_after.len(),
    );
    assert_eq!(fds_after, fds_before, "descriptors before and after");
    assert!(fds_after_drop <= fds_before, "dropping the dispatcher kept descriptors: {fds_after_drop}");
    assert!(children_before.is_empty(), "children before: {children_before:?}");
    assert!(children_after.is_empty(), "children (zombies or alive) after: {children_after:?}");
    assert!(took < Duration::from_secs(90), "{} fires took {took:?}", THREADS * FIRES_PER_THREAD);
}

#[test]
fn two_thousand_sequential_fires_mixing_hooks_and_no_match_leak_nothing() {
    let _g = serial();
    let d = Dispatcher::new(&mixed_config()).unwrap();
    for tool in TOOLS {
        fire_and_check(&d, tool, "warm-up", 0);
    }
    let fds_before = open_fds();
    let t0 = Instant::now();
    let mut hooks = 0;
    let mut no_match = 0;
    for i in 0..SEQUENTIAL_FIRES {
        // Half the fires match nothing; the other half cycle through the three hook mixes.
        let tool = if i % 2 == 0 { "Read" } else { TOOLS[(i / 2) % 3] };
        if tool == "Read" {
            no_match += 1;
        }
        hooks += fire_and_check(&d, tool, "sequential", i);
    }
    let took = t0.elapsed();
    let fds_after = open_fds();
    let children_after = children_after_settling();
    println!(
        "stress: {SEQUENTIAL_FIRES} sequential fires ({no_match} matching nothing), {hooks} hook processes, \
         {:.1} s; descriptors before {fds_before} after {fds_after}; children after {}",
        took.as_secs_f64(),
        children_after.len(),
    );
    assert_eq!(fds_after, fds_before, "descriptors before and after");
    assert!(children_after.is_empty(), "children (zombies or alive) after: {children_after:?}");
    assert!(took < Duration::from_secs(90), "{SEQUENTIAL_FIRES} fires took {took:?}");
}
