//! Turning a prepared job into a running process group (protocol.md §5.2): program lookup done
//! by hookwire itself, then `std::process::Command` with `process_group(0)`, an explicit
//! environment and three pipes, and no `pre_exec`, so std can use `posix_spawn` and no code of
//! ours runs between fork and exec.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

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

/// What the runner needs to start one hook.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
    pub cwd: PathBuf,
}

pub fn spawn(l: &Launch) -> std::io::Result<Child> {
    Command::new(&l.program)
        .args(&l.args)
        .env_clear()
        .envs(l.env.iter().map(|(k, v)| (k, v)))
        .current_dir(&l.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
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
