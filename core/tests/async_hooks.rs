//! Async hooks (protocol.md §5.10) through the public API: what a session's queue holds stays
//! within its bound however much an async hook prints, the sessions kept are bounded however
//! many never end, a long-lived host drops a dispatcher without waiting for its async hooks,
//! and a one-shot host waits for them and is told that their output reaches no later fire.
#![allow(clippy::unwrap_used)]

use hookwire_core::{Dispatcher, FireResult};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The queue bound of §5.12, and the sessions kept with queued output (docs/reliability.md).
const QUEUE_BYTES: usize = 64 * 1024;
const QUEUE_SESSIONS: usize = 1024;

fn rss_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<usize>().unwrap() * 1024
}

fn fire(d: &Dispatcher, event: Value) -> FireResult {
    d.fire(&event).unwrap()
}

/// A fire of an event no hook listens to: it only drains the session's queue.
fn drain(d: &Dispatcher, session: &str) -> FireResult {
    fire(d, json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": "next"}))
}

fn settle(d: &Dispatcher) {
    assert!(d.wait_async(Some(Duration::from_secs(60))), "async hooks still running after 60 s");
}

#[test]
fn the_async_queue_stays_bounded_under_a_noisy_hook_and_abandoned_sessions() {
    let noisy = "head -c 2097152 /dev/zero | tr '\\0' o; head -c 2097152 /dev/zero | tr '\\0' e >&2; \
                 echo '{\"systemMessage\":\"noisy done\"}' >&2";
    let d = Dispatcher::new(
        &json!({"hooks": {
            "PostToolUse": [{"hooks": [{"type": "command", "command": noisy, "async": true}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "exit 0", "async": true}]}]},
            // One hook process at a time: the output being captured never piles up in memory, so
            // what the process holds afterwards is what the queue keeps.
            "limits": {"max_parallel": 1}})
        .to_string(),
    )
    .unwrap();
    let post = |session: &str| {
        json!({"hook_event_name": "PostToolUse", "session_id": session, "tool_name": "Bash",
               "tool_input": {}, "tool_response": {}})
    };
    let started = Instant::now();
    // One round first, so that the buffers a fire keeps are counted in the baseline.
    fire(&d, post("noisy"));
    settle(&d);
    drain(&d, "noisy");
    let before = rss_bytes();

    // 40 outcomes of 2 MiB captured each (1 MiB per stream after max_output_bytes), finishing
    // after the fires that started them (any fire of the session drains its queue): without a
    // bound on what an entry holds, the queue keeps 32 of them, 64 MiB.
    for _ in 0..40 {
        let r = fire(&d, post("noisy"));
        assert_eq!(r.outcomes[0].status, hookwire_core::Status::Async);
    }
    settle(&d);
    let after_noise = rss_bytes();
    let r = drain(&d, "noisy");
    let held: usize = r
        .async_outcomes
        .iter()
        .map(|o| o.stdout.len() + o.stderr.len() + o.hook.len() + o.command.len())
        .sum::<usize>()
        + r.pending_context.as_ref().map_or(0, String::len);
    assert!(!r.async_outcomes.is_empty());
    assert!(held <= QUEUE_BYTES, "the session's queue held {held} bytes of text");
    let hook = "async hook session:PostToolUse[0].hooks[0]: ";
    assert!(
        r.warnings.iter().any(|w| w.starts_with(hook) && w.contains(" bytes of its output were cut")),
        "{:?}",
        r.warnings
    );

    // Sessions that end without SessionEnd: each leaves one queued outcome behind.
    let sessions = QUEUE_SESSIONS + 100;
    for k in 0..sessions {
        fire(
            &d,
            json!({"hook_event_name": "Notification", "session_id": format!("gone-{k}"), "message": "m"}),
        );
        if k % 64 == 63 {
            settle(&d);
        }
    }
    settle(&d);
    let after_sessions = rss_bytes();
    assert!(drain(&d, "gone-0").async_outcomes.is_empty(), "the least recently used session was kept");
    assert_eq!(drain(&d, &format!("gone-{}", sessions - 1)).async_outcomes.len(), 1);

    let grown = |now: usize| now.saturating_sub(before) / (1 << 20);
    eprintln!(
        "async queue: rss {} MiB at start, +{} MiB after the noisy hook, +{} MiB after {sessions} sessions, {:?}",
        before >> 20,
        grown(after_noise),
        grown(after_sessions),
        started.elapsed()
    );
    // What is queued is at most 64 KiB per session; the rest of any growth is the allocator's.
    assert!(grown(after_noise) < 24, "rss grew by {} MiB under the noisy hook", grown(after_noise));
    assert!(grown(after_sessions) < 48, "rss grew by {} MiB with abandoned sessions", grown(after_sessions));
}

/// A fresh directory of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hookwire-async-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pid_alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

/// `f`'s first answer within 10 s.
fn within_10s<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_long_lived_host_drops_a_dispatcher_without_waiting_and_its_async_hooks_are_killed() {
    let dir = scratch("drop");
    let pidfile = dir.join("pid");
    let command = format!("echo $$ > '{}'; exec sleep 30", pidfile.display());
    let d = Dispatcher::new(
        &json!({"hooks": {"Notification": [{"hooks": [{"type": "command", "command": command, "async": true}]}]}})
            .to_string(),
    )
    .unwrap();
    fire(&d, json!({"hook_event_name": "Notification", "session_id": "s", "message": "m"}));
    let pid: i32 = within_10s("the async hook never wrote its pid", || {
        std::fs::read_to_string(&pidfile).ok()?.trim().parse().ok()
    });
    let t = Instant::now();
    drop(d);
    // The hook sleeps 30 s: a drop that waited for it would take that long; 10 s leaves a loaded
    // machine its slack and still tells the two apart.
    assert!(t.elapsed() < Duration::from_secs(10), "dropping took {:?}", t.elapsed());
    within_10s("the async hook outlived its dispatcher", || (!pid_alive(pid)).then_some(()));
}

#[test]
fn a_one_shot_host_waits_for_its_async_hooks_and_is_told_their_output_goes_nowhere() {
    let dir = scratch("one-shot");
    let out = dir.join("ran");
    let hooks = json!([
        {"type": "command", "command": format!("sleep 0.3; cat > '{}'", out.display()), "async": true},
        {"type": "command", "command": "echo woken >&2; exit 2", "asyncRewake": true}]);
    let d = Dispatcher::new(&json!({"hooks": {"Notification": [{"hooks": hooks}]}}).to_string()).unwrap();
    d.set_one_shot(true);
    let event = json!({"hook_event_name": "Notification", "session_id": "s", "message": "m"});
    let r = fire(&d, event.clone());
    assert!(r.warnings[0].contains("hooks[0] runs to completion after this result"), "{:?}", r.warnings);
    assert!(r.warnings[1].contains("asyncRewake cannot wake the agent"), "{:?}", r.warnings);
    assert!(!out.exists());
    assert!(d.wait_async(Some(Duration::from_secs(10))));
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written["message"], event["message"]);
    // Nothing was queued: there is no next fire to take it.
    let next = drain(&d, "s");
    assert!(next.async_outcomes.is_empty() && next.pending_context.is_none());
    // A timeout bounds the wait.
    let slow = Dispatcher::new(
        &json!({"hooks": {"Notification": [{"hooks": [{"type": "command", "command": "sleep 5", "async": true}]}]}})
            .to_string(),
    )
    .unwrap();
    slow.set_one_shot(true);
    fire(&slow, event);
    assert!(!slow.wait_async(Some(Duration::from_millis(100))));
}
