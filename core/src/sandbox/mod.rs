//! The hook sandbox (issue 35, `docs/sandbox.md`): an opt-in confinement per handler
//! (`"sandbox": "strict"`) or for every project and local hook (the envelope's `sandbox`), so
//! that a cloned repository's trusted hooks cannot read the user's keys, write outside the
//! project, reach the network or touch the host. `policy.rs` is what was configured;
//! `confine.rs` prepares it in the host and applies it in the hook's process before `execve`,
//! using Landlock (`files.rs`, the `landlock` crate), seccomp (`syscalls.rs`, the `seccompiler`
//! crate), rlimits and `PR_SET_NO_NEW_PRIVS`; `support.rs` says what this kernel can enforce.
//! A network allow-list of `host:port` entries (`endpoint.rs`) is resolved in the host
//! (`resolve.rs`) and enforced by a supervisor thread answering the hook's seccomp user
//! notifications (`supervisor.rs`, `netcall.rs`).

mod endpoint;
mod policy;
pub use policy::{Policy, parse};

#[cfg(target_os = "linux")]
mod confine;
#[cfg(target_os = "linux")]
mod files;
#[cfg(target_os = "linux")]
mod netcall;
#[cfg(target_os = "linux")]
mod pids;
#[cfg(target_os = "linux")]
mod resolve;
#[cfg(target_os = "linux")]
pub mod supervisor;
#[cfg(target_os = "linux")]
mod syscalls;
#[cfg(target_os = "linux")]
pub use confine::{Confinement, Places};
// Compiled into Linux's unit tests too, so that what other targets get is checked here.
#[cfg(any(not(target_os = "linux"), test))]
mod unavailable;
#[cfg(not(target_os = "linux"))]
pub use unavailable::{Confinement, Places};

/// What this machine can enforce, one line per part (`hookwire validate` prints it).
pub fn support() -> Vec<String> {
    #[cfg(target_os = "linux")]
    {
        let abi = files::abi();
        let landlock = match abi {
            0 => "Landlock: not available (the file system is not confined)".to_string(),
            1..=3 => format!(
                "Landlock ABI {abi}: files confined; TCP ports not filterable (seccomp still refuses sockets)"
            ),
            _ => format!("Landlock ABI {abi}: files and TCP ports confined"),
        };
        // SAFETY: a read-only query of the calling thread's seccomp mode.
        let seccomp = unsafe { libc::prctl(libc::PR_GET_SECCOMP, 0, 0, 0, 0) } >= 0;
        vec![
            landlock,
            format!("seccomp filters: {}", if seccomp { "available" } else { "not available" }),
            if pids::available() {
                "processes: capped by a pids cgroup per hook (which also ends what the hook leaves behind)"
                    .to_string()
            } else if {
                // SAFETY: getuid cannot fail.
                unsafe { libc::getuid() }
            } == 0
            {
                "processes: not capped (no writable pids cgroup; root is never held by RLIMIT_NPROC)"
                    .to_string()
            } else {
                "processes: capped by RLIMIT_NPROC (no writable pids cgroup)".to_string()
            },
            "rlimits and no_new_privs: available".to_string(),
            if supervisor::available() {
                "network allow-lists (host:port): enforced (seccomp user notification, pidfd_getfd)"
                    .to_string()
            } else {
                "network allow-lists (host:port): ports only, to any host (no seccomp user notification or pidfd_getfd)"
                    .to_string()
            },
        ]
    }
    #[cfg(not(target_os = "linux"))]
    {
        vec![
            "the hook sandbox is not available on this platform: a required sandbox refuses to run"
                .to_string(),
        ]
    }
}
