//! The hook sandbox under attack (issue 35): each attack runs from a sandboxed hook and, as
//! the control, from the same hook unsandboxed, which must succeed, so that a refusal is the
//! sandbox's and not the machine's. A scratch home holds the planted secrets; the hooks get it
//! as `HOME` through the envelope's `env`, and the sandbox denies the secrets of both homes.

use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

struct Scratch {
    root: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("hookwire-sandbox-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in ["home/.ssh", "project", "outside"] {
            std::fs::create_dir_all(root.join(d)).expect("a scratch directory");
        }
        std::fs::write(root.join("home/.ssh/id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n")
            .expect("the planted key");
        Scratch { root }
    }
    fn home(&self) -> PathBuf {
        self.root.join("home")
    }
    fn project(&self) -> PathBuf {
        self.root.join("project")
    }
    fn outside(&self) -> PathBuf {
        self.root.join("outside")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The one outcome of a PreToolUse hook running `script` in `s`'s project.
fn run(s: &Scratch, script: &str, sandbox: Option<Value>) -> Value {
    let mut handler = json!({"type": "command", "command": script, "timeout": 20});
    if let Some(sb) = sandbox {
        handler["sandbox"] = sb;
    }
    let config = json!({
        "project_dir": s.project(),
        "env": {"HOME": s.home()},
        "sources": [{"scope": "user", "settings": {"hooks": {"PreToolUse": [{"hooks": [handler]}]}}}],
    });
    let d = Dispatcher::from_value(config).expect("the configuration loads");
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": s.project(),
                       "tool_name": "Bash", "tool_input": {"command": "true"}});
    let r = d.fire(&event).expect("the fire runs").to_json();
    let r: Value = serde_json::from_str(&r).expect("the result is JSON");
    r["outcomes"][0].clone()
}

fn stdout(o: &Value) -> String {
    o["stdout"].as_str().unwrap_or_default().trim().to_string()
}

/// `script` prints `ok` when the attack worked and `refused` when it did not.
fn attack(s: &Scratch, script: &str, sandbox: Value) {
    let control = run(s, script, None);
    assert_eq!(stdout(&control), "ok", "the control must succeed: {control}");
    let confined = run(s, script, Some(sandbox));
    assert_eq!(stdout(&confined), "refused", "the sandbox must refuse: {confined}");
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display())
}

#[test]
fn a_planted_ssh_key_cannot_be_read() {
    let s = Scratch::new("key");
    let script = "if cat \"$HOME/.ssh/id_ed25519\" >/dev/null 2>&1; then echo ok; else echo refused; fi";
    attack(&s, script, json!("strict"));
}

#[test]
fn a_symlink_beside_the_way_to_the_home_does_not_open_it() {
    // pytest's `pytest-current` is such a link: beside the directories leading to the home, it
    // points back up to one of them.
    let s = Scratch::new("beside");
    std::os::unix::fs::symlink(&s.root, s.root.join("current")).unwrap();
    let script = "if cat \"$HOME/.ssh/id_ed25519\" >/dev/null 2>&1; then echo ok; else echo refused; fi";
    attack(&s, script, json!("strict"));
}

#[test]
fn a_symlink_planted_in_the_project_does_not_lead_to_the_key() {
    let s = Scratch::new("link");
    std::os::unix::fs::symlink(s.home().join(".ssh/id_ed25519"), s.project().join("notes.txt")).unwrap();
    let script = "if grep -q PRIVATE notes.txt 2>/dev/null; then echo ok; else echo refused; fi";
    attack(&s, script, json!("strict"));
}

#[test]
fn nothing_outside_the_project_can_be_written() {
    let s = Scratch::new("write");
    let script = format!(
        "if echo x > {}/planted 2>/dev/null; then echo ok; else echo refused; fi",
        quote(&s.outside())
    );
    attack(&s, &script, json!("strict"));
    assert!(s.outside().join("planted").exists(), "the control wrote");
}

#[test]
fn a_listener_on_this_machine_cannot_be_reached() {
    let s = Scratch::new("net");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = format!(
        "python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 5)\" 2>/dev/null && echo ok || echo refused"
    );
    attack(&s, &script, json!("strict"));
}

#[test]
fn a_unix_socket_cannot_be_reached() {
    let s = Scratch::new("unix");
    let path = s.outside().join("agent.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let script = format!(
        "python3 -c \"import socket; c = socket.socket(socket.AF_UNIX); c.connect({})\" 2>/dev/null && echo ok || echo refused",
        quote(&path)
    );
    attack(&s, &script, json!("strict"));
}

#[test]
fn the_host_process_cannot_be_traced() {
    let s = Scratch::new("ptrace");
    // PTRACE_TRACEME asks the same permission as tracing the host and works unsandboxed even
    // where Yama forbids attaching to a parent.
    let script = "python3 -c \"import ctypes, sys; sys.exit(ctypes.CDLL(None, use_errno=True).ptrace(0, 0, 0, 0) != 0)\" && echo ok || echo refused";
    attack(&s, script, json!("strict"));
}

#[test]
fn the_hosts_environment_cannot_be_read_through_proc() {
    let s = Scratch::new("proc");
    let script = "if cat /proc/$PPID/environ >/dev/null 2>&1; then echo ok; else echo refused; fi";
    attack(&s, script, json!("strict"));
}

#[test]
fn the_disk_cannot_be_filled_past_the_file_size_limit() {
    let s = Scratch::new("fill");
    let script = "if (head -c 3000000 /dev/zero > big) 2>/dev/null; then echo ok; else echo refused; fi";
    attack(&s, script, json!({"limits": {"file_size_mb": 1}}));
}

#[test]
fn a_formatter_still_reads_and_rewrites_the_project() {
    let s = Scratch::new("fmt");
    std::fs::write(s.project().join("list.txt"), "b\na\n").unwrap();
    let script = "sort list.txt > \"$TMPDIR/sorted\" && cat \"$TMPDIR/sorted\" > list.txt && echo done";
    let o = run(&s, script, Some(json!("strict")));
    assert_eq!((stdout(&o).as_str(), o["status"].as_str()), ("done", Some("ok")), "{o}");
    assert_eq!(std::fs::read_to_string(s.project().join("list.txt")).unwrap(), "a\nb\n");
}

#[test]
fn a_read_only_profile_keeps_the_project_unchanged() {
    let s = Scratch::new("ro");
    let script = "if echo x > changed 2>/dev/null; then echo ok; else echo refused; fi";
    attack(&s, script, json!("read-only"));
}

#[test]
fn the_envelope_sandboxes_project_hooks_whatever_they_say() {
    let s = Scratch::new("envelope");
    let script = "if cat \"$HOME/.ssh/id_ed25519\" >/dev/null 2>&1; then echo ok; else echo refused; fi";
    // Two commands (identical ones would run once: dedup).
    let hooks = |who: &str| {
        let command = format!("{script} # {who}");
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": command, "sandbox": false}]}]})
    };
    let config = json!({
        "project_dir": s.project(),
        "env": {"HOME": s.home()},
        "sandbox": "strict",
        "sources": [{"scope": "project", "trusted": true, "settings": {"hooks": hooks("project")}},
                    {"scope": "user", "settings": {"hooks": hooks("user")}}],
    });
    let d = Dispatcher::from_value(config).unwrap();
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": s.project(),
                       "tool_name": "Bash", "tool_input": {"command": "true"}});
    let r: Value = serde_json::from_str(&d.fire(&event).unwrap().to_json()).unwrap();
    let by_scope: Vec<(String, String)> = r["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["hook"].as_str().unwrap().to_string(), stdout(o)))
        .collect();
    assert!(by_scope.contains(&("project:PreToolUse[0].hooks[0]".into(), "refused".into())), "{by_scope:?}");
    assert!(by_scope.contains(&("user:PreToolUse[0].hooks[0]".into(), "ok".into())), "{by_scope:?}");
}

#[test]
fn a_bad_sandbox_value_still_runs_the_hook_under_the_strict_profile() {
    let s = Scratch::new("bad");
    let script = "if cat \"$HOME/.ssh/id_ed25519\" >/dev/null 2>&1; then echo ok; else echo refused; fi";
    let o = run(&s, script, Some(json!({"profile": "lax"})));
    assert_eq!(stdout(&o), "refused", "{o}");
}

#[test]
fn a_fork_bomb_is_capped_and_nothing_it_started_outlives_the_hook() {
    let s = Scratch::new("fork");
    // 200 sleeping children: far past a cap of 32, harmless for the control.
    let script = "python3 -c \"
import os, sys
n = 0
try:
    for _ in range(200):
        if os.fork() == 0:
            os.setsid(); import time; time.sleep(30); os._exit(0)
        n += 1
except OSError:
    pass
print('ok' if n == 200 else 'refused')
sys.stdout.flush(); os._exit(0)
\"";
    let control = run(&s, script, None);
    assert_eq!(stdout(&control), "ok", "{control}");
    // The control's children left its process group (setsid): end them.
    let _ = std::process::Command::new("pkill").args(["-f", "time.sleep\\(30\\)"]).status();
    let confined = run(&s, script, Some(json!({"limits": {"processes": 32}})));
    assert_eq!(stdout(&confined), "refused", "{confined}");
}

/// The hook of `settings` (a source of `dialect`, one PreToolUse-like hook) runs `script` or
/// not at all; its outcome.
fn run_source(s: &Scratch, dialect: &str, settings: Value, source_sandbox: Option<Value>) -> Value {
    let mut source = json!({"scope": "user", "dialect": dialect, "settings": settings});
    if let Some(sb) = source_sandbox {
        source["sandbox"] = sb;
    }
    let config = json!({"project_dir": s.project(), "env": {"HOME": s.home()}, "sources": [source]});
    let d =
        Dispatcher::from_value(config).unwrap_or_else(|e| panic!("{dialect}: the configuration loads: {e}"));
    let event = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": s.project(),
                       "tool_name": "Bash", "tool_input": {"command": "true"}});
    let r: Value = serde_json::from_str(&d.fire(&event).expect("the fire runs").to_json()).expect("JSON");
    assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(1), "{dialect}: one hook ran: {r}");
    r["outcomes"][0].clone()
}

/// One hook entry running `script` in each dialect whose entries are objects, with `extra`
/// keys merged into the entry (where hookwire's `sandbox` key goes).
fn entry_in(dialect: &str, script: &str, extra: &Value) -> Value {
    let mut entry = match dialect {
        "claude-code" | "gemini" | "codex" => json!({"type": "command", "command": script}),
        "copilot-cli" => json!({"bash": script}),
        "ok" => json!({"match": "*", "command": script}),
        "ub" => json!({"command": ["sh", "-c", script]}),
        "kiro" => {
            json!({"name": "h", "trigger": "PreToolUse", "action": {"type": "command", "command": script}})
        }
        "mistral-vibe" => json!({"name": "h", "type": "pre_tool", "command": script}),
        _ => json!({"command": script}),
    };
    for (k, v) in extra.as_object().into_iter().flatten() {
        entry[k] = v.clone();
    }
    match dialect {
        "claude-code" | "codex" => json!({"hooks": {"PreToolUse": [{"hooks": [entry]}]}}),
        "gemini" => json!({"hooks": {"BeforeTool": [{"hooks": [entry]}]}}),
        "cursor" | "copilot-cli" => json!({"version": 1, "hooks": {"preToolUse": [entry]}}),
        "windsurf" => json!({"hooks": {"pre_run_command": [entry]}}),
        "ok" | "crush" => json!({"hooks": {"PreToolUse": [entry]}}),
        "j-cli" => json!({"pre_tool_execution": [entry]}),
        "ub" => json!({"hooks": {"pre_tool_call": [entry]}}),
        "kiro" => json!({"version": "v1", "hooks": [entry]}),
        "mistral-vibe" => json!({"hooks": [entry]}),
        "kiro-agent" => json!({"hooks": {"preToolUse": [entry]}}),
        other => panic!("no entry shape for {other}"),
    }
}

/// A script printing `ok` when it reads `s`'s planted key by its absolute path (no `$HOME`: ub
/// passes only the variables an entry names), `refused` when it cannot.
fn reads_the_planted_key(s: &Scratch) -> String {
    let key = s.home().join(".ssh/id_ed25519");
    format!("if cat {} >/dev/null 2>&1; then echo ok; else echo refused; fi", quote(&key))
}

const OBJECT_ENTRY_DIALECTS: &[&str] = &[
    "claude-code",
    "codex",
    "gemini",
    "cursor",
    "copilot-cli",
    "windsurf",
    "ok",
    "j-cli",
    "ub",
    "kiro",
    "kiro-agent",
    "mistral-vibe",
    "crush",
];

#[test]
fn the_sandbox_key_confines_a_hook_in_every_dialect_whose_entries_are_objects() {
    let s = Scratch::new("dialects");
    let script = reads_the_planted_key(&s);
    for &d in OBJECT_ENTRY_DIALECTS {
        let dialect = if d == "kiro-agent" { "kiro" } else { d };
        let control = run_source(&s, dialect, entry_in(d, &script, &json!({})), None);
        assert_eq!(stdout(&control), "ok", "{d}: the control must read the key: {control}");
        let confined = run_source(&s, dialect, entry_in(d, &script, &json!({"sandbox": "strict"})), None);
        assert_eq!(stdout(&confined), "refused", "{d}: the entry's sandbox must refuse: {confined}");
    }
}

#[test]
fn a_sources_sandbox_confines_its_hooks_whatever_they_say() {
    let s = Scratch::new("source");
    let script = reads_the_planted_key(&s);
    for &d in ["claude-code", "cursor", "kiro"].iter() {
        let unconfined = entry_in(d, &script, &json!({"sandbox": false}));
        let o = run_source(&s, d, unconfined.clone(), Some(json!("strict")));
        assert_eq!(stdout(&o), "refused", "{d}: the source's sandbox wins over the hook's `false`: {o}");
        let o = run_source(&s, d, unconfined, None);
        assert_eq!(stdout(&o), "ok", "{d}: without it the hook reads the key: {o}");
    }
}

#[test]
fn a_sources_sandbox_the_engine_cannot_read_is_a_configuration_error() {
    let s = Scratch::new("source-bad");
    let config = json!({"project_dir": s.project(), "sources": [
        {"scope": "user", "sandbox": {"profile": "lax"}, "settings": {"hooks": {}}}]});
    let Err(e) = Dispatcher::from_value(config) else { panic!("an unknown profile is refused") };
    assert!(e.to_string().contains("/sources/0/sandbox"), "{e}");
}
