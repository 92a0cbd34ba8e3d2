//! The Linux backend: a hook is created as glibc's `posix_spawn` creates a process
//! (`clone(CLONE_VM | CLONE_VFORK)` on a stack of its own, `child.rs`), but with the steps
//! `posix_spawn` cannot take between `clone` and `execve`: the sandbox's `confine`, and
//! `close_range` of every descriptor the host left inheritable. Its end is watched through a
//! pidfd. The default backend on Linux, and the one sandboxed hooks use under the
//! `portable-runner` feature.

use crate::runner::Launch;
use crate::runner::child::{self, Plan};
use crate::runner::helper::{self, Start};
use crate::runner::leader::{Leader, Spawned};
use crate::runner::os::{Pipes, close_range, pidfd_open};
use std::io;
use std::os::fd::RawFd;

/// Starts `l` as the host's own child or, when `via_helper`, through hookwire's helper.
pub fn spawn(l: &Launch, via_helper: bool) -> io::Result<Spawned> {
    let guard = l.confine.as_deref().and_then(crate::sandbox::Confinement::guard);
    if via_helper {
        if guard.is_some() {
            // The supervisor's handshake needs the hook to be a child of this process's fd
            // table and threads; the helper is a fork of the host, without its threads.
            return Err(io::Error::other(
                "a sandbox's network allow-list cannot be enforced while the host reaps child processes \
                 (hooks then start through hookwire's helper)",
            ));
        }
        let mut hook = Plan::new(l, [0, 1, 2])?;
        return helper::spawn(&mut hook).map(Spawned::from);
    }
    let pipes = Pipes::new()?;
    let mut plan = Plan::new(l, pipes.child_fds())?;
    // Started before the clone: the supervisor takes the hook's listener while this thread is
    // suspended by CLONE_VFORK.
    let link = guard.map(crate::sandbox::supervisor::start).transpose()?;
    if let Some(link) = &link {
        plan.link = link.raw();
    }
    let started = child::start(&plan, true)?;
    drop((plan, link));
    let Pipes { stdin_w, stdout_r, stderr_r, child: child_ends } = pipes;
    drop(child_ends);
    Ok(Spawned {
        pid: started.pid,
        // A kernel without CLONE_PIDFD (before 5.2) may still have pidfd_open (5.3 backports).
        exit_fd: started.pidfd.or_else(|| pidfd_open(started.pid)),
        stdin: Some(stdin_w),
        stdout: Some(stdout_r),
        stderr: Some(stderr_r),
        leader: Leader::Direct(started.pid),
    })
}

/// Inside the helper, the hook is cloned as on the direct path (its memory is copied once, by
/// the helper's `fork`), and `close_range` leaves the helper nothing of the host's.
impl Start for Plan {
    fn before_fork(&mut self, _known: RawFd) -> io::Result<()> {
        Ok(())
    }

    unsafe fn close_host_descriptors(&self, keep: [RawFd; 2]) {
        let (lo, hi) = if keep[0] < keep[1] { (keep[0], keep[1]) } else { (keep[1], keep[0]) };
        for (first, last) in [(3, lo - 1), (lo + 1, hi - 1), (hi + 1, RawFd::MAX)] {
            if first <= last {
                // SAFETY: only in the helper, between `fork` and `_exit` (this method's contract).
                unsafe { close_range(first, last) };
            }
        }
    }

    fn start(&self) -> Result<i32, i32> {
        child::start(self, false).map(|s| s.pid).map_err(|e| e.raw_os_error().unwrap_or(libc::EIO))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    #[test]
    fn a_network_allow_list_is_refused_on_the_helper_path_and_runs_on_the_direct_one() {
        if !crate::sandbox::supervisor::available() {
            return;
        }
        let p = crate::sandbox::parse(&serde_json::json!({"network": ["127.0.0.1:9"]}))
            .expect("a valid sandbox")
            .expect("a sandbox");
        let places = crate::sandbox::Places {
            project: Path::new("/tmp"),
            tmp: None,
            env_file: None,
            homes: Vec::new(),
            deadline: std::time::Instant::now() + std::time::Duration::from_secs(10),
        };
        let c = crate::sandbox::Confinement::build(&p, &places).expect("the confinement");
        let l = Launch {
            program: PathBuf::from("/bin/true"),
            args: Vec::new(),
            env: Vec::new(),
            cwd: PathBuf::from("/"),
            confine: Some(std::sync::Arc::new(c)),
        };
        let why = spawn(&l, true).err().expect("refused through the helper").to_string();
        assert!(why.contains("allow-list cannot be enforced while the host reaps"), "{why}");
        let mut s = spawn(&l, false).expect("the direct path runs it");
        let end = loop {
            if let Some(end) = s.leader.try_wait() {
                break end;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        assert!(matches!(end, crate::runner::leader::Reaped::Exited(0)), "the hook exits 0");
    }
}
