//! Spawning through a helper process of hookwire's own, for hosts that ignore or handle
//! `SIGCHLD` (issue 14). With `SIG_IGN` or `SA_NOCLDWAIT` the kernel reaps a hook the moment it
//! exits, and a host handler calling `waitpid(-1)` takes its status: the direct path would lose
//! it. Here the hook's parent is a helper forked from the host, which resets `SIGCHLD`, waits
//! for the hook by pid and reports over a close-on-exec pipe; the status never passes through
//! the host's hands.
//!
//! ```text
//! host ── fork ──▶ helper (all signals blocked, own process group, SIGCHLD default,
//!                  no descriptor of the host but the two pipes below)
//!                    └─ clone(CLONE_VM|CLONE_VFORK) ──▶ hook (own process group, only 0–2
//!                        open, chdir, every signal at its default, empty mask, execve)
//! status pipe (helper → runner): Started(pid) | Failed(errno), then Ended(code, status)
//! ack pipe (runner → helper): EOF = the runner is done signalling the group: reap and exit
//! ```
//!
//! The helper reports the end with `waitid(WNOWAIT)` and reaps the hook only after the runner
//! closes the ack pipe, so the hook's process group id stays reserved while the runner may still
//! signal it (§5.5), exactly as on the direct path. If the host dies first, the ack pipe reaches
//! EOF and the helper reaps the hook when it ends and exits: it never outlives the hook.
//!
//! Between `fork` and `_exit` the helper makes only async-signal-safe calls (`sigaction`,
//! `setpgid`, `dup2`, `close`, `read`, `write`, `waitid`, `waitpid`, `_exit`, and the backend's
//! [`Start`]) on memory prepared before the fork; it allocates nothing and cannot panic. The hook
//! is created by the backend as on its direct path: the Linux one clones it (`close_range` and
//! `child::start`: `CLONE_VFORK` on a stack of its own), the portable one closes the host's
//! descriptors listed before the fork and calls `posix_spawn` (`os/posix.rs` says why that is
//! safe in the single-threaded helper). Either way the host's memory is copied once, by the
//! helper's `fork`, not twice. `waitid` with `WNOWAIT` is POSIX (XSI) and present on macOS and
//! the BSDs.

use super::os::pipe;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

const STARTED: i32 = 1;
const FAILED: i32 = 2;
const ENDED: i32 = 3;
/// One report: tag and two values, written with a single `write` (atomic below `PIPE_BUF`).
const MSG: usize = 12;

/// How a hook started through the helper ended, as the runner reads it.
pub enum Report {
    Exited(i32),
    Signaled(i32),
    /// The helper died without reporting (killed from outside).
    Lost(String),
}

/// A running helper and what the runner needs of it.
pub struct Helper {
    helper_pid: i32,
    status: OwnedFd,
    ack: Option<OwnedFd>,
    buf: [u8; MSG],
    got: usize,
}

pub struct Started {
    pub helper: Helper,
    /// The hook's pid, which is also its process group id.
    pub pid: i32,
    /// Readable when the hook has ended (a duplicate of the status pipe).
    pub exit_fd: Option<OwnedFd>,
    pub stdin: OwnedFd,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// The backend's part of the helper: the hook prepared before the fork, with its stdio on 0–2
/// (where the helper moves the pipes first).
pub trait Start {
    /// In the host, just before the fork, every pipe made: whatever must be known then.
    /// `known` is a descriptor above 2 known to be open.
    fn before_fork(&mut self, known: RawFd) -> io::Result<()>;

    /// Closes every descriptor of the host from 3 up but `keep`.
    ///
    /// # Safety
    /// Only in the helper between `fork` and `_exit`: async-signal-safe calls only, and it
    /// closes descriptors other code may think it owns.
    unsafe fn close_host_descriptors(&self, keep: [RawFd; 2]);

    /// Starts the hook and returns its pid once it has exec'd, or the `errno` of its failure.
    /// Called in the helper only: async-signal-safe, allocates nothing.
    fn start(&self) -> Result<i32, i32>;
}

/// Everything the helper and the hook read after the fork, prepared before it.
struct Plan<'h, S> {
    hook: &'h S,
    stdin_r: RawFd,
    stdout_w: RawFd,
    stderr_w: RawFd,
    status_w: RawFd,
    ack_r: RawFd,
}

/// Starts `l` through a helper. Returns once the hook has been exec'd (or failed to be), like
/// `posix_spawn`.
pub fn spawn<S: Start>(hook: &mut S) -> io::Result<Started> {
    let (stdin_r, stdin_w) = pipe()?;
    let (stdout_r, stdout_w) = pipe()?;
    let (stderr_r, stderr_w) = pipe()?;
    let (status_r, status_w) = pipe()?;
    let (ack_r, ack_w) = pipe()?;
    hook.before_fork(ack_r.as_raw_fd())?;
    let plan = Plan {
        hook: &*hook,
        stdin_r: stdin_r.as_raw_fd(),
        stdout_w: stdout_w.as_raw_fd(),
        stderr_w: stderr_w.as_raw_fd(),
        status_w: status_w.as_raw_fd(),
        ack_r: ack_r.as_raw_fd(),
    };

    // Every signal blocked across the fork: the helper must never run a host handler.
    // SAFETY: sigset_t is plain data; sigfillset initialises it.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are valid for the calls.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
    }
    // SAFETY: the child runs only `helper_main`, which makes async-signal-safe calls on `plan`
    // (prepared above, never freed in the child) and ends in `_exit`.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: we are the freshly forked child; see `helper_main`.
        unsafe { helper_main(&plan) }
    }
    let fork_err = io::Error::last_os_error();
    // SAFETY: restores the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    drop((stdin_r, stdout_w, stderr_w, status_w, ack_r));
    if pid < 0 {
        return Err(fork_err);
    }
    let mut helper = Helper { helper_pid: pid, status: status_r, ack: Some(ack_w), buf: [0; MSG], got: 0 };
    let first = helper.read_blocking();
    match first {
        Some([STARTED, hook, _]) => {
            super::os::set_nonblocking(&helper.status)?;
            let exit_fd = helper.status.try_clone().ok();
            Ok(Started { helper, pid: hook, exit_fd, stdin: stdin_w, stdout: stdout_r, stderr: stderr_r })
        }
        Some([FAILED, errno, _]) => {
            helper.finish();
            Err(io::Error::from_raw_os_error(errno))
        }
        _ => {
            helper.finish();
            Err(io::Error::other("hookwire's spawn helper process died before starting the hook"))
        }
    }
}

impl Helper {
    /// One whole report, waiting for it; `None` at EOF or on an error.
    fn read_blocking(&mut self) -> Option<[i32; 3]> {
        while self.got < MSG {
            // SAFETY: reads into the unfilled tail of our buffer; the descriptor is ours.
            let n = unsafe {
                libc::read(self.status.as_raw_fd(), self.buf[self.got..].as_mut_ptr().cast(), MSG - self.got)
            };
            if n > 0 {
                self.got += n as usize;
            } else if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            } else {
                return None;
            }
        }
        Some(self.take())
    }

    fn take(&mut self) -> [i32; 3] {
        self.got = 0;
        let word =
            |i: usize| i32::from_ne_bytes([self.buf[i], self.buf[i + 1], self.buf[i + 2], self.buf[i + 3]]);
        [word(0), word(4), word(8)]
    }

    /// The hook's end if it has been reported; `None` while it runs.
    pub fn try_wait(&mut self) -> Option<Report> {
        while self.got < MSG {
            // SAFETY: as in `read_blocking`; the descriptor is non-blocking here.
            let n = unsafe {
                libc::read(self.status.as_raw_fd(), self.buf[self.got..].as_mut_ptr().cast(), MSG - self.got)
            };
            if n > 0 {
                self.got += n as usize;
                continue;
            }
            let e = io::Error::last_os_error();
            if n < 0 && e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            if n < 0 && e.kind() == io::ErrorKind::WouldBlock {
                return None;
            }
            self.finish();
            return Some(Report::Lost(
                "exit status lost: hookwire's spawn helper process was killed before reporting it".into(),
            ));
        }
        let [tag, code, status] = self.take();
        self.finish();
        Some(match (tag, code) {
            (ENDED, libc::CLD_EXITED) => Report::Exited(status),
            (ENDED, libc::CLD_KILLED | libc::CLD_DUMPED) => Report::Signaled(status),
            _ => Report::Lost(format!("exit status lost: the spawn helper reported {tag}/{code}/{status}")),
        })
    }

    /// Lets the helper reap the hook and exit, and reaps the helper unless the host or the
    /// kernel already did (`ECHILD`). The helper exits within microseconds of the ack.
    fn finish(&mut self) {
        self.ack = None;
        super::os::reap_blocking(self.helper_pid);
    }

    /// For a hook that did not die after `SIGKILL`: a thread waits for the helper instead.
    pub fn finish_in_background(mut self) {
        let _ = std::thread::Builder::new().name("hookwire-reaper".into()).spawn(move || self.finish());
    }
}

/// The helper: see the module comment. Never returns.
///
/// # Safety
/// Only in the child of `fork`, with every signal blocked and `plan` valid.
unsafe fn helper_main<S: Start>(p: &Plan<'_, S>) -> ! {
    // SAFETY: async-signal-safe libc calls on descriptors and memory of `p`, which the fork
    // copied; nothing allocates, nothing can panic.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(libc::SIGCHLD, &dfl, std::ptr::null_mut());
        libc::setpgid(0, 0);
        if libc::dup2(p.stdin_r, 0) < 0 || libc::dup2(p.stdout_w, 1) < 0 || libc::dup2(p.stderr_w, 2) < 0 {
            report(p.status_w, FAILED, errno(), 0);
            libc::_exit(0);
        }
        p.hook.close_host_descriptors([p.status_w, p.ack_r]);
        // Allocates nothing: `p.hook` was prepared before the fork.
        let started = p.hook.start();
        libc::close(0);
        libc::close(1);
        libc::close(2);
        let pid = match started {
            Ok(pid) => pid,
            Err(errno) => {
                report(p.status_w, FAILED, errno, 0);
                libc::_exit(0);
            }
        };
        report(p.status_w, STARTED, pid, 0);
        let mut info: libc::siginfo_t = std::mem::zeroed();
        while libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT) != 0 {
            if errno() != libc::EINTR {
                libc::_exit(0);
            }
        }
        report(p.status_w, ENDED, info.si_code, info.si_status());
        let mut byte = 0u8;
        while libc::read(p.ack_r, (&mut byte as *mut u8).cast(), 1) != 0 {
            if errno() != libc::EINTR {
                break;
            }
        }
        let mut st = 0;
        libc::waitpid(pid, &mut st, 0);
        libc::_exit(0)
    }
}

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// One report to the runner; a host that is gone (`EPIPE`, with `SIGPIPE` blocked) is ignored.
///
/// # Safety
/// `fd` is the helper's status pipe.
unsafe fn report(fd: RawFd, tag: i32, a: i32, b: i32) {
    let mut msg = [0u8; MSG];
    msg[..4].copy_from_slice(&tag.to_ne_bytes());
    msg[4..8].copy_from_slice(&a.to_ne_bytes());
    msg[8..].copy_from_slice(&b.to_ne_bytes());
    // SAFETY: writes MSG bytes from a live buffer; retried only on EINTR.
    while unsafe { libc::write(fd, msg.as_ptr().cast(), MSG) } < 0 && errno() == libc::EINTR {}
}
