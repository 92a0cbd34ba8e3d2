//! The few libc calls the runner needs that std does not offer: non-blocking descriptors,
//! `poll`, pidfds (with their absence handled), process-group signals, and keeping `SIGPIPE`
//! away from the host.
//!
//! What is here serves both spawn backends (`backend/`); the Linux-only calls (pidfds,
//! `close_range`, `F_SETPIPE_SZ`, eventfd) are marked so.
//!
//! Each `unsafe` call here is small and documented.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

pub fn set_nonblocking(fd: &impl AsRawFd) -> io::Result<()> {
    // A pipe's only settable status flag in use is O_NONBLOCK (F_SETFL ignores the access
    // mode), so one F_SETFL does what F_GETFL + F_SETFL would, with one syscall less.
    // SAFETY: fcntl on a descriptor we own; F_SETFL does not touch memory.
    if unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Asks for a pipe of at least `size` bytes (at most 1 MiB, the default
/// `/proc/sys/fs/pipe-max-size`). A refusal (a lower limit, the per-user pipe quota) leaves the
/// pipe as it was, which is only slower.
#[cfg(target_os = "linux")]
pub fn grow_pipe(fd: &impl AsRawFd, size: usize) {
    let size = size.min(1 << 20) as libc::c_int;
    // SAFETY: fcntl on a descriptor we own; F_SETPIPE_SZ does not touch memory.
    unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETPIPE_SZ, size) };
}

/// Other systems size pipes themselves (`F_SETPIPE_SZ` is Linux's; macOS grows a pipe to
/// 64 KiB under load): a large payload costs more wake-ups, never a stall, since both ends are
/// poll-driven.
#[cfg(not(target_os = "linux"))]
pub fn grow_pipe(_fd: &impl AsRawFd, _size: usize) {}

/// Held from a spawn's first pipe to the unmarking of the host's descriptors (`backend/posix.rs`).
#[cfg(portable_runner)]
static SPAWN: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(portable_runner)]
pub fn spawn_lock() -> std::sync::MutexGuard<'static, ()> {
    SPAWN.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A pipe made under the spawn lock, for descriptors that outlive a spawn (the cancel
/// wake-up): no hook of ours inherits it between `pipe` and `fcntl`.
#[cfg(portable_runner)]
pub fn pipe_locked() -> io::Result<(OwnedFd, OwnedFd)> {
    let _held = spawn_lock();
    pipe()
}

/// A close-on-exec pipe whose descriptors are above 2, so the child's `dup2` onto 0–2 never
/// overwrites one of them (a host may have closed its own stdio).
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2/pipe write two descriptors into `fds`, valid for the call.
    #[cfg(not(portable_runner))]
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    // macOS has no `pipe2`: close-on-exec is set right after (`F_DUPFD_CLOEXEC` below for the
    // low ones). The portable backend takes [`spawn_lock`] around this, so none
    // of its own hooks can inherit the pipe in between.
    // SAFETY: as above.
    #[cfg(portable_runner)]
    let rc = unsafe { libc::pipe(fds.as_mut_ptr()) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just returned by the kernel and are owned by nothing else.
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    #[cfg(portable_runner)]
    for fd in [&r, &w] {
        set_cloexec(fd)?;
    }
    Ok((above_stdio(r)?, above_stdio(w)?))
}

/// The hook's three pipes: the caller's ends and the child's.
pub struct Pipes {
    pub stdin_w: OwnedFd,
    pub stdout_r: OwnedFd,
    pub stderr_r: OwnedFd,
    pub child: [OwnedFd; 3],
}

impl Pipes {
    pub fn new() -> io::Result<Pipes> {
        let (stdin_r, stdin_w) = pipe()?;
        let (stdout_r, stdout_w) = pipe()?;
        let (stderr_r, stderr_w) = pipe()?;
        Ok(Pipes { stdin_w, stdout_r, stderr_r, child: [stdin_r, stdout_w, stderr_w] })
    }

    pub fn child_fds(&self) -> [RawFd; 3] {
        [self.child[0].as_raw_fd(), self.child[1].as_raw_fd(), self.child[2].as_raw_fd()]
    }
}

#[cfg(portable_runner)]
pub fn set_cloexec(fd: &impl AsRawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own; F_SETFD does not touch memory.
    if unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC on a descriptor we own returns a new one (>= 3) or -1.
    let new = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `new` was just returned by the kernel and is owned by nothing else.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

#[cfg(target_os = "linux")]
/// `pidfd_open(2)`: a descriptor that becomes readable when the process exits. `None` where the
/// kernel, a seccomp filter or valgrind does not offer it; the caller then polls `waitid`.
pub fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: a plain syscall with integer arguments; on success it returns a new descriptor
    // that nobody else owns.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    let fd = RawFd::try_from(fd).ok()?;
    // SAFETY: `fd` was just returned by the kernel and is owned by nothing else.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    // pidfds are not close-on-exec by default on old kernels: set it so no hook inherits one.
    // SAFETY: fcntl on a descriptor we own.
    unsafe { libc::fcntl(owned.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    Some(owned)
}

/// Closes every descriptor from `first` to `last`, both included: `close_range(2)` where the
/// kernel has it (5.9+), else [`close_each`]. Allocates nothing and makes only async-signal-safe
/// calls: both spawn paths call it between `fork` or `clone` and `execve` or `_exit`.
///
/// # Safety
/// Only in a child before `execve` or `_exit`: it closes descriptors other code may think it
/// owns.
#[cfg(target_os = "linux")]
pub unsafe fn close_range(first: RawFd, last: RawFd) {
    // SAFETY: a plain syscall with integer arguments.
    let rc = unsafe { libc::syscall(libc::SYS_close_range, first as libc::c_uint, last as libc::c_uint, 0) };
    if rc != 0 {
        // SAFETY: as for this function.
        unsafe { close_each(first, last) };
    }
}

/// `close_range`'s fallback: one `close` per number up to the soft descriptor limit (at most
/// 2^20), which is all a process can have opened unless the limit was lowered since.
///
/// # Safety
/// As for [`close_range`].
#[cfg(target_os = "linux")]
pub(crate) unsafe fn close_each(first: RawFd, last: RawFd) {
    // SAFETY: getrlimit fills a plain struct we own; close takes a number.
    unsafe {
        let mut lim: libc::rlimit = std::mem::zeroed();
        let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur.min(1 << 20) as RawFd
        } else {
            1 << 16
        };
        for fd in first..=last.min(max) {
            libc::close(fd);
        }
    }
}

/// Reaps the child `pid` if it has ended: its raw wait status, `None` while it runs, or the
/// error (`ECHILD` when someone else took the status).
pub fn try_reap(pid: i32) -> io::Result<Option<i32>> {
    let mut status = 0;
    loop {
        // SAFETY: waitpid on our own child's pid writes only into `status`, which lives for
        // the call.
        let rc = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if rc == pid {
            return Ok(Some(status));
        }
        if rc == 0 {
            return Ok(None);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Waits for the child `pid` and reaps it, whatever its end (a background reaper, a child
/// whose exec failed, the helper). Returns at once with `ECHILD` when someone else reaped it.
/// Async-signal-safe: the helper calls it between `fork` and `_exit`.
pub fn reap_blocking(pid: i32) {
    let mut status = 0;
    // SAFETY: as in `try_reap`, blocking.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

/// Whether the child `pid` has exited, without reaping it (so its process group id stays
/// reserved while we may still signal the group).
pub fn has_exited(pid: i32) -> bool {
    // SAFETY: siginfo_t is plain data; zeroed is a valid initial value for waitid to fill.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid on our own child's pid with WNOHANG|WNOWAIT only inspects its state and
    // writes into `info`, which lives for the call.
    let rc = unsafe {
        libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT)
    };
    // SAFETY: si_pid is valid to read after a successful waitid (0 when no child changed state).
    rc == 0 && unsafe { info.si_pid() } != 0
}

/// Runs `f` with every signal blocked on this thread, then restores the caller's mask: around a
/// `clone` (the Linux backend) and around starting a thread of ours that must never run a host's
/// handler (it inherits the full mask).
pub fn with_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: sigset_t is plain data; sigfillset initialises it; both pointers are valid.
    let mut all: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
    }
    let out = f();
    // SAFETY: restores the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut()) };
    out
}

/// Signals a whole process group. Callers do this only while the group leader is unreaped, so
/// the group id cannot have been reused.
pub fn kill_group(pgid: i32, sig: i32) {
    if pgid > 0 {
        // SAFETY: kill with a negative pid signals the group; no memory is involved.
        unsafe { libc::kill(-pgid, sig) };
    }
}

pub fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> io::Result<usize> {
    // SAFETY: `fds` is a valid, exclusively borrowed slice of pollfd for the whole call.
    let rc = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
    if rc < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(0);
        }
        return Err(e);
    }
    Ok(rc as usize)
}

pub fn read(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is valid for writes of `buf.len()` bytes; `fd` is open.
    let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 { Err(io::Error::last_os_error()) } else { Ok(n as usize) }
}

/// One `read` of at most `max` bytes appended to `buf`, straight into its spare capacity (at
/// most what it has): no zero-filling and no copy from a bounce buffer.
pub fn read_append(fd: &OwnedFd, buf: &mut Vec<u8>, max: usize) -> io::Result<usize> {
    let spare = buf.spare_capacity_mut();
    let want = spare.len().min(max);
    // SAFETY: `spare` is valid for writes of `want <= spare.len()` bytes; `fd` is open. read
    // writes plain bytes, so no value is left half-initialised.
    let n = unsafe { libc::read(fd.as_raw_fd(), spare.as_mut_ptr().cast(), want) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let n = (n as usize).min(want);
    // SAFETY: read initialised the first `n <= want` bytes of the spare capacity.
    unsafe { buf.set_len(buf.len() + n) };
    Ok(n)
}

pub fn write(fd: &OwnedFd, buf: &[u8]) -> io::Result<usize> {
    // SAFETY: `buf` is valid for reads of `buf.len()` bytes; `fd` is open. SIGPIPE is blocked
    // on this thread by `SigpipeGuard`, so a closed reader gives EPIPE, never a signal.
    let n = unsafe { libc::write(fd.as_raw_fd(), buf.as_ptr().cast(), buf.len()) };
    if n < 0 { Err(io::Error::last_os_error()) } else { Ok(n as usize) }
}

/// Blocks `SIGPIPE` on the current thread while alive, and on drop discards a `SIGPIPE` that
/// our own writes left pending before restoring the caller's mask.
///
/// A C host keeps SIGPIPE's default action (terminate), and in a cgo program a SIGPIPE on a
/// non-Go thread kills the program, so a hook that closes stdin early must never raise one in
/// the host (CONTRIBUTING.md rule 7). Hooks start with an empty mask: `child.rs` sets it before `execve`.
pub struct SigpipeGuard {
    old: libc::sigset_t,
    was_pending: bool,
    /// Set when a write of ours failed with EPIPE: only then can a SIGPIPE of ours be pending.
    pub epipe: bool,
}

fn sigpipe_set() -> libc::sigset_t {
    // SAFETY: sigset_t is plain data; sigemptyset/sigaddset initialise it in place.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        set
    }
}

pub(super) fn sigpipe_pending() -> bool {
    // SAFETY: sigpending fills a sigset_t we own.
    unsafe {
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending) == 0 && libc::sigismember(&pending, libc::SIGPIPE) == 1
    }
}

impl SigpipeGuard {
    pub fn new() -> SigpipeGuard {
        let set = sigpipe_set();
        // SAFETY: sigset_t is plain data; pthread_sigmask writes the old mask into `old`.
        let mut old: libc::sigset_t = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are valid for the call.
        unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old) };
        // A SIGPIPE can be pending before we start only if the host already blocked it.
        // SAFETY: `old` was filled by pthread_sigmask above.
        let already_blocked = unsafe { libc::sigismember(&old, libc::SIGPIPE) } == 1;
        SigpipeGuard { old, was_pending: already_blocked && sigpipe_pending(), epipe: false }
    }
}

impl Drop for SigpipeGuard {
    fn drop(&mut self) {
        if self.epipe && !self.was_pending && sigpipe_pending() {
            let set = sigpipe_set();
            consume_sigpipe(&set);
        }
        // SAFETY: restores the mask saved in `new`; the pointer is valid for the call.
        unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &self.old, std::ptr::null_mut()) };
    }
}

/// Takes the pending `SIGPIPE` (blocked on this thread) without running any handler.
#[cfg(not(target_vendor = "apple"))]
fn consume_sigpipe(set: &libc::sigset_t) {
    let zero = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: SIGPIPE is blocked on this thread, so sigtimedwait consumes the pending one
    // (ours) without running any handler; all pointers are valid for the call.
    unsafe { libc::sigtimedwait(set, std::ptr::null_mut(), &zero) };
}

/// macOS has no `sigtimedwait`: `sigwait`, which returns at once since the caller saw the
/// signal pending on this thread (a write's `SIGPIPE` is sent to the writing thread).
#[cfg(target_vendor = "apple")]
fn consume_sigpipe(set: &libc::sigset_t) {
    let mut sig = 0;
    // SAFETY: both pointers are valid for the call; SIGPIPE is pending and blocked.
    unsafe { libc::sigwait(set, &mut sig) };
}

/// The name of a signal for outcome texts (`terminated by signal 9 (SIGKILL)`).
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => "signal",
    }
}

/// A wake-up descriptor for cancelling a run from another thread: an eventfd on Linux, the
/// read end of a pipe on the portable backend (macOS and the BSDs have no eventfd).
pub struct Wakeup {
    fd: OwnedFd,
    /// The pipe's write end; the eventfd is written itself.
    #[cfg(portable_runner)]
    write: OwnedFd,
}

impl Wakeup {
    #[cfg(not(portable_runner))]
    pub fn new() -> io::Result<Wakeup> {
        // SAFETY: eventfd with flags only; returns a new descriptor or -1.
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just returned by the kernel and is owned by nothing else.
        Ok(Wakeup { fd: unsafe { OwnedFd::from_raw_fd(fd) } })
    }
    #[cfg(portable_runner)]
    pub fn new() -> io::Result<Wakeup> {
        let (fd, write) = pipe_locked()?;
        // Non-blocking both: a wake after many wakes must never block the canceller.
        set_nonblocking(&fd)?;
        set_nonblocking(&write)?;
        Ok(Wakeup { fd, write })
    }
    pub fn wake(&self) {
        #[cfg(not(portable_runner))]
        let (fd, n) = (self.fd.as_raw_fd(), 8);
        #[cfg(portable_runner)]
        let (fd, n) = (self.write.as_raw_fd(), 1);
        let one: u64 = 1;
        // SAFETY: writes at most 8 bytes from a live u64 to our eventfd or pipe; a full pipe
        // (EAGAIN) is already readable, which is all a wake-up needs.
        unsafe { libc::write(fd, (&one as *const u64).cast(), n) };
    }
    pub fn raw(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

/// What the host does with `SIGCHLD`, which decides whether the kernel or the host may reap a
/// hook before hookwire reads its exit status (issue 14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildSignal {
    /// `SIG_DFL` without `SA_NOCLDWAIT`: children stay zombies until waited for.
    Default,
    /// `SIG_IGN`: the kernel reaps every child at exit (and hooks would inherit it).
    Ignored,
    /// `SA_NOCLDWAIT`: the kernel reaps every child at exit.
    NoCldWait,
    /// A handler, which may call `waitpid(-1)` and take a hook's status.
    Handled,
}

impl ChildSignal {
    /// Reads the process-wide disposition (one `sigaction` call, no change).
    pub fn probe() -> ChildSignal {
        // SAFETY: sigaction is plain data; zeroed is a valid value for the kernel to overwrite.
        let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: a null new action only reads the current one into `old`, valid for the call.
        if unsafe { libc::sigaction(libc::SIGCHLD, std::ptr::null(), &mut old) } != 0 {
            return ChildSignal::Default;
        }
        if old.sa_sigaction == libc::SIG_IGN {
            ChildSignal::Ignored
        } else if old.sa_sigaction != libc::SIG_DFL {
            ChildSignal::Handled
        } else if old.sa_flags & libc::SA_NOCLDWAIT != 0 {
            ChildSignal::NoCldWait
        } else {
            ChildSignal::Default
        }
    }

    /// The outcome's error when a hook's exit status was taken before hookwire could read it.
    pub fn lost(self) -> String {
        let why = match self {
            ChildSignal::Ignored => "the host ignores SIGCHLD (SIG_IGN), so the kernel reaped the hook",
            ChildSignal::NoCldWait => "the host set SA_NOCLDWAIT on SIGCHLD, so the kernel reaped the hook",
            ChildSignal::Handled => "the host's SIGCHLD handler reaped the hook (waitpid(-1))",
            ChildSignal::Default => {
                "something else in the host reaped the hook (waitpid(-1) on another thread?) \
                 while SIGCHLD was at its default action"
            }
        };
        format!("exit status lost: {why}")
    }
}
