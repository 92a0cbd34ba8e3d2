//! Async hooks from a process that fires once and exits (issue 38). An async hook must run to
//! completion, under its own timeout, although `hookwire fire` is about to exit, and its
//! caller (a shell agent waiting for the process to exit and for its stdout to close) must get
//! the result at once. So when the fire will start an async hook, the command forks before it
//! fires: the parent only waits for the child's exit code and exits with it; the child fires,
//! prints the result, moves to a session of its own, closes its stdio, hands the exit code to
//! the parent, and then waits for the async hooks (`Dispatcher::wait_async`) before it exits. The
//! hooks' output has no later fire to reach: it is logged (`-v`, `HOOKWIRE_LOG`) and dropped,
//! and the result says so (`Dispatcher::set_one_shot`).

use hookwire_core::Dispatcher;
use serde_json::Value;
use std::io::Write as _;

/// Whether the fire of `event` starts an async hook (then the command detaches, above).
pub fn starts_async(d: &Dispatcher, event: &Value) -> bool {
    d.plan(event).is_ok_and(|plan| plan.iter().any(|e| e.runs && e.hook.is_async))
}

/// The child side of a detached fire: where the exit code goes.
pub struct Detached {
    /// The write end of the pipe the parent reads the exit code from; -1 when not detached.
    code_fd: i32,
}

/// Forks when the fire of `event` will start an async hook. Returns in the child (or, without
/// an async hook, in the one process); the parent never returns: it exits with the code the
/// child hands over, or with the child's own exit status when the child ends without handing
/// one (an error before the result was printed, already reported on the shared stderr).
/// Must be called while the process has one thread (before the fire and its spinner).
pub fn detach_if_async(d: &Dispatcher, event: &Value) -> Detached {
    d.set_one_shot(true);
    if !starts_async(d, event) {
        return Detached { code_fd: -1 };
    }
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let mut fds = [-1; 2];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        // No pipe, no handover: fire in this process, which then waits for its async hooks.
        return Detached { code_fd: -1 };
    }
    // SAFETY: the process has one thread here (the caller's contract), so the child may go on
    // running ordinary Rust code.
    let pid = unsafe { libc::fork() };
    match pid {
        -1 => {
            close(fds[0]);
            close(fds[1]);
            Detached { code_fd: -1 }
        }
        0 => {
            close(fds[0]);
            Detached { code_fd: fds[1] }
        }
        child => {
            close(fds[1]);
            std::process::exit(parent_wait(fds[0], child))
        }
    }
}

/// The parent: the code byte from the child, else the child's exit status.
fn parent_wait(read_fd: i32, child: libc::pid_t) -> i32 {
    let mut byte = [0u8; 1];
    loop {
        // SAFETY: reads at most one byte into a one-byte buffer.
        let n = unsafe { libc::read(read_fd, byte.as_mut_ptr().cast(), 1) };
        if n == 1 {
            return i32::from(byte[0]);
        }
        if n == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    let mut status = 0;
    // SAFETY: waits for our own child by pid.
    while unsafe { libc::waitpid(child, &mut status, 0) } == -1 {
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            return 1;
        }
    }
    if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 1 }
}

fn close(fd: i32) {
    // SAFETY: closes a descriptor this module opened and owns.
    unsafe { libc::close(fd) };
}

impl Detached {
    /// After the result is printed: the caller gets its answer and `code` at once, then this
    /// process waits for the fire's async hooks (each bounded by its own timeout). Stderr stays
    /// open while logging is on, so the async hooks' log lines still reach it.
    pub fn finish(self, code: u8, d: &Dispatcher) {
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        if self.code_fd >= 0 {
            // Until now the child was in its caller's process group, so Ctrl-C or a group kill
            // stopped the fire as before; from here it outlives them. Not a group leader (a
            // forked child), so setsid cannot fail.
            // SAFETY: plain system call.
            unsafe { libc::setsid() };
            let keep_stderr = crate::logs::active();
            null_stdio(keep_stderr);
            // SAFETY: writes one byte from a one-byte buffer to our own pipe, then closes it.
            unsafe {
                libc::write(self.code_fd, [code].as_ptr().cast(), 1);
                libc::close(self.code_fd);
            }
        }
        d.wait_async(None);
    }
}

/// Points stdin, stdout (and stderr unless kept) at `/dev/null`, so that whoever reads this
/// process's output sees it end.
fn null_stdio(keep_stderr: bool) {
    // SAFETY: opens /dev/null and duplicates it onto the standard descriptors.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null < 0 {
            return;
        }
        for fd in [0, 1, 2] {
            if fd != 2 || !keep_stderr {
                libc::dup2(null, fd);
            }
        }
        libc::close(null);
    }
}
