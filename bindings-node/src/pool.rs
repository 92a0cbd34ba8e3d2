//! The native threads that run fires with hooks: a pool that grows on demand and keeps a few
//! idle threads for the next fires.
//!
//! A job goes to a thread that is waiting for one, or else to a new thread: it never waits
//! behind another job, so 16 fires of a slow hook run at once (CONTRIBUTING.md rule 14; libuv's pool of
//! 4 would queue the fifth fire behind the first four). A thread that finished a job waits for
//! the next one for `idle_timeout`, and at most `max_idle` threads wait at once; the others
//! exit. A waiting thread holds nothing of Node's (a fire's promise belongs to its job), so
//! it neither keeps the event loop alive nor holds up a process that exits.
//!
//! Hand-written (std `Mutex` and `Condvar`, no crate): the cached pools on crates.io either
//! queue a job behind busy threads once a size is reached or keep every thread of a burst idle
//! until a keep-alive passes; this one has neither a maximum size nor an unbounded idle set.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One unit of work; it settles its own promise, so the pool ignores how it ends.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

pub struct Pool {
    state: Mutex<State>,
    /// Signalled once for each job handed to a waiting thread.
    job_ready: Condvar,
    max_idle: usize,
    idle_timeout: Duration,
    thread_name: &'static str,
}

struct State {
    /// Waiting threads that no job has been promised to yet. Every job in `jobs` was promised
    /// a waiting thread when it was queued, so the waiting threads number `idle + jobs.len()`.
    idle: usize,
    jobs: VecDeque<Job>,
}

impl Pool {
    pub const fn new(max_idle: usize, idle_timeout: Duration, thread_name: &'static str) -> Self {
        Pool {
            state: Mutex::new(State { idle: 0, jobs: VecDeque::new() }),
            job_ready: Condvar::new(),
            max_idle,
            idle_timeout,
            thread_name,
        }
    }

    /// Runs `job` on a waiting thread, or on a new one when none waits. An error means no
    /// thread could be started; the job has then been dropped without running.
    pub fn execute(&'static self, job: Job) -> std::io::Result<()> {
        let mut state = self.lock();
        if state.idle > 0 {
            state.idle -= 1;
            state.jobs.push_back(job);
            drop(state);
            self.job_ready.notify_one();
            return Ok(());
        }
        drop(state);
        std::thread::Builder::new().name(self.thread_name.to_owned()).spawn(move || self.work(job)).map(drop)
    }

    /// A thread's life: its first job, then every job it is handed until it is not needed.
    fn work(&'static self, first: Job) {
        let mut job = first;
        loop {
            // A job settles its own promise and catches its own panics; this keeps the thread
            // (and the pool's count) sound should one escape anyway.
            let _ = catch_unwind(AssertUnwindSafe(job));
            match self.next_job() {
                Some(next) => job = next,
                None => return,
            }
        }
    }

    /// Waits for the next job, or returns `None` when `max_idle` threads wait already or no
    /// job came within `idle_timeout`.
    fn next_job(&self) -> Option<Job> {
        let mut state = self.lock();
        if state.idle + state.jobs.len() >= self.max_idle {
            return None;
        }
        state.idle += 1;
        let deadline = Instant::now() + self.idle_timeout;
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            let now = Instant::now();
            if now >= deadline {
                // No job is queued, so none was promised to this thread: it leaves `idle`.
                state.idle -= 1;
                return None;
            }
            state =
                self.job_ready.wait_timeout(state, deadline - now).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Threads waiting for a job now.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        let state = self.lock();
        state.idle + state.jobs.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::thread::ThreadId;

    const WIDE: Duration = Duration::from_secs(10);

    fn pool(max_idle: usize, idle_timeout: Duration) -> &'static Pool {
        Box::leak(Box::new(Pool::new(max_idle, idle_timeout, "hookwire-test")))
    }

    /// Polls `cond` until it holds, failing after a wide margin.
    fn eventually(what: &str, cond: impl Fn() -> bool) {
        let deadline = Instant::now() + WIDE;
        while !cond() {
            assert!(Instant::now() < deadline, "never happened: {what}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn thread_of(pool: &'static Pool) -> ThreadId {
        let (tx, rx) = mpsc::channel();
        pool.execute(Box::new(move || tx.send(std::thread::current().id()).expect("receiver waits")))
            .expect("thread starts");
        rx.recv_timeout(WIDE).expect("the job ran")
    }

    #[test]
    fn jobs_submitted_while_every_thread_is_busy_all_run_at_once() {
        let pool = pool(2, WIDE);
        let (started_tx, started_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        for _ in 0..16 {
            let started = started_tx.clone();
            let release = Arc::clone(&release_rx);
            pool.execute(Box::new(move || {
                started.send(()).expect("receiver waits");
                // Blocks until the test drops the sender: a job queued behind this one
                // would never start.
                let _ = release.lock().expect("not poisoned").recv();
            }))
            .expect("thread starts");
        }
        for i in 0..16 {
            started_rx.recv_timeout(WIDE).unwrap_or_else(|_| panic!("job {i} waited behind a busy one"));
        }
        drop(release_tx);
        eventually("the burst's threads settle to max_idle waiting", || pool.waiting() == 2);
    }

    #[test]
    fn a_thread_that_finished_a_job_runs_the_next_one() {
        let pool = pool(1, WIDE);
        let first = thread_of(pool);
        for _ in 0..20 {
            // A job submitted before the last one's thread is back waiting gets a new thread,
            // which is right: it must not wait.
            eventually("the thread waits for the next job", || pool.waiting() == 1);
            assert_eq!(thread_of(pool), first, "a job got a new thread while one waited");
        }
    }

    #[test]
    fn waiting_threads_exit_after_the_idle_timeout() {
        let pool = pool(4, Duration::from_millis(20));
        thread_of(pool);
        eventually("the idle thread exits", || pool.waiting() == 0);
        // The pool still runs jobs once every thread is gone.
        thread_of(pool);
    }

    #[test]
    fn a_panicking_job_leaves_the_pool_running_jobs() {
        let pool = pool(1, WIDE);
        pool.execute(Box::new(|| panic!("a job's bug"))).expect("thread starts");
        eventually("the thread survives its job's panic", || pool.waiting() == 1);
        thread_of(pool);
    }

    #[test]
    fn no_thread_waits_in_a_pool_with_max_idle_zero() {
        let pool = pool(0, WIDE);
        thread_of(pool);
        thread_of(pool);
        assert_eq!(pool.waiting(), 0);
    }
}
