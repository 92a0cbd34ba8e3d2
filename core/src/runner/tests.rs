//! Runner tests with real, hostile processes: they spawn `sh`, so they sit beside the loop
//! rather than in the pure modules.

use super::*;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

fn sh(script: &str, stdin: &[u8], timeout: Duration) -> Job<'static> {
    Job {
        launch: Launch {
            program: resolve_program("sh", None, std::path::Path::new("/")).unwrap(),
            args: vec![OsString::from("-c"), OsString::from(script)],
            env: std::env::vars_os().collect(),
            cwd: PathBuf::from("/"),
            confine: None,
        },
        stdin: Cow::Owned(stdin.to_vec()),
        deadline: Instant::now() + timeout,
        max_output: 1 << 20,
        tag: Default::default(),
    }
}

fn run_one(job: Job) -> RunResult {
    let slots = Slots::new(64);
    run(std::slice::from_ref(&job), &slots, None).remove(0)
}

#[test]
fn cat_gets_stdin_byte_for_byte_and_eof() {
    let r = run_one(sh("cat", b"{\"a\": 1}", Duration::from_secs(10)));
    assert_eq!(r.end, End::Exited(0));
    assert_eq!(r.stdout.text, "{\"a\": 1}");
}

#[test]
fn exit_codes_and_stderr_are_reported() {
    let r = run_one(sh("echo nope >&2; exit 2", b"", Duration::from_secs(10)));
    assert_eq!(r.end, End::Exited(2));
    assert_eq!(r.stderr.text, "nope\n");
}

#[test]
fn death_by_signal_is_not_an_exit_code() {
    let r = run_one(sh("kill -9 $$", b"", Duration::from_secs(10)));
    assert_eq!(r.end, End::Signaled(9));
}

#[test]
fn timeout_kills_the_whole_group_within_the_bound() {
    let t = Instant::now();
    let r = run_one(sh("sleep 30 & sleep 30; echo never", b"", Duration::from_secs(1)));
    assert_eq!(r.end, End::TimedOut { started: true });
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
}

#[test]
fn grandchild_holding_stdout_does_not_delay_the_verdict() {
    let t = Instant::now();
    let r = run_one(sh("echo '{\"ok\":1}'; sleep 30 &", b"", Duration::from_secs(20)));
    assert_eq!(r.end, End::Exited(0));
    assert_eq!(r.stdout.text.trim(), "{\"ok\":1}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn a_hook_that_never_reads_a_large_stdin_does_not_hang() {
    let big = vec![b'x'; 2 << 20];
    let r = run_one(sh("exit 0", &big, Duration::from_secs(10)));
    assert_eq!(r.end, End::Exited(0));
    let t = Instant::now();
    let r = run_one(sh("sleep 30", &big, Duration::from_secs(1)));
    assert_eq!(r.end, End::TimedOut { started: true });
    assert!(t.elapsed() < Duration::from_secs(3));
}

#[test]
fn flood_is_capped_and_flagged_and_the_hook_finishes() {
    let mut job = sh("head -c 20000000 /dev/zero | tr '\\0' a", b"", Duration::from_secs(30));
    job.max_output = 4096;
    let r = run_one(job);
    assert_eq!(r.end, End::Exited(0));
    assert!(r.stdout.truncated);
    assert_eq!(r.stdout.text.len(), 4096);
}

#[test]
fn parallel_hooks_run_at_the_same_time() {
    let slots = Slots::new(64);
    let jobs: Vec<Job> = (0..4).map(|_| sh("sleep 0.5", b"", Duration::from_secs(10))).collect();
    let t = Instant::now();
    let rs = run(&jobs, &slots, None);
    assert!(rs.iter().all(|r| r.end == End::Exited(0)));
    assert!(t.elapsed() < Duration::from_millis(1500), "{:?}", t.elapsed());
}

#[test]
fn a_hook_without_a_slot_times_out_unstarted() {
    let slots = Slots::new(1);
    let jobs = vec![sh("sleep 2", b"", Duration::from_secs(10)), sh("true", b"", Duration::from_millis(300))];
    let rs = run(&jobs, &slots, None);
    assert_eq!(rs[0].end, End::Exited(0));
    assert_eq!(rs[1].end, End::TimedOut { started: false });
}

#[test]
fn spawn_failure_is_its_own_end() {
    let mut job = sh("true", b"", Duration::from_secs(5));
    job.launch.cwd = PathBuf::from("/nonexistent-dir-for-hookwire");
    let r = run_one(job);
    assert!(matches!(r.end, End::SpawnFailed(_)), "{:?}", r.end);
}

#[test]
fn cancel_ends_a_run_at_once() {
    let slots = Slots::new(4);
    let cancel = Arc::new(Cancel::new());
    let c2 = cancel.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        c2.cancel();
    });
    let t = Instant::now();
    let rs = run(&[sh("sleep 30", b"", Duration::from_secs(60))], &slots, Some(&cancel));
    assert_eq!(rs[0].end, End::Cancelled { started: true });
    assert!(t.elapsed() < Duration::from_secs(2));
}

#[test]
fn each_hook_reports_its_own_duration_not_the_fires() {
    let slots = Slots::new(64);
    let jobs = vec![sh("sleep 0.6", b"", Duration::from_secs(10)), sh("true", b"", Duration::from_secs(10))];
    let rs = run(&jobs, &slots, None);
    assert!(rs[0].duration >= Duration::from_millis(550), "{:?}", rs[0].duration);
    assert!(rs[1].duration < Duration::from_millis(400), "{:?}", rs[1].duration);
}

#[test]
fn a_hook_that_closes_stdin_early_leaves_no_sigpipe_behind() {
    // The engine blocks SIGPIPE only while the fire runs and discards the one its own write
    // raised; the host's thread must come out with its mask unchanged and nothing pending.
    let big = vec![b'x'; 1 << 20];
    let r = run_one(sh("exec 0<&-; sleep 0.2", &big, Duration::from_secs(10)));
    assert_eq!(r.end, End::Exited(0));
    assert!(!os::sigpipe_pending());
    // SAFETY: reads this thread's mask into a zeroed sigset_t.
    let blocked = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, std::ptr::null(), &mut set);
        libc::sigismember(&set, libc::SIGPIPE) == 1
    };
    assert!(!blocked, "SIGPIPE must not stay blocked on the host's thread");
}

#[cfg(target_os = "linux")]
#[test]
fn the_close_fallback_closes_every_descriptor_in_its_range_however_it_was_opened() {
    // What a kernel without close_range (before 5.9) gets: checked in a forked child, whose
    // descriptors are its own. 1000 is a dup2 target without close-on-exec, 600 a F_DUPFD copy.
    let mut fds = [0; 2];
    // SAFETY: plain syscalls on descriptors this test owns; `fds` is valid for pipe.
    let (high, copy) = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        (libc::dup2(fds[1], 1000), libc::fcntl(fds[0], libc::F_DUPFD, 600))
    };
    assert!(high == 1000 && copy >= 600);
    // SAFETY: the child makes only async-signal-safe calls and ends in `_exit`.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: we are the forked child; the descriptors closed are the child's copies.
        unsafe {
            os::close_each(3, i32::MAX);
            let open =
                [fds[0], fds[1], high, copy].into_iter().filter(|fd| libc::fcntl(*fd, libc::F_GETFD) != -1);
            libc::_exit(if open.count() == 0 { 0 } else { 1 });
        }
    }
    let mut status = 0;
    // SAFETY: reaps our own child; then closes the descriptors this test opened.
    unsafe {
        libc::waitpid(pid, &mut status, 0);
        for fd in [fds[0], fds[1], high, copy] {
            libc::close(fd);
        }
    }
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{status:#x}");
}
