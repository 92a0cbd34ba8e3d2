//! What the end-to-end tests of the `hookwire` binary share: a scratch directory with a `home/`
//! (holding `.claude/`) and a `proj/`, removed on drop, and the binary run in it with a clean
//! environment (no variable of the developer's reaches hookwire).
#![allow(dead_code, clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A scratch directory, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `hookwire-<suite>-<tag>-<pid>` under the temporary directory, fresh.
    pub fn new(suite: &str, tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hookwire-{suite}-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("home/.claude")).unwrap();
        std::fs::create_dir_all(dir.join("proj")).unwrap();
        Scratch(dir)
    }

    pub fn home(&self) -> PathBuf {
        self.0.join("home")
    }

    /// The binary, run in `dir` with `HOME` the scratch home and none of the variables that
    /// would change what it reads (trust store, logs, project directories, a bridge above).
    pub fn hookwire(&self, dir: &Path) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hookwire"));
        c.current_dir(dir).env("HOME", self.home());
        for var in [
            "XDG_CONFIG_HOME",
            "HOOKWIRE_LOG",
            "HOOKWIRE_TRUST_STORE",
            "CLAUDE_PROJECT_DIR",
            "HOOKWIRE_BRIDGE_ACTIVE",
            "GEMINI_PROJECT_DIR",
        ] {
            c.env_remove(var);
        }
        c
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `c` with `stdin` on its standard input; a closed pipe is no failure (the program may
/// exit before it reads).
pub fn run(c: &mut Command, stdin: &str) -> Output {
    let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// Runs `c` with `stdin` written and the pipe then held open, as an agent that never closes it:
/// the program must end on its own within `limit` (else it is killed and the test fails).
pub fn run_held_open(c: &mut Command, stdin: &str, limit: Duration) -> Output {
    let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut held = child.stdin.take().unwrap();
    held.write_all(stdin.as_bytes()).unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still waiting for its stdin to close after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    drop(held);
    out
}
