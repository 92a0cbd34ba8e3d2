//! Attacker-controlled input against the public API (issue 14): a cloned repository's config
//! files, a model-written tool input, a hook that tampers with the files it is given. Each must
//! give a clear outcome or error within its bound: never a crash of this process, a hang, a
//! skipped guard or a lost verdict.
#![allow(clippy::unwrap_used)]

mod bounds;

use bounds::{finishes, thread_cpu};
use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A fresh directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hookwire-input-{}-{}-{tag}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fire(d: &Dispatcher, event: &Value) -> Value {
    serde_json::from_str(&d.fire_json(&event.to_string()).unwrap()).unwrap()
}

fn warnings(r: &Value) -> Vec<String> {
    r["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap().to_string()).collect()
}

const DEEP_YAML_NESTING: usize = 50_000;

/// Finding 1: `'- ' * 50000 + 'x'` as a project file of each YAML dialect crashed the host with
/// a stack overflow in `hooks_dispatcher_new`, even untrusted.
#[test]
fn deeply_nested_yaml_project_files_never_crash_the_host_trusted_or_not() {
    let deep = "- ".repeat(DEEP_YAML_NESTING) + "x";
    let deep_map =
        "a:\n".to_string() + &(1..2_000).map(|i| format!("{}a:\n", " ".repeat(i))).collect::<String>();
    for (dialect, file) in
        [("neocode", ".neocode/hooks.yaml"), ("j-cli", ".jcli/hooks.yaml"), ("ub", ".ub/hooks.yaml")]
    {
        for text in [&deep, &deep_map] {
            let dir = Scratch::new(dialect);
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            for trusted in [false, true] {
                let envelope = json!({
                    "dialect": dialect,
                    "project_dir": dir.path(),
                    "sources": [{"scope": "project", "path": file, "trusted": trusted}]
                });
                let d = Dispatcher::new(&envelope.to_string()).unwrap();
                let r = fire(&d, &json!({"hook_event_name": "SessionStart"}));
                let w = warnings(&r).join("\n");
                if trusted {
                    assert!(w.contains("nested more than 128 levels"), "{dialect} {}: {w}", &text[..20]);
                } else {
                    assert!(w.contains("not trusted"), "{dialect}: {w}");
                    assert!(!w.contains("YAML"), "an untrusted file is not parsed: {w}");
                }
            }
            // Strict files: the same bound is an error naming the file, not a crash.
            let envelope = json!({"dialect": dialect, "project_dir": dir.path(), "strict_files": true,
                                  "sources": [{"scope": "user", "path": file}]});
            let e = Dispatcher::new(&envelope.to_string()).err().unwrap().to_string();
            assert!(e.contains("invalid YAML at") && e.contains(file), "{e}");
        }
    }
}

/// A guard with `if: Bash(rm *)` and the model-written command of finding 2.
fn rm_guard(timeout: f64) -> Dispatcher {
    guard_of_rm("echo g >&2; exit 2", Some(timeout))
}

/// A PreToolUse `Bash` hook running `command` under `if: "Bash(rm *)"`, with its own timeout
/// or the default.
fn guard_of_rm(command: &str, timeout: Option<f64>) -> Dispatcher {
    let mut hook = json!({"type": "command", "if": "Bash(rm *)", "command": command});
    if let Some(t) = timeout {
        hook["timeout"] = json!(t);
    }
    Dispatcher::new(&json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}).to_string())
        .unwrap()
}

fn bash(command: &str) -> Value {
    json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}})
}

/// Finding 2: 12,000 nested `$(` made the `if` split quadratic (seconds, about 1 GB) while the
/// hook's deadline ran, so the guard never started and its outcome blamed busy slots.
#[test]
fn nested_command_substitutions_never_keep_a_guard_from_running() {
    let d = rm_guard(1.0);
    for (open, close) in [("$(", ")"), ("`", "`"), ("\"$(", ")\""), ("$( (", ") )")] {
        let cmd = open.repeat(12_000) + "rm x" + &close.repeat(12_000);
        // The `if` split runs on the firing thread: its CPU time is the engine's work (the
        // quadratic split took seconds), whatever the load of the machine.
        let t = thread_cpu();
        let r = fire(&d, &bash(&cmd));
        let work = thread_cpu() - t;
        assert!(work < Duration::from_millis(500), "{open}: {work:?} of CPU on the firing thread");
        assert_eq!(r["decision"], "deny", "{open}: {r}");
        assert_eq!(r["outcomes"][0]["status"], "ok", "{open}: {r}");
    }
    // Deep but decidable: still evaluated, and an unrelated command stays filtered out.
    assert_eq!(fire(&d, &bash(&("$(".repeat(10) + "rm x" + &")".repeat(10))))["decision"], "deny");
    assert_eq!(fire(&d, &bash("echo hi"))["outcomes"], json!([]));
}

/// serde_json (with its `raw_value` feature) reads an object whose first key is
/// `$serde_json::private::RawValue` as the JSON text in its value. A model-written tool input
/// starting with that key made the event unreadable (`trailing comma`: no hook ran), or was
/// matched as the text it carried: `{"command":"ls"}` for a command that was not. The key is a
/// key like any other, in events (small and large, read quickly or not) and in hook output.
#[test]
fn serde_jsons_raw_value_key_in_a_tool_input_keeps_no_guard_from_running() {
    const KEY: &str = "$serde_json::private::RawValue";
    let d = rm_guard(5.0);
    for pad in [0, 100_000] {
        let mut both = serde_json::Map::new();
        both.insert(KEY.into(), json!("{\"command\":\"ls\"}"));
        both.insert("command".into(), json!("rm -rf /"));
        both.insert("pad".into(), json!("x".repeat(pad)));
        let event = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": both});
        let text = d.fire_json(&event.to_string()).unwrap_or_else(|e| panic!("pad {pad}: {e:?}"));
        let r: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(r["decision"], "deny", "pad {pad}: {r}");
    }
    // Alone, the key does not stand for its text: `Bash(rm *)` does not see `rm` here.
    let d = Dispatcher::new(
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "if": "Bash(echo *)", "command": "exit 2"}]}]}})
        .to_string(),
    )
    .unwrap();
    let alone = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {KEY: "{\"command\":\"echo hi\"}"}});
    assert_eq!(fire(&d, &alone)["outcomes"], json!([]));
    // A hook's output object with that key is read as the object it is.
    let d = Dispatcher::new(
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
            "command": format!("echo '{{\"hookSpecificOutput\": {{\"{KEY}\": \"1\", \"permissionDecision\": \"deny\"}}}}'")}]}]}})
        .to_string(),
    )
    .unwrap();
    let r = fire(&d, &bash("ls"));
    assert_eq!(r["outcomes"][0]["status"], "ok", "{r}");
    assert_eq!(r["decision"], "deny", "{r}");
}

/// An `if` rule that cannot decide runs the hook, and says so.
#[test]
fn an_undecidable_if_rule_runs_the_hook_with_a_warning() {
    let d = rm_guard(5.0);
    let r = fire(&d, &bash(&("$(".repeat(5_000) + "echo harmless" + &")".repeat(5_000))));
    assert_eq!(r["decision"], "deny", "{r}");
    assert!(warnings(&r).iter().any(|w| w.contains("cannot be decided")), "{r}");
}

/// A model can nest a tool's arguments past serde_json's 128 levels: the whole event was
/// refused (`invalid_json`), so no hook ran and a host that fails open ran the tool unguarded.
/// The event is read with the deep part clipped: the guard runs on the bytes as sent, the
/// result says what was not read, and a text that is not JSON stays an error.
#[test]
fn an_event_nested_past_the_parsers_depth_still_runs_its_guard_on_the_bytes_as_sent() {
    let d = guard_of_rm("echo \"got $(wc -c)\" >&2; exit 2", None);
    for deep in ["[".repeat(200) + &"]".repeat(200), "{\"a\":".repeat(100_000) + "1" + &"}".repeat(100_000)] {
        let event = format!(
            r#"{{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {{"x": {deep}, "command": "rm -rf ~"}}}}"#
        );
        let r: Value = serde_json::from_str(&d.fire_json(&event).unwrap()).unwrap();
        assert_eq!(r["decision"], "deny", "{r}");
        assert_eq!(r["reason"], format!("got {}", event.len()), "the hook read the event as sent");
        assert!(warnings(&r).iter().any(|w| w.contains("nests deeper than 100 levels")), "{r}");
        // Nothing is filtered out by the clip: an unrelated command is still not guarded.
        let other = event.replace("rm -rf ~", "ls");
        let r: Value = serde_json::from_str(&d.fire_json(&other).unwrap()).unwrap();
        assert_eq!(r["outcomes"], json!([]), "{r}");
    }
    let broken =
        format!(r#"{{"hook_event_name": "PreToolUse", "x": {}}}"#, "[".repeat(300) + "1," + &"]".repeat(300));
    assert!(d.fire_json(&broken).is_err());
}

/// Megabyte commands (1, 2, 4 MiB of `$(` nested to 30 levels, backticks, quotes, `|`, `;`,
/// and the same nested past the bound) are judged and the guard runs. That the work is linear
/// is counted in `if_rule`'s unit test `judging_work_grows_linearly_with_the_command`; the times
/// are printed here, not asserted (tests share 2 cores: a loaded machine once made 1 → 2 MiB
/// take 4×).
#[test]
fn if_rules_judge_megabyte_commands_and_run_the_guard() {
    let d = rm_guard(60.0);
    let balanced = "$(".repeat(30) + "a `b` \"c;d\" 'e|f' | g && h ; " + &")".repeat(30) + " ; ";
    for unit in [balanced.as_str(), "$(a `b` \"c;d\" 'e|f' | g && h ; "] {
        let mut times = Vec::new();
        for mib in [1usize, 2, 4] {
            let n = (mib << 20) / unit.len();
            let close = if unit.ends_with(" ; ") { String::new() } else { ")".repeat(n) };
            let cmd = unit.repeat(n) + &close;
            let t = Instant::now();
            let r = fire(&d, &bash(&cmd));
            times.push(t.elapsed());
            assert_eq!(r["decision"], "deny", "{mib} MiB: an undecidable rule runs the guard");
        }
        eprintln!("if rule on 1, 2, 4 MiB of {unit:?}: {times:?}");
    }
}

/// Finding 5: one lone surrogate escape in a model-written string made the event `invalid_json`
/// and no hook ran.
#[test]
fn lone_surrogate_escapes_in_events_are_accepted_and_hooks_get_the_bytes_as_sent() {
    let d = guard_of_rm("cat >&2; exit 2", None);
    for cut in [r"\ud800", r"\udfff", r"\ud83d", r"x\udc00y"] {
        let text = format!(
            r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"rm -rf / {cut}"}}}}"#
        );
        let r: Value = serde_json::from_str(&d.fire_json(&text).unwrap()).unwrap();
        assert_eq!(r["decision"], "deny", "{cut}: {r}");
        assert_eq!(r["reason"], text.as_str(), "the hook reads the bytes as sent");
    }
    // A hook's output with a lone surrogate is read too (its reason becomes U+FFFD).
    let d = Dispatcher::new(
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command":
            r#"printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no \ud800"}}'"#}]}]}})
        .to_string(),
    )
    .unwrap();
    let r = fire(&d, &bash("ls"));
    assert_eq!(r["decision"], "deny", "{r}");
    assert_eq!(r["reason"], "no \u{fffd}");
}

/// RFC 8259's grammar has no range: `1e400`, `-1e400` and a 400-digit integer are JSON numbers
/// (JavaScript reads them as `Infinity`), but no double holds them and serde_json refused the
/// whole text ("number out of range"). An event whose model-written tool input carried one was
/// `invalid_json` and no hook ran (the bridge exited 1: the agent ran the tool); a hook's
/// deny beside one was read as plain text and lost. Each is read as `null` now, and hooks still
/// get the event's bytes as sent.
#[test]
fn numbers_no_double_holds_keep_every_guard_and_every_verdict() {
    let d = guard_of_rm("cat >&2; exit 2", None);
    let long = "9".repeat(400);
    for n in ["1e400", "-1e400", "1E+999", "-0.5e309", long.as_str()] {
        let text = format!(
            r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"rm -rf /","timeout":{n},"n":[{n},"{n}"]}},"x":{n}}}"#
        );
        let r: Value =
            serde_json::from_str(&d.fire_json(&text).expect("an event with a huge number is read")).unwrap();
        assert_eq!(r["decision"], "deny", "{n}: {r}");
        assert_eq!(r["reason"], text.as_str(), "the hook reads the bytes as sent");
    }
    // Past the quick reader's 4 KiB, and nested past the depth every parser refuses.
    let pad = "p".repeat(8192);
    let deep = format!("{}1e400{}", "[".repeat(200), "]".repeat(200));
    for extra in [format!(r#""pad":"{pad}""#), format!(r#""deep":{deep}"#)] {
        let text = format!(
            r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"rm -rf /","n":1e400,{extra}}}}}"#
        );
        let r: Value = serde_json::from_str(&d.fire_json(&text).expect("read")).unwrap();
        assert_eq!(r["decision"], "deny", "{}: {r}", &extra[..8]);
    }
    // A hook's deny beside such a number is still a deny, in its JSON and in a large one.
    for pad in ["", &"p".repeat(8192)] {
        let out = format!(
            r#"{{"n":1e400,"pad":"{pad}","hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}}}"#
        );
        let d = Dispatcher::new(
            &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": format!("printf '%s' '{out}'")}]}]}})
                .to_string(),
        )
        .unwrap();
        let r = fire(&d, &bash("ls"));
        assert_eq!((r["decision"].as_str(), r["reason"].as_str()), (Some("deny"), Some("no")), "{r}");
    }
}

/// A timeout below 1 ms can never start a process: a configuration error, in every dialect,
/// not a hook reported "not started: max_parallel slots busy".
#[test]
fn timeouts_below_a_millisecond_are_invalid_config() {
    let cases = [
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true", "timeout": 1e-300}]}]}}),
        json!({"limits": {"default_timeout_s": 1e-9}, "hooks": {}}),
        json!({"dialect": "j-cli", "hooks": {"pre_tool_execution": [{"command": "true", "timeout": 1e-300}]}}),
    ];
    for c in cases {
        let e = Dispatcher::new(&c.to_string()).err().unwrap().details();
        assert_eq!(e.kind.as_str(), "invalid_config", "{c}: {e:?}");
        assert!(e.message.contains("0.001"), "{e:?}");
    }
}

/// The cause an outcome gives is the one that happened: hooks that time out right after
/// starting never claim they waited for a slot.
#[test]
fn a_timed_out_outcome_never_claims_busy_slots_that_were_free() {
    let hooks: Vec<Value> =
        (0..8).map(|_| json!({"type": "command", "command": "sleep 2", "timeout": 0.001})).collect();
    let d = Dispatcher::new(&json!({"hooks": {"PreToolUse": [{"hooks": hooks}]}}).to_string()).unwrap();
    let r = fire(&d, &bash("ls"));
    for o in r["outcomes"].as_array().unwrap() {
        assert_eq!(o["status"], "timed_out", "{o}");
        assert!(!o["error"].as_str().unwrap_or("").contains("slots busy"), "{o}");
    }
}

fn session_start(commands: &[&str]) -> Dispatcher {
    let hooks: Vec<Value> =
        commands.iter().map(|c| json!({"type": "command", "command": c, "timeout": 2})).collect();
    Dispatcher::new(&json!({"hooks": {"SessionStart": [{"hooks": hooks}]}}).to_string()).unwrap()
}

/// Finding 3: a hook that replaced its `CLAUDE_ENV_FILE` by a FIFO hung the fire forever (the
/// file was opened with a blocking open). Symlinks, FIFOs, directories and oversized files are
/// each ignored with a warning, within the hook's deadline.
#[test]
fn an_env_file_replaced_by_a_fifo_symlink_or_giant_never_hangs_or_leaks() {
    let secret = Scratch::new("secret");
    let target = secret.path().join("target");
    std::fs::write(&target, "STOLEN=1\n").unwrap();
    let cases = [
        (r#"rm -f "$CLAUDE_ENV_FILE" && mkfifo "$CLAUDE_ENV_FILE""#.to_string(), "not a regular file"),
        (
            format!(r#"rm -f "$CLAUDE_ENV_FILE" && ln -s '{}' "$CLAUDE_ENV_FILE""#, target.display()),
            "symlink",
        ),
        (r#"rm -f "$CLAUDE_ENV_FILE" && mkdir "$CLAUDE_ENV_FILE""#.to_string(), "not a regular file"),
        (r#"head -c 3000000 /dev/zero | tr '\0' 'A' > "$CLAUDE_ENV_FILE""#.to_string(), "larger than"),
    ];
    for (cmd, why) in cases {
        let d = session_start(&[&cmd]);
        // A blocking open of the FIFO waits forever; 30 s tells that from a loaded machine.
        let r = finishes(&cmd, Duration::from_secs(30), move || {
            fire(&d, &json!({"hook_event_name": "SessionStart", "source": "startup"}))
        });
        assert_eq!(r["outcomes"][0]["status"], "ok", "{cmd}: {r}");
        assert_eq!(r["env"], json!({}), "{cmd}: {r}");
        assert!(
            warnings(&r).iter().any(|w| w.contains("CLAUDE_ENV_FILE ignored") && w.contains(why)),
            "{cmd}: {r}"
        );
    }
}

/// Finding 4: env-file names were a counter in a per-dispatcher directory; a hook that made
/// the next names broke every later hook with `spawn_failed` "File exists".
#[test]
fn env_file_names_cannot_be_guessed_or_squatted() {
    let squat = r#"d=$(dirname "$CLAUDE_ENV_FILE"); for i in $(seq 0 64); do touch "$d/env-$i" "$d/../env-$i"; done; printf '%s\n' "$CLAUDE_ENV_FILE" >&2"#;
    let set = r#"echo "SEEN=1" > "$CLAUDE_ENV_FILE""#;
    let d = session_start(&[squat, set]);
    let mut paths = Vec::new();
    for _ in 0..3 {
        let r = fire(&d, &json!({"hook_event_name": "SessionStart", "source": "startup"}));
        for o in r["outcomes"].as_array().unwrap() {
            assert_eq!(o["status"], "ok", "{o}");
        }
        assert_eq!(r["env"], json!({"SEEN": "1"}), "{r}");
        let path = PathBuf::from(r["outcomes"][0]["stderr"].as_str().unwrap().trim());
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            name.len() >= 32 && name.trim_start_matches("env-").chars().all(|c| c.is_ascii_hexdigit()),
            "{name}"
        );
        assert!(!path.parent().unwrap().exists(), "the fire's directory is removed: {path:?}");
        paths.push(path);
    }
    let dirs: std::collections::HashSet<_> =
        paths.iter().map(|p| p.parent().unwrap().to_path_buf()).collect();
    assert_eq!(dirs.len(), 3, "one private directory per fire: {paths:?}");
    for i in 0..=64 {
        let _ = std::fs::remove_file(std::env::temp_dir().join(format!("env-{i}")));
    }
}

/// The same class as finding 3 for settings files: a hook can turn `.claude/settings.local.json`
/// into a FIFO; the next dispatcher must not hang on it, trusted or not.
#[test]
fn a_settings_file_replaced_by_a_fifo_never_hangs_the_host() {
    let dir = Scratch::new("fifo-settings");
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    let fifo = dir.path().join(".claude/settings.local.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for trusted in [false, true] {
        let envelope = json!({"project_dir": dir.path(),
                              "sources": [{"scope": "local", "path": ".claude/settings.local.json", "trusted": trusted}]});
        let d = finishes("a dispatcher over a FIFO", Duration::from_secs(30), move || {
            Dispatcher::new(&envelope.to_string()).unwrap()
        });
        let r = fire(&d, &json!({"hook_event_name": "Stop"}));
        assert!(warnings(&r).iter().any(|w| w.contains("not a regular file")), "{r}");
    }
}

/// Hook output as deep as serde_json allows, copied into the result, made a result deeper
/// than a serde_json host can read: the verdict was lost in the host. Output past 64 levels
/// is now refused like invalid JSON, and every result stays readable.
#[test]
fn deep_hook_output_never_makes_an_unreadable_result() {
    let dir = Scratch::new("deep-output");
    for n in [60usize, 70, 124] {
        let inner = "[".repeat(n) + "1" + &"]".repeat(n);
        let out = format!(
            r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{{"x":{inner}}}}}}}"#
        );
        let file = dir.path().join("out.json");
        std::fs::write(&file, out).unwrap();
        let d = Dispatcher::new(
            &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": format!("cat '{}'", file.display())}]}]}})
                .to_string(),
        )
        .unwrap();
        let text = d.fire_json(&bash("ls").to_string()).unwrap();
        let r: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{n}: the result is unreadable: {e}"));
        if n < 64 {
            assert_eq!(r["decision"], "allow", "{r}");
        } else {
            assert!(r["decision"].is_null(), "{r}");
            assert!(warnings(&r).iter().any(|w| w.contains("nested more than 64")), "{n}: {r}");
        }
    }
}

/// An event's own values reach a hook's environment (`CLAUDE_PROJECT_DIR` from `cwd`, iFlow's
/// `IFLOW_TOOL_ARGS` from `tool_input`). One longer than the kernel takes for a variable used to
/// make the spawn fail (`E2BIG`), so the guard never ran and the tool ran: a hostile event
/// disabled a guard. The variable is dropped with a warning and the guard runs.
#[test]
fn an_event_too_large_for_the_hooks_environment_keeps_no_guard_from_running() {
    let guard = |dialect: &str| {
        let config = json!({"dialect": dialect, "hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "echo no >&2; exit 2"}]}]}});
        Dispatcher::new(&config.to_string()).expect("the guard loads")
    };
    let huge_cwd = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": format!("/{}", "a".repeat(200_000)),
        "tool_name": "Bash", "tool_input": {"command": "rm -rf x"}});
    let huge_input = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/tmp",
        "tool_name": "Bash", "tool_input": {"command": "rm -rf x", "pad": "y".repeat(200_000)}});
    for (dialect, event) in [("claude-code", &huge_cwd), ("iflow", &huge_input), ("iflow", &huge_cwd)] {
        let r = fire(&guard(dialect), event);
        let short: Vec<String> = warnings(&r).iter().map(|w| w.chars().take(160).collect()).collect();
        assert_eq!(r["decision"], "deny", "{dialect}: {short:?}");
        assert!(
            short.iter().any(|w| w.contains("too large for a hook's environment")),
            "{dialect}: {short:?}"
        );
    }
}
