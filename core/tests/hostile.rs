//! Hostile hooks against the public API (`Dispatcher::new` + `fire_json`): hooks that hang,
//! fork sleepers, flood their pipes, never read stdin, die by signal, cannot start, write
//! invalid UTF-8, close their stdout early or leave their process group. Each must end in the
//! precise outcome of protocol.md §5 and §8, within its bound, and leave this process with no
//! zombie child and no extra open descriptor.
//!
//! Every test takes one lock for its whole body: the descriptor and zombie counts of
//! `repeated_fires_leak_no_descriptor_and_leave_no_zombie` are about the whole process, so no
//! other hook may be running while it counts. Time bounds are at least twice the spec's.
#![allow(clippy::unwrap_used)]

use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Serialises the tests of this file (see the module comment).
fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A fresh, empty directory under the system temporary directory, removed on drop.
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new(tag: &str) -> ScratchDir {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let dir =
            std::env::temp_dir().join(format!("hookwire-hostile-{}-{nanos}-{n}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// A file path inside the directory, as text for a shell command (the directory name holds
    /// only `[A-Za-z0-9/._-]`, so single quotes are enough).
    fn file(&self, name: &str) -> String {
        let p = self.0.join(name).to_str().unwrap().to_string();
        assert!(!p.contains('\''), "{p}");
        p
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A plain CC configuration with the given handlers on `PreToolUse` (no matcher: every tool).
fn config(handlers: Vec<Value>) -> Value {
    json!({"hooks": {"PreToolUse": [{"hooks": handlers}]}})
}

/// A shell-form command handler.
fn shell(command: &str, timeout: Option<f64>) -> Value {
    let mut h = json!({"type": "command", "command": command});
    if let Some(t) = timeout {
        h["timeout"] = json!(t);
    }
    h
}

/// A `PreToolUse` event run in `cwd`, with `extra` fields merged in.
fn event(cwd: &Path, extra: Value) -> String {
    let mut e = json!({
        "hook_event_name": "PreToolUse",
        "session_id": "hostile",
        "cwd": cwd.to_str().unwrap(),
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    });
    if let Value::Object(extra) = extra {
        for (k, v) in extra {
            e[k] = v;
        }
    }
    e.to_string()
}

/// One fire of `d`: the parsed result and how long the fire took.
fn fire_with(d: &Dispatcher, event_json: &str) -> (Value, Duration) {
    let t0 = Instant::now();
    let text = d.fire_json(event_json).unwrap();
    let took = t0.elapsed();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert!(v.get("outcomes").is_some(), "not a result: {text}");
    (v, took)
}

/// Builds a dispatcher from `cfg` and fires a plain `PreToolUse` event in `cwd` once.
fn fire(cfg: &Value, cwd: &Path) -> (Value, Duration) {
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    fire_with(&d, &event(cwd, json!({})))
}

/// The only outcome of a result.
fn only_outcome(result: &Value) -> &Value {
    let outcomes = result["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 1, "{result}");
    &outcomes[0]
}

/// The `/proc/<pid>/stat` state letter, `None` when the pid no longer exists.
fn proc_state(pid: i32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) S ...`: comm may hold spaces and parentheses, so look after the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.trim_start().chars().next()
}

/// Alive = the pid exists and is not a zombie (a zombie is dead, only not yet reaped by the
/// parent it was reparented to, which is not us).
fn is_alive(pid: i32) -> bool {
    proc_state(pid).is_some_and(|s| s != 'Z')
}

/// Pids a hook wrote to `path`, one per line; waits up to 2 s for `want` of them to appear.
fn read_pids(path: &str, want: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        let pids: Vec<i32> = std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        if pids.len() >= want || Instant::now() >= deadline {
            assert_eq!(pids.len(), want, "pids recorded in {path}: {pids:?}");
            return pids;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills a process that is not our child (we cannot reap it) and waits until it is gone or a
/// zombie of its new parent.
fn kill_stray(pid: i32) {
    let _ = std::process::Command::new("kill").arg("-KILL").arg(pid.to_string()).output();
    let deadline = Instant::now() + Duration::from_secs(2);
    while is_alive(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(!is_alive(pid), "could not clean up pid {pid}");
}

/// Asserts that none of `pids` is alive, polling up to `within` (the kill already happened).
fn assert_all_dead(pids: &[i32], within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let alive: Vec<i32> = pids.iter().copied().filter(|&p| is_alive(p)).collect();
        if alive.is_empty() {
            return;
        }
        if Instant::now() >= deadline {
            for &p in &alive {
                kill_stray(p);
            }
            panic!("still alive after the group kill: {alive:?} (of {pids:?})");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The number of entries of `/proc/self/fd`.
fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Children of this process that are zombies.
fn zombie_children() -> Vec<i32> {
    let me = std::process::id().to_string();
    let mut zombies = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some(close) = stat.rfind(')') else { continue };
        let mut fields = stat[close + 1..].split_whitespace();
        let state = fields.next().unwrap_or("");
        let ppid = fields.next().unwrap_or("");
        if ppid == me && state == "Z" {
            zombies.push(pid);
        }
    }
    zombies
}

#[test]
fn deny_is_returned_at_once_while_a_background_sleeper_holds_stdout() {
    let _g = serial();
    let dir = ScratchDir::new("deny");
    let pidfile = dir.file("sleeper.pid");
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#;
    let cmd = format!("printf '%s' '{deny}'; sleep 30 & echo $! > '{pidfile}'");
    let (r, took) = fire(&config(vec![shell(&cmd, Some(20.0))]), dir.path());
    let sleeper = read_pids(&pidfile, 1)[0];
    // The sleeper is not ours to kill (§5.5: no kill on normal exit) but is ours to clean up.
    let still_there = is_alive(sleeper);
    kill_stray(sleeper);
    assert!(took < Duration::from_secs(2), "fire took {took:?}");
    assert_eq!(r["decision"], "deny", "{r}");
    assert_eq!(r["reason"], "x", "{r}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "ok", "{o}");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["timed_out"], false, "{o}");
    assert!(still_there, "a descendant is not killed on a normal exit (§5.5)");
}

#[test]
fn hung_shell_hook_and_its_background_child_are_killed_at_the_timeout() {
    let _g = serial();
    let dir = ScratchDir::new("hung");
    let pidfile = dir.file("pids");
    let cmd = format!("echo $$ > '{pidfile}'; sleep 30 & echo $! >> '{pidfile}'; wait");
    let (r, took) = fire(&config(vec![shell(&cmd, Some(1.0))]), dir.path());
    assert!(took < Duration::from_secs(3), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "timed_out", "{o}");
    assert_eq!(o["timed_out"], true, "{o}");
    assert_eq!(o["exit_code"], Value::Null, "{o}");
    assert_eq!(r["decision"], Value::Null, "a timed-out hook is never read as a verdict: {r}");
    let pids = read_pids(&pidfile, 2);
    std::thread::sleep(Duration::from_secs(1));
    assert_all_dead(&pids, Duration::from_millis(10));
    assert!(zombie_children().is_empty(), "zombies: {:?}", zombie_children());
}

#[test]
fn ten_forked_sleepers_are_all_killed_at_the_timeout() {
    let _g = serial();
    let dir = ScratchDir::new("ten");
    let pidfile = dir.file("pids");
    let cmd = format!("for i in 1 2 3 4 5 6 7 8 9 10; do sleep 30 & echo $! >> '{pidfile}'; done; wait");
    let (r, took) = fire(&config(vec![shell(&cmd, Some(1.0))]), dir.path());
    assert!(took < Duration::from_secs(3), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "timed_out", "{o}");
    assert_eq!(o["timed_out"], true, "{o}");
    let pids = read_pids(&pidfile, 10);
    assert_all_dead(&pids, Duration::from_secs(1));
}

#[test]
fn group_that_ignores_sigterm_is_killed_by_the_sigkill_that_follows() {
    let _g = serial();
    let dir = ScratchDir::new("term");
    let pidfile = dir.file("pids");
    // SIGTERM is ignored by the shell and inherited as ignored by its children; only the group
    // SIGKILL 200 ms later (§5.5) ends them.
    let cmd = format!(
        "trap '' TERM; echo $$ > '{pidfile}'; for i in 1 2 3; do sleep 30 & echo $! >> '{pidfile}'; done; wait"
    );
    let (r, took) = fire(&config(vec![shell(&cmd, Some(1.0))]), dir.path());
    assert!(took < Duration::from_secs(3), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "timed_out", "{o}");
    let pids = read_pids(&pidfile, 4);
    assert_all_dead(&pids, Duration::from_secs(1));
    assert!(zombie_children().is_empty(), "zombies: {:?}", zombie_children());
}

#[test]
fn fifty_megabytes_on_each_stream_are_truncated_at_the_cap_and_the_fire_ends() {
    let _g = serial();
    let dir = ScratchDir::new("flood");
    let n = 50 * 1024 * 1024;
    let cmd =
        format!("head -c {n} /dev/zero | tr '\\0' e >&2 & head -c {n} /dev/zero | tr '\\0' o; wait; exit 0");
    let cfg = json!({
        "limits": {"max_output_bytes": 65536},
        "hooks": {"PreToolUse": [{"hooks": [shell(&cmd, Some(60.0))]}]},
    });
    let (r, took) = fire(&cfg, dir.path());
    assert!(took < Duration::from_secs(30), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "ok", "{}", o["error"]);
    assert_eq!(o["exit_code"], 0);
    assert_eq!(o["stdout_truncated"], true);
    assert_eq!(o["stderr_truncated"], true);
    let out = o["stdout"].as_str().unwrap();
    let err = o["stderr"].as_str().unwrap();
    assert!(!out.is_empty() && out.len() <= 65536, "stdout kept {} bytes", out.len());
    assert!(!err.is_empty() && err.len() <= 65536, "stderr kept {} bytes", err.len());
    assert!(out.bytes().all(|b| b == b'o'), "stdout holds only what the hook wrote there");
    assert!(err.bytes().all(|b| b == b'e'), "stderr holds only what the hook wrote there");
}

/// A `PreToolUse` event carrying a 2 MiB field: far more than a pipe buffer.
fn big_event(cwd: &Path) -> String {
    event(cwd, json!({"blob": "x".repeat(2 * 1024 * 1024)}))
}

#[test]
fn hook_that_exits_without_reading_a_two_mebibyte_event_is_ok() {
    let _g = serial();
    let dir = ScratchDir::new("unread-ok");
    let d = Dispatcher::new(&config(vec![shell("exit 0", Some(20.0))]).to_string()).unwrap();
    let (r, took) = fire_with(&d, &big_event(dir.path()));
    assert!(took < Duration::from_secs(5), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "ok", "{o}");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["error"], Value::Null, "EPIPE on stdin is not an error: {o}");
}

#[test]
fn hook_that_hangs_without_reading_a_two_mebibyte_event_times_out_on_time() {
    let _g = serial();
    let dir = ScratchDir::new("unread-hang");
    let d = Dispatcher::new(&config(vec![shell("sleep 30", Some(1.0))]).to_string()).unwrap();
    let (r, took) = fire_with(&d, &big_event(dir.path()));
    assert!(took < Duration::from_secs(3), "a blocked stdin write must not outlive the deadline: {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "timed_out", "{o}");
    assert_eq!(o["timed_out"], true, "{o}");
}

/// Asserts the outcome of a hook that killed itself with `sig`.
fn assert_died_by_signal(command: &str, sig: i64) {
    let dir = ScratchDir::new("signal");
    let (r, took) = fire(&config(vec![shell(command, Some(20.0))]), dir.path());
    assert!(took < Duration::from_secs(5), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["exit_code"], Value::Null, "{o}");
    assert_eq!(o["signal"], sig, "{o}");
    assert_eq!(o["status"], "error", "{o}");
    assert_eq!(o["timed_out"], false, "{o}");
    let error = o["error"].as_str().unwrap();
    assert!(error.contains("signal"), "{error}");
}

#[test]
fn hook_killed_by_sigkill_reports_signal_nine_and_no_exit_code() {
    let _g = serial();
    assert_died_by_signal("kill -KILL $$", 9);
}

#[test]
fn hook_killed_by_sigsegv_reports_signal_eleven_and_no_exit_code() {
    let _g = serial();
    assert_died_by_signal("kill -SEGV $$", 11);
}

#[test]
fn exec_form_with_a_missing_program_is_spawn_failed() {
    let _g = serial();
    let dir = ScratchDir::new("missing");
    let h = json!({"type": "command", "command": "/nonexistent/prog", "args": []});
    let (r, _) = fire(&config(vec![h]), dir.path());
    let o = only_outcome(&r);
    assert_eq!(o["status"], "spawn_failed", "{o}");
    assert_eq!(o["exit_code"], Value::Null, "{o}");
    assert!(o["error"].is_string(), "{o}");
}

#[test]
fn exec_form_with_a_non_executable_file_is_spawn_failed_not_executable() {
    use std::os::unix::fs::PermissionsExt;
    let _g = serial();
    let dir = ScratchDir::new("noexec");
    let prog = dir.path().join("hook.sh");
    std::fs::write(&prog, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o644)).unwrap();
    let h = json!({"type": "command", "command": prog.to_str().unwrap(), "args": []});
    let (r, _) = fire(&config(vec![h]), dir.path());
    let o = only_outcome(&r);
    assert_eq!(o["status"], "spawn_failed", "{o}");
    assert_eq!(o["exit_code"], Value::Null, "{o}");
    let error = o["error"].as_str().unwrap();
    assert!(error.contains("not executable"), "{error}");
}

#[test]
fn shell_form_with_a_missing_command_is_exit_127_command_not_found() {
    let _g = serial();
    let dir = ScratchDir::new("notfound");
    let (r, _) = fire(&config(vec![shell("missing-cmd-xyz", Some(20.0))]), dir.path());
    let o = only_outcome(&r);
    assert_eq!(o["exit_code"], 127, "{o}");
    assert_eq!(o["status"], "error", "{o}");
    assert_eq!(o["error"], "command not found (exit 127)", "{o}");
}

#[test]
fn invalid_utf8_on_stdout_is_replaced_and_flagged_lossy() {
    let _g = serial();
    let dir = ScratchDir::new("lossy");
    let d = Dispatcher::new(&config(vec![shell(r"printf '\377\376'", Some(20.0))]).to_string()).unwrap();
    // fire_json returns a Rust String, so it is valid UTF-8; it must also be valid JSON.
    let text = d.fire_json(&event(dir.path(), json!({}))).unwrap();
    let r: Value = serde_json::from_str(&text).unwrap();
    let o = only_outcome(&r);
    assert_eq!(o["status"], "ok", "{o}");
    assert_eq!(o["stdout_lossy"], true, "{o}");
    assert_eq!(o["stderr_lossy"], false, "{o}");
    assert!(o["stdout"].as_str().unwrap().contains('\u{FFFD}'), "{o}");
}

#[test]
fn hook_that_closes_stdout_early_and_keeps_running_ends_ok() {
    let _g = serial();
    let dir = ScratchDir::new("closed");
    let (r, took) = fire(&config(vec![shell("exec >&-; sleep 0.3; exit 0", Some(20.0))]), dir.path());
    assert!(took < Duration::from_secs(5), "fire took {took:?}");
    assert!(took >= Duration::from_millis(250), "EOF on stdout is not the end of the hook: {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "ok", "{o}");
    assert_eq!(o["exit_code"], 0, "{o}");
    assert_eq!(o["timed_out"], false, "{o}");
}

/// What the group kill reaches: the hook leads its own process group (§5.2), and at the
/// deadline SIGTERM/SIGKILL go to that group (§5.5). Every descendant that stays in the group
/// is reached, such as the plain `sleep 30 &` here. A descendant that leaves the group (setsid,
/// setpgid, a daemon's double fork) is NOT reached: hookwire uses no cgroup or subreaper, so
/// that process outlives the fire. What the engine still guarantees is the bound: the escaped
/// process holds copies of stdout and stderr, but the drain after the kill lasts at most
/// 100 ms, so the fire ends within timeout + 0.5 s. The test kills the escaped process itself.
#[test]
fn process_that_leaves_the_group_escapes_the_kill_but_does_not_delay_the_fire() {
    let _g = serial();
    let dir = ScratchDir::new("setsid");
    let inside = dir.file("inside.pid");
    let escaped = dir.file("escaped.pid");
    let cmd = format!(
        "setsid sh -c 'echo $$ > \"$0\"; exec sleep 30' '{escaped}' & sleep 30 & echo $! > '{inside}'; wait"
    );
    let (r, took) = fire(&config(vec![shell(&cmd, Some(1.0))]), dir.path());
    let escaped_pid = read_pids(&escaped, 1)[0];
    let escaped_alive = is_alive(escaped_pid);
    kill_stray(escaped_pid);
    assert!(took < Duration::from_secs(3), "fire took {took:?}");
    let o = only_outcome(&r);
    assert_eq!(o["status"], "timed_out", "{o}");
    assert_eq!(o["timed_out"], true, "{o}");
    let inside_pid = read_pids(&inside, 1)[0];
    assert_all_dead(&[inside_pid], Duration::from_secs(1));
    // Not an engine guarantee, only the documented limit above: if this ever fails, hookwire
    // learnt to reach escaped descendants, and the comment should say so.
    assert!(escaped_alive, "a process in another session is beyond the group kill");
}

#[test]
fn repeated_fires_leak_no_descriptor_and_leave_no_zombie() {
    let _g = serial();
    let dir = ScratchDir::new("batch");
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let kinds: Vec<(&str, Value)> = vec![
        ("ok", config(vec![shell(&format!("cat >/dev/null; printf '%s' '{allow}'"), Some(20.0))])),
        ("block", config(vec![shell("echo no >&2; exit 2", Some(20.0))])),
        ("error", config(vec![shell("echo oops >&2; exit 1", Some(20.0))])),
        (
            "parallel",
            config(vec![
                shell("exit 0", Some(20.0)),
                shell("sleep 0.05 & exit 0", Some(20.0)),
                json!({"type": "command", "command": "/nonexistent/prog", "args": []}),
            ]),
        ),
        (
            "flood",
            json!({
                "limits": {"max_output_bytes": 65536},
                "hooks": {"PreToolUse": [{"hooks": [shell("head -c 300000 /dev/zero", Some(20.0))]}]},
            }),
        ),
        ("timeout", config(vec![shell("sleep 5", Some(0.2))])),
    ];
    let dispatchers: Vec<(&str, Dispatcher)> =
        kinds.iter().map(|(k, c)| (*k, Dispatcher::new(&c.to_string()).unwrap())).collect();
    let ev = event(dir.path(), json!({}));
    let check = |kind: &str, r: &Value| {
        let status = &r["outcomes"][0]["status"];
        let want = match kind {
            "ok" | "parallel" | "flood" => "ok",
            "block" => "ok",
            "error" => "error",
            _ => "timed_out",
        };
        assert_eq!(status, want, "{kind}: {r}");
        if kind == "block" {
            assert_eq!(r["decision"], "deny", "{r}");
        }
    };
    // Warm-up: one fire of every kind, so lazily created state is already there.
    for (kind, d) in &dispatchers {
        check(kind, &fire_with(d, &ev).0);
    }
    let fds_before = open_fds();
    let t0 = Instant::now();
    for i in 0..200 {
        // One fire in twenty times out (0.2 s each); every 25th builds and drops its own
        // dispatcher, so construction and teardown are counted too.
        let k = if i % 20 == 19 { dispatchers.len() - 1 } else { i % (dispatchers.len() - 1) };
        let (kind, d) = &dispatchers[k];
        let r = if i % 25 == 0 {
            let own = Dispatcher::new(&kinds[k].1.to_string()).unwrap();
            fire_with(&own, &ev).0
        } else {
            fire_with(d, &ev).0
        };
        check(kind, &r);
    }
    let batch = t0.elapsed();
    let fds_after = open_fds();
    assert_eq!(fds_after, fds_before, "descriptors before and after 200 fires");
    assert!(zombie_children().is_empty(), "zombie children: {:?}", zombie_children());
    // About 2 s plus the timeouts; the bound is wide for a loaded machine.
    assert!(batch < Duration::from_secs(60), "200 fires took {batch:?}");
}

/// §5.5: after the leader is reaped, the pipes are read "until EOF or 100 ms, whichever comes
/// first". A hook with no descendant gives EOF on both pipes as it exits, so nothing should be
/// waited for. The best of five runs is taken so a loaded machine does not fail the test.
#[test]
fn hook_whose_pipes_reach_eof_at_exit_does_not_wait_out_the_drain_window() {
    let _g = serial();
    let dir = ScratchDir::new("eof");
    let handlers =
        [shell("exit 0", Some(20.0)), json!({"type": "command", "command": "/bin/true", "args": []})];
    for h in handlers {
        let d = Dispatcher::new(&config(vec![h.clone()]).to_string()).unwrap();
        let ev = event(dir.path(), json!({}));
        let best = (0..5)
            .map(|_| {
                let (r, took) = fire_with(&d, &ev);
                assert_eq!(only_outcome(&r)["status"], "ok", "{r}");
                took
            })
            .min()
            .unwrap();
        assert!(best < Duration::from_millis(50), "{h}: best of five fires took {best:?}");
    }
}

/// Issue 14: an exec-form script whose `#!` interpreter is missing is `spawn_failed` with the
/// interpreter named, not a bare "No such file or directory" that points at the script.
#[test]
fn script_with_a_missing_interpreter_names_the_interpreter() {
    let _g = serial();
    let dir = ScratchDir::new("shebang");
    let script = dir.file("hook.sh");
    std::fs::write(&script, "#!/nonexistent/bin/interp\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (r, _) = fire(&config(vec![json!({"type": "command", "command": script, "args": []})]), dir.path());
    let o = only_outcome(&r);
    assert_eq!(o["status"], "spawn_failed", "{r}");
    let err = o["error"].as_str().unwrap();
    assert!(err.contains("bad interpreter: /nonexistent/bin/interp"), "{r}");
    assert!(err.contains(&script), "{r}");
}
