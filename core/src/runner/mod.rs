//! Running hook processes (protocol.md §5.2–§5.7): every hook of a fire is driven by one
//! poll loop on the calling thread: stdin written non-blocking against the deadline, stdout and
//! stderr read concurrently into bounded captures, exits observed through pidfds or the portable
//! backend's exit watcher (or `waitid` polling where neither exists, e.g. pidfds under
//! valgrind), the 100 ms post-exit drain, and the
//! group kill (`SIGTERM`, 200 ms, `SIGKILL`) at the deadline.
//!
//! One loop per fire rather than threads per hook: threads cost about a fifth of a bare
//! `posix_spawn` each, the loop a tenth. The runner knows nothing of verdicts or events.

mod backend;
mod capture;
#[cfg(target_os = "linux")]
mod child;
mod cstrings;
mod helper;
mod leader;
mod os;
mod slots;
mod spawn;

pub use backend::describe as backend;
pub use capture::{Capture, Text};
pub use os::{SigpipeGuard, signal_name};
pub use slots::Slots;
pub use spawn::resolve_program;

use crate::logs;

use std::borrow::Cow;
use std::ffi::OsString;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Post-exit drain (§5.5).
const DRAIN: Duration = Duration::from_millis(100);
/// `SIGTERM` → `SIGKILL` (§5.5).
const KILL_GRACE: Duration = Duration::from_millis(200);
/// Wait for a killed leader before handing it to a background reaper (§5.5).
const REAP_WAIT: Duration = Duration::from_millis(100);
/// Re-check period for a slot held by another fire, and the ceiling of the `waitid` polling
/// used when pidfds are unavailable.
const RETRY: Duration = Duration::from_millis(5);

/// What the runner needs to start one hook.
#[derive(Debug, Clone)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub env: Vec<(OsString, OsString)>,
    pub cwd: PathBuf,
    /// The sandbox its process enters before `execve` (`sandbox/`); `None`: none.
    pub confine: Option<std::sync::Arc<crate::sandbox::Confinement>>,
}

/// One hook to run.
#[derive(Debug, Clone)]
pub struct Job<'p> {
    pub launch: Launch,
    /// Borrowed from the host's event text where the dialect sends it as given (a 1 MiB event
    /// is not copied per hook); owned by an async hook, which outlives the fire.
    pub stdin: Cow<'p, [u8]>,
    /// Fixed when the fire launches its hooks (after selection, so the time spent evaluating
    /// matchers and `if` rules never eats into it); a wait for a slot counts against it (§5.7).
    pub deadline: Instant,
    pub max_output: usize,
    /// The fire and hook this process belongs to, for log records only.
    pub tag: crate::logs::Tag,
}

/// How a hook ended.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    Exited(i32),
    Signaled(i32),
    /// Reached its deadline; `started` is false when it never got a `max_parallel` slot.
    TimedOut {
        started: bool,
    },
    /// The host cancelled the fire; a started hook's group was killed like at a deadline.
    Cancelled {
        started: bool,
    },
    SpawnFailed(String),
    /// The hook ended but its exit status was taken before hookwire could read it (a host
    /// reaping every child); the text names the cause. Never turned into an exit code.
    Lost(String),
    /// An in-process handler (http, host callback, function) failed; the text says how.
    Failed(String),
}

#[derive(Debug, Clone)]
pub struct RunResult {
    pub end: End,
    pub stdout: Text,
    pub stderr: Text,
    pub duration: Duration,
    /// The response status of an http handler.
    pub http_status: Option<u16>,
}

/// A cancellation request visible to a running loop: the flag plus a wake-up descriptor in the
/// poll set, so cancelling is immediate rather than polled.
pub struct Cancel {
    flag: AtomicBool,
    wakeup: Option<os::Wakeup>,
}

impl Cancel {
    pub fn new() -> Cancel {
        Cancel { flag: AtomicBool::new(false), wakeup: os::Wakeup::new().ok() }
    }
    /// Every hook of the runs watching this ends as at its deadline (group `SIGTERM`, then
    /// `SIGKILL`).
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
        if let Some(w) = &self.wakeup {
            w.wake();
        }
    }
    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }
}

impl Default for Cancel {
    fn default() -> Self {
        Cancel::new()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Waiting,
    Running,
    /// `SIGTERM` sent; the leader is not reaped until `SIGKILL` has gone to the group.
    Terminating {
        kill_at: Instant,
    },
    Killed {
        give_up_at: Instant,
    },
    Draining {
        until: Instant,
    },
    Done,
}

struct Proc<'a> {
    job: &'a Job<'a>,
    phase: Phase,
    child: Option<leader::Leader>,
    pid: i32,
    pidfd: Option<OwnedFd>,
    exit_hint: bool,
    /// `exit_after_eof` has looked for this hook's exit once.
    eof_looked: bool,
    stdin: Option<OwnedFd>,
    written: usize,
    out: Option<OwnedFd>,
    err: Option<OwnedFd>,
    cap_out: Capture,
    cap_err: Capture,
    started: Option<Instant>,
    /// When the hook reached `Done`: its duration ends here, not when the whole fire ends.
    finished: Option<Instant>,
    end: Option<End>,
    timed_out: bool,
    /// The end came from a cancellation, not from the deadline.
    cancelled: bool,
    holds_slot: bool,
}

impl Proc<'_> {
    fn close_pipes(&mut self) {
        self.stdin = None;
        self.out = None;
        self.err = None;
    }
}

/// Runs the jobs in parallel and returns their results in the same order. Blocks until every
/// job has ended (exited and drained, or been killed at its deadline).
pub fn run(jobs: &[Job<'_>], slots: &Slots, cancel: Option<&Cancel>) -> Vec<RunResult> {
    let mut sigpipe = SigpipeGuard::new();
    let fire_start = Instant::now();
    let mut procs: Vec<Proc<'_>> = jobs
        .iter()
        .map(|job| Proc {
            job,
            phase: Phase::Waiting,
            child: None,
            pid: 0,
            pidfd: None,
            exit_hint: false,
            eof_looked: false,
            stdin: None,
            written: 0,
            out: None,
            err: None,
            cap_out: Capture::new(job.max_output),
            cap_err: Capture::new(job.max_output),
            started: None,
            finished: None,
            end: None,
            timed_out: false,
            cancelled: false,
            holds_slot: false,
        })
        .collect();
    let mut buf = Reader::new();
    let mut backoff = Duration::from_millis(1);
    loop {
        let now = Instant::now();
        let cancelled = cancel.is_some_and(Cancel::is_cancelled);
        let mut waiting_for_slot = false;
        let mut blind = false; // some live leader has no pidfd: poll with a timeout
        for p in &mut procs {
            step(p, now, cancelled, slots, &mut waiting_for_slot);
            if matches!(p.phase, Phase::Running | Phase::Killed { .. }) && p.pidfd.is_none() {
                blind = true;
            }
        }
        if procs.iter().all(|p| p.phase == Phase::Done) {
            break;
        }

        let mut fds: Vec<libc::pollfd> = Vec::with_capacity(procs.len() * 4 + 1);
        let mut next: Option<Instant> = None;
        let mut soonest = |t: Instant| next = Some(next.map_or(t, |n| n.min(t)));
        for p in &procs {
            match p.phase {
                Phase::Waiting => soonest(p.job.deadline),
                Phase::Running => soonest(p.job.deadline),
                Phase::Terminating { kill_at } => soonest(kill_at),
                Phase::Killed { give_up_at } => soonest(give_up_at),
                Phase::Draining { until } => soonest(until),
                Phase::Done => {}
            }
            if p.phase == Phase::Running
                && let Some(fd) = &p.stdin
            {
                fds.push(pollfd(fd.as_raw_fd(), libc::POLLOUT));
            }
            if !matches!(p.phase, Phase::Done | Phase::Waiting) {
                for fd in [&p.out, &p.err].into_iter().flatten() {
                    fds.push(pollfd(fd.as_raw_fd(), libc::POLLIN));
                }
            }
            if matches!(p.phase, Phase::Running | Phase::Killed { .. })
                && !p.exit_hint
                && let Some(fd) = &p.pidfd
            {
                fds.push(pollfd(fd.as_raw_fd(), libc::POLLIN));
            }
        }
        if let Some(w) = cancel.and_then(|c| c.wakeup.as_ref())
            && !cancelled
        {
            fds.push(pollfd(w.raw(), libc::POLLIN));
        }
        let mut timeout = next.map(|t| t.saturating_duration_since(now));
        if waiting_for_slot {
            timeout = Some(timeout.map_or(RETRY, |t| t.min(RETRY)));
        }
        if blind {
            timeout = Some(timeout.map_or(backoff, |t| t.min(backoff)));
            backoff = (backoff * 2).min(RETRY);
        } else {
            backoff = Duration::from_millis(1);
        }
        let timeout_ms = match timeout {
            // Round up so a deadline is never polled for 0 ms in a busy loop.
            Some(t) => i32::try_from(t.as_micros().div_ceil(1000)).unwrap_or(i32::MAX),
            None => -1,
        };
        match os::poll(&mut fds, timeout_ms) {
            // Output or EOF from a hook without a pidfd often comes just before its exit: look
            // again soon rather than after a longer backoff.
            Ok(n) if n > 0 => backoff = Duration::from_millis(1),
            Ok(_) => {}
            // EINVAL/ENOMEM: nothing sensible to wait on; fall back to a short sleep.
            Err(_) => std::thread::sleep(RETRY),
        }
        for f in fds.iter().filter(|f| f.revents != 0) {
            for p in &mut procs {
                service(p, f.fd, f.revents, &mut buf, &mut sigpipe.epipe);
            }
        }
    }

    procs
        .into_iter()
        .map(|p| {
            let finished = p.finished.unwrap_or_else(Instant::now);
            let duration = finished.saturating_duration_since(p.started.unwrap_or(fire_start));
            let end = p.end.unwrap_or(End::TimedOut { started: p.started.is_some() });
            RunResult {
                end,
                stdout: p.cap_out.finish(),
                stderr: p.cap_err.finish(),
                duration,
                http_status: None,
            }
        })
        .collect()
}

/// What the loop reads output with. Kept output is read in place (`Capture::read_from`), its
/// large buffers from the process's [`crate::buffer_pool`]; output past the cap is read into a
/// scratch buffer and dropped: 8 KiB on the stack, and 64 KiB (a whole pipe) on the heap once a
/// read has filled it. A 64 KiB heap buffer on every fire cost a `calloc`, its zeroing and, on free,
/// a consolidation of glibc's fast bins (issue 20).
pub(crate) struct Reader {
    small: [u8; 8 * 1024],
    big: Vec<u8>,
}

impl Reader {
    pub(crate) fn new() -> Reader {
        Reader { small: [0; 8 * 1024], big: Vec::new() }
    }

    /// One `read` from `fd` into the scratch buffer: the bytes read (empty at EOF).
    pub(crate) fn read(&mut self, fd: &OwnedFd) -> std::io::Result<&[u8]> {
        if self.big.is_empty() {
            let n = os::read(fd, &mut self.small)?;
            if n == self.small.len() {
                self.big = vec![0u8; 64 * 1024];
            }
            return Ok(&self.small[..n]);
        }
        let n = os::read(fd, &mut self.big)?;
        Ok(&self.big[..n])
    }
}

fn pollfd(fd: i32, events: i16) -> libc::pollfd {
    libc::pollfd { fd, events, revents: 0 }
}

/// Advances one process's state machine for the current time.
fn step(p: &mut Proc<'_>, now: Instant, cancelled: bool, slots: &Slots, waiting_for_slot: &mut bool) {
    match p.phase {
        Phase::Waiting => {
            // A slot is tried before the deadline is looked at, so `not started: max_parallel
            // slots busy` is said only of a hook that really waited for one.
            if cancelled {
                p.end = Some(End::Cancelled { started: false });
                p.timed_out = true;
                p.cancelled = true;
                p.phase = Phase::Done;
                logs::killed(&p.job.tag, p.pid, false, true);
            } else if slots.try_acquire() {
                p.holds_slot = true;
                start(p, slots);
            } else if now >= p.job.deadline {
                p.end = Some(End::TimedOut { started: false });
                p.timed_out = true;
                p.phase = Phase::Done;
                logs::killed(&p.job.tag, p.pid, false, false);
            } else {
                *waiting_for_slot = true;
            }
        }
        Phase::Running => {
            if (p.exit_hint || p.pidfd.is_none()) && (reap(p) || exit_after_eof(p)) {
                p.stdin = None;
                p.phase = Phase::Draining { until: now + DRAIN };
                release(p, slots);
            } else if now >= p.job.deadline || cancelled {
                os::kill_group(p.pid, libc::SIGTERM);
                p.stdin = None;
                p.timed_out = true;
                p.cancelled = cancelled && now < p.job.deadline;
                p.phase = Phase::Terminating { kill_at: now + KILL_GRACE };
                logs::killed(&p.job.tag, p.pid, true, p.cancelled);
            }
        }
        Phase::Terminating { kill_at } => {
            if now >= kill_at {
                // The leader is unreaped (at most a zombie), so the group id is still ours.
                os::kill_group(p.pid, libc::SIGKILL);
                p.phase = Phase::Killed { give_up_at: now + REAP_WAIT };
            }
        }
        Phase::Killed { give_up_at } => {
            if (p.exit_hint || p.pidfd.is_none() || os::has_exited(p.pid)) && reap(p) {
                p.phase = Phase::Draining { until: now + DRAIN };
                release(p, slots);
            } else if now >= give_up_at {
                // Uninterruptible sleep or similar: a background thread reaps it later.
                if let Some(child) = p.child.take() {
                    child.reap_in_background();
                }
                p.phase = Phase::Draining { until: now + DRAIN };
                release(p, slots);
            }
        }
        Phase::Draining { until } => {
            if (p.out.is_none() && p.err.is_none()) || now >= until {
                p.close_pipes();
                p.phase = Phase::Done;
            }
        }
        Phase::Done => {}
    }
    // Pipes already at EOF when the leader is reaped: nothing to drain, so no wait.
    if matches!(p.phase, Phase::Draining { .. }) && p.out.is_none() && p.err.is_none() {
        p.close_pipes();
        p.phase = Phase::Done;
    }
    if p.phase == Phase::Done && p.finished.is_none() {
        p.finished = Some(Instant::now());
    }
    if p.phase == Phase::Done && p.timed_out && !matches!(p.end, Some(End::SpawnFailed(_))) {
        let started = p.started.is_some();
        p.end = Some(if p.cancelled { End::Cancelled { started } } else { End::TimedOut { started } });
    }
}

fn start(p: &mut Proc<'_>, slots: &Slots) {
    p.started = Some(Instant::now());
    match spawn::spawn(&p.job.launch) {
        Err(e) => {
            let why = e.to_string();
            logs::spawn_failed(p.job.tag.fire_id, &p.job.tag.hook_id, &why);
            p.end = Some(End::SpawnFailed(why));
            p.phase = Phase::Done;
            release(p, slots);
        }
        Ok(s) => {
            p.pid = s.pid;
            logs::spawned(&p.job.tag, s.pid, &p.job.launch.program);
            p.pidfd = s.exit_fd;
            for fd in [&s.stdin, &s.stdout, &s.stderr].into_iter().flatten() {
                let _ = os::set_nonblocking(fd);
            }
            // A payload larger than a pipe (64 KiB) would cost a wake-up of each side per
            // 64 KiB; hooks that read a large event often echo or transform it, so stdout gets
            // the same room. Room in a pipe costs no memory until it is used.
            if p.job.stdin.len() > 64 * 1024 {
                for fd in [&s.stdin, &s.stdout].into_iter().flatten() {
                    os::grow_pipe(fd, p.job.stdin.len());
                }
            }
            p.stdin = if p.job.stdin.is_empty() { None } else { s.stdin };
            p.out = s.stdout;
            p.err = s.stderr;
            p.child = Some(s.leader);
            p.phase = Phase::Running;
        }
    }
}

fn release(p: &mut Proc<'_>, slots: &Slots) {
    if p.holds_slot {
        p.holds_slot = false;
        slots.release();
    }
}

/// Without a descriptor that says the end (the portable backend when its exit watcher's thread
/// could not be made, `backend/posix.rs`), a hook whose stdout and stderr both reached EOF is
/// usually exiting: it is looked for again for up to 1 ms, once per hook, instead of after the
/// loop's next 1 to 5 ms poll (a hook that closes both and runs on costs that 1 ms once).
fn exit_after_eof(p: &mut Proc<'_>) -> bool {
    if p.pidfd.is_some() || p.out.is_some() || p.err.is_some() || p.eof_looked {
        return false;
    }
    p.eof_looked = true;
    for _ in 0..20 {
        std::thread::sleep(Duration::from_micros(50));
        if reap(p) {
            return true;
        }
    }
    false
}

/// Reaps the leader if it has exited; records how it ended unless it timed out.
fn reap(p: &mut Proc<'_>) -> bool {
    let Some(child) = p.child.as_mut() else { return true };
    let Some(reaped) = child.try_wait() else {
        p.exit_hint = false;
        return false;
    };
    let end = match reaped {
        leader::Reaped::Exited(code) => End::Exited(code),
        leader::Reaped::Signaled(sig) => End::Signaled(sig),
        leader::Reaped::Lost(why) => End::Lost(why),
    };
    let (code, signal) = match end {
        End::Exited(c) => (Some(c), None),
        End::Signaled(s) => (None, Some(s)),
        _ => (None, None),
    };
    logs::exited(&p.job.tag, p.pid, code, signal, p.started);
    if !p.timed_out {
        p.end = Some(end);
    }
    p.child = None;
    true
}

/// Handles readiness of descriptor `fd` if it belongs to `p`.
fn service(p: &mut Proc<'_>, fd: i32, revents: i16, buf: &mut Reader, epipe: &mut bool) {
    if p.pidfd.as_ref().is_some_and(|f| f.as_raw_fd() == fd) {
        p.exit_hint = true;
        return;
    }
    if p.stdin.as_ref().is_some_and(|f| f.as_raw_fd() == fd) {
        write_stdin(p, revents, epipe);
        return;
    }
    for which in 0..2 {
        let slot = if which == 0 { &mut p.out } else { &mut p.err };
        if slot.as_ref().is_some_and(|f| f.as_raw_fd() == fd) {
            let cap = if which == 0 { &mut p.cap_out } else { &mut p.cap_err };
            if drain(slot, cap, buf) {
                *slot = None;
            }
            return;
        }
    }
}

/// Reads what is available; `true` at EOF or on an error (the stream is finished).
fn drain(slot: &Option<OwnedFd>, cap: &mut Capture, buf: &mut Reader) -> bool {
    let Some(fd) = slot else { return true };
    // Bounded per wake-up so one flooding hook cannot starve the others in the loop.
    for _ in 0..16 {
        match cap.read_from(fd, buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return true,
        }
    }
    false
}

fn write_stdin(p: &mut Proc<'_>, revents: i16, epipe: &mut bool) {
    let Some(fd) = &p.stdin else { return };
    if revents & (libc::POLLERR | libc::POLLHUP) != 0 && revents & libc::POLLOUT == 0 {
        p.stdin = None; // the hook closed stdin: EPIPE ends the write, not the hook
        return;
    }
    let data = &p.job.stdin[..];
    while p.written < data.len() {
        match os::write(fd, &data[p.written..]) {
            Ok(n) => p.written += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                // EPIPE and friends: the hook will not read more.
                *epipe |= e.raw_os_error() == Some(libc::EPIPE);
                break;
            }
        }
    }
    p.stdin = None; // all written (or refused): close so the hook sees EOF
}

#[cfg(test)]
mod tests;
