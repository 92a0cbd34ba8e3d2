//! Turning a prepared job into a running process group (protocol.md §5.2): program lookup done
//! by hookwire itself, then the hook created as `posix_spawn` creates a process (`child.rs`),
//! in its own process group, with an explicit environment and three pipes.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::Launch;
use super::child::{self, Pipes, Plan};
use super::helper::{Helper, Report};
use super::os::ChildSignal;
use std::os::fd::OwnedFd;

/// Finds the program to run: a name without `/` on `path` (the hook environment's `PATH`, else
/// the host's), a relative path with `/` against `cwd`. Not found, not a regular file or not
/// executable → the reason, which becomes a `spawn_failed` outcome.
pub fn resolve_program(program: &str, path: Option<&OsStr>, cwd: &Path) -> Result<PathBuf, String> {
    if program.is_empty() {
        return Err("empty program name".into());
    }
    if program.contains('/') {
        let p = Path::new(program);
        let full = if p.is_absolute() { p.to_path_buf() } else { cwd.join(p) };
        return check_executable(&full).map(|()| full);
    }
    let host_path;
    let path = match path {
        Some(p) => p,
        None => {
            host_path =
                std::env::var_os("PATH").unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
            host_path.as_os_str()
        }
    };
    let mut last_err = None;
    for dir in path.as_bytes().split(|b| *b == b':') {
        let dir = if dir.is_empty() { Path::new(".") } else { Path::new(OsStr::from_bytes(dir)) };
        let dir = if dir.is_absolute() { dir.to_path_buf() } else { cwd.join(dir) };
        let candidate = dir.join(program);
        match check_executable(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if candidate.exists() => last_err = Some(e),
            Err(_) => {}
        }
    }
    Err(last_err.unwrap_or_else(|| format!("not found on PATH: {program}")))
}

fn check_executable(p: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(p).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("not found: {}", p.display()),
        _ => format!("cannot run {}: {e}", p.display()),
    })?;
    if !meta.is_file() {
        return Err(format!("not a regular file: {}", p.display()));
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(format!("not executable: {}", p.display()));
    }
    Ok(())
}

/// A started hook: how to learn its end, its pid (= process group id) and its pipes.
pub struct Spawned {
    pub leader: Leader,
    pub pid: i32,
    /// Becomes readable when the hook ends: a pidfd on the direct path (`None` where pidfds
    /// are missing: the runner then polls), the helper's status pipe otherwise.
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

/// Starts one hook. On a host that leaves `SIGCHLD` at its default action (one `sigaction`
/// call tells), as the host's own child; otherwise through hookwire's helper (`helper.rs`), so
/// that the status is neither reaped by the kernel nor taken by the host's handler, and the
/// hook does not inherit an ignored `SIGCHLD`.
pub fn spawn(l: &Launch) -> std::io::Result<Spawned> {
    spawn_unexplained(l).map_err(|e| explain(l, e))
}

/// `ENOENT` for a program that exists means its `#!` interpreter is missing: say which one
/// (the OS message alone, "No such file or directory", points at the script).
fn explain(l: &Launch, e: std::io::Error) -> std::io::Error {
    use std::io::Read;
    if e.raw_os_error() != Some(libc::ENOENT) {
        return e;
    }
    let mut head = [0u8; 256];
    let n = std::fs::File::open(&l.program).and_then(|mut f| f.read(&mut head)).unwrap_or(0);
    let Some(line) = head[..n].strip_prefix(b"#!") else { return e };
    let line = line.split(|b| *b == b'\n').next().unwrap_or_default();
    let Some(interp) = line.split(|b| *b == b' ' || *b == b'\t').find(|w| !w.is_empty()) else { return e };
    let interp = Path::new(OsStr::from_bytes(interp));
    if interp.exists() {
        return e;
    }
    std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!(
            "bad interpreter: {} (named on the #! line of {}) does not exist",
            interp.display(),
            l.program.display()
        ),
    )
}

/// Set once someone else in this process took a hook's exit status.
static HOST_REAPS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether hooks go through the helper. Under `SIG_IGN` or `SA_NOCLDWAIT` every status would
/// be lost, so always. Under a handler, only once a status was actually taken: most handlers
/// reap nothing of ours (the Go runtime's, libuv's, which waits by pid), and the helper is a
/// fork of the host, whose cost grows with the host's size (about 50 ms from a 1 GiB host), so
/// a Go or Node host would otherwise pay it on every hook. The one status lost before the
/// switch is reported as lost, never invented, with the failure policy applied.
fn via_helper(signal: ChildSignal) -> bool {
    match signal {
        ChildSignal::Ignored | ChildSignal::NoCldWait => true,
        ChildSignal::Handled | ChildSignal::Default => HOST_REAPS.load(std::sync::atomic::Ordering::Relaxed),
    }
}

fn spawn_unexplained(l: &Launch) -> std::io::Result<Spawned> {
    if via_helper(ChildSignal::probe()) {
        let s = super::helper::spawn(l)?;
        return Ok(Spawned {
            leader: Leader::Helper(s.helper),
            pid: s.pid,
            exit_fd: s.exit_fd,
            stdin: Some(s.stdin),
            stdout: Some(s.stdout),
            stderr: Some(s.stderr),
        });
    }
    let pipes = Pipes::new()?;
    let plan = Plan::new(l, pipes.child_fds())?;
    let started = child::start(&plan, true)?;
    drop(plan);
    let Pipes { stdin_w, stdout_r, stderr_r, child: child_ends } = pipes;
    drop(child_ends);
    Ok(Spawned {
        pid: started.pid,
        // A kernel without CLONE_PIDFD (before 5.2) may still have pidfd_open (5.3 backports).
        exit_fd: started.pidfd.or_else(|| super::os::pidfd_open(started.pid)),
        stdin: Some(stdin_w),
        stdout: Some(stdout_r),
        stderr: Some(stderr_r),
        leader: Leader::Direct(started.pid),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_on_the_given_path_only() {
        let found = resolve_program("sh", Some(OsStr::new("/nonexistent:/bin:/usr/bin")), Path::new("/"));
        assert!(found.unwrap().ends_with("sh"));
        let err = resolve_program("sh", Some(OsStr::new("/nonexistent")), Path::new("/")).unwrap_err();
        assert!(err.contains("not found on PATH"), "{err}");
    }

    #[test]
    fn a_missing_interpreter_is_named() {
        let f = std::env::temp_dir().join(format!("hookwire-shebang-{}", std::process::id()));
        std::fs::write(&f, "#!/nonexistent/interp -x\necho hi\n").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o755)).unwrap();
        let l = Launch {
            program: f.clone(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: PathBuf::from("/"),
            confine: None,
        };
        let err = spawn(&l).err().unwrap().to_string();
        std::fs::remove_file(&f).unwrap();
        assert!(err.contains("bad interpreter: /nonexistent/interp"), "{err}");
        assert!(err.contains(f.to_str().unwrap()), "{err}");
    }

    #[test]
    fn directories_and_non_executables_are_refused() {
        assert!(resolve_program("/tmp", None, Path::new("/")).unwrap_err().contains("not a regular file"));
        let f = std::env::temp_dir().join(format!("hookwire-noexec-{}", std::process::id()));
        std::fs::write(&f, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = resolve_program(f.to_str().unwrap(), None, Path::new("/")).unwrap_err();
        assert!(err.contains("not executable"), "{err}");
        std::fs::remove_file(&f).unwrap();
    }
}
