//! Who holds a started hook's exit status, and how the runner reads it: the shape both spawn
//! backends (`backend/`) give back.

use super::helper::{self, Helper, Report};
use super::os::ChildSignal;
use std::os::fd::OwnedFd;

/// A started hook: how to learn its end, its pid (= process group id) and its pipes.
pub struct Spawned {
    pub leader: Leader,
    pub pid: i32,
    /// Becomes readable when the hook ends: on the direct path a pidfd (Linux backend) or the
    /// exit watcher's pipe (portable backend, `backend/posix.rs`), `None` where neither can be
    /// had (the runner then polls); the helper's status pipe otherwise.
    pub exit_fd: Option<OwnedFd>,
    pub stdin: Option<OwnedFd>,
    pub stdout: Option<OwnedFd>,
    pub stderr: Option<OwnedFd>,
}

/// Who holds the hook's exit status.
pub enum Leader {
    /// The hook is our child (the host leaves `SIGCHLD` at its default action), not reaped yet.
    Direct(i32),
    /// The hook is the child of a helper of ours (the host ignores or handles `SIGCHLD`).
    Helper(Helper),
}

/// How a hook ended, or that its status was lost; never an invented code.
pub enum Reaped {
    Exited(i32),
    Signaled(i32),
    Lost(String),
}

impl Leader {
    /// The hook's end once it has ended; `None` while it runs.
    pub fn try_wait(&mut self) -> Option<Reaped> {
        match self {
            Leader::Direct(pid) => match super::os::try_reap(*pid) {
                Ok(None) => None,
                Ok(Some(status)) => Some(if libc::WIFEXITED(status) {
                    Reaped::Exited(libc::WEXITSTATUS(status))
                } else if libc::WIFSIGNALED(status) {
                    Reaped::Signaled(libc::WTERMSIG(status))
                } else {
                    Reaped::Lost(format!("exit status lost: unreadable wait status {status:#x}"))
                }),
                // ECHILD: the kernel or the host reaped it (see `ChildSignal`). From now on
                // every hook of this process goes through the helper.
                Err(e) if e.raw_os_error() == Some(libc::ECHILD) => {
                    HOST_REAPS.store(true, std::sync::atomic::Ordering::Relaxed);
                    Some(Reaped::Lost(ChildSignal::probe().lost()))
                }
                Err(e) => Some(Reaped::Lost(format!("exit status lost: waitpid: {e}"))),
            },
            Leader::Helper(h) => h.try_wait().map(|r| match r {
                Report::Exited(c) => Reaped::Exited(c),
                Report::Signaled(s) => Reaped::Signaled(s),
                Report::Lost(why) => Reaped::Lost(why),
            }),
        }
    }

    /// For a leader that did not die after `SIGKILL`: a background thread reaps it later.
    pub fn reap_in_background(self) {
        match self {
            Leader::Direct(pid) => {
                let _ = std::thread::Builder::new()
                    .name("hookwire-reaper".into())
                    .spawn(move || super::os::reap_blocking(pid));
            }
            Leader::Helper(h) => h.finish_in_background(),
        }
    }
}

/// Set once someone else in this process took a hook's exit status.
pub static HOST_REAPS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl From<helper::Started> for Spawned {
    fn from(s: helper::Started) -> Self {
        Spawned {
            leader: Leader::Helper(s.helper),
            pid: s.pid,
            exit_fd: s.exit_fd,
            stdin: Some(s.stdin),
            stdout: Some(s.stdout),
            stderr: Some(s.stderr),
        }
    }
}
