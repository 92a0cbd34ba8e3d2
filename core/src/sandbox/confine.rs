//! One sandboxed hook's confinement, prepared in the host before the hook's process exists and
//! applied inside it between `clone` and `execve` (`apply`), where only async-signal-safe calls
//! are allowed: rlimits, `PR_SET_NO_NEW_PRIVS`, `landlock_restrict_self` on the ruleset built
//! here, and the seccomp filters compiled here. Nothing is ever applied to the host. Under an
//! allow-list of hosts, the names are resolved here and the hook's last filter notifies
//! hookwire's supervisor (`supervisor.rs`), which gets its listener through a handshake.

use super::files;
use super::policy::{Enforcement, Network, Policy};
use super::supervisor::Guard;
use super::syscalls::{self, Filters, Sockets};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where a sandboxed hook runs: its project, its own temporary directory, and the homes whose
/// secrets it must not read (the host's, and the one its environment names if another).
pub struct Places<'a> {
    pub project: &'a Path,
    pub tmp: Option<&'a Path>,
    /// The hook's `CLAUDE_ENV_FILE`, which it may write.
    pub env_file: Option<&'a Path>,
    pub homes: Vec<PathBuf>,
    /// The hook's deadline: names of an allow-list are resolved before it, and its supervisor
    /// ends at it.
    pub deadline: Instant,
}

/// What this kernel offers beyond Landlock and seccomp filters (a test seam: `probe` asks the
/// kernel).
#[derive(Debug, Clone, Copy)]
pub struct Kernel {
    /// Seccomp user notification and `pidfd_getfd` (`supervisor::available`).
    pub supervision: bool,
}

impl Kernel {
    pub fn probe() -> Kernel {
        Kernel { supervision: super::supervisor::available() }
    }
}

/// Ready to apply in the hook's process.
pub struct Confinement {
    ruleset: Option<OwnedFd>,
    filters: Option<Filters>,
    rlimits: Vec<(libc::__rlimit_resource_t, libc::rlim_t)>,
    /// The hook's own pids cgroup (its process cap), when one could be made.
    pids: Option<super::pids::Pids>,
    /// The allow-list's supervisor, to be started with the hook.
    guard: Option<Guard>,
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
            .field("guard", &self.guard)
            .finish()
    }
}

impl Confinement {
    /// Prepares the confinement `p` asks for at `places`; `Err` says why a required sandbox
    /// cannot be had here.
    pub fn build(p: &Policy, places: &Places<'_>) -> Result<Confinement, String> {
        Confinement::build_on(p, places, Kernel::probe())
    }

    /// The allow-list's supervisor, when the hook has one (`None`: nothing to start).
    pub fn guard(&self) -> Option<&Guard> {
        self.guard.as_ref()
    }

    fn build_on(p: &Policy, places: &Places<'_>, kernel: Kernel) -> Result<Confinement, String> {
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
        let mut guard = None;
        let (sockets, ports): (Sockets, Option<Vec<u16>>) = match &p.network {
            Network::None => (Sockets::None, None),
            Network::TcpPorts(ports) => (Sockets::Tcp, Some(ports.clone())),
            Network::Hosts(list) if kernel.supervision => {
                let (allowed, notes) = super::resolve::resolve(list, places.deadline);
                not_applied.extend(notes);
                let ports = allowed.ports();
                guard = Some(Guard { allowed: std::sync::Arc::new(allowed), deadline: places.deadline });
                (Sockets::Supervised, Some(ports))
            }
            Network::Hosts(list) => {
                refuse(
                    "this kernel cannot supervise connections (seccomp user notification, Linux 5.0, \
                     and pidfd_getfd, 5.6): the allow-list's ports are enforced for TCP, to any host"
                        .into(),
                    &mut not_applied,
                )?;
                let ports: std::collections::BTreeSet<u16> = list.iter().map(|e| e.port).collect();
                (Sockets::Tcp, Some(ports.into_iter().collect()))
            }
        };
        let ports = ports.as_deref();
        let abi = files::abi();
        let ruleset = if abi == 0 {
            refuse(
                "this kernel has no Landlock (Linux 5.13+): the file system is not confined".into(),
                &mut not_applied,
            )?;
            None
        } else {
            // Under a supervised allow-list the ports are a second fence only: its absence is
            // no loss of confinement.
            if sockets == Sockets::Tcp && abi < 4 {
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
        let filters = match syscalls::filters(sockets) {
            Ok(f) if seccomp_available() => Some(f),
            Ok(_) => {
                refuse(
                    "this kernel has no seccomp filters: syscalls and sockets are not confined".into(),
                    &mut not_applied,
                )?;
                guard = None;
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
        Ok(Confinement { ruleset, filters, rlimits, pids, guard, not_applied })
    }

    /// Applies the confinement to the calling process: `Err(errno)` when a step fails. `link`
    /// is the supervisor's handshake (`supervisor::Link::raw`), all -1 without one.
    ///
    /// # Safety
    /// Only in a hook's process between `clone` and `execve`: it confines the caller for good.
    /// Async-signal-safe: no allocation, no lock.
    pub unsafe fn apply(&self, link: [RawFd; 4]) -> Result<(), i32> {
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
                // The handshake of `supervisor.rs`, on descriptors and a program prepared before
                // the clone (covered by the SAFETY note above).
                if let Some(program) = &f.notify {
                    hand_over(program, link)?;
                }
            }
        }
        Ok(())
    }
}

/// Installs the notifying filter and hands its listener to the supervisor: our pid and the
/// listener's number through `link[0]`, one byte back through `link[1]` (0: it has its copy),
/// then our own copy closed, so the hook never holds a listener it could answer itself.
///
/// # Safety
/// As [`Confinement::apply`].
unsafe fn hand_over(program: &seccompiler::BpfProgram, link: [RawFd; 4]) -> Result<(), i32> {
    let errno = || std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EPERM);
    if link[0] < 0 {
        return Err(libc::EINVAL);
    }
    let prog = libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: plain syscalls on values prepared before the clone (the whole body).
    unsafe {
        let listener = libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            libc::SECCOMP_FILTER_FLAG_NEW_LISTENER,
            &prog as *const libc::sock_fprog,
        ) as i32;
        if listener < 0 {
            return Err(errno());
        }
        // The supervisor's ends, inherited at the clone: closed, so that its end reads as end of file.
        libc::close(link[2]);
        libc::close(link[3]);
        let pid = libc::getpid().to_ne_bytes();
        let fd = listener.to_ne_bytes();
        let msg = [pid[0], pid[1], pid[2], pid[3], fd[0], fd[1], fd[2], fd[3]];
        if libc::write(link[0], msg.as_ptr().cast(), 8) != 8 {
            return Err(errno());
        }
        let mut answer = [0u8; 1];
        match libc::read(link[1], answer.as_mut_ptr().cast(), 1) {
            1 if answer[0] == 0 => {}
            1 => return Err(i32::from(answer[0])),
            _ => return Err(libc::EIO),
        }
        libc::close(listener);
    }
    Ok(())
}

/// Whether seccomp filters can be installed here (`PR_GET_SECCOMP` answers).
fn seccomp_available() -> bool {
    // SAFETY: a read-only query of the calling thread's seccomp mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn allow_list(enforcement: Enforcement) -> Policy {
        let v = serde_json::json!({"network": ["127.0.0.1:8080", "localhost:9"]});
        let mut p = super::super::parse(&v).expect("a valid sandbox").expect("a sandbox");
        p.enforcement = enforcement;
        p
    }

    fn places(project: &Path) -> Places<'_> {
        Places {
            project,
            tmp: None,
            env_file: None,
            homes: Vec::new(),
            deadline: Instant::now() + Duration::from_secs(5),
        }
    }

    #[test]
    fn without_user_notification_a_required_allow_list_refuses_and_a_best_effort_one_keeps_its_ports() {
        let dir = std::env::temp_dir();
        let old = Kernel { supervision: false };
        let why = Confinement::build_on(&allow_list(Enforcement::Required), &places(&dir), old).unwrap_err();
        assert!(why.contains("required") && why.contains("cannot supervise connections"), "{why}");
        let c = Confinement::build_on(&allow_list(Enforcement::BestEffort), &places(&dir), old).unwrap();
        assert!(c.guard().is_none(), "no supervisor to start");
        assert!(c.not_applied.iter().any(|n| n.contains("ports are enforced for TCP, to any host")), "{c:?}");
        let filters = c.filters.as_ref().expect("seccomp filters");
        assert!(filters.notify.is_none(), "no notifying filter without a supervisor");
    }

    #[test]
    fn with_user_notification_the_names_are_resolved_into_the_supervisors_list() {
        if !Kernel::probe().supervision {
            // The other test covers such a kernel; this machine's is asserted by the
            // integration tests, which need it.
            return;
        }
        let dir = std::env::temp_dir();
        let c = Confinement::build(&allow_list(Enforcement::Required), &places(&dir)).unwrap();
        let g = c.guard().expect("a supervisor");
        assert!(
            g.allowed.permits(&"127.0.0.1:8080".parse().unwrap())
                && g.allowed.permits(&"127.0.0.1:9".parse().unwrap())
        );
        assert!(!g.allowed.permits(&"127.0.0.1:9999".parse().unwrap()));
        assert!(c.filters.as_ref().is_some_and(|f| f.notify.is_some()));
    }
}
