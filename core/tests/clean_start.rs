//! A hook starts clean (issue 30, items 2 and 3): every signal at its default disposition, an
//! empty signal mask and no descriptor but 0, 1 and 2, on both spawn paths, whatever the host
//! ignored, blocked or left open. The host here ignores every signal it can (1 to 64 but
//! `SIGKILL` and `SIGSTOP`, real-time ones and glibc's internal 32 and 33 included; `SIGCHLD`
//! only when it wants the helper path), blocks some on the firing thread, and holds descriptors
//! without close-on-exec: a file, a socket pair, a pipe end moved to 1000, a `F_DUPFD` copy.
//!
//! A separate test binary because it changes process-wide signal dispositions and leaks
//! descriptors on purpose; every test holds one lock and the host state is restored on drop.
#![allow(clippy::unwrap_used)]

mod common;

use common::{dispatcher, fire, serial};
use serde_json::{Value, json};

/// Linux signals are 1 to 64 (`_NSIG` is 65).
const SIGNALS: std::ops::RangeInclusive<i32> = 1..=64;

/// The kernel's `struct sigaction` (x86_64, aarch64). The raw `rt_sigaction` is used because
/// glibc's `sigaction` refuses its internal signals 32 and 33, which a host can still ignore.
#[repr(C)]
#[derive(Clone, Copy)]
struct KernelSigaction {
    handler: usize,
    flags: libc::c_ulong,
    restorer: usize,
    mask: u64,
}

fn rt_sigaction(sig: i32, new: Option<&KernelSigaction>, old: Option<&mut KernelSigaction>) -> bool {
    let new = new.map_or(std::ptr::null(), |n| n as *const KernelSigaction);
    let old = old.map_or(std::ptr::null_mut(), |o| o as *mut KernelSigaction);
    // SAFETY: both pointers are null or valid for the call; 8 is the kernel's sigset size.
    unsafe { libc::syscall(libc::SYS_rt_sigaction, sig, new, old, 8) == 0 }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    /// `SIGCHLD` at its default: the hook is the host's own child.
    Direct,
    /// `SIGCHLD` ignored: the hook is the child of hookwire's helper (runner/helper.rs).
    Helper,
}

/// The host's state while a test runs; everything comes back on drop.
struct DirtyHost {
    dispositions: Vec<(i32, KernelSigaction)>,
    mask: libc::sigset_t,
    leaked: Vec<i32>,
}

/// Signals blocked on the firing thread (SIGRTMIN + 3 is 37 with glibc).
const BLOCKED: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGUSR2, 37];

impl DirtyHost {
    fn new(path: Path) -> DirtyHost {
        let mut dispositions = Vec::new();
        let ign = KernelSigaction { handler: libc::SIG_IGN, flags: 0, restorer: 0, mask: 0 };
        for sig in SIGNALS {
            if sig == libc::SIGKILL || sig == libc::SIGSTOP || (sig == libc::SIGCHLD && path == Path::Direct)
            {
                continue;
            }
            let mut old = KernelSigaction { handler: 0, flags: 0, restorer: 0, mask: 0 };
            assert!(rt_sigaction(sig, Some(&ign), Some(&mut old)), "cannot ignore signal {sig}");
            dispositions.push((sig, old));
        }
        // SAFETY: sigset_t is plain data; sigemptyset/sigaddset initialise it in place.
        let mut block: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let mut mask: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: every pointer is valid for its call.
        unsafe {
            libc::sigemptyset(&mut block);
            for sig in BLOCKED {
                libc::sigaddset(&mut block, sig);
            }
            assert_eq!(libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut mask), 0);
        }
        DirtyHost { dispositions, mask, leaked: leak_descriptors() }
    }
}

impl Drop for DirtyHost {
    fn drop(&mut self) {
        for fd in &self.leaked {
            // SAFETY: closes a descriptor this test opened.
            unsafe { libc::close(*fd) };
        }
        // SAFETY: restores the mask saved in `new`.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.mask, std::ptr::null_mut()) };
        for (sig, old) in &self.dispositions {
            rt_sigaction(*sig, Some(old), None);
        }
    }
}

/// Descriptors a careless host holds without close-on-exec: a file, both ends of a socket
/// pair, a pipe's read end, its write end moved to 1000 by `dup2`, and a `F_DUPFD` copy of the
/// file at 600 or above.
fn leak_descriptors() -> Vec<i32> {
    let mut fds = Vec::new();
    // SAFETY: plain syscalls on descriptors this test owns; every pointer is valid for its call.
    unsafe {
        let file = libc::open(c"/proc/self/exe".as_ptr(), libc::O_RDONLY);
        assert!(file >= 0);
        fds.push(file);
        let mut pair = [0; 2];
        assert_eq!(libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr()), 0);
        fds.extend(pair);
        let mut pipe = [0; 2];
        assert_eq!(libc::pipe(pipe.as_mut_ptr()), 0);
        assert_eq!(libc::dup2(pipe[1], 1000), 1000);
        libc::close(pipe[1]);
        fds.extend([pipe[0], 1000]);
        let copy = libc::fcntl(file, libc::F_DUPFD, 600);
        assert!(copy >= 600);
        fds.push(copy);
        for fd in &fds {
            assert_eq!(libc::fcntl(*fd, libc::F_GETFD) & libc::FD_CLOEXEC, 0, "fd {fd} is close-on-exec");
        }
    }
    fds
}

fn stdout(r: &Value, i: usize) -> &str {
    let o = &r["outcomes"][i];
    assert_eq!(o["status"], "ok", "{r}");
    assert_eq!(o["exit_code"], 0, "{r}");
    o["stdout"].as_str().unwrap()
}

/// A hex signal set of `/proc/<pid>/status` (`SigIgn`, `SigBlk`) as signal numbers.
fn signal_set(status: &str, key: &str) -> Vec<i32> {
    let line = status.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("{key}: {status}"));
    let bits = u64::from_str_radix(line.trim_start_matches(':').trim(), 16).unwrap();
    SIGNALS.filter(|s| bits & (1u64 << (s - 1)) != 0).collect()
}

/// The hook's descriptors from `ls -l /proc/self/fd/`, without the one `ls` opened to list
/// them (its target is the listed directory): number and target of each.
fn descriptors(listing: &str) -> Vec<(i32, String)> {
    let mut fds = Vec::new();
    let mut own = 0;
    for line in listing.lines().filter(|l| l.starts_with('l')) {
        let (name, target) = line.split_once(" -> ").unwrap_or_else(|| panic!("{listing}"));
        let fd: i32 = name.rsplit(' ').next().unwrap().parse().unwrap();
        if target.starts_with("/proc/") && target.ends_with("/fd") && fd > 2 {
            own += 1;
        } else {
            fds.push((fd, target.to_string()));
        }
    }
    assert!(own <= 1, "{listing}");
    fds.sort();
    fds
}

/// Fires a hook that reports its own status and descriptors, from a host in `path`'s state.
fn starts_clean(path: Path) {
    let _l = serial();
    let d = dispatcher(json!([
        {"type": "command", "command": "cat", "args": ["/proc/self/status"]},
        {"type": "command", "command": "ls", "args": ["-l", "/proc/self/fd/"]},
    ]));
    let _host = DirtyHost::new(path);
    for _ in 0..3 {
        let r = fire(&d);
        let status = stdout(&r, 0);
        let ppid: u32 = status.lines().find_map(|l| l.strip_prefix("PPid:")).unwrap().trim().parse().unwrap();
        match path {
            Path::Direct => assert_eq!(ppid, std::process::id(), "not the direct path: {status}"),
            Path::Helper => assert_ne!(ppid, std::process::id(), "not the helper path: {status}"),
        }
        let fds = descriptors(stdout(&r, 1));
        let numbers: Vec<i32> = fds.iter().map(|(fd, _)| *fd).collect();
        assert_eq!(
            (signal_set(status, "SigIgn"), signal_set(status, "SigBlk"), numbers),
            (vec![], vec![], vec![0, 1, 2]),
            "{path:?}: the hook's ignored signals, blocked signals and descriptors ({fds:?})"
        );
        assert!(fds.iter().all(|(_, t)| t.starts_with("pipe:")), "{path:?}: {fds:?}");
    }
}

#[test]
fn a_hook_starts_with_default_signals_an_empty_mask_and_only_stdio_on_the_direct_path() {
    starts_clean(Path::Direct);
}

#[test]
fn a_hook_starts_with_default_signals_an_empty_mask_and_only_stdio_on_the_helper_path() {
    starts_clean(Path::Helper);
}

/// What the state means to a hook: a shell that signals itself dies of the signal (128 + N),
/// and `yes` in `yes | head -1` dies of `SIGPIPE` (141) instead of failing with `EPIPE`.
#[test]
fn signals_act_by_default_inside_a_hook_on_both_paths() {
    let _l = serial();
    let script = r#"ulimit -c 0
for s in INT HUP QUIT TERM USR1 37; do sh -c "kill -$s \$\$"; echo "$s:$?"; done
{ { yes; echo "yes:$?" >&3; } | head -1 >/dev/null; } 3>&1"#;
    let d = dispatcher(json!([{"type": "command", "command": script}]));
    for path in [Path::Direct, Path::Helper] {
        let _host = DirtyHost::new(path);
        let r = fire(&d);
        assert_eq!(
            stdout(&r, 0),
            "INT:130\nHUP:129\nQUIT:131\nTERM:143\nUSR1:138\n37:165\nyes:141\n",
            "{path:?}: {r}"
        );
        let stderr = r["outcomes"][0]["stderr"].as_str().unwrap();
        assert!(!stderr.contains("Broken pipe"), "{path:?}: {r}");
    }
}
