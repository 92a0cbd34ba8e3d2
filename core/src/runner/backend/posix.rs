//! The portable backend: only calls Linux, macOS and the BSDs share. A hook is started by
//! `posix_spawn` in its own process group (`POSIX_SPAWN_SETPGROUP`), every signal at its default
//! action (`POSIX_SPAWN_SETSIGDEF` with a full set) and an empty mask (`POSIX_SPAWN_SETSIGMASK`),
//! its stdio `dup2`'d from three pipes made by `pipe` + `fcntl(FD_CLOEXEC)` (macOS has no
//! `pipe2`), its working directory set by `posix_spawn_file_actions_addchdir_np`. There is no
//! pidfd: a thread of ours blocks in `waitid(WNOWAIT)` on the leader and closes a pipe when it
//! has exited, which the runner polls as it polls a pidfd ([`exit_watch`]); the runner signals
//! the group (`kill(-pgid)`) only while the leader is unreaped, so the group id cannot have been
//! reused. Every other Unix uses it; Linux under the `portable-runner` feature.
//!
//! **The host's inheritable descriptors.** `posix_spawn` has no portable "close the rest"
//! (`posix_spawn_file_actions_addclosefrom_np` is glibc 2.34+ and FreeBSD 13.1+ only; macOS has
//! `POSIX_SPAWN_CLOEXEC_DEFAULT` instead), and an exec helper would be a program of ours to ship
//! and find beside every host. So around each spawn, the descriptors the host left inheritable
//! are marked close-on-exec and, once `posix_spawn` has returned, unmarked again: a host that
//! means some descriptor for its own children (a build tool's jobserver pipe) keeps it so. The
//! open descriptors are listed from `/dev/fd` (on Linux a link to `/proc/self/fd`; on macOS
//! complete; on FreeBSD complete only with fdescfs mounted): a listing that misses a
//! descriptor known to be open is not trusted, and every number up to the descriptor limit is
//! tried instead. Each spawn holds one process-wide lock from its first pipe to the unmarking,
//! so two fires on two threads never unmark each other's descriptors. **Limit:** a descriptor
//! another host thread opens without close-on-exec during those microseconds can reach the
//! hook, and a host thread's own `fork` + `exec` in that window does not pass the marked ones
//! on; the Linux backend's `close_range` in the child has neither race.
//!
//! **Sandboxed hooks** need the Landlock and seccomp steps between `clone` and `execve`, which
//! `posix_spawn` cannot run: on Linux they are started by the Linux backend whatever the feature
//! says; elsewhere there is no sandbox to enter (`sandbox/`: a required one refuses to run).

use crate::runner::Launch;
use crate::runner::cstrings::{Exec, Strings};
use crate::runner::helper::{self, Start};
use crate::runner::leader::{Leader, Spawned};
use crate::runner::os::{self, Pipes};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// Starts `l` as the host's own child or, when `via_helper`, through hookwire's helper.
pub fn spawn(l: &Launch, via_helper: bool) -> io::Result<Spawned> {
    #[cfg(target_os = "linux")]
    if l.confine.is_some() {
        return super::linux::spawn(l, via_helper);
    }
    let _held = os::spawn_lock();
    if via_helper {
        let mut hook = Plan::new(l, None)?;
        return helper::spawn(&mut hook).map(Spawned::from);
    }
    let pipes = Pipes::new()?;
    let plan = Plan::new(l, Some(pipes.child_fds()))?;
    let pid = {
        let _marked = Marked::new(&open_descriptors(pipes.stdin_w.as_raw_fd()));
        plan.start()
    }
    .map_err(io::Error::from_raw_os_error)?;
    let Pipes { stdin_w, stdout_r, stderr_r, child: child_ends } = pipes;
    drop(child_ends);
    Ok(Spawned {
        pid,
        exit_fd: exit_watch(pid),
        stdin: Some(stdin_w),
        stdout: Some(stdout_r),
        stderr: Some(stderr_r),
        leader: Leader::Direct(pid),
    })
}

/// The portable stand-in for a pidfd: a descriptor that becomes readable (end of file) the
/// moment the leader `pid` has exited. A thread of ours blocks in `waitid(WEXITED | WNOWAIT)`,
/// which leaves the leader unreaped (the runner reaps it, so its group id stays reserved for the
/// group kill until then, as with a pidfd), and then drops the write end of a pipe. The runner's
/// poll wakes at once, where it used to find the end by `waitpid(WNOHANG)` on a 1 to 5 ms
/// backoff. `None` (and that backoff) when the pipe or the thread cannot be made.
///
/// Called under the spawn lock, so no hook of ours inherits the pipe between `pipe` and its
/// close-on-exec flag. The thread starts with every signal blocked, so a host's handler never
/// runs on it. An `ECHILD` (the host reaped the hook) ends the wait as an exit does; the
/// runner's `waitpid` then says what happened.
fn exit_watch(pid: libc::pid_t) -> Option<OwnedFd> {
    let (r, w) = os::pipe().ok()?;
    let watch = move || {
        // SAFETY: siginfo_t is plain data; zeroed is a valid value for waitid to fill.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid on our own child's pid with WNOWAIT only inspects its state and writes
        // into `info`, which lives for the call.
        while unsafe {
            libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT)
        } < 0
            && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
        {}
        drop(w);
    };
    let thread = std::thread::Builder::new().name("hookwire-exit".into()).stack_size(64 * 1024);
    os::with_signals_blocked(|| thread.spawn(watch)).ok()?;
    Some(r)
}

/// Everything `posix_spawn` takes, prepared before the call (and before the helper's fork).
pub struct Plan {
    /// `argv[0]` is the program path, which is also what `posix_spawn` runs.
    argv: Strings,
    envp: Strings,
    /// Boxed: an initialised attribute object is never moved (on macOS and the BSDs it is a
    /// pointer to the library's allocation; on glibc a plain struct).
    attr: Box<libc::posix_spawnattr_t>,
    actions: Box<libc::posix_spawn_file_actions_t>,
    /// The host's descriptors the helper closes, listed before its fork (helper path only).
    host_fds: Vec<RawFd>,
}

impl Plan {
    /// `stdio`: the hook's stdin, stdout and stderr (above 2, close-on-exec: `dup2` makes the
    /// inheritable copies); `None` in the helper, where they already are 0–2.
    pub fn new(l: &Launch, stdio: Option<[RawFd; 3]>) -> io::Result<Plan> {
        let Exec { argv, envp, cwd } = Exec::new(l)?;
        // SAFETY: plain data, initialised by the `_init` calls below before any other use.
        let mut attr: Box<libc::posix_spawnattr_t> = Box::new(unsafe { std::mem::zeroed() });
        // SAFETY: as above.
        let mut actions: Box<libc::posix_spawn_file_actions_t> = Box::new(unsafe { std::mem::zeroed() });
        // SAFETY: each call initialises or fills an object we own; they read only the live
        // sets and strings passed. An `_init` failure leaves nothing to destroy.
        unsafe {
            check(libc::posix_spawnattr_init(&mut *attr), "posix_spawnattr_init")?;
            if let Err(e) =
                check(libc::posix_spawn_file_actions_init(&mut *actions), "posix_spawn_file_actions_init")
            {
                libc::posix_spawnattr_destroy(&mut *attr);
                return Err(e);
            }
        }
        let plan = Plan { argv, envp, attr, actions, host_fds: Vec::new() };
        plan.configure(stdio, &cwd)?;
        Ok(plan)
    }

    /// Fills the attributes and file actions (`Drop` destroys them on an error).
    fn configure(&self, stdio: Option<[RawFd; 3]>, cwd: &Strings) -> io::Result<()> {
        let attr = (&*self.attr as *const libc::posix_spawnattr_t).cast_mut();
        let actions = (&*self.actions as *const libc::posix_spawn_file_actions_t).cast_mut();
        let flags = libc::POSIX_SPAWN_SETPGROUP | libc::POSIX_SPAWN_SETSIGDEF | libc::POSIX_SPAWN_SETSIGMASK;
        // SAFETY: sigset_t is plain data. All ones is every signal: glibc's `sigfillset` leaves
        // out its internal 32 and 33, which a host can still ignore and a hook must not inherit
        // ignored; `SIGKILL` and `SIGSTOP` in the set are skipped by every implementation.
        let mut every: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: writes size_of::<sigset_t>() bytes into `every`, which is that large.
        unsafe {
            std::ptr::write_bytes(
                (&mut every as *mut libc::sigset_t).cast::<u8>(),
                0xff,
                size_of::<libc::sigset_t>(),
            )
        };
        // SAFETY: as above.
        let mut none: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: the objects were initialised in `new` and are only read or filled here; the
        // sets and the cwd string are live for the calls (the library copies them).
        unsafe {
            libc::sigemptyset(&mut none);
            check(libc::posix_spawnattr_setflags(attr, flags as libc::c_short), "posix_spawnattr_setflags")?;
            check(libc::posix_spawnattr_setpgroup(attr, 0), "posix_spawnattr_setpgroup")?;
            check(libc::posix_spawnattr_setsigdefault(attr, &every), "posix_spawnattr_setsigdefault")?;
            check(libc::posix_spawnattr_setsigmask(attr, &none), "posix_spawnattr_setsigmask")?;
            if let Some(stdio) = stdio {
                for (fd, target) in stdio.into_iter().zip(0..) {
                    check(
                        libc::posix_spawn_file_actions_adddup2(actions, fd, target),
                        "posix_spawn_file_actions_adddup2",
                    )?;
                }
            }
            check(addchdir(actions, cwd.ptrs[0]), "posix_spawn_file_actions_addchdir_np")?;
        }
        Ok(())
    }
}

impl Drop for Plan {
    fn drop(&mut self) {
        // SAFETY: both were initialised in `new` (a failed `_init` returns before a Plan exists).
        unsafe {
            libc::posix_spawn_file_actions_destroy(&mut *self.actions);
            libc::posix_spawnattr_destroy(&mut *self.attr);
        }
    }
}

/// The library's error number as an error naming the call.
fn check(rc: libc::c_int, call: &str) -> io::Result<()> {
    if rc == 0 {
        return Ok(());
    }
    let e = io::Error::from_raw_os_error(rc);
    Err(io::Error::new(e.kind(), format!("{call}: {e}")))
}

/// The working directory as a file action: glibc 2.29+, musl 1.1.24+, macOS 10.15+, illumos
/// (the `libc` crate binds these), FreeBSD 13.1+ (declared here: the crate does not bind it).
///
/// # Safety
/// `actions` is initialised; `path` is a live NUL-terminated string.
#[cfg(any(target_os = "linux", target_vendor = "apple", target_os = "illumos", target_os = "solaris"))]
unsafe fn addchdir(actions: *mut libc::posix_spawn_file_actions_t, path: *const libc::c_char) -> libc::c_int {
    // SAFETY: as this function's contract.
    unsafe { libc::posix_spawn_file_actions_addchdir_np(actions, path) }
}

#[cfg(target_os = "freebsd")]
unsafe extern "C" {
    fn posix_spawn_file_actions_addchdir_np(
        actions: *mut libc::posix_spawn_file_actions_t,
        path: *const libc::c_char,
    ) -> libc::c_int;
}

/// # Safety
/// As above.
#[cfg(target_os = "freebsd")]
unsafe fn addchdir(actions: *mut libc::posix_spawn_file_actions_t, path: *const libc::c_char) -> libc::c_int {
    // SAFETY: as this function's contract; FreeBSD 13.1+ has the function (declared above).
    unsafe { posix_spawn_file_actions_addchdir_np(actions, path) }
}

/// Other systems (OpenBSD, NetBSD before 10) have no way to set a spawned process's working
/// directory without changing the host's: the hook is refused, `spawn_failed` says why.
#[cfg(not(any(
    target_os = "linux",
    target_vendor = "apple",
    target_os = "illumos",
    target_os = "solaris",
    target_os = "freebsd"
)))]
unsafe fn addchdir(
    _actions: *mut libc::posix_spawn_file_actions_t,
    _path: *const libc::c_char,
) -> libc::c_int {
    libc::ENOSYS
}

impl Start for Plan {
    fn before_fork(&mut self, known: RawFd) -> io::Result<()> {
        self.host_fds = open_descriptors(known);
        Ok(())
    }

    unsafe fn close_host_descriptors(&self, keep: [RawFd; 2]) {
        for &fd in self.host_fds.iter().filter(|fd| **fd > 2 && !keep.contains(fd)) {
            // SAFETY: only in the helper (this method's contract); close takes a number.
            unsafe { libc::close(fd) };
        }
    }

    /// `posix_spawn`. Not on POSIX's list of async-signal-safe functions, yet called in the
    /// helper after `fork`: the helper is single-threaded and its plan was made before the fork,
    /// and the implementations this backend targets allocate nothing and take no lock another
    /// thread could have held at the fork (glibc and musl: `clone(CLONE_VM | CLONE_VFORK)` on an
    /// `mmap`ed stack; macOS: a system call). Tested here on glibc only.
    fn start(&self) -> Result<i32, i32> {
        let mut pid: libc::pid_t = 0;
        // SAFETY: every pointer is to an initialised object or NUL-terminated array owned by the
        // plan, alive for the call; posix_spawn writes only `pid`.
        let rc = unsafe {
            libc::posix_spawn(
                &mut pid,
                self.argv.ptrs[0],
                &*self.actions,
                &*self.attr,
                self.argv.ptrs.as_ptr().cast(),
                self.envp.ptrs.as_ptr().cast(),
            )
        };
        if rc == 0 { Ok(pid) } else { Err(rc) }
    }
}

/// The open descriptors above 2, from `/dev/fd`; if that listing does not show `known` (open
/// above 2), every number up to the descriptor limit (at most 2^20), each tried with `F_GETFD`.
pub fn open_descriptors(known: RawFd) -> Vec<RawFd> {
    let listed: Option<Vec<RawFd>> = std::fs::read_dir("/dev/fd").ok().map(|dir| {
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok()).filter(|fd| *fd > 2).collect()
    });
    match listed {
        Some(fds) if fds.contains(&known) => fds,
        _ => (3..=descriptor_limit()).filter(|fd| flags(*fd).is_some()).collect(),
    }
}

fn descriptor_limit() -> RawFd {
    // SAFETY: getrlimit fills a plain struct we own.
    let mut lim: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } == 0 {
        lim.rlim_cur.min(1 << 20) as RawFd
    } else {
        1 << 16
    }
}

/// A descriptor's `F_GETFD` flags; `None` when it is not open.
fn flags(fd: RawFd) -> Option<libc::c_int> {
    // SAFETY: F_GETFD on any number only reads its flags (EBADF when not open).
    let f = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    (f >= 0).then_some(f)
}

/// The host's inheritable descriptors, marked close-on-exec while alive and unmarked on drop.
struct Marked(Vec<RawFd>);

impl Marked {
    fn new(open: &[RawFd]) -> Marked {
        let mut marked = Vec::new();
        for &fd in open {
            if let Some(f) = flags(fd).filter(|f| f & libc::FD_CLOEXEC == 0) {
                // SAFETY: F_SETFD changes only the flag of a descriptor that is open; it touches
                // no memory.
                if unsafe { libc::fcntl(fd, libc::F_SETFD, f | libc::FD_CLOEXEC) } == 0 {
                    marked.push(fd);
                }
            }
        }
        Marked(marked)
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        for &fd in &self.0 {
            if let Some(f) = flags(fd) {
                // SAFETY: as in `new`.
                unsafe { libc::fcntl(fd, libc::F_SETFD, f & !libc::FD_CLOEXEC) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::FromRawFd;

    #[test]
    fn the_listing_finds_a_descriptor_above_the_usual_range() {
        let (r, _w) = os::pipe().unwrap();
        // SAFETY: F_DUPFD on our own descriptor returns a new one we then own.
        let high = unsafe { libc::fcntl(r.as_raw_fd(), libc::F_DUPFD, 900) };
        assert!(high >= 900, "{}", io::Error::last_os_error());
        // SAFETY: just returned, owned by nothing else.
        let high = unsafe { OwnedFd::from_raw_fd(high) };
        let fds = open_descriptors(r.as_raw_fd());
        assert!(fds.contains(&high.as_raw_fd()) && fds.iter().all(|fd| *fd > 2), "{fds:?}");
    }

    #[test]
    fn inheritable_descriptors_are_marked_for_the_spawn_and_unmarked_after() {
        let (r, w) = os::pipe().unwrap();
        // SAFETY: clears close-on-exec on our own descriptor.
        unsafe { libc::fcntl(r.as_raw_fd(), libc::F_SETFD, 0) };
        {
            let _marked = Marked::new(&open_descriptors(r.as_raw_fd()));
            assert_eq!(flags(r.as_raw_fd()).unwrap() & libc::FD_CLOEXEC, libc::FD_CLOEXEC);
            assert_eq!(flags(w.as_raw_fd()).unwrap() & libc::FD_CLOEXEC, libc::FD_CLOEXEC);
        }
        assert_eq!(flags(r.as_raw_fd()).unwrap() & libc::FD_CLOEXEC, 0, "the host's own flag comes back");
        assert_eq!(
            flags(w.as_raw_fd()).unwrap() & libc::FD_CLOEXEC,
            libc::FD_CLOEXEC,
            "one already set stays"
        );
    }
}
