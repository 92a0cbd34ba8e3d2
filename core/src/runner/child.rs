//! A hook process from `clone` to `execve`: what both spawn paths share.
//!
//! The direct path calls [`start`] on the host's thread; the helper path (`helper.rs`) calls it
//! inside its forked helper. Either way the hook is created as `posix_spawn` creates a process,
//! `clone(CLONE_VM | CLONE_VFORK)` on a stack of its own, so nothing of the caller's memory is
//! copied (a 1 GiB host spawns as fast as a small one) and the caller is suspended until the
//! hook has exec'd or failed to.
//!
//! Why not `std::process::Command`: on this path it cost about a fifth of hookwire's own time
//! per fire (`perf record` of figure 2a, issue 20): the environment went through a `BTreeMap`
//! and a second `CString` array, each `dup2` file action asked `getrlimit`, and the pidfd was a
//! second syscall. Here the environment and arguments are one NUL-separated block made once,
//! the pidfd comes from `clone` itself (`CLONE_PIDFD`), and an exec failure is reported the way
//! glibc's `posix_spawn` reports it: the child writes `errno` into memory it shares with the
//! suspended caller, so no extra pipe is needed.
//!
//! Between `clone` and `execve` the child makes only async-signal-safe calls on memory prepared
//! before the clone; it allocates nothing and cannot panic. Every signal is blocked across the
//! clone, so no host handler ever runs on the child's stack.
//!
//! Whatever the host did, the hook starts clean, as libuv and CPython's `subprocess` start a
//! child (issue 30): its stdio on 0–2 and every other descriptor closed (the host's own, opened
//! without close-on-exec, included), every signal at its default disposition (an ignored one
//! would survive `execve`: a host ignoring `SIGINT` or `SIGPIPE` would hand that to every hook)
//! and an empty signal mask.
//!
//! Under valgrind, which turns `CLONE_VFORK | CLONE_VM` into a fork, the child's `errno` is not
//! seen: an exec failure there reads as exit 127, as it does for glibc's `posix_spawn`.

use super::Launch;
use super::cstrings::{Exec, Strings};
use super::os::with_signals_blocked;
use std::cell::Cell;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};

/// The child's stack between `clone` and `execve`. glibc's `posix_spawn` uses about 32 KiB; the
/// child here needs a few hundred bytes plus the dynamic linker's lazy binding. Below 64 KiB, so
/// freeing it does not make glibc's `malloc` consolidate its fast bins on every fire.
const STACK: usize = 32 * 1024;

/// Everything the child reads after the clone, prepared before it.
pub struct Plan {
    /// `argv[0]` is the program path, which is also what `execve` runs.
    argv: Strings,
    envp: Strings,
    cwd: Strings,
    stdio: [RawFd; 3],
    /// Owns the child's stack; only `top` is used after `new`.
    _stack: Vec<u8>,
    top: *mut u8,
    /// Written by the child before `_exit` when `chdir` or `execve` failed; read by the caller
    /// once `CLONE_VFORK` resumes it.
    err: Cell<i32>,
    /// The sandbox to enter before `execve`: the `Launch`'s, alive while the plan is (a plan
    /// never outlives the launch it was made from).
    confine: *const crate::sandbox::Confinement,
    /// The sandbox supervisor's handshake (`sandbox::supervisor::Link::raw`), all -1 without one.
    pub link: [RawFd; 4],
}

impl Plan {
    /// `stdio` are the hook's stdin, stdout and stderr (descriptors above 2, close-on-exec:
    /// the child's `dup2` makes inheritable copies).
    pub fn new(l: &Launch, stdio: [RawFd; 3]) -> io::Result<Plan> {
        let Exec { argv, envp, cwd } = Exec::new(l)?;
        // Uninitialised: a stack needs no zeroing.
        let mut stack: Vec<u8> = Vec::with_capacity(STACK);
        // The stack grows down on every Linux target hookwire builds for; 16-byte aligned top.
        let top = stack.as_mut_ptr().wrapping_add(STACK).map_addr(|a| a & !15);
        let confine = l.confine.as_deref().map_or(std::ptr::null(), |c| c as *const _);
        Ok(Plan { argv, envp, cwd, stdio, _stack: stack, top, err: Cell::new(0), confine, link: [-1; 4] })
    }
}

/// A started hook: its pid and, where the kernel gives one, a pidfd.
pub struct Started {
    pub pid: i32,
    pub pidfd: Option<OwnedFd>,
}

/// Starts the hook and returns once it has exec'd; `Err` with the child's `errno` when `chdir`
/// or `execve` failed (the failed child is reaped before returning).
///
/// Allocates nothing, so the helper may call it between `fork` and `_exit`.
pub fn start(plan: &Plan, want_pidfd: bool) -> io::Result<Started> {
    let top = plan.top;
    plan.err.set(0);
    let (pid, pidfd) = with_signals_blocked(|| {
        let mut pidfd: RawFd = -1;
        let mut pid = if want_pidfd { clone(plan, top, libc::CLONE_PIDFD, &mut pidfd) } else { -1 };
        if pid < 0 {
            // No CLONE_PIDFD before Linux 5.2 (EINVAL), or not asked for: a plain clone.
            pidfd = -1;
            pid = clone(plan, top, 0, &mut pidfd);
        }
        (pid, pidfd)
    });
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: with CLONE_PIDFD the kernel stored a new close-on-exec descriptor owned by nobody
    // else; without it `pidfd` is still -1.
    let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
    let err = plan.err.get();
    if err != 0 {
        // The failed child has already called `_exit`.
        super::os::reap_blocking(pid);
        return Err(io::Error::from_raw_os_error(err));
    }
    Ok(Started { pid, pidfd })
}

fn clone(plan: &Plan, top: *mut u8, extra: libc::c_int, pidfd: &mut RawFd) -> i32 {
    let flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD | extra;
    // SAFETY: `child_main` runs on `top` (inside `plan.stack`, alive until after the child has
    // exec'd or exited, since CLONE_VFORK suspends us until then) and reads only `plan`; the
    // fifth argument is where the kernel stores the pidfd when CLONE_PIDFD is set.
    unsafe {
        libc::clone(
            child_main,
            top.cast(),
            flags,
            (plan as *const Plan).cast_mut().cast(),
            pidfd as *mut RawFd,
        )
    }
}

/// The hook between `clone` and `execve`, sharing the caller's memory while the caller waits.
extern "C" fn child_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Plan` of the suspended caller; only async-signal-safe calls follow,
    // and the function ends in `execve` or `_exit`.
    unsafe {
        let p = &*(arg as *const Plan);
        libc::setpgid(0, 0);
        for (fd, target) in p.stdio.iter().zip(0..) {
            if libc::dup2(*fd, target) < 0 {
                failed(p);
            }
        }
        // Once the stdio is in place and the sandbox entered (below): the rest goes, whoever
        // opened it. Nothing of it is needed before `execve` (a failure is reported through
        // `p.err`, shared memory).
        if libc::chdir(p.cwd.ptrs[0]) != 0 {
            failed(p);
        }
        // The sandbox needs its Landlock ruleset descriptor, so it comes before `close_range`.
        if let Some(c) = p.confine.as_ref()
            && let Err(e) = c.apply(p.link)
        {
            *libc::__errno_location() = e;
            failed(p);
        }
        super::os::close_range(3, RawFd::MAX);
        default_signals();
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        libc::execve(p.argv.ptrs[0], p.argv.ptrs.as_ptr(), p.envp.ptrs.as_ptr());
        failed(p)
    }
}

/// Signals 1 to 64: `_NSIG` is 65 on every target hookwire builds for.
const NSIG: i32 = 65;

/// Sets every signal but `SIGKILL` and `SIGSTOP` to `SIG_DFL`, ignored ones included (they
/// survive `execve`), and caught ones (whose host handler must not run in the child before
/// `execve`). The raw `rt_sigaction`, because glibc's `sigaction` refuses its internal signals
/// 32 and 33, which a host can still ignore; one call per signal with no read first, as many
/// syscalls as reading each disposition would take.
///
/// # Safety
/// Only in the child before `execve`: it changes the dispositions of the calling process.
unsafe fn default_signals() {
    // The kernel's `struct sigaction` all zero is `SIG_DFL` with no flags and an empty mask,
    // whatever the order of its fields; 64 bytes are more than any target's.
    let dfl = [0u64; 8];
    for sig in 1..NSIG {
        if sig != libc::SIGKILL && sig != libc::SIGSTOP {
            // SAFETY: a plain syscall reading `dfl`, alive for the call; 8 is the size of the
            // kernel's signal set (`_NSIG / 8`). A refusal (valgrind keeps signals of its own) is ignored.
            unsafe {
                libc::syscall(libc::SYS_rt_sigaction, sig, dfl.as_ptr(), std::ptr::null_mut::<u64>(), 8usize)
            };
        }
    }
}

/// Leaves `errno` for the suspended caller and ends the would-be hook.
///
/// # Safety
/// Only in the child before `execve`.
unsafe fn failed(p: &Plan) -> ! {
    p.err.set(errno().max(1));
    // SAFETY: exits without unwinding or running the host's atexit handlers.
    unsafe { libc::_exit(127) }
}

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::os::Pipes;
    use std::ffi::OsString;
    use std::io::Read;
    use std::path::PathBuf;

    fn launch(program: &str, args: &[&str], env: &[(&str, &str)], cwd: &str) -> Launch {
        Launch {
            confine: None,
            program: PathBuf::from(program),
            args: args.iter().map(OsString::from).collect(),
            env: env.iter().map(|(k, v)| (OsString::from(k), OsString::from(v))).collect(),
            cwd: PathBuf::from(cwd),
        }
    }

    /// Runs `l` to its end: its stdout and raw wait status.
    fn run(l: &Launch) -> io::Result<(String, i32)> {
        let pipes = Pipes::new()?;
        let plan = Plan::new(l, pipes.child_fds())?;
        let started = start(&plan, true)?;
        let Pipes { stdin_w, stdout_r, stderr_r, child } = pipes;
        drop((stdin_w, stderr_r, child));
        let mut out = String::new();
        std::fs::File::from(stdout_r).read_to_string(&mut out)?;
        let mut status = 0;
        // SAFETY: reaps our own child.
        unsafe { libc::waitpid(started.pid, &mut status, 0) };
        Ok((out, status))
    }

    #[test]
    fn the_hook_gets_exactly_its_arguments_environment_and_cwd() {
        let l = launch(
            "/bin/sh",
            &["-c", r#"printf '%s|%s|%s|' "$1" "$A" "$(pwd)"; env | wc -l"#, "x", "a b"],
            &[("A", "é=1"), ("PATH", "/usr/bin:/bin")],
            "/tmp",
        );
        let (out, status) = run(&l).unwrap();
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{status:#x}");
        // `sh` adds PWD (and some add SHLVL, _): at most those beyond the two given.
        let (head, count) = out.rsplit_once('|').unwrap();
        assert_eq!(head, "a b|é=1|/tmp");
        assert!(count.trim().parse::<u32>().unwrap() <= 5, "{out}");
    }

    #[test]
    fn a_failed_exec_or_chdir_is_the_childs_errno_not_an_exit_code() {
        let err = run(&launch("/nonexistent/hook", &[], &[], "/")).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOENT), "{err}");
        let err = run(&launch("/bin/true", &[], &[], "/nonexistent-dir")).unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOENT), "{err}");
        let f = std::env::temp_dir().join(format!("hookwire-child-noexec-{}", std::process::id()));
        std::fs::write(&f, "#!/bin/sh\n").unwrap();
        let err = run(&launch(f.to_str().unwrap(), &[], &[], "/")).unwrap_err();
        std::fs::remove_file(&f).unwrap();
        assert_eq!(err.raw_os_error(), Some(libc::EACCES), "{err}");
    }

    #[test]
    fn a_nul_byte_in_an_argument_or_the_environment_is_refused_before_any_process() {
        let e = Plan::new(&launch("/bin/true", &["a\0b"], &[], "/"), [0, 1, 2]).err().unwrap();
        assert!(e.to_string().contains("nul byte in an argument"), "{e}");
        let e = Plan::new(&launch("/bin/true", &[], &[("K", "v\0")], "/"), [0, 1, 2]).err().unwrap();
        assert!(e.to_string().contains("nul byte in the environment"), "{e}");
    }
}
