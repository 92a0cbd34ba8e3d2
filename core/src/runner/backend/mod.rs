//! The two ways a hook's process is made, behind one interface: `spawn(launch, via_helper)`
//! gives a [`Spawned`](super::leader::Spawned) (the hook in its own process group, stdin, stdout
//! and stderr pipes, every signal at its default, an empty mask, no descriptor but 0–2), and the
//! helper's [`Start`](super::helper::Start) for hosts that ignore or handle `SIGCHLD`. Waiting
//! (pidfd or `waitpid` polling), the group kill and the poll loop are shared (`os.rs`, `mod.rs`).
//!
//! - `linux.rs`: `clone(CLONE_VM | CLONE_VFORK)` with `close_range`, the sandbox's `confine` and
//!   a pidfd. Linux's default, and its sandboxed hooks' under `portable-runner`.
//! - `posix.rs`: `posix_spawn`, pipes and `waitpid` only. Every other Unix, and Linux with the
//!   `portable-runner` feature (so that it is tested here).

#[cfg(target_os = "linux")]
pub mod linux;
#[cfg(portable_runner)]
pub mod posix;

/// The backend this build starts hooks with, as `hookwire doctor` names it: its name (`linux`
/// or `portable`, the values of CI's `HOOKWIRE_EXPECT_BACKEND`) and what it uses. A user on
/// another Unix, or a packager who set the feature, can see which one runs without reading
/// the build flags; the backend tests compare it with what a hook observes.
pub fn describe() -> (&'static str, &'static str) {
    #[cfg(not(portable_runner))]
    return (
        "linux",
        "clone(CLONE_VM|CLONE_VFORK), close_range, a pidfd per hook, the sandbox's confinement",
    );
    #[cfg(all(portable_runner, target_os = "linux"))]
    return (
        "portable",
        "posix_spawn, pipes, waitpid (feature portable-runner); sandboxed hooks still start through the Linux backend",
    );
    #[cfg(all(portable_runner, not(target_os = "linux")))]
    return ("portable", "posix_spawn, pipes, waitpid");
}
