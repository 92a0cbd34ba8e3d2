//! One sandboxed hook's confinement, prepared in the host before the hook's process exists and
//! applied inside it between `clone` and `execve` (`apply`), where only async-signal-safe calls
//! are allowed: rlimits, `PR_SET_NO_NEW_PRIVS`, `landlock_restrict_self` on the ruleset built
//! here, and the seccomp filters compiled here. Nothing is ever applied to the host.

use super::files;
use super::policy::{Enforcement, Network, Policy};
use super::syscalls::{self, Filters};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

/// Where a sandboxed hook runs: its project, its own temporary directory, and the homes whose
/// secrets it must not read (the host's, and the one its environment names if another).
pub struct Places<'a> {
    pub project: &'a Path,
    pub tmp: Option<&'a Path>,
    /// The hook's `CLAUDE_ENV_FILE`, which it may write.
    pub env_file: Option<&'a Path>,
    pub homes: Vec<PathBuf>,
}

/// Ready to apply in the hook's process.
pub struct Confinement {
    ruleset: Option<OwnedFd>,
    filters: Option<Filters>,
    rlimits: Vec<(libc::__rlimit_resource_t, libc::rlim_t)>,
    /// The hook's own pids cgroup (its process cap), when one could be made.
    pids: Option<super::pids::Pids>,
    /// What the kernel could not apply (best-effort only; a required sandbox refuses to run).
    pub not_applied: Vec<String>,
}

impl std::fmt::Debug for Confinement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Confinement")
            .field("landlock", &self.ruleset.is_some())
            .field("seccomp", &self.filters.is_some())
            .field("rlimits", &self.rlimits.len())
            .field("pids", &self.pids.is_some())
            .finish()
    }
}

impl Confinement {
    /// Prepares the confinement `p` asks for at `places`; `Err` says why a required sandbox
    /// cannot be had here.
    pub fn build(p: &Policy, places: &Places<'_>) -> Result<Confinement, String> {
        let mut not_applied = Vec::new();
        let refuse = |what: String, not_applied: &mut Vec<String>| match p.enforcement {
            Enforcement::Required => Err(format!("sandbox {:?} is required but {what}", p.profile)),
            Enforcement::BestEffort => {
                not_applied.push(what);
                Ok(())
            }
        };
        let home = places.homes.first().cloned().unwrap_or_else(|| PathBuf::from("/"));
        let mut deny = Vec::new();
        for h in &places.homes {
            deny.extend(super::policy::SECRETS.iter().map(|s| h.join(s)));
        }
        for d in &p.deny_read {
            match files::expand(d, &home) {
                Some(path) => deny.push(path),
                None => {
                    return Err(format!("sandbox: `deny_read` entry {d:?} is neither absolute nor under ~"));
                }
            }
        }
        let mut writable: Vec<PathBuf> =
            places.tmp.into_iter().chain(places.env_file).map(Path::to_path_buf).collect();
        if p.write_project {
            writable.push(places.project.to_path_buf());
        }
        for w in &p.writable {
            match files::expand(w, &home) {
                Some(path) => writable.push(path),
                None => {
                    return Err(format!("sandbox: `writable` entry {w:?} is neither absolute nor under ~"));
                }
            }
        }
        let ports = match &p.network {
            Network::None => None,
            Network::TcpPorts(ports) => Some(ports.as_slice()),
        };
        let abi = files::abi();
        let ruleset = if abi == 0 {
            refuse(
                "this kernel has no Landlock (Linux 5.13+): the file system is not confined".into(),
                &mut not_applied,
            )?;
            None
        } else {
            if ports.is_some() && abi < 4 {
                refuse(
                    format!("Landlock ABI {abi} cannot filter TCP ports (ABI 4+): TCP goes anywhere"),
                    &mut not_applied,
                )?;
            }
            let plan = files::Plan { deny: &deny, writable: &writable, tcp_ports: ports };
            let (fd, notes) = files::ruleset(&plan, landlock::ABI::from(abi))?;
            not_applied.extend(notes);
            Some(fd)
        };
        let filters = match syscalls::filters(ports.is_some()) {
            Ok(f) if seccomp_available() => Some(f),
            Ok(_) => {
                refuse(
                    "this kernel has no seccomp filters: syscalls and sockets are not confined".into(),
                    &mut not_applied,
                )?;
                None
            }
            Err(why) => return Err(why),
        };
        let mb = |n: u64| n.saturating_mul(1 << 20);
        let mut rlimits = Vec::new();
        let l = p.limits;
        for (resource, value) in [
            (libc::RLIMIT_CPU, l.cpu_s),
            (libc::RLIMIT_AS, mb(l.memory_mb)),
            (libc::RLIMIT_FSIZE, mb(l.file_size_mb)),
            (libc::RLIMIT_NOFILE, l.open_files),
            (libc::RLIMIT_CORE, 0),
        ] {
            if value > 0 || resource == libc::RLIMIT_CORE {
                rlimits.push((resource, value as libc::rlim_t));
            }
        }
        let mut pids = None;
        if l.processes > 0 {
            match super::pids::Pids::create(l.processes) {
                Ok(p) => pids = Some(p),
                // SAFETY: getuid cannot fail.
                Err(why) if unsafe { libc::getuid() } == 0 => refuse(
                    format!(
                        "processes cannot be capped ({why}; the kernel never holds root to RLIMIT_NPROC)"
                    ),
                    &mut not_applied,
                )?,
                Err(_) => {
                    // RLIMIT_NPROC counts every process of the user: the hook may add
                    // `processes` to those that exist now (every process here, an upper bound).
                    let now = std::fs::read_dir("/proc").map_or(0, |d| d.count() as u64);
                    rlimits.push((libc::RLIMIT_NPROC, (now + l.processes) as libc::rlim_t));
                }
            }
        }
        Ok(Confinement { ruleset, filters, rlimits, pids, not_applied })
    }

    /// Applies the confinement to the calling process: `Err(errno)` when a step fails.
    ///
    /// # Safety
    /// Only in a hook's process between `clone` and `execve`: it confines the caller for good.
    /// Async-signal-safe: no allocation, no lock.
    pub unsafe fn apply(&self) -> Result<(), i32> {
        let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EPERM);
        // SAFETY: plain syscalls on values prepared before the clone (the whole body).
        unsafe {
            if let Some(p) = &self.pids {
                p.join()?;
            }
            for (resource, value) in &self.rlimits {
                let lim = libc::rlimit { rlim_cur: *value, rlim_max: *value };
                // Never above the host's own hard limit (raising it would fail).
                let mut old = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
                libc::getrlimit(*resource, &mut old);
                let lim = libc::rlimit {
                    rlim_cur: lim.rlim_cur.min(old.rlim_max),
                    rlim_max: lim.rlim_max.min(old.rlim_max),
                };
                if libc::setrlimit(*resource, &lim) != 0 {
                    return Err(errno());
                }
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(errno());
            }
            if let Some(fd) = &self.ruleset
                && libc::syscall(libc::SYS_landlock_restrict_self, fd.as_raw_fd(), 0u32) != 0
            {
                return Err(errno());
            }
            if let Some(f) = &self.filters {
                for program in [&f.clone3, &f.refuse] {
                    let prog = libc::sock_fprog {
                        len: program.len() as libc::c_ushort,
                        filter: program.as_ptr() as *mut libc::sock_filter,
                    };
                    if libc::prctl(
                        libc::PR_SET_SECCOMP,
                        libc::SECCOMP_MODE_FILTER,
                        &prog as *const libc::sock_fprog,
                    ) != 0
                    {
                        return Err(errno());
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether seccomp filters can be installed here (`PR_GET_SECCOMP` answers).
fn seccomp_available() -> bool {
    // SAFETY: a read-only query of the calling thread's seccomp mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}
