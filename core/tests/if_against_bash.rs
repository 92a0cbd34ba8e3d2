//! The differential test of `if` rules against bash itself (issue 30): generated command
//! lines (reserved words, compound commands, redirections in every position, substitutions,
//! here-documents, quoting and escapes, blanks, comments, wrappers, nesting, and soups of the
//! same pieces that are mostly not valid bash) are run by the real `bash -c` in a scratch
//! directory whose `PATH` holds only recorders (each appends its name and arguments to a log
//! and does nothing else) and real wrappers (`env`, `nice`, `nohup`, `timeout`, `xargs`,
//! `find`, `bash`, `sh`) that start them. Whenever bash started a program that a rule names,
//! the guarded hook must run (`Dispatcher::plan`: nothing is run by hookwire).
//!
//! CI runs a fast slice (`HOOKWIRE_IF_BASH_CASES`, default 300); `bash tests/fuzz/run` runs
//! the long one. Each run prints how many commands it tried and how many started a program.
#![allow(clippy::unwrap_used)]

use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Programs the recorders stand in for, each guarded by `Bash(NAME:*)`.
const RECORDED: &[&str] = &["rm", "git", "curl", "ls", "cat", "tee", "touch"];
/// Real programs that start other programs; on the scratch `PATH` too.
const REAL: &[&str] = &["env", "nice", "nohup", "timeout", "xargs", "find", "bash", "sh"];

fn cases() -> u64 {
    std::env::var("HOOKWIRE_IF_BASH_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

/// SplitMix64: a seeded, reproducible stream (a failure prints its seed and command).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

struct Gen<'a> {
    rng: Rng,
    bin: &'a str,
}

impl Gen<'_> {
    /// A program's name, spelled one of the ways bash reads as that name.
    fn program(&mut self) -> String {
        let name = self.rng.pick(RECORDED);
        let (head, tail) = name.split_at(1);
        match self.rng.below(16) {
            0 => format!("\"{name}\""),
            1 => format!("'{head}'{tail}"),
            2 => format!("{head}\\{tail}"),
            3 => format!("\\{name}"),
            4 => format!("{head}''{tail}"),
            5 => format!("{head}\\\n{tail}"),
            6 => format!("{}/{name}", self.bin),
            7 => format!("$'{name}'"),
            8 => format!("{{{name},{name}}}"),
            9 => format!("P={name}; $P"),
            10 => format!("BASH_CMDS={}/{name}; 0", self.bin),
            11 => format!("builtin eval -- {name}"),
            _ => name.to_string(),
        }
    }

    fn arg(&mut self) -> String {
        self.rng
            .pick(&["-rf", "x", "y", "push", "\"a b\"", "'q'", "$HOME", "--", "-c", "a\\ b", "x#y", "'#'"])
            .to_string()
    }

    fn redirection(&mut self) -> String {
        self.rng
            .pick(&[
                ">/dev/null",
                "2>/dev/null",
                "2>&1",
                ">out",
                ">>out",
                "<<<x",
                "{fd}>/dev/null",
                "&>/dev/null",
                "</dev/null",
                "1>&2",
                ">|out",
                "<>out",
            ])
            .to_string()
    }

    fn blank(&mut self) -> &'static str {
        match self.rng.below(6) {
            0 => "\t",
            1 => " \\\n ",
            2 => "  ",
            _ => " ",
        }
    }

    /// A simple command: assignments and redirections before, between and after its words.
    fn simple(&mut self) -> String {
        let mut parts = Vec::new();
        for _ in 0..self.rng.below(3) {
            parts.push(if self.rng.below(2) == 0 { "A=1".to_string() } else { self.redirection() });
        }
        parts.push(self.program());
        for _ in 0..self.rng.below(4) {
            parts.push(if self.rng.below(4) == 0 { self.redirection() } else { self.arg() });
        }
        let mut out = String::new();
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                out.push_str(self.blank());
            }
            out.push_str(p);
        }
        out
    }

    fn command(&mut self, depth: usize) -> String {
        if depth == 0 {
            return self.simple();
        }
        let a = self.command(depth - 1);
        let quoted = a.replace('\'', "'\\''");
        let simple = self.simple();
        let simple_quoted = simple.replace('\'', "'\\''");
        let k = self.rng.below(76);
        let b = self.command(depth - 1);
        match k {
            0 => format!("! {a}"),
            1 => format!("time {a}"),
            2 => format!("if {a}; then {b}; fi"),
            3 => format!("if false; then :; else {a}; fi"),
            4 => format!("while false; do :; done; {a}"),
            5 => format!("for i in 1; do {a}; done"),
            6 => format!("case a in a) {a};; esac"),
            7 => format!("( {a} )"),
            8 => format!("{{ {a}; }}"),
            9 => format!("f() {{ {a}; }}; f"),
            10 => format!("echo $({a})"),
            11 if !a.contains('`') => format!("echo `{a}`"),
            12 => format!("cat <({a})"),
            13 => format!("tee >({a}) </dev/null"),
            14 => format!("x=$({a})"),
            15 => format!("cat <<E\n$({a})\nE"),
            16 => format!("cat <<'E'\nrm -rf x\nE\n{a}"),
            17 => format!("eval '{quoted}'"),
            18 => format!("bash -c '{quoted}'"),
            19 => format!("sh -c '{quoted}'"),
            20 => format!("command {a}"),
            21 => format!("coproc {a}"),
            22 => format!("[[ -n x ]] && {a}"),
            23 => format!("echo $((1)); {a}"),
            24 => format!("{a} && {b}"),
            25 => format!("{a} || {b}"),
            26 => format!("{a} | {b}"),
            27 => format!("{a}; {b}"),
            28 => format!("{a} & wait"),
            29 => format!("{a}\n{b}"),
            30 => format!("# {a}\n{b}"),
            31 => format!("echo '{quoted}'; {b}"),
            32 => format!("env {a}"),
            33 => format!("nice -n 1 {a}"),
            34 => format!("timeout 5 {a}"),
            35 => format!("nohup {a} 2>/dev/null"),
            36 => format!("xargs {a} </dev/null"),
            37 => format!("find . -maxdepth 0 -exec {} {{}} \\;", self.program()),
            38 => format!("{a} |& {b}"),
            39 => format!("exec {a}"),
            40 => format!("echo \"$({a})\""),
            41 => format!("x=`echo`; {a}"),
            42 => format!("{a} # {b}"),
            43 => format!("time -- {a}"),
            44 => format!("time -p {a}"),
            45 => format!("cat <<-E\n\t$({a})\n\tE"),
            46 => format!("cat <<<\"$({a})\""),
            47 => format!("exec -a name {a}"),
            48 => format!("A=\"$({a})\" B=1"),
            49 => format!("echo x >$({a})"),
            50 => format!("{a} 2>&1 >/dev/null | {b}"),
            51 => format!("env -u HOME -- {a}"),
            52 => format!("timeout --signal=KILL 5 {a}"),
            // Round two: builtins that run their words, options and variables that change
            // what bash runs, wrappers that rewrite or re-split the program's words, and line
            // continuations inside reserved words and assignments.
            53 => format!("jobs -x {simple}"),
            54 => format!("eval -- '{quoted}'"),
            55 => format!("env -S'{simple_quoted}'"),
            56 => format!("echo q | xargs -I{{}} {simple}"),
            57 => format!("echo '{simple_quoted}' | xargs -I@ sh -c @"),
            58 => format!("find . -maxdepth 0 -exec {simple} {{}} \\;"),
            59 => format!("!\\\n {a}"),
            60 => format!("coproc\\\n {simple}; wait"),
            61 => format!("A\\\n=1 {simple}"),
            62 => format!("set -o keyword; nice A=1 {simple}"),
            63 => format!("read PS4 <<< '$({quoted})'; set -x; :"),
            64 => format!("printf -v PS4 '$({quoted})'; set -x; :"),
            65 => format!("RANDOM='a[$({quoted})]'"),
            66 => format!("x='a[$({quoted})]'; OPTIND=x"),
            67 => format!("declare -n r=PS4; r='$({quoted})'; set -x; :"),
            68 => format!("bash -o keyword -c 'nice A=1 {simple_quoted}'"),
            69 => format!("env - PATH={} {simple}", self.bin),
            70 => format!("echo q | xargs --replace {simple}"),
            71 => format!("X=-exec; find . -maxdepth 0 $X {simple} \\;"),
            72 => format!("functio\\\nn f {{\\\n {a};\\\n }}\\\n; f"),
            73 => format!("eval {simple}"),
            74 => format!("cat <<E\\\nF\n$({a})\nEF"),
            _ => format!("{a} >out; {b}"),
        }
    }

    /// Pieces of all of the above, concatenated without regard to grammar.
    fn soup(&mut self) -> String {
        const PIECES: &[&str] = &[
            "if ",
            "then ",
            "fi",
            "; ",
            "&& ",
            "|| ",
            "| ",
            "& ",
            "\n",
            "! ",
            "time ",
            "case a in a) ",
            ";; ",
            "esac",
            "(",
            ")",
            "{ ",
            "}",
            "$(",
            "`",
            "<(",
            ">(",
            "'",
            "\"",
            "\\",
            "\t",
            " ",
            "#",
            ">",
            "2>",
            "<<E\n",
            "\nE\n",
            "<<<",
            "x",
            "A=1 ",
            "$((",
            "))",
            "[[ ",
            " ]]",
            "eval ",
            "bash -c ",
            "env ",
            "do ",
            "done",
            "for i in 1; ",
            "while false; ",
            "f() ",
            "-rf ",
            "$x",
            "${x}",
            "{a,b}",
            "*",
            "~",
            "\\\n",
            "jobs -x ",
            "eval -- ",
            "env -S",
            "xargs -I{} ",
            "-exec ",
            "{} ",
            "!\\\n",
            "coproc\\\n",
            "RANDOM=",
            "OPTIND=",
            "set -o keyword; ",
            "read PS4 <<< ",
            "set -x; ",
            "declare -n ",
        ];
        let mut out = String::new();
        for _ in 0..self.rng.below(14) + 1 {
            if self.rng.below(3) == 0 {
                out.push_str(&self.program());
                out.push(' ');
            } else {
                out.push_str(self.rng.pick(PIECES));
            }
        }
        out
    }
}

/// A scratch directory with the recorders and wrappers on `bin/`, a `work/` to run in, and
/// the log every recorder appends to.
struct Scratch {
    root: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        // Orphaned group members (a process substitution, a background job) come back to this
        // process to be reaped, rather than lingering as zombies of an init that may not reap.
        // SAFETY: prctl(2) with an integer argument; affects only this process.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        // One directory per test: the tests of this file run in parallel.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("hookwire-if-bash-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("bin")).unwrap();
        std::fs::create_dir_all(root.join("work")).unwrap();
        let log = root.join("log");
        for name in RECORDED {
            let script = format!(
                "#!/bin/sh\nprintf '%s' \"${{0##*/}}\" >> '{log}'\nfor a; do printf ' %s' \"$a\" >> '{log}'; done\nprintf '\\n' >> '{log}'\n",
                log = log.display()
            );
            let path = root.join("bin").join(name);
            std::fs::write(&path, script).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        for name in REAL {
            let real = ["/usr/bin", "/bin"].iter().map(|d| Path::new(d).join(name)).find(|p| p.exists());
            let real = if *name == "sh" { Some(PathBuf::from("/bin/bash")) } else { real };
            std::os::unix::fs::symlink(
                real.unwrap_or_else(|| panic!("{name} not found")),
                root.join("bin").join(name),
            )
            .unwrap();
        }
        Scratch { root }
    }

    fn bin(&self) -> String {
        self.root.join("bin").display().to_string()
    }

    /// The programs bash started for `cmd`, each as its name and arguments.
    fn run(&self, cmd: &str) -> Vec<Vec<String>> {
        let log = self.root.join("log");
        let _ = std::fs::remove_file(&log);
        let work = self.root.join("work");
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("/bin/bash");
        child
            .arg("-c")
            .arg(cmd)
            .env_clear()
            .env("PATH", self.bin())
            .env("HOME", &work)
            .current_dir(&work)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // A session of its own: `timeout` moves itself to a group of its own, where the
        // group's kill below missed it, and a late write of it landed in the next command's
        // log (seed 2 case 7029 of a long run blamed `t\<newline>ee env` for a `curl -rf`).
        // SAFETY: setsid(2) is async-signal-safe; the child is a new process, not a leader.
        unsafe {
            child.pre_exec(|| {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = child.spawn().unwrap();
        let pgid = child.id() as i32;
        let deadline = Instant::now() + Duration::from_secs(3);
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        // Background jobs and process substitutions may still be writing: wait for the group.
        // This process is their subreaper (set in `Scratch::new`), so it reaps them as they end.
        loop {
            // SAFETY: waitpid(2) on the group this test created, without blocking.
            let reaped = unsafe { libc::waitpid(-pgid, std::ptr::null_mut(), libc::WNOHANG) };
            if reaped < 0 || Instant::now() >= deadline {
                break;
            }
            if reaped == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // SAFETY: as above; SIGKILL ends whatever is left of the group.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
        let _ = child.wait();
        // Then whatever of the session lives on in other groups, until none is left.
        let end = Instant::now() + Duration::from_secs(3);
        loop {
            let left = session_members(pgid);
            if left.is_empty() || Instant::now() >= end {
                break;
            }
            for pid in left {
                // SAFETY: kill(2) and waitpid(2) on processes of the session this test made
                // (reparented to this subreaper once their parents die).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        text.lines().map(|l| l.split(' ').map(str::to_string).collect()).collect()
    }
}

/// Processes of session `sid` that are not zombies, from `/proc/PID/stat` (after the command
/// name's closing parenthesis: state, parent, group, session).
fn session_members(sid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.get(3).and_then(|s| s.parse::<i32>().ok()) == Some(sid) && f.first() != Some(&"Z") {
            out.push(pid);
        }
    }
    out
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A rule, and whether a started program (name and arguments) is one it names.
struct Guard {
    rule: String,
    names: fn(&[String]) -> bool,
}

fn guards() -> Vec<Guard> {
    let mut g: Vec<Guard> = Vec::new();
    macro_rules! named {
        ($($n:literal),*) => { $( g.push(Guard { rule: format!("Bash({}:*)", $n), names: |p| p[0] == $n }); )* };
    }
    named!("rm", "git", "curl", "ls", "cat", "tee", "touch");
    g.push(Guard {
        rule: "Bash(rm -rf *)".into(),
        names: |p| p[0] == "rm" && p.get(1).is_some_and(|a| a == "-rf") && p.len() > 2,
    });
    g.push(Guard {
        rule: "Bash(git push:*)".into(),
        names: |p| p[0] == "git" && p.get(1).is_some_and(|a| a == "push"),
    });
    g
}

/// One hook per guard, in the order of [`guards`].
fn dispatcher(guards: &[Guard]) -> Dispatcher {
    let hooks: Vec<Value> =
        guards.iter().map(|g| json!({"type": "command", "command": "exit 0", "if": g.rule})).collect();
    Dispatcher::new(&json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}}).to_string())
        .unwrap()
}

/// What bash started for `cmd` and what the plan says of it: the first guard whose program
/// bash started but whose hook the plan skips, if any; whether any rule was undecided.
struct Checked {
    ran: Vec<Vec<String>>,
    skipped: Option<String>,
    undecided: bool,
    /// Whether the `Bash(rm:*)` hook runs.
    rm_runs: bool,
}

fn check(scratch: &Scratch, d: &Dispatcher, guards: &[Guard], cmd: &str) -> Checked {
    let t = Instant::now();
    let ran = scratch.run(cmd);
    if t.elapsed() > Duration::from_millis(500) {
        eprintln!("slow ({:?}): {cmd:?}", t.elapsed());
    }
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash",
                       "tool_input": {"command": cmd}});
    let plan = d.plan(&event).unwrap();
    let undecided = plan.iter().any(|e| e.why.contains("cannot be decided"));
    let mut skipped = None;
    for (guard, entry) in guards.iter().zip(&plan) {
        if let Some(p) = ran.iter().find(|p| (guard.names)(p))
            && !entry.runs
            && skipped.is_none()
        {
            skipped = Some(format!(
                "bash ran {p:?} but `if: {}` skipped its hook for\n{cmd}\n({})",
                guard.rule, entry.why
            ));
        }
    }
    Checked { ran, skipped, undecided, rm_runs: plan[0].runs }
}

/// Command lines bash starts a guarded program for, each a class a reader once missed (this
/// round: line continuations inside reserved words and assignment names, builtins that run
/// their arguments, options that change how bash reads, variables whose assignment runs code,
/// `env -S`, the replacement strings of `xargs -I` and `find -exec`). `{bin}` is the
/// recorders' directory.
const KNOWN_BYPASSES: &[&str] = &[
    "!\\\n rm x",
    "coproc\\\n rm x; wait",
    "A\\\n=1 rm x",
    "functio\\\nn f {\\\n rm x;\\\n }\\\n; f",
    "tim\\\ne -p rm x",
    "jobs -x rm x",
    "jobs -x -- rm x",
    "eval -- rm x",
    "builtin eval -- 'rm x'",
    "set -o keyword; bash -c A=1 'rm x'",
    "set -o keyword; nice A=1 rm x",
    "bash -o keyword -c 'nice A=1 rm x'",
    "bash -k -c 'nice A=1 rm x'",
    "read PS4 <<< '$(rm x)'; set -x; ls",
    "printf -v PS4 '$(rm x)'; set -x; ls",
    "printf -vPS4 '$(rm x)'; set -x; ls",
    "read -aPS4 <<< '$(rm x)'; set -x; ls",
    "declare -n r=PS4; r='$(rm x)'; set -x; ls",
    "BASH_CMDS={bin}/rm; 0 -rf x",
    "declare BASH_CMDS={bin}/rm; 0 -rf x",
    "RANDOM='a[$(rm x)]'",
    "x='a[$(rm y)]'; OPTIND=x",
    "export SRANDOM='a[$(rm x)]'",
    "read HISTCMD <<< 'a[$(rm x)]'",
    "env -S'rm x'",
    "env --split-string='rm x'",
    "env -S 'rm\\_x'",
    "env -vS'-i PATH={bin} rm x'",
    "env - PATH={bin} rm x",
    "env -i -- - PATH={bin} rm x",
    "echo 'rm y' | xargs -I{} sh -c '{}'",
    "echo 'rm y' | xargs -i sh -c '{}'",
    "echo x | xargs --replace rm {}",
    "echo 'rm y' | xargs --replace=@ sh -c @",
    "find {bin} -name rm -exec {} x \\;",
    "find {bin} -name rm -execdir {} x \\;",
    "find {bin} -name rm -exec sh -c '{} y' \\;",
    "X=-exec; find . -maxdepth 0 $X rm {} \\;",
    "X='-exec rm {} ;'; find . -maxdepth 0 $X",
    "X=-exec; find . -maxdepth 0 \"$X\" rm {} \\;",
    "cat <<E\\\nF\n$(rm x)\nEF",
    "cat <<-E\\\nF\n$(rm x)\nEF",
];

#[test]
fn each_known_bypass_runs_its_guard() {
    let scratch = Scratch::new();
    let guards = guards();
    let d = dispatcher(&guards);
    let bin = scratch.bin();
    let mut failures = Vec::new();
    for case in KNOWN_BYPASSES {
        let cmd = case.replace("{bin}", &bin);
        let c = check(&scratch, &d, &guards, &cmd);
        assert!(!c.ran.is_empty(), "bash started nothing for {cmd:?}: the case tests nothing");
        if let Some(why) = c.skipped {
            failures.push(why);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} known bypasses:\n{}",
        failures.len(),
        KNOWN_BYPASSES.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_guard_runs_whenever_bash_starts_the_program_it_names() {
    let scratch = Scratch::new();
    let guards = guards();
    let d = dispatcher(&guards);
    let seed: u64 = std::env::var("HOOKWIRE_IF_BASH_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    let bin = scratch.bin();
    let (mut started, mut undecided, mut decided_started) = (0u64, 0u64, 0u64);
    // The reverse cost: commands that start no `rm` whose `Bash(rm:*)` hook runs all the same.
    let (mut no_rm, mut no_rm_runs) = (0u64, 0u64);
    let n = cases();
    for case in 0..n {
        let mut g = Gen { rng: Rng(seed.wrapping_mul(1_000_003).wrapping_add(case)), bin: &bin };
        let cmd = match case % 3 {
            0 => g.soup(),
            1 => g.command(1),
            _ => g.command(2),
        };
        let c = check(&scratch, &d, &guards, &cmd);
        if let Some(why) = c.skipped {
            panic!("seed {seed} case {case}: {why}");
        }
        let started_rm = c.ran.iter().any(|p| p[0] == "rm");
        started += u64::from(!c.ran.is_empty());
        undecided += u64::from(c.undecided);
        decided_started += u64::from(!c.undecided && !c.ran.is_empty());
        no_rm += u64::from(!started_rm);
        no_rm_runs += u64::from(!started_rm && c.rm_runs);
    }
    eprintln!(
        "if rules against bash: {n} commands, {started} started a program, {undecided} undecided, \
         {decided_started} decided by every rule and started a program; of {no_rm} that started no \
         `rm`, {no_rm_runs} ran the `Bash(rm:*)` hook"
    );
    // A reader that called everything undecided would pass the loop above: the decided
    // commands that started programs are where this test has teeth. One in seven: most forms
    // added in round two must be undecided (`PS4`, `RANDOM`, `set -o keyword`), and brought
    // the share from about 27 % to 16-29 % (seeds 1, 3, 4 and 30).
    assert!(
        decided_started * 7 >= n,
        "only {decided_started} of {n} commands were decided and started a program"
    );
}
