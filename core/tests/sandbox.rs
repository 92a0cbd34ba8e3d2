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

// The network allow-list (`"network": ["host:port", ...]`): checked and performed by
// hookwire's supervisor. Serialised, so that the supervisor threads counted at the end of one
// are its own.
static NET: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A TCP listener on 127.0.0.1 that accepts (and closes) every connection in a thread and
/// counts them.
struct Listener {
    port: u16,
    accepted: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Listener {
    fn new() -> Listener {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a listener");
        let port = l.local_addr().expect("its address").port();
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = accepted.clone();
        std::thread::spawn(move || {
            for c in l.incoming() {
                drop(c);
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        });
        Listener { port, accepted }
    }
    fn accepted(&self) -> usize {
        self.accepted.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Two UDP sockets on 127.0.0.1 and their ports.
fn udp_pair() -> ([std::net::UdpSocket; 2], [u16; 2]) {
    let u = [0, 1].map(|_| std::net::UdpSocket::bind("127.0.0.1:0").expect("a UDP socket"));
    let ports = [0, 1].map(|i| u[i].local_addr().expect("its address").port());
    (u, ports)
}

/// The first IPv4 nameserver of `/etc/resolv.conf`.
fn nameserver() -> String {
    let conf = std::fs::read_to_string("/etc/resolv.conf").unwrap_or_default();
    conf.lines()
        .find_map(|l| l.strip_prefix("nameserver").map(str::trim))
        .filter(|a| a.parse::<std::net::Ipv4Addr>().is_ok())
        .expect("these tests need an IPv4 nameserver in /etc/resolv.conf")
        .to_string()
}

/// The start of an allow-list test: the lock held, a scratch, two listeners.
fn with_two_listeners(name: &str) -> (std::sync::MutexGuard<'static, ()>, Scratch, [Listener; 2]) {
    let net = NET.lock().unwrap_or_else(|e| e.into_inner());
    (net, Scratch::new(name), [Listener::new(), Listener::new()])
}

/// Runs `script` in python3 as a hook; its outcome.
fn python(s: &Scratch, script: &str, sandbox: Option<Value>) -> Value {
    std::fs::write(s.project().join("hook.py"), script).expect("the hook's script");
    run(s, "python3 hook.py", sandbox)
}

/// Connects to each port (blocking), then non-blocking to the first: `name:port=ok|refused`.
const CONNECTS: &str = r#"
import errno, select, socket, sys
host, ports = HOST, PORTS
out = []
for p in ports:
    try:
        socket.create_connection((host, p), 5).close()
        out.append(f"{p}=ok")
    except OSError as e:
        out.append(f"{p}=refused")
s = socket.socket()
s.setblocking(False)
r = s.connect_ex(("127.0.0.1", ports[0]))
select.select([], [s], [], 5)
out.append("nb=" + ("ok" if r in (0, errno.EINPROGRESS) and s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0 else f"{r}"))
print(" ".join(out))
"#;

/// A hook allowed `host:P1` (connecting to `host`) reaches P1 and not P2; unsandboxed, both.
fn reaches_the_listed_port_only(name: &str, host: &str) {
    let s = Scratch::new(name);
    let (p1, p2) = (Listener::new(), Listener::new());
    let script = CONNECTS
        .replace("HOST", &format!("{host:?}"))
        .replace("PORTS", &format!("[{}, {}]", p1.port, p2.port));
    let control = python(&s, &script, None);
    assert_eq!(stdout(&control), format!("{}=ok {}=ok nb=ok", p1.port, p2.port), "{control}");
    let before = p2.accepted();
    let confined = python(&s, &script, Some(json!({"network": [format!("{host}:{}", p1.port)]})));
    assert_eq!(stdout(&confined), format!("{}=ok {}=refused nb=ok", p1.port, p2.port), "{confined}");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(p2.accepted(), before, "nothing reached the port not listed");
}

#[test]
fn an_allow_list_reaches_the_listed_port_and_no_other() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    reaches_the_listed_port_only("allow-port", "127.0.0.1");
}

#[test]
fn a_listed_name_resolves_and_connects_and_its_supervisor_ends_with_the_hook() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    reaches_the_listed_port_only("allow-name", "localhost");
    // The listener hangs up once the hook is reaped: its supervisor thread is gone soon after.
    let supervisors = || {
        std::fs::read_dir("/proc/self/task")
            .expect("this process's threads")
            .flatten()
            .filter(|t| {
                std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.trim() == "hw-netguard")
            })
            .count()
    };
    let t = std::time::Instant::now();
    while supervisors() > 0 && t.elapsed() < std::time::Duration::from_secs(3) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(supervisors(), 0, "the supervisor outlived its hook");
}

#[test]
fn rewriting_the_address_after_the_connect_call_never_reaches_another_port() {
    let (_net, s, [p1, p2]) = with_two_listeners("allow-race");
    // One thread connects from a buffer that a second thread keeps flipping between the two
    // ports (ctypes releases the GIL for the call, so the flips run during it).
    let script = r#"
import ctypes, socket, struct, threading
libc = ctypes.CDLL(None, use_errno=True)
def addr(p):
    return struct.pack("=HH4s8x", socket.AF_INET, socket.htons(p), socket.inet_aton("127.0.0.1"))
a, b = addr(P1), addr(P2)
buf = ctypes.create_string_buffer(a, 16)
done = False
def flip():
    while not done:
        ctypes.memmove(buf, b, 16)
        ctypes.memmove(buf, a, 16)
t = threading.Thread(target=flip)
t.start()
to = {P1: 0, P2: 0}
for _ in range(300):
    s = socket.socket()
    if libc.connect(s.fileno(), buf, 16) == 0:
        to[s.getpeername()[1]] += 1
    s.close()
done = True
t.join()
print("ok" if to[P2] else "refused", to[P1])
"#
    .replace("P1", &p1.port.to_string())
    .replace("P2", &p2.port.to_string());
    let control = python(&s, &script, None);
    assert!(stdout(&control).starts_with("ok "), "the race reaches the other port unsandboxed: {control}");
    let before = p2.accepted();
    let confined = python(&s, &script, Some(json!({"network": [format!("127.0.0.1:{}", p1.port)]})));
    let out = stdout(&confined);
    let reached: u32 = out.strip_prefix("refused ").and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(reached > 0, "the listed port was reached during the race, the other never: {confined}");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(p2.accepted(), before, "nothing reached the port not listed");
}

#[test]
fn udp_goes_to_the_listed_port_only_and_dns_to_the_nameservers() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    let s = Scratch::new("allow-udp");
    let ([u1, u2], [p1, p2]) = udp_pair();
    let ns = nameserver();
    // sendto to each port; sendmsg to the second; a connected UDP socket to the nameserver on
    // 53 (as the resolver does), then on 54.
    let script = r#"
import socket
out = []
def attempt(name, f):
    try:
        f()
        out.append(name + "=ok")
    except OSError:
        out.append(name + "=refused")
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
attempt("p1", lambda: u.sendto(b"one", ("127.0.0.1", P1)))
attempt("p2", lambda: u.sendto(b"two", ("127.0.0.1", P2)))
attempt("msg2", lambda: u.sendmsg([b"three"], [], 0, ("127.0.0.1", P2)))
def dns(port):
    d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    d.connect((NS, port))
    d.send(b"q")
attempt("dns", lambda: dns(53))
attempt("dns54", lambda: dns(54))
print(" ".join(out))
"#
    .replace("P1", &p1.to_string())
    .replace("P2", &p2.to_string())
    .replace("NS", &format!("{ns:?}"));
    let control = python(&s, &script, None);
    assert_eq!(stdout(&control), "p1=ok p2=ok msg2=ok dns=ok dns54=ok", "{control}");
    let mut buf = [0u8; 16];
    u2.set_nonblocking(true).unwrap();
    while u2.recv(&mut buf).is_ok() {}
    let confined = python(&s, &script, Some(json!({"network": [format!("127.0.0.1:{p1}"), "localhost:1"]})));
    assert_eq!(stdout(&confined), "p1=ok p2=refused msg2=refused dns=ok dns54=refused", "{confined}");
    u1.set_read_timeout(Some(std::time::Duration::from_secs(1))).unwrap();
    let mut got = Vec::new();
    while let Ok(n) = u1.recv(&mut buf) {
        got.push(buf[..n].to_vec());
        u1.set_nonblocking(true).unwrap();
    }
    assert!(got.contains(&b"one".to_vec()), "the listed port got the datagram: {got:?}");
    assert!(u2.recv(&mut buf).is_err(), "the port not listed got nothing");
}

#[test]
fn an_allow_list_of_literals_alone_opens_no_way_to_dns() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    let s = Scratch::new("allow-nodns");
    let ns = nameserver();
    let script = format!(
        "python3 -c \"import socket; d = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); d.connect(('{ns}', 53)); d.send(b'q')\" 2>/dev/null && echo ok || echo refused"
    );
    attack(&s, &script, json!({"network": ["127.0.0.1:1"]}));
}

#[test]
fn a_bad_allow_list_entry_is_a_configuration_error_naming_it() {
    let s = Scratch::new("allow-bad");
    for (entry, why) in
        [("example.com", "no `:port`"), ("*:443", "not a host name"), ("::1:80", "in brackets")]
    {
        let config = json!({"project_dir": s.project(), "sandbox": {"network": ["127.0.0.1:1", entry]},
                            "sources": []});
        let Err(e) = Dispatcher::from_value(config) else { panic!("{entry:?} is refused") };
        let e = e.to_string();
        assert!(e.contains("/sandbox") && e.contains("`network[1]`") && e.contains(why), "{entry}: {e}");
    }
}

#[test]
fn sendmmsg_as_the_resolver_sends_it_reaches_the_listed_port_only() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    let s = Scratch::new("allow-mmsg");
    let ([u1, u2], [p1, p2]) = udp_pair();
    // glibc's resolver sends its A and AAAA queries with one sendmmsg on a connected socket:
    // two messages to the connected (listed) port, each msg_len written back; then the same
    // with an address of a port not listed on the first message.
    let script = r#"
import ctypes, socket, struct
libc = ctypes.CDLL(None, use_errno=True)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
class msghdr(ctypes.Structure):
    _fields_ = [("name", ctypes.c_void_p), ("namelen", ctypes.c_uint), ("iov", ctypes.c_void_p),
                ("iovlen", ctypes.c_size_t), ("control", ctypes.c_void_p), ("controllen", ctypes.c_size_t),
                ("flags", ctypes.c_int)]
class mmsghdr(ctypes.Structure):
    _fields_ = [("hdr", msghdr), ("len", ctypes.c_uint)]
def mmsg(sock, to):
    datas = [ctypes.create_string_buffer(b"query-a"), ctypes.create_string_buffer(b"query-aaaa")]
    iovs = [iovec(ctypes.cast(d, ctypes.c_void_p), len(d.value)) for d in datas]
    name = ctypes.create_string_buffer(struct.pack("=HH4s8x", socket.AF_INET, socket.htons(to), socket.inet_aton("127.0.0.1")), 16) if to else None
    msgs = (mmsghdr * 2)()
    for m, v in zip(msgs, iovs):
        m.hdr.iov = ctypes.addressof(v)
        m.hdr.iovlen = 1
    if name is not None:
        msgs[0].hdr.name = ctypes.addressof(name)
        msgs[0].hdr.namelen = 16
    n = libc.sendmmsg(sock.fileno(), msgs, 2, 0)
    return f"{n}:{msgs[0].len},{msgs[1].len}" if n >= 0 else "refused"
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.connect(("127.0.0.1", P1))
print(mmsg(u, 0), mmsg(u, P2))
"#
    .replace("P1", &p1.to_string())
    .replace("P2", &p2.to_string());
    let control = python(&s, &script, None);
    assert_eq!(stdout(&control), "2:7,10 2:7,10", "{control}");
    u2.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 16];
    while u2.recv(&mut buf).is_ok() {}
    u1.set_nonblocking(true).unwrap();
    while u1.recv(&mut buf).is_ok() {}
    let confined = python(&s, &script, Some(json!({"network": [format!("127.0.0.1:{p1}")]})));
    assert_eq!(stdout(&confined), "2:7,10 refused", "{confined}");
    u1.set_nonblocking(false).unwrap();
    u1.set_read_timeout(Some(std::time::Duration::from_secs(1))).unwrap();
    let n = u1.recv(&mut buf).expect("the listed port got the first query");
    assert_eq!(&buf[..n], b"query-a");
    assert!(u2.recv(&mut buf).is_err(), "the port not listed got nothing");
}

#[test]
fn a_listed_name_is_resolved_by_the_hook_as_without_the_sandbox() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    let s = Scratch::new("allow-dns");
    // Whatever this machine's nameserver answers (an address, or "no such name"), the hook
    // allowed the name gets the same answer; allowed only a literal it cannot ask (EAI_AGAIN).
    // RES_OPTIONS bounds the resolver's wait where no nameserver answers.
    let script = r#"
import os, socket
os.environ["RES_OPTIONS"] = "timeout:1 attempts:1"
try:
    print(sorted({a[4][0] for a in socket.getaddrinfo("example.com", 443, socket.AF_INET)}))
except socket.gaierror as e:
    print(e.errno)
"#;
    // The nameserver is this machine's, not the test's: a round where it answered the two runs
    // differently (a timeout in one) is tried again, up to three.
    let mut last = (String::new(), String::new());
    let same = (0..3).any(|_| {
        let control = stdout(&python(&s, script, None));
        let named = stdout(&python(&s, script, Some(json!({"network": ["example.com:443"]}))));
        last = (control, named);
        last.0 == last.1
    });
    assert!(
        same,
        "the hook allowed the name got another answer than unsandboxed (control, allowed): {last:?}"
    );
    let literal = python(&s, script, Some(json!({"network": ["127.0.0.1:1"]})));
    // EAI_AGAIN, glibc's value as Python reports it.
    assert_eq!(stdout(&literal), "-3", "{literal}");
}

#[test]
fn a_hook_flooding_its_supervisor_only_queues_itself() {
    let (_net, s, [p1, p2]) = with_two_listeners("allow-flood");
    // Eight threads of 300 refused connects each, then the one listed.
    let script = r#"
import socket, threading
refused = []
def flood():
    n = 0
    for _ in range(300):
        c = socket.socket()
        try:
            c.connect(("127.0.0.1", P2))
        except OSError:
            n += 1
        c.close()
    refused.append(n)
ts = [threading.Thread(target=flood) for _ in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
socket.create_connection(("127.0.0.1", P1), 5).close()
print("refused", sum(refused), "then p1=ok")
"#
    .replace("P1", &p1.port.to_string())
    .replace("P2", &p2.port.to_string());
    let t = std::time::Instant::now();
    let o = python(&s, &script, Some(json!({"network": [format!("127.0.0.1:{}", p1.port)]})));
    assert_eq!(stdout(&o), "refused 2400 then p1=ok", "{o}");
    assert!(t.elapsed() < std::time::Duration::from_secs(10), "{:?}", t.elapsed());
    assert_eq!(p2.accepted(), 0, "nothing reached the port not listed");
}

#[test]
fn hostile_pointers_and_lengths_get_errors_and_leave_the_supervisor_serving() {
    let _net = NET.lock().unwrap_or_else(|e| e.into_inner());
    let s = Scratch::new("allow-hostile");
    let p1 = Listener::new();
    let script = r#"
import ctypes, socket
libc = ctypes.CDLL(None, use_errno=True)
libc.connect.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64]
libc.sendmmsg.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int]
libc.sendto.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p, ctypes.c_uint]
s = socket.socket()
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
results = [
    libc.connect(s.fileno(), 0, 16),
    libc.connect(s.fileno(), 0xFFFFFFFFFFFFFFF0, 16),
    libc.connect(s.fileno(), 8, 1 << 40),
    libc.sendmmsg(u.fileno(), 0xFFFFFFFFFFFFFFF0, 8, 0),
    libc.sendto(u.fileno(), 0xFFFFFFFFFFFFFFF0, 1 << 20, 0, 0xFFFFFFFFFFFFFFF0, 16),
]
socket.create_connection(("127.0.0.1", P1), 5).close()
print(results, "then p1=ok")
"#
    .replace("P1", &p1.port.to_string());
    let o = python(&s, &script, Some(json!({"network": [format!("127.0.0.1:{}", p1.port)]})));
    assert_eq!(stdout(&o), "[-1, -1, -1, -1, -1] then p1=ok", "{o}");
}
