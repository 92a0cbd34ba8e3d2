//! The `hookwire` binary end to end: each subcommand on the committed examples and on broken
//! files, exit codes, and the `explain` text pinned by snapshots (durations masked).
//! Set `UPDATE_SNAPSHOTS=1` to rewrite the snapshots after an intended change.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn hookwire_with_stdin(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env_remove("HOOKWIRE_LOG")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn hookwire(args: &[&str]) -> Output {
    hookwire_with_stdin(args, None)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

/// Replaces every `<number> ms` with `<ms> ms`: durations differ from run to run.
fn mask_durations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" ms") {
        let head = &rest[..at];
        let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').len();
        if digits > 0 {
            out.push_str(&head[..head.len() - digits]);
            out.push_str("<ms>");
        } else {
            out.push_str(head);
        }
        out.push_str(" ms");
        rest = &rest[at + 3..];
    }
    out.push_str(rest);
    out
}

fn assert_snapshot(name: &str, actual: &str) {
    let path = root().join("cli/tests/snapshots").join(format!("{name}.txt"));
    let actual = mask_durations(actual);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(actual, expected, "explain text differs from {}", path.display());
}

fn explain(config: &str) -> Output {
    hookwire(&["explain", "--config", config, "examples/pre-tool-use.json"])
}

#[test]
fn explain_of_a_deny_names_the_hook_its_exit_code_and_the_fold() {
    let o = explain("examples/settings.json");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_snapshot("explain-deny", &stdout(&o));
}

#[test]
fn explain_of_an_ask_exits_zero_and_shows_the_reason() {
    let o = explain("examples/ask.json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_snapshot("explain-ask", &stdout(&o));
}

#[test]
fn explain_of_a_timeout_shows_the_kill_and_the_other_hooks_verdict() {
    let o = explain("examples/timeout.json");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_snapshot("explain-timeout", &stdout(&o));
}

#[test]
fn explain_of_a_multi_hook_fold_shows_every_verdict_and_the_winner() {
    let o = explain("examples/multi-hook.json");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_snapshot("explain-multi-hook", &stdout(&o));
}

#[test]
fn explain_json_carries_the_plan_and_the_result() {
    let o = hookwire(&[
        "--json",
        "explain",
        "--config",
        "examples/multi-hook.json",
        "examples/pre-tool-use.json",
    ]);
    let v = json_of(&o);
    assert_eq!(v["result"]["decision"], "deny");
    assert_eq!(v["plan"].as_array().unwrap().len(), 6);
    assert_eq!(v["plan"][5]["runs"], false);
}

#[test]
fn fire_prints_the_result_json_and_exits_2_on_deny() {
    let o = hookwire(&["fire", "--config", "examples/settings.json", "examples/pre-tool-use.json"]);
    assert_eq!(o.status.code(), Some(2));
    let v = json_of(&o);
    assert_eq!(v["decision"], "deny");
    assert_eq!(v["reason"], "refusing rm -rf: rm -rf /");
    assert_eq!(v["additional_context"], "audited by hookwire");
    assert_eq!(stdout(&o).lines().count(), 1, "compact by default");
}

/// `hookwire fire` of the deny example with extra arguments and environment.
fn fire_deny_with(args: &[&str], env: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hookwire"));
    cmd.arg("fire").args(args).args(["--config", "examples/settings.json", "examples/pre-tool-use.json"]);
    cmd.current_dir(root()).env_remove("HOOKWIRE_LOG").stdin(Stdio::null());
    if let Some(filter) = env {
        cmd.env("HOOKWIRE_LOG", filter);
    }
    cmd.output().unwrap()
}

#[test]
fn logs_go_to_stderr_only_when_asked_and_stdout_stays_the_result_json() {
    let quiet = fire_deny_with(&[], None);
    assert_eq!(stderr(&quiet), "");
    let debug = fire_deny_with(&["-vv"], None);
    assert_eq!(debug.status.code(), Some(2));
    assert_eq!(json_of(&debug)["decision"], "deny");
    let log = stderr(&debug);
    for event in ["fire.start", "hook.selected", "hook.spawned", "hook.exited", "hook.verdict", "fire.done"] {
        assert!(log.contains(&format!("event=\"{event}\"")), "{event} missing from:\n{log}");
    }
    assert!(!log.contains("rm -rf"), "no payload below trace:\n{log}");
    let trace = stderr(&fire_deny_with(&["-vvv"], None));
    assert!(trace.contains("event=\"hook.input\"") && trace.contains("rm -rf"), "{trace}");
}

#[test]
fn log_level_wins_over_v_which_wins_over_hookwire_log() {
    let info = stderr(&fire_deny_with(&[], Some("info")));
    assert!(info.contains(" INFO ") && info.contains("event=\"fire.done\""), "{info}");
    assert!(!info.contains("DEBUG"), "{info}");
    let filtered = stderr(&fire_deny_with(&[], Some("hookwire::hook=debug")));
    assert!(filtered.contains("hook.spawned") && !filtered.contains("fire.done"), "{filtered}");
    let v = stderr(&fire_deny_with(&["-v"], Some("trace")));
    assert!(v.contains("fire.done") && !v.contains("DEBUG"), "{v}");
    let off = stderr(&fire_deny_with(&["-vv", "--log-level", "off"], Some("trace")));
    assert_eq!(off, "");
    let bad = stderr(&fire_deny_with(&[], Some("hookwire=loud")));
    assert!(bad.starts_with("hookwire: HOOKWIRE_LOG ignored"), "{bad}");
}

#[test]
fn fire_reads_the_event_from_stdin_and_exits_0_without_a_deny() {
    let event =
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp"}"#;
    let o =
        hookwire_with_stdin(&["fire", "--pretty", "--config", "examples/settings.json", "-"], Some(event));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().count() > 10, "--pretty indents");
    let v = json_of(&o);
    assert_eq!(v["decision"], Value::Null);
    assert_eq!(v["outcomes"].as_array().unwrap().len(), 2);
}

#[test]
fn fire_with_an_invalid_event_exits_1_with_line_and_column() {
    let o =
        hookwire_with_stdin(&["fire", "--config", "examples/settings.json"], Some("{\"hook_event_name\": }"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("<stdin>:1:"), "{}", stderr(&o));
    let o = hookwire_with_stdin(&["--json", "fire", "--config", "examples/settings.json"], Some("{}"));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(json_of(&o)["error"]["kind"], "invalid_event");
}

#[test]
fn fire_with_an_unreadable_settings_file_warns_on_stderr_and_runs_no_hook() {
    let o = hookwire(&[
        "fire",
        "--config",
        "cli/tests/fixtures/broken-syntax.json",
        "examples/pre-tool-use.json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("cli/tests/fixtures/broken-syntax.json:3:20: skipped: invalid JSON: expected value"),
        "{err}"
    );
    assert_eq!(json_of(&o)["outcomes"], serde_json::json!([]));
}

#[test]
fn fire_with_an_invalid_envelope_exits_1_naming_file_line_and_pointer() {
    let o = hookwire(&[
        "--json",
        "fire",
        "--config",
        "cli/tests/fixtures/envelope-wrong-type.json",
        "examples/pre-tool-use.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = &json_of(&o)["error"];
    assert_eq!(e["kind"], "invalid_config");
    assert_eq!(e["pointer"], "/sources/0/settings/hooks/PreToolUse/0/hooks/0/timeout");
    assert_eq!((e["line"].as_u64(), e["column"].as_u64()), (Some(8), Some(95)));
}

#[test]
fn validate_accepts_the_examples() {
    let o = hookwire(&[
        "validate",
        "examples/settings.json",
        "examples/multi-hook.json",
        "examples/timeout.json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("examples/settings.json: ok (claude-code; 0 errors, 0 warnings)"));
}

#[test]
fn validate_names_file_line_column_and_pointer_of_every_problem() {
    let o = hookwire(&[
        "validate",
        "cli/tests/fixtures/wrong-type.json",
        "cli/tests/fixtures/broken-syntax.json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    for want in [
        "cli/tests/fixtures/wrong-type.json:8:62: error: `timeout` must be a number; dropped [pointer /hooks/PreToolUse/0/hooks/1/timeout]",
        "cli/tests/fixtures/wrong-type.json:13:19: error: a command handler needs a non-empty `command` string; dropped [pointer /hooks/Stop/0/hooks/0/command]",
        "cli/tests/fixtures/wrong-type.json:15:20: error: unknown event \"NoSuchEvent\"; its hooks are skipped [pointer /hooks/NoSuchEvent]",
        "cli/tests/fixtures/broken-syntax.json:3:20: error: invalid JSON: expected value",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
}

#[test]
fn validate_json_lists_errors_and_warnings_per_file() {
    let o = hookwire(&["--json", "validate", "cli/tests/fixtures/wrong-type.json", "examples/settings.json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(v["valid"], false);
    assert_eq!(v["files"][0]["errors"].as_array().unwrap().len(), 3, "{v}");
    assert_eq!(v["files"][0]["errors"][0]["pointer"], "/hooks/PreToolUse/0/hooks/1/timeout");
    assert_eq!(v["files"][0]["errors"][2]["kind"], "never_runs");
    assert_eq!(v["files"][0]["warnings"].as_array().unwrap().len(), 0);
    assert_eq!(v["files"][1]["valid"], true);
}

#[test]
fn validate_detects_yaml_dialects_from_their_keys() {
    let o = hookwire(&[
        "--json",
        "validate",
        "cli/tests/fixtures/neocode-hooks.yaml",
        "cli/tests/fixtures/ub-config.yaml",
        "cli/tests/fixtures/jcli-hooks.yaml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v = json_of(&o);
    let dialects: Vec<&str> =
        v["files"].as_array().unwrap().iter().map(|f| f["dialect"].as_str().unwrap()).collect();
    assert_eq!(dialects, ["neocode", "ub", "j-cli"]);
}

#[test]
fn validate_reports_broken_yaml_with_its_position() {
    let o = hookwire(&["validate", "cli/tests/fixtures/broken.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("cli/tests/fixtures/broken.yaml:4:1: error: invalid YAML"), "{}", stdout(&o));
}

#[test]
fn validate_calls_a_matcher_that_can_never_match_an_error_and_keeps_the_engines_reason() {
    let o = hookwire(&["validate", "cli/tests/fixtures/bad-regex.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let want = "cli/tests/fixtures/bad-regex.json:1:36: error: session:PreToolUse[0]: invalid or unsupported regex \"Bash(\": error: unclosed group; this group never runs [pointer /hooks/PreToolUse/0/matcher]";
    assert!(stdout(&o).contains(want), "{}", stdout(&o));
}

#[test]
fn validate_reports_every_handler_that_can_never_run_as_an_error_and_the_rest_as_warnings() {
    let o = hookwire(&["validate", "cli/tests/fixtures/never-runs.json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let f = "cli/tests/fixtures/never-runs.json";
    for want in [
        format!(
            "{f}:6:29: error: session:PreToolUse[0].hooks[0]: unknown handler type \"comand\"; skipped [pointer /hooks/PreToolUse/0/hooks/0/type]"
        ),
        format!(
            "{f}:10:15: warning: session:PreToolUse[1]: `if` belongs on a handler, not on its matcher group; ignored here, so the group's hooks run on every PreToolUse event [pointer /hooks/PreToolUse/1/if]"
        ),
        format!("{f}:11:19: warning: session:PreToolUse[1]: unknown group key \"colour\" ignored"),
        format!(
            "{f}:12:76: warning: session:PreToolUse[1].hooks[0]: timeout 10000 is in seconds, not milliseconds (2.8 hours)"
        ),
        format!(
            "{f}:16:29: error: session:PreCompact[0].hooks[0]: agent handlers are not accepted on PreCompact; dropped"
        ),
        format!(
            "{f}:19:20: error: session:SessionStart[0]: matcher \"startp\" matches none of the values Claude Code sends in `source` on SessionStart"
        ),
        format!(
            "{f}:20:71: error: session:SessionStart[1].hooks[0]: `if` applies to tool events only; on SessionStart this handler never runs"
        ),
        format!("{f}:22:20: error: unknown event \"PreToolUse \"; its hooks are skipped"),
        format!("{f}: invalid (claude-code; 5 errors, 3 warnings)"),
    ] {
        assert!(out.contains(&want), "missing {want:?} in:\n{out}");
    }
}

#[test]
fn validate_reports_the_same_message_at_two_places_twice() {
    let o = hookwire(&["--json", "validate", "cli/tests/fixtures/flat-handlers.json"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    let pointers: Vec<&str> =
        v["files"][0]["errors"].as_array().unwrap().iter().map(|e| e["pointer"].as_str().unwrap()).collect();
    assert_eq!(pointers, ["/hooks/PreToolUse/0", "/hooks/PostToolUse/0"]);
}

#[test]
fn validate_counts_in_the_singular_for_one() {
    let o = hookwire(&["validate", "cli/tests/fixtures/broken-syntax.json"]);
    assert!(stdout(&o).contains("invalid (claude-code; 1 error, 0 warnings)"), "{}", stdout(&o));
}

#[test]
fn fire_reads_a_settings_file_by_the_file_rules_skipping_only_its_broken_parts() {
    // wrong-type.json: a broken handler in PreToolUse's group 0 (hooks[1]); the other one runs.
    let o =
        hookwire(&["fire", "--config", "cli/tests/fixtures/wrong-type.json", "examples/pre-tool-use.json"]);
    assert_ne!(o.status.code(), Some(1), "a broken group is not an invalid configuration: {}", stderr(&o));
    let v = json_of(&o);
    assert!(!v["outcomes"].as_array().unwrap().is_empty(), "the rest of the file runs: {v}");
    let err = stderr(&o);
    assert!(
        err.contains("cli/tests/fixtures/wrong-type.json:8:62: skipped: `timeout` must be a number; dropped"),
        "{err}"
    );
}

#[test]
fn fire_with_empty_stdin_says_so_without_a_position() {
    let o = hookwire_with_stdin(&["fire", "--config", "examples/settings.json"], Some(""));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("<stdin>: no event JSON on stdin (it was empty)"), "{}", stderr(&o));
}

#[test]
fn version_names_the_claude_code_release_it_reproduces() {
    let o = hookwire(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim(), format!("hookwire {} (Claude Code 2.1.332)", env!("CARGO_PKG_VERSION")));
}

#[test]
fn validate_knows_the_matcher_values_of_the_2_1_332_events() {
    let dir = std::env::temp_dir().join(format!("hookwire-cc332-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("settings.json");
    std::fs::write(
        &file,
        r#"{"hooks":{"PreSkillShellCommand":[{"matcher":"Bash|PowerShell","hooks":[{"type":"command","command":"x"}]},
                                            {"matcher":"Read","hooks":[{"type":"command","command":"x"}]}],
                     "PreModelSwitch":[{"matcher":"claude-opus-4-5","hooks":[{"type":"command","command":"x"}]}],
                     "PostModelSwitch":[{"hooks":[{"type":"command","command":"x"}]}]}}"#,
    )
    .unwrap();
    let o = hookwire(&["validate", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "a group that never runs is an error: {out}");
    assert!(out.contains("matcher \"Read\" matches none of the values Claude Code sends in `tool_name` on PreSkillShellCommand (Bash, PowerShell)"), "{out}");
    assert!(!out.contains("PreSkillShellCommand[0]") && !out.contains("unknown event"), "{out}");
    assert!(!out.contains("PreModelSwitch[0]"), "model ids are an open set: {out}");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace(r#""matcher":"Read""#, r#""matcher":"PowerShell""#)).unwrap();
    let o = hookwire(&["validate", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn validate_reads_rewake_keys_and_accepts_command_windows() {
    let dir = std::env::temp_dir().join(format!("hookwire-rewake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("settings.json");
    let settings = r#"{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"./check.sh",
        "commandWindows":"check.cmd","asyncRewake":true,"rewakeMessage":"tests failed"}]}]}}"#;
    std::fs::write(&file, settings).unwrap();
    let o = hookwire(&["validate", file.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // Claude Code 2.1.332 reads `rewakeMessage` with `asyncRewake`: nothing to warn about.
    assert!(!out.contains("rewakeMessage"), "{out}");
    std::fs::write(&file, settings.replace("\"asyncRewake\":true,", "")).unwrap();
    let out = stdout(&hookwire(&["validate", file.to_str().unwrap()]));
    assert!(out.contains("`rewakeMessage` is read only with `asyncRewake: true`"), "{out}");
    assert!(!out.contains("commandWindows"), "{out}");
    std::fs::write(&file, settings.replace("\"commandWindows\":\"check.cmd\"", "\"commandWindows\":5"))
        .unwrap();
    let o = hookwire(&["validate", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn list_of_an_unknown_event_name_is_an_error_that_suggests_the_name() {
    let o = hookwire(&["list", "--config", "examples/settings.json", "--event", "PreTool"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown event \"PreTool\"; did you mean PreToolUse"), "{}", stderr(&o));
}

#[test]
fn validate_refuses_an_unknown_dialect() {
    let o = hookwire(&["validate", "--dialect", "vim", "examples/settings.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown dialect \"vim\""), "{}", stderr(&o));
}

#[test]
fn list_shows_each_hook_with_its_source_and_matcher() {
    let o = hookwire(&["list", "--config", "examples/multi-hook.json"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("session:PreToolUse[3].hooks[0]  from session examples/multi-hook.json"), "{out}");
    assert!(out.contains("matcher  exact Edit|Write"), "{out}");
}

#[test]
fn list_for_an_event_and_tool_says_which_hooks_run_and_why() {
    let o = hookwire(&[
        "list",
        "--config",
        "examples/multi-hook.json",
        "--event",
        "PreToolUse",
        "--tool",
        "Edit",
    ]);
    let out = stdout(&o);
    assert!(out.contains("PreToolUse (tool Edit): 2 of 6 hooks would run"), "{out}");
    assert!(out.contains("matcher exact Bash does not match \"Edit\""), "{out}");
    let o = hookwire(&[
        "--json",
        "list",
        "--config",
        "examples/multi-hook.json",
        "--event",
        "examples/pre-tool-use.json",
    ]);
    let runs: Vec<bool> =
        json_of(&o)["plan"].as_array().unwrap().iter().map(|e| e["runs"].as_bool().unwrap()).collect();
    assert_eq!(runs, [true, true, true, true, true, false]);
}

/// A scratch project with one project settings file and its own trust store.
struct Project(PathBuf);

impl Project {
    fn new(name: &str) -> Project {
        let dir = std::env::temp_dir().join(format!("hookwire-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".claude")).unwrap();
        std::fs::write(
            dir.join(".claude/settings.json"),
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo project hook ran >&2; exit 2"}]}]}}"#,
        )
        .unwrap();
        let envelope = serde_json::json!({
            "project_dir": dir,
            "trust": {"store": dir.join("state/trust.json")},
            "sources": [{"scope": "project", "path": ".claude/settings.json"}]
        });
        std::fs::write(dir.join("envelope.json"), envelope.to_string()).unwrap();
        std::fs::write(dir.join("stop.json"), r#"{"hook_event_name":"Stop","cwd":"/tmp"}"#).unwrap();
        Project(dir)
    }
    fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn trust_shows_untrusted_project_files_and_record_trusts_them() {
    let p = Project::new("trust");
    let cfg = p.file("envelope.json");
    let o = hookwire(&["trust", "--config", &cfg]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("untrusted  project"), "{}", stdout(&o));
    let fired = hookwire(&["fire", "--config", &cfg, &p.file("stop.json")]);
    assert_eq!(fired.status.code(), Some(0), "an untrusted project hook never runs");

    let o = hookwire(&["--json", "trust", "--config", &cfg, "--record"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(json_of(&o)["sources"][0]["trusted"], true);
    let fired = hookwire(&["fire", "--config", &cfg, &p.file("stop.json")]);
    assert_eq!(fired.status.code(), Some(2), "the trusted project hook blocks: {}", stdout(&fired));
    assert_eq!(json_of(&fired)["reason"], "project hook ran");
}

#[test]
fn trust_shows_a_user_source_marked_trusted_false_and_record_cannot_trust_it() {
    let p = Project::new("userfalse");
    let hooks =
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo unreviewed >&2; exit 2"}]}]}}"#;
    let envelope = serde_json::json!({
        "project_dir": p.0,
        "trust": {"store": p.0.join("state/trust.json")},
        "sources": [{"scope": "user", "trusted": false, "settings": serde_json::from_str::<serde_json::Value>(hooks).unwrap()}]
    });
    std::fs::write(p.0.join("user-false.json"), envelope.to_string()).unwrap();
    let cfg = p.file("user-false.json");
    let o = hookwire(&["trust", "--config", &cfg]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("untrusted  user (inline settings)"), "{out}");
    assert!(out.contains("the source says \"trusted\": false"), "{out}");
    assert!(!out.contains("--record"), "recording cannot trust it: {out}");
    let o = hookwire(&["--json", "trust", "--config", &cfg, "--record"]);
    assert_eq!(json_of(&o)["sources"][0]["scope"], "user");
    assert_eq!(json_of(&o)["sources"][0]["trusted"], false);
    let fired = hookwire(&["fire", "--config", &cfg, &p.file("stop.json")]);
    assert_eq!(fired.status.code(), Some(0), "the user hook never runs: {}", stdout(&fired));
}

#[test]
fn help_documents_the_exit_codes() {
    let o = hookwire(&["fire", "--help"]);
    let out = stdout(&o);
    assert!(out.contains("2  the decision is deny or block"), "{out}");
    assert!(out.contains("1  an error"), "{out}");
}

#[test]
fn durations_are_masked_in_snapshots() {
    assert_eq!(mask_durations("exit 0 after 12.5 ms, 3 ms"), "exit 0 after <ms> ms, <ms> ms");
}

/// Runs the binary with `HOME` and `XDG_CONFIG_HOME` inside `home`, so Claude Code's default
/// sources (the user file, the default trust store) are the test's own.
fn hookwire_at_home(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(args)
        .current_dir(root())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("xdg"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn without_config_the_user_project_and_local_files_of_the_project_are_layered() {
    let p = Project::new("defaults");
    let home = p.0.join("home");
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::write(
        home.join(".claude/settings.json"),
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo user hook ran"}]}]}}"#,
    )
    .unwrap();
    std::fs::write(p.0.join(".claude/settings.local.json"), r#"{"hooks":{}}"#).unwrap();
    let project = p.0.to_string_lossy().into_owned();

    let o = hookwire_at_home(&home, &["--json", "trust", "--project", &project]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let status = json_of(&o);
    let canonical = p.0.canonicalize().unwrap();
    assert_eq!(status["project_dir"], canonical.to_str().unwrap());
    let store = home.join("xdg/hookwire/trust.json");
    assert_eq!(status["store"], store.to_str().unwrap(), "the default store: {status}");
    let scopes: Vec<&str> =
        status["sources"].as_array().unwrap().iter().map(|s| s["scope"].as_str().unwrap()).collect();
    assert_eq!(scopes, ["project", "local"], "{status}");

    // The user hook runs; the untrusted project hook does not, until trust is recorded.
    let fired = hookwire_at_home(&home, &["fire", "--project", &project, &p.file("stop.json")]);
    assert_eq!(fired.status.code(), Some(0), "{}", stderr(&fired));
    assert_eq!(json_of(&fired)["outcomes"].as_array().unwrap().len(), 1, "{}", stdout(&fired));
    let o = hookwire_at_home(&home, &["trust", "--project", &project, "--record"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(store.is_file());
    let fired = hookwire_at_home(&home, &["fire", "--project", &project, &p.file("stop.json")]);
    assert_eq!(fired.status.code(), Some(2), "the trusted project hook blocks: {}", stdout(&fired));

    let o = hookwire_at_home(&home, &["fire", "--project", &p.file("missing"), &p.file("stop.json")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("project directory: "), "{}", stderr(&o));
}

#[test]
fn validate_detects_codex_gemini_and_cursor_files_by_their_directory() {
    let o = hookwire(&[
        "--json",
        "validate",
        "cli/tests/fixtures/agents/.codex/config.toml",
        "cli/tests/fixtures/agents/.gemini/settings.json",
        "cli/tests/fixtures/agents/.cursor/hooks.json",
    ]);
    let v = json_of(&o);
    let dialects: Vec<&str> =
        v["files"].as_array().unwrap().iter().map(|f| f["dialect"].as_str().unwrap()).collect();
    assert_eq!(dialects, ["codex", "gemini", "cursor"]);
    // Codex never runs a prompt handler, and `Read, Bash` is one regex in Codex: both are said.
    let codex = v["files"][0]["errors"].to_string() + &v["files"][0]["warnings"].to_string();
    assert!(codex.contains("prompt"), "{codex}");
    // Gemini's comments are stripped and its event and tool names are its own.
    assert_eq!(v["files"][1]["valid"], true, "{}", v["files"][1]);
    assert_eq!(v["files"][2]["valid"], true, "{}", v["files"][2]);
}

#[test]
fn fire_runs_each_agents_own_file_by_its_own_rules() {
    let event = r#"{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf x"},"cwd":"/tmp"}"#;
    for file in [
        "cli/tests/fixtures/agents/.codex/config.toml",
        "cli/tests/fixtures/agents/.gemini/settings.json",
        "cli/tests/fixtures/agents/.cursor/hooks.json",
    ] {
        let o = hookwire_with_stdin(&["fire", "--config", file], Some(event));
        let v = json_of(&o);
        assert_eq!(v["decision"], "deny", "{file}: {v}");
        assert_eq!(v["reason"], "no rm", "{file}: {v}");
    }
}

#[test]
fn list_shows_an_agents_hooks_under_the_canonical_event() {
    let o = hookwire(&[
        "list",
        "--config",
        "cli/tests/fixtures/agents/.cursor/hooks.json",
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("beforeShellExecution[0]"), "{}", stdout(&o));
}

/// A directory for one async test: a settings file with `hooks` on PreToolUse, an event file.
fn async_setup(name: &str, hooks: Value) -> (PathBuf, String, String, Value) {
    let dir = std::env::temp_dir().join(format!("hookwire-cli-async-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}});
    std::fs::write(&settings, hooks.to_string()).unwrap();
    let event = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s1", "tool_name": "Bash",
                                   "tool_input": {"command": "ls"}, "cwd": dir});
    let event_file = dir.join("event.json");
    std::fs::write(&event_file, event.to_string()).unwrap();
    (dir, settings.to_string_lossy().into_owned(), event_file.to_string_lossy().into_owned(), event)
}

/// `f`'s first answer within `secs`.
fn within<T>(secs: u64, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if std::time::Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The JSON a hook wrote into `path`, waiting up to 10 s for it.
fn written(path: &Path) -> Option<Value> {
    within(10, || serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok())
}

/// Runs `hookwire <command> --config settings event.json` against one async hook writing
/// `async-ran`; returns its output, the directory and the event.
fn run_async_hook(command: &str) -> (Output, PathBuf, Value) {
    let (dir, settings, event_file, event) = async_setup(
        command,
        serde_json::json!([{"type": "command", "command": "cat > async-ran", "async": true}]),
    );
    let o = hookwire(&[command, "--config", &settings, &event_file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    (o, dir, event)
}

fn pid_alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| s.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
}

const ONE_SHOT: &str = "runs to completion after this result, but this host fires once";

#[test]
fn fire_runs_an_async_hook_to_completion_with_the_whole_event_on_its_stdin() {
    let (o, dir, event) = run_async_hook("fire");
    let r = json_of(&o);
    assert_eq!(r["outcomes"][0]["status"], "async");
    assert!(r["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains(ONE_SHOT)), "{r}");
    assert_eq!(written(&dir.join("async-ran")), Some(event));
}

#[test]
fn fire_answers_at_once_while_its_async_hooks_run_on_and_their_timeouts_still_kill_them() {
    let (dir, settings, event_file, event) = async_setup(
        "detach",
        serde_json::json!([
            {"type": "command", "command": "sleep 5; cat > late", "async": true, "timeout": 20},
            {"type": "command", "command": "echo $$ > pid; exec sleep 30", "async": true, "timeout": 1}]),
    );
    // `output()` returns once the process has exited and both its pipes are closed: what a shell
    // agent waits for. Had it waited for the 5 s hook, `late` would exist by then (no clock is
    // asserted: a loaded machine slows the command, not the hook's order of events).
    let o = hookwire(&["fire", "--config", &settings, &event_file]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!dir.join("late").exists(), "the slow hook was waited for");
    let pid: i32 = within(10, || std::fs::read_to_string(dir.join("pid")).ok()?.trim().parse().ok())
        .expect("the hook never started");
    // Its 1 s timeout kills it (SIGTERM to the group) although the command has long exited.
    assert!(within(6, || (!pid_alive(pid)).then_some(())).is_some(), "the async hook outlived its timeout");
    assert_eq!(written(&dir.join("late")), Some(event));
}

#[test]
fn explain_says_the_same_of_an_async_hook_and_runs_it() {
    let (o, dir, event) = run_async_hook("explain");
    let text = stdout(&o);
    assert!(text.contains("it runs to completion after this result") && text.contains(ONE_SHOT), "{text}");
    assert_eq!(written(&dir.join("async-ran")), Some(event));
}

#[test]
fn hookwire_test_waits_for_an_async_hook_and_says_the_same() {
    let (dir, settings, _, _) = async_setup(
        "test",
        serde_json::json!([{"type": "command", "command": format!("cat > '{}'", "async-ran"), "async": true}]),
    );
    let cases = serde_json::json!({"config": settings, "cases": [{
        "name": "async runs",
        "event": {"hook_event_name": "PreToolUse", "session_id": "s1", "tool_name": "Bash",
                  "tool_input": {"command": "ls"}, "cwd": dir},
        "expect": {"outcomes": [{"hook": "session:PreToolUse[0].hooks[0]", "status": "async"}]}}]});
    let case_file = dir.join("cases.json");
    std::fs::write(&case_file, cases.to_string()).unwrap();
    let o = hookwire(&["test", case_file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // `hookwire test` waited for the hook before it exited: the file is there at once.
    let ran: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("async-ran")).unwrap()).unwrap();
    assert_eq!(ran["tool_input"]["command"], "ls");
}

/// A `--config` file that names its dialect (`{"dialect": ..., "hooks": ...}`, the envelope form
/// without `sources`) is read in that dialect, not detected as a Claude Code settings file: a
/// Qwen timeout of 60000 is milliseconds there, so no "in seconds" warning (helper report,
/// issue 32).
#[test]
fn a_config_file_that_names_its_dialect_is_read_in_it() {
    let dir = std::env::temp_dir().join(format!("hookwire-named-dialect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("q.json");
    std::fs::write(
        &config,
        r#"{"dialect":"qwen-code","limits":{"max_parallel":4},
            "hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo hi","timeout":60000}]}]}}"#,
    )
    .unwrap();
    let event = r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"run_shell_command","tool_input":{}}"#;
    let out = hookwire_with_stdin(&["fire", "--config", config.to_str().unwrap()], Some(event));
    let result = json_of(&out);
    assert_eq!(result["warnings"], serde_json::json!([]), "{result}");
    assert_eq!(result["outcomes"][0]["stdout"], "hi\n");
    let validate = hookwire(&["validate", config.to_str().unwrap()]);
    assert!(stdout(&validate).contains("(qwen-code;"), "{}", stdout(&validate));
    assert!(!stdout(&validate).contains("in seconds"), "{}", stdout(&validate));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_clines_hooks_directory_is_validated_and_fired_as_clines() {
    let dir = std::env::temp_dir().join(format!("hookwire-cline-dir-{}", std::process::id()));
    let hooks = dir.join(".clinerules").join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::write(hooks.join("PreToolUse"), "printf '{\"cancel\":true,\"errorMessage\":\"no\"}'").unwrap();
    std::fs::write(hooks.join("PreToolUse.txt"), "exit 0").unwrap();
    let validate = hookwire(&["validate", hooks.to_str().unwrap()]);
    assert!(stdout(&validate).contains("(cline;"), "{}", stdout(&validate));
    assert!(
        stdout(&validate).contains("PreToolUse.txt: not one of Cline's extensions"),
        "{}",
        stdout(&validate)
    );
    let event = r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    let out = hookwire_with_stdin(&["fire", "--config", hooks.to_str().unwrap()], Some(event));
    let result = json_of(&out);
    assert_eq!(
        (result["decision"].as_str(), result["reason"].as_str()),
        (Some("deny"), Some("no")),
        "{result}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A hook's reason and output, and a configuration's command, reach a person's terminal through
/// `explain`: an escape sequence in them (OSC 52 sets the clipboard, `ESC[2J` clears the
/// screen), a carriage return or a bidirectional override is shown as `\uXXXX`, never sent.
#[test]
fn explain_shows_what_a_terminal_would_obey_in_a_hooks_output_instead_of_sending_it() {
    let dir = std::env::temp_dir().join(format!("hookwire-cli-visible-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    let command =
        "printf 'bad \\033]52;c;ZWNobw==\\007 \\033[2J\\rfine \\342\\200\\256txt' >&2; exit 2 # \u{1b}[8m";
    let doc = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
    std::fs::write(&settings, doc.to_string()).unwrap();
    let o = hookwire(&["explain", "--config", settings.to_str().unwrap(), "examples/pre-tool-use.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let shown = stdout(&o);
    for obeyed in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
        assert!(!shown.contains(obeyed), "{obeyed:?} reached the terminal: {shown:?}");
    }
    assert!(shown.contains("bad \\u001b]52;c;ZWNobw==\\u0007"), "{shown}");
    assert!(shown.contains("\\u000dfine \\u202etxt"), "{shown}");
    // The machine form is the same JSON value as before: the escapes are JSON's own.
    let o = hookwire(&["fire", "--config", settings.to_str().unwrap(), "examples/pre-tool-use.json"]);
    assert!(!stdout(&o).contains('\u{202e}'), "{}", stdout(&o));
    let reason = json_of(&o)["outcomes"][0]["stderr"].as_str().unwrap().to_string();
    assert!(reason.starts_with("bad \u{1b}]52;c;ZWNobw==\u{7} \u{1b}[2J\rfine \u{202e}txt"), "{reason:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The runner backend `hookwire doctor` names is the one a hook observes (the Linux backend
/// holds a pidfd for each running hook, the portable one none: tests/hooks/parent-pidfds.sh),
/// and, where CI names the backend it builds (`HOOKWIRE_EXPECT_BACKEND`), that one: the second
/// run of this suite with `hookwire-core/portable-runner` cannot quietly test the Linux backend.
#[test]
fn doctor_names_the_runner_backend_a_hook_observes() {
    let doctor = json_of(&hookwire(&["doctor", "--json", "--project-dir", "."]));
    let named = doctor["runner"]["backend"].as_str().unwrap().to_string();
    assert!(["linux", "portable"].contains(&named.as_str()), "{doctor}");
    if let Ok(expected) = std::env::var("HOOKWIRE_EXPECT_BACKEND") {
        assert_eq!(named, expected, "the binary under test starts hooks on another backend than CI built");
    }
    let dir = std::env::temp_dir().join(format!("hookwire-cli-backend-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("settings.json");
    let script = root().join("tests/hooks/parent-pidfds.sh");
    // Exec form: the hook's parent is the hookwire process itself.
    let handler =
        serde_json::json!({"type": "command", "command": "/bin/sh", "args": [script], "timeout": 10});
    std::fs::write(&config, serde_json::json!({"hooks": {"Stop": [{"hooks": [handler]}]}}).to_string())
        .unwrap();
    let event = r#"{"hook_event_name":"Stop","session_id":"cli-backend","cwd":"/"}"#;
    let out = hookwire_with_stdin(&["fire", "--config", config.to_str().unwrap(), "-"], Some(event));
    let _ = std::fs::remove_dir_all(&dir);
    let r = json_of(&out);
    assert_eq!(r["outcomes"][0]["status"], "ok", "{r}");
    let pidfds: u32 = r["outcomes"][0]["stdout"].as_str().unwrap().trim().parse().unwrap();
    match named.as_str() {
        "linux" => assert!(pidfds >= 1, "the Linux backend watches the hook through a pidfd: {r}"),
        _ => assert_eq!(pidfds, 0, "the portable backend opens no pidfd, hookwire holds {pidfds}: {r}"),
    }
}

/// `fire` read its event with serde_json's own reading, stricter than the engine's: a lone
/// surrogate escape, a number no double holds (`1e400`) or nesting past 128 levels in a
/// model-written tool input was `invalid_json`, exit 1, and a shell agent gating on exit 2 ran
/// the tool. It reads the event as the engine does now, and its stdin as the bridge does: ended
/// by the event's closing brace (a caller may keep the pipe open) and at most 256 MiB (a stdin
/// that never ends grew memory without bound).
#[test]
fn fire_reads_any_event_the_engine_reads_from_a_file_or_a_pipe_left_open() {
    let tmp = std::env::temp_dir().join(format!("hookwire-cli-events-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    for (tag, extra) in [("surrogate", r#""\ud800""#), ("huge", "1e400"), ("deep", deep.as_str())] {
        let event = format!(
            r#"{{"session_id":"demo","hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{{"command":"rm -rf /","x":{extra}}}}}"#
        );
        let file = tmp.join(format!("{tag}.json"));
        std::fs::write(&file, &event).unwrap();
        let o = hookwire(&["fire", "--config", "examples/settings.json", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{tag}: {}{}", stdout(&o), stderr(&o));
        assert_eq!(json_of(&o)["decision"], "deny", "{tag}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let event = std::fs::read_to_string(root().join("examples/pre-tool-use.json")).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookwire"));
    c.args(["fire", "--config", "examples/settings.json", "-"])
        .current_dir(root())
        .env_remove("HOOKWIRE_LOG");
    let o = common::run_held_open(&mut c, &event, std::time::Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let endless = std::fs::File::open("/dev/zero").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(["fire", "--config", "examples/settings.json", "-"])
        .current_dir(root())
        .stdin(endless)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("larger than 256 MiB"), "{}", stderr(&o));
}

/// A file a cloned repository ships may be a FIFO or a symlink to `/dev/zero`: as `--config`,
/// as an event file or given to `validate` or `test`, each hung the command (`/dev/zero` growing
/// memory without bound). Each is refused at once, as the engine refuses such a settings file.
#[test]
fn a_fifo_or_a_device_in_a_files_place_is_refused_at_once_never_read() {
    let tmp = std::env::temp_dir().join(format!("hookwire-cli-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let fifo = tmp.join("settings.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let zero = tmp.join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for file in [&fifo, &zero] {
        let f = file.to_str().unwrap();
        let start = std::time::Instant::now();
        for args in [
            vec!["fire", "--config", f, "examples/pre-tool-use.json"],
            vec!["fire", "--config", "examples/settings.json", f],
            vec!["validate", f],
            vec!["test", f],
        ] {
            let o = hookwire(&args);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(10), "{f}: {:?}", start.elapsed());
        let o = hookwire(&["fire", "--config", f, "examples/pre-tool-use.json"]);
        assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A current directory deleted under the command (a tool ran `rm -rf .` in it) was an error,
/// exit 1, so a shell agent gating on exit 2 ran the next tool with none of the user's guards.
/// The user's settings still run now (the project, named by `PWD`, is gone with its files).
#[test]
fn fire_in_a_deleted_directory_still_runs_the_users_guards() {
    let s = common::Scratch::new("cli", "deleted-cwd");
    let guard =
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}}"#;
    std::fs::write(s.home().join(".claude/settings.json"), guard).unwrap();
    // The parent's own project settings are not the deleted directory's.
    std::fs::create_dir_all(s.0.join(".claude")).unwrap();
    let parents = r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"touch parent-ran"}]}]}}"#;
    std::fs::write(s.0.join(".claude/settings.json"), parents).unwrap();
    let event = root().join("examples/pre-tool-use.json");
    let gone = s.0.join("gone");
    std::fs::create_dir_all(&gone).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(r#"cd "$1" && rmdir "$1" && exec "$2" fire "$3""#)
        .args(["sh", gone.to_str().unwrap(), env!("CARGO_BIN_EXE_hookwire"), event.to_str().unwrap()])
        .env("HOME", s.home())
        .env_remove("HOOKWIRE_LOG")
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let r = json_of(&o);
    assert_eq!(r["outcomes"].as_array().map(Vec::len), Some(1), "{r}");
}
