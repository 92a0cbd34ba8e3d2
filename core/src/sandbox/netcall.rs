//! One trapped network call of a hook, checked and performed by its supervisor
//! (`supervisor.rs`): the address and the data are copied out of the hook's memory
//! (`process_vm_readv`), the notification is checked to be still pending (so the pid was not
//! reused while we read), the hook's socket is fetched with `pidfd_getfd` (the same open file
//! description: the hook's socket ends up connected), and the call is made here with our copy.
//! The hook may rewrite its memory at any time after the copy: nothing reads it again.
//!
//! - `connect` to an allowed address (or `AF_UNSPEC`, which only dissolves an association) is
//!   made as the hook asked: a non-blocking socket gets `EINPROGRESS` back; a blocking one waits
//!   here, no later than the deadline.
//! - `sendto` with an address, `sendmsg` and `sendmmsg` are made with our copy of at most
//!   [`MAX_DATA`] bytes per message (a stream sees a short write, which it may), always with
//!   `MSG_NOSIGNAL` (a `SIGPIPE` would hit the host); their address, if any, must be allowed.
//!   Control messages (`SCM_RIGHTS` and the like) are refused: passing our copies of the
//!   hook's descriptors is not something to do on its behalf.
//! - Everything else, and every address not on the list, is `EACCES`.

use super::resolve::Allowed;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV6};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

/// Most bytes of one message copied and sent (a UDP datagram's maximum).
pub const MAX_DATA: usize = 64 * 1024;
/// Most messages of one `sendmmsg` (glibc's resolver sends two).
const MAX_MSGS: usize = 8;
/// Most `iovec`s of one message.
const MAX_IOV: usize = 64;
/// `sizeof(struct sockaddr_storage)`: the kernel refuses longer addresses too.
const MAX_ADDR: usize = 128;
/// Send flags passed on as the hook gave them; `MSG_FASTOPEN` (which connects) is refused by
/// the seccomp filter before it gets here, and the rest are dropped.
const PASSED_FLAGS: i32 =
    libc::MSG_OOB | libc::MSG_DONTROUTE | libc::MSG_EOR | libc::MSG_MORE | libc::MSG_CONFIRM;

type Answer = Result<i64, i32>;

/// Where a call goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dest {
    Inet(SocketAddr),
    /// `AF_UNSPEC`: `connect` dissolves the socket's association.
    Unspec,
}

/// Checks and performs the call `req` describes: its return value, or the errno to answer.
pub fn perform(
    req: &libc::seccomp_notif,
    allowed: &Allowed,
    deadline: Instant,
    valid: &dyn Fn() -> bool,
) -> Answer {
    let pid = req.pid as i32;
    let a = req.data.args;
    // The descriptor is a C `int`: its low 32 bits.
    let fd = a[0] as u32 as i32;
    let call = Call { pid, fd, allowed, deadline, valid };
    match i64::from(req.data.nr) {
        libc::SYS_connect => call.connect(a[1], a[2]),
        libc::SYS_sendto => {
            let dest = call.dest(a[4], a[5])?;
            let data = read(pid, a[1], (a[2] as usize).min(MAX_DATA))?;
            let sock = call.socket()?;
            send(&sock, Some(dest), &data, a[3] as i32, deadline, valid)
        }
        libc::SYS_sendmsg => {
            let m = call.message(a[1])?;
            let sock = call.socket()?;
            send(&sock, m.dest, &m.data, a[2] as i32, deadline, valid)
        }
        libc::SYS_sendmmsg => call.sendmmsg(a[1], a[2] as usize, a[3] as i32),
        _ => Err(libc::EACCES),
    }
}

struct Call<'a> {
    pid: i32,
    fd: RawFd,
    allowed: &'a Allowed,
    deadline: Instant,
    valid: &'a dyn Fn() -> bool,
}

/// One message of a `sendmsg`, copied.
struct Message {
    dest: Option<Dest>,
    data: Vec<u8>,
}

impl Call<'_> {
    /// The hook's socket, once everything was read from its memory and the notification is
    /// still pending.
    fn socket(&self) -> Result<OwnedFd, i32> {
        let errno = |e: io::Error| e.raw_os_error().unwrap_or(libc::EACCES);
        let sock =
            pidfd(tgid(self.pid).ok_or(libc::EACCES)?).and_then(|p| getfd(&p, self.fd)).map_err(errno)?;
        if !(self.valid)() {
            return Err(libc::EACCES);
        }
        Ok(sock)
    }

    /// The address at `ptr` in the hook's memory, allowed or `EACCES`.
    /// (`len` is a `socklen_t`: its low 32 bits, as the kernel reads it. Addresses from the
    /// hook are added with wrapping: a hostile pointer is `EFAULT`, never an overflow here.)
    fn dest(&self, ptr: u64, len: u64) -> Result<Dest, i32> {
        let len = Some(len as u32 as usize).filter(|l| *l <= MAX_ADDR).ok_or(libc::EINVAL)?;
        let dest = parse_addr(&read(self.pid, ptr, len)?)?;
        match dest {
            Dest::Inet(to) if self.allowed.permits(&to) => Ok(dest),
            _ => Err(libc::EACCES),
        }
    }

    fn connect(&self, ptr: u64, len: u64) -> Answer {
        let len = Some(len as u32 as usize).filter(|l| *l <= MAX_ADDR).ok_or(libc::EINVAL)?;
        let dest = parse_addr(&read(self.pid, ptr, len)?)?;
        if let Dest::Inet(to) = dest
            && !self.allowed.permits(&to)
        {
            return Err(libc::EACCES);
        }
        let sock = self.socket()?;
        connect(&sock, dest, self.deadline, self.valid)
    }

    /// The `msghdr` at `ptr` and what it points to.
    fn message(&self, ptr: u64) -> Result<Message, i32> {
        let raw = read(self.pid, ptr, std::mem::size_of::<libc::msghdr>())?;
        // SAFETY: `raw` holds exactly a `msghdr` (plain data; its pointers are the hook's, used
        // only as addresses to read from).
        let h: libc::msghdr = unsafe { std::ptr::read_unaligned(raw.as_ptr().cast()) };
        if h.msg_controllen != 0 {
            return Err(libc::EACCES);
        }
        let dest = match (h.msg_name.is_null(), h.msg_namelen) {
            (true, _) | (_, 0) => None,
            (false, len) => Some(self.dest(h.msg_name as u64, u64::from(len))?),
        };
        let iovlen = h.msg_iovlen as usize;
        if iovlen > MAX_IOV {
            return Err(libc::EMSGSIZE);
        }
        let size = std::mem::size_of::<libc::iovec>();
        let iovs = read(self.pid, h.msg_iov as u64, iovlen * size)?;
        let mut data = Vec::new();
        for chunk in iovs.chunks_exact(size) {
            // SAFETY: `chunk` holds exactly an `iovec`.
            let v: libc::iovec = unsafe { std::ptr::read_unaligned(chunk.as_ptr().cast()) };
            let take = v.iov_len.min(MAX_DATA - data.len());
            data.extend(read(self.pid, v.iov_base as u64, take)?);
        }
        Ok(Message { dest, data })
    }

    /// Up to [`MAX_MSGS`] messages, each sent as `sendmsg` would; the count sent, as the kernel
    /// answers (an error only when the first fails), with each `msg_len` written back.
    fn sendmmsg(&self, ptr: u64, vlen: usize, flags: i32) -> Answer {
        let size = std::mem::size_of::<libc::mmsghdr>();
        let mut msgs = Vec::new();
        for i in 0..vlen.min(MAX_MSGS) {
            match self.message(ptr.wrapping_add((i * size) as u64)) {
                Ok(m) => msgs.push(m),
                Err(e) if i == 0 => return Err(e),
                Err(_) => break,
            }
        }
        let sock = self.socket()?;
        let mut sent = 0;
        for (i, m) in msgs.iter().enumerate() {
            match send(&sock, m.dest, &m.data, flags, self.deadline, self.valid) {
                Ok(n) => {
                    let at =
                        ptr.wrapping_add((i * size + std::mem::offset_of!(libc::mmsghdr, msg_len)) as u64);
                    write(self.pid, at, &(n as u32).to_ne_bytes())?;
                    sent += 1;
                }
                Err(e) if sent == 0 => return Err(e),
                Err(_) => break,
            }
        }
        Ok(sent)
    }
}

/// A `sockaddr`'s destination: IPv4, IPv6 or `AF_UNSPEC`; any other family is `EACCES`.
fn parse_addr(b: &[u8]) -> Result<Dest, i32> {
    if b.len() < 2 {
        return Err(libc::EINVAL);
    }
    let family = i32::from(u16::from_ne_bytes([b[0], b[1]]));
    let port = || u16::from_be_bytes([b[2], b[3]]);
    match family {
        libc::AF_UNSPEC => Ok(Dest::Unspec),
        libc::AF_INET if b.len() >= 16 => {
            Ok(Dest::Inet(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(b[4], b[5], b[6], b[7])), port())))
        }
        libc::AF_INET6 if b.len() >= 28 => {
            let mut ip = [0u8; 16];
            ip.copy_from_slice(&b[8..24]);
            let scope = u32::from_ne_bytes([b[24], b[25], b[26], b[27]]);
            Ok(Dest::Inet(SocketAddr::V6(SocketAddrV6::new(Ipv6Addr::from(ip), port(), 0, scope))))
        }
        libc::AF_INET | libc::AF_INET6 => Err(libc::EINVAL),
        _ => Err(libc::EACCES),
    }
}

/// Our own `sockaddr` for `d` (never the hook's bytes).
fn sockaddr(d: Dest) -> (libc::sockaddr_storage, libc::socklen_t) {
    // SAFETY: all-zero is a valid `sockaddr_storage` (family AF_UNSPEC).
    let mut s: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let len = match d {
        Dest::Unspec => std::mem::size_of::<libc::sockaddr_in>(),
        Dest::Inet(SocketAddr::V4(a)) => {
            let sin = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: a.port().to_be(),
                sin_addr: libc::in_addr { s_addr: u32::from_ne_bytes(a.ip().octets()) },
                sin_zero: [0; 8],
            };
            // SAFETY: a `sockaddr_in` fits in a `sockaddr_storage`.
            unsafe { std::ptr::write((&mut s as *mut libc::sockaddr_storage).cast(), sin) };
            std::mem::size_of::<libc::sockaddr_in>()
        }
        Dest::Inet(SocketAddr::V6(a)) => {
            let sin6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: a.port().to_be(),
                sin6_flowinfo: 0,
                sin6_addr: libc::in6_addr { s6_addr: a.ip().octets() },
                sin6_scope_id: a.scope_id(),
            };
            // SAFETY: a `sockaddr_in6` fits in a `sockaddr_storage`.
            unsafe { std::ptr::write((&mut s as *mut libc::sockaddr_storage).cast(), sin6) };
            std::mem::size_of::<libc::sockaddr_in6>()
        }
    };
    (s, len as libc::socklen_t)
}

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO)
}

fn nonblocking(sock: &OwnedFd) -> Result<(bool, i32), i32> {
    // SAFETY: a flag query on our descriptor.
    let flags = unsafe { libc::fcntl(sock.as_raw_fd(), libc::F_GETFL) };
    if flags < 0 {
        return Err(errno());
    }
    Ok((flags & libc::O_NONBLOCK != 0, flags))
}

/// `connect` on the hook's socket, with the hook's blocking mode; a blocking one is waited for
/// here (the socket made non-blocking meanwhile, then restored), until `deadline`.
fn connect(sock: &OwnedFd, d: Dest, deadline: Instant, valid: &dyn Fn() -> bool) -> Answer {
    let (addr, len) = sockaddr(d);
    let call = || {
        // SAFETY: `addr` is a valid address of `len` bytes.
        let r =
            unsafe { libc::connect(sock.as_raw_fd(), (&addr as *const libc::sockaddr_storage).cast(), len) };
        if r == 0 { Ok(0) } else { Err(errno()) }
    };
    let (nb, flags) = nonblocking(sock)?;
    if nb {
        return call();
    }
    // SAFETY: flag changes on our descriptor (the hook's file: restored below).
    unsafe { libc::fcntl(sock.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) };
    let out = match call() {
        Err(libc::EINPROGRESS) => match wait_for(sock.as_raw_fd(), libc::POLLOUT, deadline, valid) {
            Some(_) => so_error(sock),
            None => Err(libc::ETIMEDOUT),
        },
        other => other,
    };
    // SAFETY: as above.
    unsafe { libc::fcntl(sock.as_raw_fd(), libc::F_SETFL, flags) };
    out
}

fn so_error(sock: &OwnedFd) -> Answer {
    let mut e: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: reads one int into `e`.
    let r = unsafe {
        libc::getsockopt(
            sock.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_ERROR,
            (&mut e as *mut libc::c_int).cast(),
            &mut len,
        )
    };
    match (r, e) {
        (0, 0) => Ok(0),
        (0, e) => Err(e),
        _ => Err(errno()),
    }
}

/// One send of `data` (to `dest`, if any), never blocking this thread: a blocking socket whose
/// buffer is full is waited for (until `deadline`).
fn send(
    sock: &OwnedFd,
    dest: Option<Dest>,
    data: &[u8],
    flags: i32,
    deadline: Instant,
    valid: &dyn Fn() -> bool,
) -> Answer {
    let (nb, _) = nonblocking(sock)?;
    let nb = nb || flags & libc::MSG_DONTWAIT != 0;
    let flags = (flags & PASSED_FLAGS) | libc::MSG_NOSIGNAL | libc::MSG_DONTWAIT;
    let addr = dest.map(sockaddr);
    let (ptr, len) = match &addr {
        Some((a, l)) => ((a as *const libc::sockaddr_storage).cast::<libc::sockaddr>(), *l),
        None => (std::ptr::null(), 0),
    };
    loop {
        // SAFETY: `data` and the address (or none) are valid for the call.
        let n = unsafe { libc::sendto(sock.as_raw_fd(), data.as_ptr().cast(), data.len(), flags, ptr, len) };
        if n >= 0 {
            return Ok(n as i64);
        }
        let e = errno();
        if e != libc::EAGAIN || nb || wait_for(sock.as_raw_fd(), libc::POLLOUT, deadline, valid).is_none() {
            return Err(e);
        }
    }
}

/// Polls `fd` for `events` until it is ready (its `revents`), `deadline`, or `still()` turns
/// false (checked every 100 ms).
pub fn wait_for(fd: RawFd, events: i16, deadline: Instant, still: impl Fn() -> bool) -> Option<i16> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || !still() {
            return None;
        }
        let ms = left.min(Duration::from_millis(100)).as_millis().max(1) as i32;
        let mut p = libc::pollfd { fd, events, revents: 0 };
        // SAFETY: one valid pollfd.
        let r = unsafe { libc::poll(&mut p, 1, ms) };
        if r > 0 {
            return Some(p.revents);
        }
        if r < 0 && errno() != libc::EINTR {
            return None;
        }
    }
}

/// `len` bytes at `addr` in `pid`'s memory; `EFAULT` when they cannot all be read.
fn read(pid: i32, addr: u64, len: usize) -> Result<Vec<u8>, i32> {
    let mut buf = vec![0u8; len];
    if len == 0 {
        return Ok(buf);
    }
    let local = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: len };
    let remote = libc::iovec { iov_base: addr as *mut libc::c_void, iov_len: len };
    // SAFETY: `local` is our buffer of `len` bytes; the kernel checks the remote side.
    let n = unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) };
    if n == len as isize { Ok(buf) } else { Err(libc::EFAULT) }
}

/// Writes `bytes` at `addr` in `pid`'s memory (a result the call hands back).
fn write(pid: i32, addr: u64, bytes: &[u8]) -> Result<(), i32> {
    let local = libc::iovec { iov_base: bytes.as_ptr() as *mut libc::c_void, iov_len: bytes.len() };
    let remote = libc::iovec { iov_base: addr as *mut libc::c_void, iov_len: bytes.len() };
    // SAFETY: `local` is our buffer; the kernel checks the remote side.
    let n = unsafe { libc::process_vm_writev(pid, &local, 1, &remote, 1, 0) };
    if n == bytes.len() as isize { Ok(()) } else { Err(libc::EFAULT) }
}

/// The process (thread group) of the thread `tid`: descriptors belong to it.
fn tgid(tid: i32) -> Option<i32> {
    let status = std::fs::read_to_string(format!("/proc/{tid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("Tgid:")).and_then(|v| v.trim().parse().ok())
}

/// A pidfd of the process `pid`.
pub fn pidfd(pid: i32) -> io::Result<OwnedFd> {
    // SAFETY: a plain syscall; a non-negative answer is a new descriptor of ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Our copy (close-on-exec) of the descriptor `fd` of the process behind `pidfd`.
pub fn getfd(pidfd: &OwnedFd, fd: RawFd) -> io::Result<OwnedFd> {
    // SAFETY: a plain syscall; a non-negative answer is a new descriptor of ours.
    let got = unsafe { libc::syscall(libc::SYS_pidfd_getfd, pidfd.as_raw_fd(), fd, 0) };
    if got < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    Ok(unsafe { OwnedFd::from_raw_fd(got as RawFd) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_read_as_the_kernel_lays_them_out_and_other_families_refused() {
        let (s, len) = sockaddr(Dest::Inet("10.1.2.3:8080".parse().unwrap()));
        // SAFETY: viewing the storage's first `len` bytes.
        let b = unsafe {
            std::slice::from_raw_parts((&s as *const libc::sockaddr_storage).cast::<u8>(), len as usize)
        };
        assert_eq!(parse_addr(b), Ok(Dest::Inet("10.1.2.3:8080".parse().unwrap())));
        let (s, len) = sockaddr(Dest::Inet("[::1]:9".parse().unwrap()));
        // SAFETY: as above.
        let b = unsafe {
            std::slice::from_raw_parts((&s as *const libc::sockaddr_storage).cast::<u8>(), len as usize)
        };
        assert_eq!(parse_addr(b), Ok(Dest::Inet("[::1]:9".parse().unwrap())));
        assert_eq!(parse_addr(&b[..20]), Err(libc::EINVAL), "a short IPv6 address");
        let mut unix = [0u8; 110];
        unix[..2].copy_from_slice(&(libc::AF_UNIX as u16).to_ne_bytes());
        assert_eq!(parse_addr(&unix), Err(libc::EACCES));
        assert_eq!(parse_addr(&[0, 0]), Ok(Dest::Unspec));
    }
}
