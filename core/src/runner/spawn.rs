//! Turning a prepared job into a running process group (protocol.md §5.2): program lookup done
//! by hookwire itself, then the hook created as `posix_spawn` creates a process (`child.rs`),
//! in its own process group, with an explicit environment and three pipes.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::Launch;
use super::leader::Spawned;
use super::os::ChildSignal;

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

/// Whether hooks go through the helper. Under `SIG_IGN` or `SA_NOCLDWAIT` every status would
/// be lost, so always. Under a handler, only once a status was actually taken: most handlers
/// reap nothing of ours (the Go runtime's, libuv's, which waits by pid), and the helper is a
/// fork of the host, whose cost grows with the host's size (about 50 ms from a 1 GiB host), so
/// a Go or Node host would otherwise pay it on every hook. The one status lost before the
/// switch is reported as lost, never invented, with the failure policy applied.
fn via_helper(signal: ChildSignal) -> bool {
    match signal {
        ChildSignal::Ignored | ChildSignal::NoCldWait => true,
        ChildSignal::Handled | ChildSignal::Default => {
            super::leader::HOST_REAPS.load(std::sync::atomic::Ordering::Relaxed)
        }
    }
}

/// The backend: `os/linux.rs` by default on Linux, `os/posix.rs` on every other Unix and under
/// the `portable-runner` feature.
fn spawn_unexplained(l: &Launch) -> std::io::Result<Spawned> {
    let helper = via_helper(ChildSignal::probe());
    #[cfg(not(portable_runner))]
    return super::backend::linux::spawn(l, helper);
    #[cfg(portable_runner)]
    return super::backend::posix::spawn(l, helper);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::leader::{Leader, Reaped};

    #[test]
    fn names_are_found_on_the_given_path_only() {
        let found = resolve_program("sh", Some(OsStr::new("/nonexistent:/bin:/usr/bin")), Path::new("/"));
        assert!(found.unwrap().ends_with("sh"));
        let err = resolve_program("sh", Some(OsStr::new("/nonexistent")), Path::new("/")).unwrap_err();
        assert!(err.contains("not found on PATH"), "{err}");
    }

    /// Which backend runs hooks shows in what a spawn gives back: the Linux one a pidfd (every
    /// kernel since 5.3), the portable one the read end of its exit watcher's pipe; both a
    /// direct child here (`SIGCHLD` is left at its default by every unit test). Run by CI with
    /// and without `portable-runner`.
    #[test]
    fn hooks_run_through_the_backend_the_build_selects() {
        let l = Launch {
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".into(), "exit 3".into()],
            env: Vec::new(),
            cwd: PathBuf::from("/"),
            confine: None,
        };
        let mut s = spawn(&l).unwrap();
        assert!(matches!(s.leader, Leader::Direct(pid) if pid == s.pid));
        let exit_fd = s.exit_fd.as_ref().expect("both backends give a descriptor to poll for the end");
        // SAFETY: fstat fills a plain struct we own, from a descriptor we hold.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        assert_eq!(unsafe { libc::fstat(std::os::fd::AsRawFd::as_raw_fd(exit_fd), &mut st) }, 0);
        let pipe = st.st_mode & libc::S_IFMT == libc::S_IFIFO;
        #[cfg(portable_runner)]
        assert!(pipe, "the portable backend has no pidfd: its exit watcher closes a pipe");
        #[cfg(not(portable_runner))]
        assert!(!pipe, "the Linux backend watches its hook through a pidfd");
        let end = loop {
            if let Some(end) = s.leader.try_wait() {
                break end;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        };
        assert!(matches!(end, Reaped::Exited(3)));
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
