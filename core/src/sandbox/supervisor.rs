//! The host side of a network allow-list: one thread per hook that answers the hook's seccomp
//! user notifications (`connect`, and `sendto`/`sendmsg`/`sendmmsg` that may carry an address).
//!
//! How the listener gets here: the hook's process installs the notifying filter between
//! `clone` and `execve` (`Confinement::apply`), writes its pid and the listener's descriptor
//! number into a pipe, and waits for one byte on a second pipe. This thread, started before the
//! `clone` (the spawning thread is suspended by `CLONE_VFORK` until the `execve`), takes a copy
//! of the listener with `pidfd_getfd` and answers; the hook then closes its own copy, so the
//! hook never holds a listener it could answer itself. No `SCM_RIGHTS`: the hook's `sendmsg` is
//! trapped by that very filter, so it could not hand the listener over before anyone listens.
//!
//! Each call is checked and then performed here on the hook's own socket (`netcall.rs`); the
//! hook gets the result. Nothing is ever let through with `SECCOMP_USER_NOTIF_FLAG_CONTINUE`,
//! which would make the kernel read the address again after the check.
//!
//! Bounds: the thread ends when every process under the filter is gone (the listener hangs up)
//! or at the hook's deadline, whichever is first; closing the listener then fails every pending
//! and later call with `ENOSYS`. Calls are answered one at a time, each with bounded memory
//! (`netcall::MAX_DATA`) and never waiting past the deadline, so a hook that floods it only
//! queues its own threads. The ioctls are written with `libc` (five calls and two structs,
//! which `libc` defines): `libseccomp`'s crate needs the C library, which is not installed here,
//! and `seccompiler` has no user-notification action (`syscalls.rs` patches its program).

use super::netcall;
use super::resolve::Allowed;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Arc;
use std::time::Instant;

/// What the supervisor of one hook enforces, prepared with its confinement.
#[derive(Debug)]
pub struct Guard {
    /// The addresses and ports the hook may reach.
    pub allowed: Arc<Allowed>,
    pub deadline: Instant,
}

/// The hook's ends of the handshake, and the numbers of the supervisor's ends (which the hook
/// inherits at `clone` and closes first, so that a supervisor that died reads as end of file).
pub struct Link {
    report: OwnedFd,
    ack: OwnedFd,
    theirs: [RawFd; 2],
}

impl Link {
    /// `[report (write), ack (read), supervisor's report (read), supervisor's ack (write)]`,
    /// what `Confinement::apply` reads.
    pub fn raw(&self) -> [RawFd; 4] {
        [self.report.as_raw_fd(), self.ack.as_raw_fd(), self.theirs[0], self.theirs[1]]
    }
}

/// Whether this kernel has what the supervisor needs: user notification (Linux 5.0; its
/// `ID_VALID` ioctl 5.0, `seccomp_notif` sizes we can hold) and `pidfd_getfd` (Linux 5.6).
pub fn available() -> bool {
    let mut sizes = libc::seccomp_notif_sizes { seccomp_notif: 0, seccomp_notif_resp: 0, seccomp_data: 0 };
    // SAFETY: the documented query; the kernel writes the three sizes into `sizes`.
    let notif =
        unsafe { libc::syscall(libc::SYS_seccomp, libc::SECCOMP_GET_NOTIF_SIZES, 0, &mut sizes as *mut _) }
            == 0;
    let fits = usize::from(sizes.seccomp_notif) <= NOTIF_BUF * 8
        && usize::from(sizes.seccomp_notif_resp) <= RESP_BUF * 8;
    // SAFETY: an invalid pidfd: EBADF where the call exists, ENOSYS where it does not.
    let getfd = unsafe { libc::syscall(libc::SYS_pidfd_getfd, -1, 0, 0) } < 0
        && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
    notif && fits && getfd
}

/// The supervisor threads' name (what `/proc/<pid>/task/*/comm` shows: at most 15 bytes).
pub const THREAD: &str = "hw-netguard";

/// Room for the kernel's `seccomp_notif` and `seccomp_notif_resp`, in `u64`s (the kernel may
/// use larger structs than `libc`'s; `available` checks they fit).
const NOTIF_BUF: usize = 32;
const RESP_BUF: usize = 8;

/// Starts the supervisor of one hook: the thread waits for the hook's listener, then serves it.
pub fn start(guard: &Guard) -> io::Result<Link> {
    let (report_r, report_w) = pipe()?;
    let (ack_r, ack_w) = pipe()?;
    let theirs = [report_r.as_raw_fd(), ack_w.as_raw_fd()];
    let allowed = guard.allowed.clone();
    let deadline = guard.deadline;
    std::thread::Builder::new().name(THREAD.into()).spawn(move || {
        if let Some(listener) = handshake(report_r, ack_w, deadline) {
            serve(&listener, &allowed, deadline);
        }
    })?;
    Ok(Link { report: report_w, ack: ack_r, theirs })
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: two new descriptors owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Waits (until `deadline`) for the hook's pid and listener number, copies the listener, and
/// answers 0, or the errno that made it fail (the hook then does not run).
fn handshake(report: OwnedFd, ack: OwnedFd, deadline: Instant) -> Option<OwnedFd> {
    let mut msg = [0u8; 8];
    netcall::wait_for(report.as_raw_fd(), libc::POLLIN, deadline, || true)?;
    // SAFETY: reads at most 8 bytes into `msg`.
    let n = unsafe { libc::read(report.as_raw_fd(), msg.as_mut_ptr().cast(), 8) };
    if n != 8 {
        return None;
    }
    let pid = i32::from_ne_bytes([msg[0], msg[1], msg[2], msg[3]]);
    let fd = i32::from_ne_bytes([msg[4], msg[5], msg[6], msg[7]]);
    let got = netcall::pidfd(pid).and_then(|pidfd| netcall::getfd(&pidfd, fd));
    let answer = [match &got {
        Ok(_) => 0u8,
        Err(e) => u8::try_from(e.raw_os_error().unwrap_or(libc::EIO)).unwrap_or(libc::EIO as u8),
    }];
    // SAFETY: writes one byte from `answer`.
    let written = unsafe { libc::write(ack.as_raw_fd(), answer.as_ptr().cast(), 1) };
    (written == 1).then_some(got.ok()).flatten()
}

/// Answers the listener's notifications until the hook is gone or its deadline.
fn serve(listener: &OwnedFd, allowed: &Allowed, deadline: Instant) {
    let fd = listener.as_raw_fd();
    loop {
        // A hang-up without a pending call: every process under the filter is gone (a receive
        // would then block).
        match netcall::wait_for(fd, libc::POLLIN, deadline, || true) {
            Some(revents) if revents & libc::POLLIN != 0 => {}
            _ => return,
        }
        let mut buf = [0u64; NOTIF_BUF];
        // SAFETY: the kernel writes one notification (its size checked by `available`) into
        // the zeroed buffer it asks for.
        if unsafe { libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_RECV, buf.as_mut_ptr()) } != 0 {
            match io::Error::last_os_error().raw_os_error() {
                // The caller was interrupted before we read it: the next one.
                Some(libc::ENOENT) | Some(libc::EINTR) => continue,
                _ => return,
            }
        }
        // SAFETY: `buf` begins with a `seccomp_notif` (aligned to 8, large enough).
        let req: libc::seccomp_notif = unsafe { std::ptr::read(buf.as_ptr().cast()) };
        let valid = || id_valid(fd, req.id);
        let result = netcall::perform(&req, allowed, deadline, &valid);
        let mut resp = [0u64; RESP_BUF];
        let r = libc::seccomp_notif_resp {
            id: req.id,
            val: result.as_ref().map_or(0, |v| *v),
            error: result.err().map_or(0, |e| -e),
            flags: 0,
        };
        // SAFETY: `resp` is aligned and large enough for the kernel's response struct; the
        // kernel reads it (an answer to a caller that has gone is ENOENT: nothing to do).
        unsafe {
            std::ptr::write(resp.as_mut_ptr().cast(), r);
            libc::ioctl(fd, libc::SECCOMP_IOCTL_NOTIF_SEND, resp.as_mut_ptr());
        }
    }
}

/// Whether the notification `id` still waits for an answer: the process that made it is the
/// one whose memory was read (its pid was not reused in between).
fn id_valid(listener: RawFd, id: u64) -> bool {
    let mut id = id;
    // SAFETY: the kernel reads the id.
    unsafe { libc::ioctl(listener, libc::SECCOMP_IOCTL_NOTIF_ID_VALID, &mut id as *mut u64) == 0 }
}
