//! The progress indicator of `fire` and `explain`: a spinner on stderr that appears only when
//! the hooks have run for more than a second and stderr is a terminal. It runs on its own
//! thread so the fire is never slowed, and it erases itself before anything else is printed.

use std::io::{IsTerminal, Write};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a fire may run before the spinner shows: most fires end well before.
const QUIET_FOR: Duration = Duration::from_secs(1);
const FRAMES: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// A running spinner; [`Spinner::stop`] (or drop) erases it.
pub struct Spinner {
    done: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts a spinner for `what`, or nothing when stderr is not a terminal.
    pub fn start(what: String) -> Spinner {
        if !std::io::stderr().is_terminal() || crate::logs::active() {
            return Spinner { done: None, thread: None };
        }
        let (tx, rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("hookwire-spinner".into())
            .spawn(move || {
                let started = Instant::now();
                if rx.recv_timeout(QUIET_FOR) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return;
                }
                let mut err = std::io::stderr();
                for frame in FRAMES.iter().cycle() {
                    let _ = write!(err, "\r{frame} {what} ({:.0} s)\x1b[K", started.elapsed().as_secs_f64());
                    let _ = err.flush();
                    if rx.recv_timeout(Duration::from_millis(100)) != Err(mpsc::RecvTimeoutError::Timeout) {
                        break;
                    }
                }
                let _ = write!(err, "\r\x1b[K");
                let _ = err.flush();
            })
            .ok();
        Spinner { done: Some(tx), thread }
    }

    /// Erases the spinner and waits until it is gone, so later output is never overwritten.
    pub fn stop(mut self) {
        self.finish();
    }

    fn finish(&mut self) {
        drop(self.done.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.finish();
    }
}
