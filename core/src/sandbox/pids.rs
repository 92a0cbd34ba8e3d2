//! The process cap of a sandboxed hook: a pids cgroup of its own (`pids.max`), which the hook's
//! process joins before `execve`. `RLIMIT_NPROC` alone does not do: the kernel never applies it
//! to root, and it counts every process of the user. The cgroup also ends whatever the hook left
//! behind, even processes that left its process group: dropping the [`Pids`] kills every process
//! still in it and removes it.
//!
//! Where no pids cgroup is writable (an unprivileged user without a delegated cgroup), the
//! caller falls back to `RLIMIT_NPROC`.

use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;

/// One hook's pids cgroup.
pub struct Pids {
    dir: PathBuf,
    /// `cgroup.procs`, open for writing: the hook's process writes its pid there.
    procs: OwnedFd,
}

impl Pids {
    /// A new pids cgroup under this process's own, allowing `max` processes.
    pub fn create(max: u64) -> Result<Pids, String> {
        let parent = own_pids_cgroup().ok_or("no writable pids cgroup")?;
        let mut name = [0u8; 8];
        // SAFETY: getrandom fills at most the buffer it is given.
        unsafe { libc::getrandom(name.as_mut_ptr().cast(), name.len(), 0) };
        let dir =
            parent.join(format!("hookwire-{}", name.iter().map(|b| format!("{b:02x}")).collect::<String>()));
        std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let made = (|| {
            std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("pids.max"))
                .and_then(|mut f| f.write_all(max.to_string().as_bytes()))?;
            std::fs::OpenOptions::new().write(true).open(dir.join("cgroup.procs")).map(OwnedFd::from)
        })();
        match made {
            Ok(procs) => Ok(Pids { dir, procs }),
            Err(e) => {
                let _ = std::fs::remove_dir(&dir);
                Err(format!("{}: {e}", dir.display()))
            }
        }
    }

    /// Moves the calling process into the cgroup.
    ///
    /// # Safety
    /// Async-signal-safe (no allocation): for the hook's process before `execve`.
    pub unsafe fn join(&self) -> Result<(), i32> {
        // SAFETY: getpid and write on a descriptor this value owns; the digits are on the stack.
        unsafe {
            let mut pid = libc::getpid() as u64;
            let mut buf = [0u8; 20];
            let mut at = buf.len();
            loop {
                at -= 1;
                buf[at] = b'0' + (pid % 10) as u8;
                pid /= 10;
                if pid == 0 {
                    break;
                }
            }
            let n = buf.len() - at;
            if libc::write(self.procs.as_raw_fd(), buf[at..].as_ptr().cast(), n) != n as isize {
                return Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EPERM));
            }
        }
        Ok(())
    }
}

impl Drop for Pids {
    fn drop(&mut self) {
        for _ in 0..20 {
            let procs = std::fs::read_to_string(self.dir.join("cgroup.procs")).unwrap_or_default();
            for pid in procs.lines().filter_map(|l| l.trim().parse::<i32>().ok()).filter(|p| *p > 0) {
                // SAFETY: a signal to a process of the hook's own cgroup.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            if std::fs::remove_dir(&self.dir).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// Whether a pids cgroup can be made for a hook here.
pub fn available() -> bool {
    own_pids_cgroup().is_some()
}

/// This process's pids cgroup directory, when it is one hookwire may make cgroups in: the v1
/// `pids` hierarchy, or the v2 one when `pids` is enabled for its children.
fn own_pids_cgroup() -> Option<PathBuf> {
    let mine = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in mine.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_start_matches('/');
        if controllers.split(',').any(|c| c == "pids") {
            let dir = PathBuf::from("/sys/fs/cgroup/pids").join(path);
            if writable(&dir) {
                return Some(dir);
            }
        } else if controllers.is_empty() {
            for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
                let dir = PathBuf::from(root).join(path);
                let enabled = std::fs::read_to_string(dir.join("cgroup.subtree_control"))
                    .is_ok_and(|s| s.split_whitespace().any(|c| c == "pids"));
                if enabled && writable(&dir) {
                    return Some(dir);
                }
            }
        }
    }
    None
}

fn writable(dir: &std::path::Path) -> bool {
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()) else { return false };
    // SAFETY: access(2) on a NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}
