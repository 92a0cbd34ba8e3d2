//! Hosts that ignore or reap `SIGCHLD` (issue 14, finding 6): with `SIGCHLD` at `SIG_IGN`, with
//! `SA_NOCLDWAIT`, with a handler that reaps every child (`waitpid(-1, WNOHANG)` in a loop, as
//! many agent hosts do) and with another thread of the host calling `waitpid(-1)`, a hook's exit
//! status is never invented: either it is kept (exit 2 still denies) or the outcome says it was
//! lost (`exit_code: null`, status `error`, an error naming the cause), its stdout JSON is still
//! read, fail-closed still blocks, and one warning per fire names the condition.
//!
//! A separate test binary because it changes process-wide signal dispositions; every test holds
//! one lock and restores the disposition it changed.
#![allow(clippy::unwrap_used)]

mod common;

use common::{fire, serial};
use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

const FIRES: usize = 60;

static REAPED: AtomicUsize = AtomicUsize::new(0);

extern "C" fn reap_all(_: libc::c_int) {
    // SAFETY: errno is thread-local; saving and restoring it keeps the handler transparent.
    let saved = unsafe { *libc::__errno_location() };
    let mut status = 0;
    // SAFETY: waitpid is async-signal-safe; `status` lives for the call.
    while unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) } > 0 {
        REAPED.fetch_add(1, Ordering::Relaxed);
    }
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = saved };
}

extern "C" fn idle(_: libc::c_int) {}

/// How the host treats `SIGCHLD` during one test.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Host {
    Ignore,
    NoCldWait,
    ReapingHandler,
    /// A handler that reaps nothing (the Go runtime's, for one): hookwire must reap its helpers.
    IdleHandler,
}

/// Sets the host's `SIGCHLD` disposition; the old one comes back on drop.
struct Disposition(libc::sigaction);

impl Disposition {
    fn set(host: Host) -> Disposition {
        // SAFETY: sigaction is plain data; zeroed is a valid empty value.
        let mut sa: libc::sigaction = unsafe { std::mem::zeroed() };
        match host {
            Host::Ignore => sa.sa_sigaction = libc::SIG_IGN,
            Host::NoCldWait => {
                sa.sa_sigaction = libc::SIG_DFL;
                sa.sa_flags = libc::SA_NOCLDWAIT;
            }
            Host::ReapingHandler => {
                sa.sa_sigaction = reap_all as *const () as libc::sighandler_t;
                sa.sa_flags = libc::SA_RESTART;
            }
            Host::IdleHandler => {
                sa.sa_sigaction = idle as *const () as libc::sighandler_t;
                sa.sa_flags = libc::SA_RESTART;
            }
        }
        // SAFETY: as above.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are valid for the call; the handler is async-signal-safe.
        assert_eq!(unsafe { libc::sigaction(libc::SIGCHLD, &sa, &mut old) }, 0);
        Disposition(old)
    }
}

impl Drop for Disposition {
    fn drop(&mut self) {
        // SAFETY: restores the disposition saved in `set`.
        unsafe { libc::sigaction(libc::SIGCHLD, &self.0, std::ptr::null_mut()) };
    }
}

fn dispatcher(handler: Value) -> Dispatcher {
    common::dispatcher(json!([handler]))
}

fn outcome(r: &Value) -> &Value {
    let o = r["outcomes"].as_array().unwrap();
    assert_eq!(o.len(), 1, "{r}");
    &o[0]
}

/// The checks every result must pass whatever the host does: no invented code, and a lost
/// status is said so in the outcome and in exactly one warning of the fire.
fn honest(r: &Value) -> bool {
    let o = outcome(r);
    let code = &o["exit_code"];
    assert!(code.is_null() || code.as_i64().is_some_and(|c| (0..=255).contains(&c)), "invented code: {r}");
    let lost = o["error"].as_str().is_some_and(|e| e.contains("exit status lost"));
    let warnings: Vec<&str> = r["warnings"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let about = warnings.iter().filter(|w| w.contains("exit status")).count();
    if lost {
        assert!(code.is_null() && o["signal"].is_null(), "{r}");
        assert_eq!(o["status"], "error", "{r}");
        assert!(
            o["error"].as_str().unwrap().contains("SIGCHLD")
                || o["error"].as_str().unwrap().contains("reaped")
        );
        assert_eq!(about, 1, "one warning per fire names the condition: {r}");
    } else {
        assert!(code.is_i64(), "{r}");
        assert_eq!(about, 0, "{r}");
    }
    lost
}

/// Under a reaping handler the first status is lost (honestly) before hookwire switches to its
/// helper for good; this spends that one fire so the checks after it can demand exact statuses.
fn warm_up(host: Host) {
    if host == Host::ReapingHandler {
        let d = dispatcher(json!({"type": "command", "command": "exit 3"}));
        for _ in 0..3 {
            honest(&fire(&d));
        }
    }
}

fn hosts() -> [Host; 3] {
    [Host::Ignore, Host::NoCldWait, Host::ReapingHandler]
}

#[test]
fn an_exit_2_deny_is_kept_under_every_disposition() {
    let _l = serial();
    let d = dispatcher(json!({"type": "command", "command": "echo nope >&2; exit 2"}));
    for host in hosts() {
        let _disp = Disposition::set(host);
        warm_up(host);
        for _ in 0..FIRES {
            let r = fire(&d);
            assert!(!honest(&r), "{host:?}: status lost: {r}");
            assert_eq!(outcome(&r)["exit_code"], 2, "{host:?}: {r}");
            assert_eq!(r["decision"], "deny", "{host:?}: {r}");
            assert_eq!(r["reason"], "nope", "{host:?}: {r}");
        }
    }
}

#[test]
fn a_json_deny_and_fail_closed_hooks_are_kept_under_every_disposition() {
    let _l = serial();
    let json_deny = dispatcher(json!({"type": "command",
        "command": r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"j"}}'"#}));
    let closed_ok = dispatcher(json!({"type": "command", "command": "exit 0", "failClosed": true}));
    let closed_err = dispatcher(json!({"type": "command", "command": "exit 1", "onFailure": "block"}));
    let exec_form = dispatcher(json!({"type": "command", "command": "/bin/sh", "args": ["-c", "exit 2"]}));
    for host in hosts() {
        let _disp = Disposition::set(host);
        warm_up(host);
        for _ in 0..FIRES / 4 {
            let r = fire(&json_deny);
            assert!(!honest(&r), "{host:?}: {r}");
            assert_eq!(r["decision"], "deny", "{host:?}: {r}");
            assert_eq!(r["reason"], "j", "{host:?}: {r}");
            let r = fire(&closed_ok);
            assert!(!honest(&r), "{host:?}: {r}");
            assert_eq!(outcome(&r)["status"], "ok", "{host:?}: {r}");
            assert!(r["decision"].is_null(), "{host:?}: {r}");
            let r = fire(&closed_err);
            assert!(!honest(&r), "{host:?}: {r}");
            assert_eq!(outcome(&r)["exit_code"], 1, "{host:?}: {r}");
            assert_eq!(r["decision"], "deny", "{host:?}: {r}");
            let r = fire(&exec_form);
            assert!(!honest(&r), "{host:?}: {r}");
            assert_eq!(r["decision"], "deny", "{host:?}: {r}");
        }
    }
}

/// `SigIgn` of `/proc/self/status` as the hook saw it.
fn hook_sigign(d: &Dispatcher) -> u64 {
    let r = fire(d);
    let out = outcome(&r)["stdout"].as_str().unwrap().to_string();
    let hex = out.trim().strip_prefix("SigIgn:").unwrap_or_else(|| panic!("{r}")).trim();
    u64::from_str_radix(hex, 16).unwrap()
}

#[test]
fn hooks_start_with_sigchld_at_default_and_a_usable_dollar_question_mark() {
    let _l = serial();
    let exec =
        dispatcher(json!({"type": "command", "command": "grep", "args": ["^SigIgn", "/proc/self/status"]}));
    let shell = dispatcher(json!({"type": "command", "command": "sh -c 'exit 3'; echo \"inner $?\""}));
    let chld_bit = 1u64 << (libc::SIGCHLD - 1);
    assert_eq!(hook_sigign(&exec) & chld_bit, 0);
    for host in hosts() {
        let _disp = Disposition::set(host);
        assert_eq!(hook_sigign(&exec) & chld_bit, 0, "{host:?}: the hook inherited SIG_IGN");
        let r = fire(&shell);
        assert_eq!(outcome(&r)["stdout"], "inner 3\n", "{host:?}: {r}");
    }
}

/// Another thread of the host reaps every child with `waitpid(-1)` while `SIGCHLD` keeps its
/// default action: hookwire cannot see that coming, so some statuses may be lost. Whatever
/// happens, nothing is invented, JSON still decides, fail-closed still blocks.
#[test]
fn a_reaping_thread_never_makes_up_an_exit_code() {
    let _l = serial();
    let stop = Arc::new(AtomicBool::new(false));
    let reaper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut lost_to_us = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let mut status = 0;
                // SAFETY: waitpid writes into `status`, which lives for the call.
                if unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) } > 0 {
                    lost_to_us += 1;
                } else {
                    std::thread::sleep(std::time::Duration::from_micros(200));
                }
            }
            lost_to_us
        })
    };
    let plain = dispatcher(json!({"type": "command", "command": "sleep 0.01; exit 2"}));
    let json_deny = dispatcher(json!({"type": "command",
        "command": r#"sleep 0.01; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'; exit 2"#}));
    let closed = dispatcher(json!({"type": "command", "command": "sleep 0.01", "failClosed": true}));
    let mut lost = 0;
    for _ in 0..FIRES / 2 {
        let r = fire(&plain);
        if honest(&r) {
            lost += 1;
            assert!(r["decision"].is_null(), "a lost exit 2 of a fail-open hook decides nothing: {r}");
        } else {
            assert_eq!(r["decision"], "deny", "{r}");
        }
        let r = fire(&json_deny);
        lost += usize::from(honest(&r));
        assert_eq!(r["decision"], "deny", "the JSON is read either way: {r}");
        let r = fire(&closed);
        if honest(&r) {
            lost += 1;
            assert_eq!(r["decision"], "deny", "fail-closed blocks a lost status: {r}");
            assert!(r["reason"].as_str().unwrap().contains("failed closed"), "{r}");
        } else {
            assert!(r["decision"].is_null(), "{r}");
        }
    }
    stop.store(true, Ordering::Relaxed);
    let stolen = reaper.join().unwrap();
    eprintln!("reaping thread: {stolen} children reaped by the thread, {lost} statuses reported lost");
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Children of this process that are zombies (nobody reaped them).
fn zombie_children() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 2 && f[0] == "Z" && f[1] == me {
            out.push(stat);
        }
    }
    out
}

/// On the helper path nothing is left behind: no descriptor, no zombie helper, whether the
/// host's handler reaps or not; a hook at its deadline is killed with its group as usual.
#[test]
fn the_helper_path_leaks_nothing_and_still_kills_at_the_deadline() {
    let _l = serial();
    let d = dispatcher(json!({"type": "command", "command": "echo x; exit 2"}));
    let slow = dispatcher(json!({"type": "command", "command": "sleep 30 & sleep 30", "timeout": 0.3}));
    for host in [Host::IdleHandler, Host::Ignore, Host::ReapingHandler] {
        let _disp = Disposition::set(host);
        let _ = fire(&d);
        let fds = open_fds();
        for _ in 0..FIRES {
            let r = fire(&d);
            assert_eq!(outcome(&r)["exit_code"], 2, "{host:?}: {r}");
        }
        assert_eq!(open_fds(), fds, "{host:?}: descriptors leaked");
        assert!(zombie_children().is_empty(), "{host:?}: {:?}", zombie_children());
        let t0 = std::time::Instant::now();
        let r = fire(&slow);
        assert!(t0.elapsed() < std::time::Duration::from_secs(3), "{host:?}: {:?}", t0.elapsed());
        assert_eq!(outcome(&r)["status"], "timed_out", "{host:?}: {r}");
        assert!(zombie_children().is_empty(), "{host:?}: {:?}", zombie_children());
    }
}
