//! `hookwire bridge` end to end: the real binary, a scratch `HOME` holding the user's Claude
//! Code settings, an agent's own payload on stdin (the payloads of the dialects' vectors: 301
//! for Codex, 341 for Gemini, 391 for Cursor), and the exact stdout and exit code the agent
//! reads.
#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output};

mod common;

use common::Scratch;

impl Scratch {
    fn proj(&self) -> String {
        self.0.join("proj").to_string_lossy().into_owned()
    }

    /// The user's Claude Code settings: one PreToolUse group with this command.
    fn user_guard(&self, matcher: &str, command: &str) -> &Scratch {
        self.user_settings(&json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}}))
    }

    fn user_settings(&self, settings: &Value) -> &Scratch {
        std::fs::write(self.0.join("home/.claude/settings.json"), settings.to_string()).unwrap();
        self
    }

    fn bridge(&self, args: &[&str], stdin: &str) -> Output {
        common::run(self.hookwire(&self.0).arg("bridge").args(args), stdin)
    }
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Codex's PreToolUse payload for a shell command (vector 301's form).
fn codex_pre_tool_use(cwd: &str, command: &str) -> String {
    json!({"session_id": "s1", "turn_id": "t1", "transcript_path": null, "cwd": cwd,
           "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
           "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "tu1"})
    .to_string()
}

/// Gemini CLI's BeforeTool payload (vector 341's form).
fn gemini_before_tool(cwd: &str, command: &str) -> String {
    json!({"session_id": "s1", "transcript_path": "/t/s1.jsonl", "cwd": cwd, "hook_event_name": "BeforeTool",
           "timestamp": "2026-11-24T01:52:07.226Z", "tool_name": "run_shell_command",
           "tool_input": {"command": command, "description": "d"}})
    .to_string()
}

/// Cursor's beforeShellExecution payload (vector 391's form).
fn cursor_before_shell(cwd: &str, command: &str) -> String {
    json!({"conversation_id": "conv", "generation_id": "gen", "model": "m1", "hook_event_name": "beforeShellExecution",
           "cursor_version": "1.7.0", "workspace_roots": [cwd], "user_email": "a@b.c",
           "transcript_path": "/t.jsonl", "command": command, "cwd": cwd})
    .to_string()
}

/// Cursor's preToolUse payload.
fn cursor_pre_tool_use(cwd: &str, command: &str) -> String {
    json!({"conversation_id": "conv", "generation_id": "gen", "model": "m1", "hook_event_name": "preToolUse",
           "workspace_roots": [cwd], "tool_name": "Shell", "tool_input": {"command": command},
           "tool_use_id": "tu1", "cwd": cwd})
    .to_string()
}

const EXIT2_GUARD: &str = "cat >/dev/null; echo 'rm is not allowed' >&2; exit 2";
/// [`EXIT2_GUARD`]'s deny in Claude Code's answer form (Codex, Qwen Code, VS Code read it too).
const CLAUDE_DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm is not allowed"}}"#;
const JSON_DENY: &str = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}'"#;
const REWRITE: &str = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -ri x"}}}'"#;
const CONTEXT: &str = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"mind the tests"}}'"#;

#[test]
fn an_exit_2_guard_denies_in_each_agents_own_answer() {
    let s = Scratch::new("bridge", "exit2");
    s.user_guard("Bash", EXIT2_GUARD);
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), "rm -rf x"));
    assert_eq!(out(&o), CLAUDE_DENY);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = s.bridge(&["--agent", "gemini"], &gemini_before_tool(&s.proj(), "rm -rf x"));
    assert_eq!(out(&o), r#"{"decision":"deny","reason":"rm is not allowed"}"#);
    assert_eq!(o.status.code(), Some(0));
    let o = s.bridge(&["--agent", "cursor"], &cursor_before_shell(&s.proj(), "rm -rf x"));
    assert_eq!(out(&o), r#"{"permission":"deny","agent_message":"rm is not allowed"}"#);
    assert_eq!(o.status.code(), Some(0));
    let claude = json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                        "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "claude-code"], &claude.to_string());
    assert_eq!(out(&o), CLAUDE_DENY);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_guard_matched_on_bash_runs_for_the_agents_own_shell_tool_and_not_for_others() {
    let s = Scratch::new("bridge", "matcher");
    s.user_guard("Bash", EXIT2_GUARD);
    let read = json!({"session_id": "s1", "transcript_path": "", "cwd": s.proj(), "hook_event_name": "BeforeTool",
                      "timestamp": "t", "tool_name": "read_file", "tool_input": {"file_path": "a"}});
    let o = s.bridge(&["--agent", "gemini"], &read.to_string());
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)), "no hook matched: nothing to say");
    let o = s.bridge(&["--agent", "cursor"], &cursor_pre_tool_use(&s.proj(), "rm -rf x"));
    assert_eq!(out(&o), r#"{"permission":"deny","agent_message":"rm is not allowed"}"#);
}

#[test]
fn a_json_deny_stays_a_deny() {
    let s = Scratch::new("bridge", "jsondeny");
    s.user_guard("Bash", JSON_DENY);
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), "ls"));
    assert_eq!(
        out(&o),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#
    );
    let o = s.bridge(&["--agent", "gemini"], &gemini_before_tool(&s.proj(), "ls"));
    assert_eq!(out(&o), r#"{"decision":"deny","reason":"json says no"}"#);
}

#[test]
fn a_rewrite_is_answered_where_the_agent_can_carry_it_and_dropped_with_a_warning_where_not() {
    let s = Scratch::new("bridge", "rewrite");
    s.user_guard("Bash", REWRITE);
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), "rm -rf x"));
    assert_eq!(
        out(&o),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -ri x"}}}"#
    );
    assert_eq!(err(&o), "");
    let o = s.bridge(&["--agent", "gemini"], &gemini_before_tool(&s.proj(), "rm -rf x"));
    assert_eq!(
        out(&o),
        r#"{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"rm -ri x"}}}"#
    );
    assert!(err(&o).contains("removed arguments stay"), "{}", err(&o));
    let o = s.bridge(&["--agent", "cursor"], &cursor_pre_tool_use(&s.proj(), "rm -rf x"));
    assert_eq!(out(&o), r#"{"permission":"allow","updated_input":{"command":"rm -ri x"}}"#);
    // beforeShellExecution cannot rewrite: nothing is allowed, and a warning says so.
    let o = s.bridge(&["--agent", "cursor"], &cursor_before_shell(&s.proj(), "rm -rf x"));
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)));
    assert_eq!(err(&o).lines().count(), 1, "{}", err(&o));
    assert!(
        err(&o).contains("Cursor cannot express a rewritten input on beforeShellExecution"),
        "{}",
        err(&o)
    );
}

#[test]
fn added_context_reaches_the_agent_where_it_takes_context_and_is_a_warning_where_not() {
    let s = Scratch::new("bridge", "context");
    s.user_guard("Bash", CONTEXT);
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), "ls"));
    assert_eq!(
        out(&o),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"mind the tests"}}"#
    );
    let o = s.bridge(&["--agent", "gemini"], &gemini_before_tool(&s.proj(), "ls"));
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)));
    assert!(err(&o).contains("Gemini CLI cannot express added context on BeforeTool"), "{}", err(&o));
    let o = s.bridge(&["--agent", "cursor"], &cursor_pre_tool_use(&s.proj(), "ls"));
    assert_eq!(out(&o), r#"{"additional_context":"mind the tests"}"#);
}

#[test]
fn an_untrusted_projects_hooks_do_not_run_and_the_bridge_says_so() {
    let s = Scratch::new("bridge", "untrusted");
    std::fs::create_dir_all(Path::new(&s.proj()).join(".claude")).unwrap();
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": EXIT2_GUARD}]}]}});
    std::fs::write(Path::new(&s.proj()).join(".claude/settings.json"), guard.to_string()).unwrap();
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), "rm -rf x"));
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)));
    assert!(err(&o).contains("not trusted; skipped"), "{}", err(&o));
    // --project-dir names the project whatever the payload's cwd.
    let o = s.bridge(&["--agent", "codex", "--project-dir", &s.proj()], &codex_pre_tool_use("/", "rm -rf x"));
    assert!(err(&o).contains("not trusted; skipped"), "{}", err(&o));
    // A tool running in a subdirectory: the project is the nearest directory with a `.claude/`.
    let sub = Path::new(&s.proj()).join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(sub.to_str().unwrap(), "rm -rf x"));
    assert!(err(&o).contains("not trusted; skipped"), "{}", err(&o));
}

#[test]
fn a_trusted_projects_hooks_run() {
    let s = Scratch::new("bridge", "trusted");
    let claude = Path::new(&s.proj()).join(".claude");
    std::fs::create_dir_all(&claude).unwrap();
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": EXIT2_GUARD}]}]}});
    std::fs::write(claude.join("settings.json"), guard.to_string()).unwrap();
    let trusted = Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args(["trust", "--record", "--project", &s.proj()])
        .env("HOME", s.home())
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(trusted.status.success(), "{}", String::from_utf8_lossy(&trusted.stderr));
    let o = s.bridge(&["--agent", "gemini"], &gemini_before_tool(&s.proj(), "rm -rf x"));
    assert_eq!(out(&o), r#"{"decision":"deny","reason":"rm is not allowed"}"#, "{}", err(&o));
}

#[test]
fn a_bad_payload_is_a_clear_error_and_the_agents_error_exit() {
    let s = Scratch::new("bridge", "bad");
    s.user_guard("Bash", EXIT2_GUARD);
    for (agent, payload, why) in [
        ("codex", "{not json", "the payload is not JSON"),
        ("gemini", "[1, 2]", "not a JSON object"),
        ("cursor", "", "no payload on stdin"),
        ("codex", r#"{"tool_name": "Bash"}"#, "names no event"),
        ("codex", r#"{"hook_event_name": "BeforeTool"}"#, "BeforeTool is not an event of codex"),
    ] {
        let o = s.bridge(&["--agent", agent], payload);
        assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(1)), "{agent} {payload}");
        assert!(err(&o).starts_with("hookwire bridge: ") && err(&o).contains(why), "{agent}: {}", err(&o));
    }
    let deep =
        format!("{{\"hook_event_name\":\"PreToolUse\",\"a\":{}1{}}}", "[".repeat(200), "]".repeat(200));
    // Too deep is no longer an error: it is read clipped and the hooks run (see
    // `a_payload_nested_past_the_parsers_depth_still_meets_the_guard`).
    let o = s.bridge(&["--agent", "codex"], &deep);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("nests deeper than 100 levels"), "{}", err(&o));
}

/// A number no double holds in a model-written tool argument (`1e400`: valid JSON, `Infinity` to
/// JavaScript) made the payload "not JSON": the bridge exited 1 and the agent ran the tool with
/// no guard. Now the guard denies, in every agent's answer.
#[test]
fn a_number_no_double_holds_in_the_payload_still_meets_the_guard() {
    let s = Scratch::new("bridge", "huge-number");
    s.user_guard("Bash", EXIT2_GUARD);
    let huge =
        |payload: String| payload.replacen(r#""command":"#, r#""timeout":1e400,"n":-1e999,"command":"#, 1);
    let o = s.bridge(&["--agent", "codex"], &huge(codex_pre_tool_use(&s.proj(), "rm -rf x")));
    assert_eq!((out(&o).as_str(), o.status.code()), (CLAUDE_DENY, Some(0)), "{}", err(&o));
    let o = s.bridge(&["--agent", "gemini"], &huge(gemini_before_tool(&s.proj(), "rm -rf x")));
    assert_eq!(out(&o), r#"{"decision":"deny","reason":"rm is not allowed"}"#, "{}", err(&o));
    let o = s.bridge(&["--agent", "cursor"], &huge(cursor_pre_tool_use(&s.proj(), "rm -rf x")));
    assert!(out(&o).contains(r#""permission":"deny""#), "{}: {}", out(&o), err(&o));
}

/// An agent may write its payload and keep its end of the pipe open: the bridge waited for EOF
/// until the agent's own timeout (which most agents read as "run the tool"). The payload's own
/// closing brace ends the read now; a stdin that never ends is cut at 256 MiB.
#[test]
fn a_payload_whose_pipe_stays_open_is_answered_at_its_closing_brace() {
    let s = Scratch::new("bridge", "held-open");
    s.user_guard("Bash", EXIT2_GUARD);
    let payload = codex_pre_tool_use(&s.proj(), "rm -rf x") + "\n";
    let o = common::run_held_open(
        s.hookwire(&s.0).args(["bridge", "--agent", "codex"]),
        &payload,
        std::time::Duration::from_secs(20),
    );
    assert_eq!((out(&o).as_str(), o.status.code()), (CLAUDE_DENY, Some(0)), "{}", err(&o));
    let endless = std::fs::File::open("/dev/zero").unwrap();
    let o = s.hookwire(&s.0).args(["bridge", "--agent", "codex"]).stdin(endless).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("larger than 256 MiB"), "{}", err(&o));
}

/// A `--hooks` file in a cloned repository may be a FIFO or a symlink to `/dev/zero`: the bridge
/// hung on it until the agent's timeout. It is the bridge's failure at once now, as a missing
/// file is.
#[test]
fn a_hooks_file_that_is_a_fifo_or_a_device_fails_at_once() {
    let s = Scratch::new("bridge", "fifo");
    let fifo = s.0.join("proj/hooks.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let zero = s.0.join("proj/zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for file in [fifo, zero] {
        let payload = codex_pre_tool_use(&s.proj(), "rm -rf x");
        let o = common::run_held_open(
            s.hookwire(&s.0).args(["bridge", "--agent", "codex", "--hooks", file.to_str().unwrap()]),
            &payload,
            std::time::Duration::from_secs(10),
        );
        assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(1)), "{}", err(&o));
        assert!(err(&o).contains("not a regular file"), "{}", err(&o));
    }
}

#[test]
fn an_unknown_agent_is_refused_clearly() {
    let s = Scratch::new("bridge", "noanswer");
    let o = s.bridge(&["--agent", "nonesuch"], "{}");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("unknown agent \"nonesuch\""), "{}", err(&o));
}

#[test]
fn hooks_files_of_any_dialect_run_instead_of_claude_codes_settings() {
    let s = Scratch::new("bridge", "hooksfile");
    s.user_guard("Bash", EXIT2_GUARD);
    let cursor_hooks = s.0.join("hooks.json");
    let doc = json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": "cat >/dev/null; echo '{\"permission\":\"deny\",\"agent_message\":\"cursor file\"}'"}]}});
    std::fs::write(&cursor_hooks, doc.to_string()).unwrap();
    let o = s.bridge(
        &["--agent", "codex", "--hooks", cursor_hooks.to_str().unwrap()],
        &codex_pre_tool_use(&s.proj(), "ls"),
    );
    assert_eq!(
        out(&o),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"cursor file"}}"#
    );
}

#[test]
fn a_stop_block_keeps_the_agent_working_in_its_own_words() {
    let s = Scratch::new("bridge", "stop");
    let block = r#"cat >/dev/null; echo '{"decision":"block","reason":"run the tests first"}'"#;
    s.user_settings(&json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": block}]}]}}));
    let codex = json!({"session_id": "s1", "turn_id": "t1", "transcript_path": null, "cwd": s.proj(), "hook_event_name": "Stop",
                       "model": "m", "permission_mode": "default", "stop_hook_active": false, "last_assistant_message": "done"});
    let o = s.bridge(&["--agent", "codex"], &codex.to_string());
    assert_eq!(out(&o), r#"{"decision":"block","reason":"run the tests first"}"#);
    let gemini = json!({"session_id": "s1", "transcript_path": "", "cwd": s.proj(), "hook_event_name": "AfterAgent",
                        "timestamp": "t", "prompt": "p", "prompt_response": "done", "stop_hook_active": false});
    let o = s.bridge(&["--agent", "gemini"], &gemini.to_string());
    assert_eq!(out(&o), r#"{"decision":"block","reason":"run the tests first"}"#);
    let cursor = json!({"conversation_id": "c", "hook_event_name": "stop", "workspace_roots": [s.proj()], "status": "completed", "loop_count": 0});
    let o = s.bridge(&["--agent", "cursor"], &cursor.to_string());
    assert_eq!(out(&o), r#"{"followup_message":"run the tests first"}"#);
}

#[test]
fn a_bridge_in_the_hooks_it_runs_does_not_run_them_again() {
    let s = Scratch::new("bridge", "nested");
    let bin = env!("CARGO_BIN_EXE_hookwire");
    s.user_guard("Bash", &format!("{bin} bridge --agent claude-code"));
    let claude = json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                        "tool_input": {"command": "ls"}});
    let o = s.bridge(&["--agent", "claude-code"], &claude.to_string());
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)), "{}", err(&o));
}

#[test]
fn copilot_and_windsurf_payloads_name_their_event_with_event_and_get_their_own_answers() {
    let s = Scratch::new("bridge", "copilot");
    s.user_guard("Bash", EXIT2_GUARD);
    // Copilot CLI's camelCase preToolUse payload (observed/copilot.md), which names no event.
    let copilot = json!({"sessionId": "s1", "timestamp": 1_764_000_000_000_u64, "cwd": s.proj(), "toolName": "bash",
                         "toolArgs": "{\"command\":\"rm -rf x\",\"description\":\"d\"}"});
    let o = s.bridge(&["--agent", "copilot-cli", "--event", "preToolUse"], &copilot.to_string());
    assert_eq!(
        out(&o),
        r#"{"permissionDecision":"deny","permissionDecisionReason":"rm is not allowed"}"#,
        "{}",
        err(&o)
    );
    assert_eq!(o.status.code(), Some(0));
    // Windsurf's pre_run_command payload (vector 682's form): exit 2, the reason alone on stderr.
    let windsurf = json!({"agent_action_name": "pre_run_command", "trajectory_id": "t1", "execution_id": "e1",
                          "timestamp": "2026-11-24T01:52:07.226Z", "tool_info": {"command_line": "rm -rf x", "cwd": s.proj()}});
    let o = s.bridge(&["--agent", "windsurf", "--event", "pre_run_command"], &windsurf.to_string());
    assert_eq!((out(&o).as_str(), err(&o).as_str(), o.status.code()), ("", "rm is not allowed\n", Some(2)));
    // A rewrite Windsurf cannot carry: the command runs as it was, and a warning says so.
    s.user_guard("Bash", REWRITE);
    let o = s.bridge(&["--agent", "windsurf", "--event", "pre_run_command"], &windsurf.to_string());
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)));
    assert!(err(&o).contains("Windsurf cannot express a rewritten input on pre_run_command"), "{}", err(&o));
    let o = s.bridge(&["--agent", "copilot-cli", "--event", "preToolUse"], &copilot.to_string());
    assert_eq!(
        out(&o),
        r#"{"permissionDecision":"allow","modifiedArgs":{"command":"rm -ri x"}}"#,
        "{}",
        err(&o)
    );
}

#[test]
fn cline_vs_code_and_kiro_payloads_get_their_own_answers() {
    let s = Scratch::new("bridge", "more");
    s.user_guard("Bash", EXIT2_GUARD);
    // Cline's PreToolUse payload (vector 621's form): a deny is Cline's cancel, with a warning
    // that the whole run stops too.
    let cline = json!({"clineVersion": "3.0.65", "timestamp": "2026-11-28T10:00:00.000Z", "taskId": "task-9",
                       "workspaceRoots": [s.proj()], "hookName": "tool_call", "hook_event_name": "PreToolUse",
                       "tool_call": {"id": "call_1", "name": "run_commands", "input": {"commands": ["rm -rf build"]}},
                       "preToolUse": {"toolName": "run_commands", "parameters": {"commands": "[\"rm -rf build\"]"}}});
    let o = s.bridge(&["--agent", "cline"], &cline.to_string());
    assert_eq!(out(&o), r#"{"cancel":true,"errorMessage":"rm is not allowed"}"#, "{}", err(&o));
    assert!(err(&o).contains("the whole run is cancelled"), "{}", err(&o));
    // VS Code's payload: Claude Code's keys with hookEventName and VS Code's tool names.
    let vs = json!({"hook_event_name": "PreToolUse", "hookEventName": "PreToolUse", "sessionId": "s1", "session_id": "s1",
                    "timestamp": "t", "cwd": s.proj(), "tool_name": "runTerminalCommand", "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "vs-code"], &vs.to_string());
    assert_eq!(out(&o), CLAUDE_DENY, "{}", err(&o));
    // Kiro CLI's event (vector 721's form): exit 2, the reason alone on stderr.
    let kiro = json!({"hook_event_name": "PreToolUse", "cwd": s.proj(), "tool_name": "execute_bash", "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "kiro"], &kiro.to_string());
    assert_eq!((out(&o).as_str(), err(&o).as_str(), o.status.code()), ("", "rm is not allowed\n", Some(2)));
}

#[test]
fn antigravity_and_qwen_payloads_get_their_own_answers() {
    let s = Scratch::new("bridge", "agyqwen");
    s.user_guard("Bash", EXIT2_GUARD);
    // Antigravity's payload names no event (vector 702's form).
    let agy = json!({"conversationId": "c1", "stepIdx": 3, "toolCall": {"name": "run_command", "args": {"CommandLine": "rm -rf x", "Cwd": s.proj()}}});
    let o = s.bridge(
        &["--agent", "antigravity", "--event", "PreToolUse", "--project-dir", &s.proj()],
        &agy.to_string(),
    );
    assert_eq!(out(&o), r#"{"allowTool":false,"denyReason":"rm is not allowed"}"#, "{}", err(&o));
    // Qwen Code's payload: Claude Code's keys, Qwen's tool name.
    let qwen = json!({"session_id": "s1", "transcript_path": "/t", "cwd": s.proj(), "hook_event_name": "PreToolUse",
                      "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "qwen-code"], &qwen.to_string());
    assert_eq!(out(&o), CLAUDE_DENY, "{}", err(&o));
}

#[test]
fn the_newly_bridged_agents_answer_a_guard_in_their_own_form() {
    let s = Scratch::new("bridge", "more-agents");
    s.user_guard("Bash", EXIT2_GUARD);
    // Claude Code's clones: Claude Code's answer, on their own events.
    let claude = json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PreToolUse", "tool_name": "Bash",
                        "tool_input": {"command": "rm -rf x"}});
    for agent in ["codebuddy", "qoder", "auggie", "factory-droid", "jcode"] {
        let o = s.bridge(&["--agent", agent], &claude.to_string());
        assert!(out(&o).contains(r#""permissionDecision":"deny""#), "{agent}: {} / {}", out(&o), err(&o));
        assert_eq!(o.status.code(), Some(0), "{agent}: {}", err(&o));
    }
    // Their own names for the shell tool: the user's `Bash` guard still runs.
    for (agent, tool) in [("auggie", "launch-process"), ("factory-droid", "Execute"), ("jcode", "execute")] {
        let p = json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PreToolUse", "tool_name": tool,
                       "tool_input": {"command": "rm -rf x"}});
        let o = s.bridge(&["--agent", agent], &p.to_string());
        assert!(out(&o).contains(r#""permissionDecision":"deny""#), "{agent}: {} / {}", out(&o), err(&o));
    }
    // Kimi reads exit codes (and a JSON deny): exit 2 with the reason, and nothing else, on stderr.
    let kimi = json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PreToolUse", "tool_name": "Shell",
                      "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "kimi-cli"], &kimi.to_string());
    let got = (o.status.code(), out(&o), err(&o).trim().to_string());
    assert_eq!(got, (Some(2), String::new(), "rm is not allowed".into()));
    // Crush's stdin as Crush writes it: `event`, no `hook_event_name`, its shell tool `bash`.
    let crush = json!({"event": "PreToolUse", "session_id": "s", "cwd": s.proj(),
                       "tool_name": "bash", "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "crush"], &crush.to_string());
    assert!(out(&o).contains(r#""permissionDecision":"deny""#), "{} / {}", out(&o), err(&o));
}

#[test]
fn a_stop_is_crushs_halt_with_the_reason_alone_on_stderr() {
    let s = Scratch::new("bridge", "crush-halt");
    s.user_guard(
        "Bash",
        r#"printf '{"continue": false, "stopReason": "enough for today", "systemMessage": "bye"}'"#,
    );
    let crush = json!({"event": "PreToolUse", "session_id": "s", "cwd": s.proj(),
                       "tool_name": "bash", "tool_input": {"command": "ls"}});
    let o = s.bridge(&["--agent", "crush"], &crush.to_string());
    assert_eq!(o.status.code(), Some(49), "{}", err(&o));
    assert_eq!(err(&o).trim(), "enough for today", "the lost system message is not said beside the reason");
}

/// The five agents bridged last, each with its own payload of a shell call: the user's `Bash`
/// guard denies in each agent's own answer form.
#[test]
fn the_last_five_agents_are_denied_by_a_bash_guard_in_their_own_answer() {
    let s = Scratch::new("bridge", "lastfive");
    s.user_guard("Bash", EXIT2_GUARD);
    let p = s.proj();
    let ok =
        json!({"event": "PreToolUse", "cwd": p, "toolName": "bash", "toolArgs": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "ok"], &ok.to_string());
    let e = err(&o);
    assert_eq!((o.status.code(), out(&o).as_str(), e.trim()), (Some(2), "", "rm is not allowed"));
    let goose = json!({"event": "PreToolUse", "session_id": "s", "matcher_context": "developer__shell",
                       "tool_name": "developer__shell", "tool_input": {"command": "rm -rf x"}, "working_dir": p});
    let o = s.bridge(&["--agent", "open-plugins"], &goose.to_string());
    let e = err(&o);
    assert_eq!((o.status.code(), e.trim()), (Some(2), "rm is not allowed"));
    let jcli = json!({"event": "pre_tool_execution", "cwd": p, "session_id": "s", "tool_name": "shell",
                      "tool_arguments": json!({"command": "rm -rf x"}).to_string()});
    let o = s.bridge(&["--agent", "j-cli"], &jcli.to_string());
    assert_eq!(out(&o), r#"{"action":"skip","retry_feedback":"rm is not allowed"}"#);
    assert_eq!(o.status.code(), Some(0));
    let neocode = json!({"payload_version": "1", "hook_id": "h", "point": "before_tool_call", "run_id": "r",
                         "session_id": "s", "metadata": {"tool_call_id": "t", "tool_name": "bash",
                         "tool_arguments_preview": json!({"command": "rm -rf x"}).to_string(), "workdir": p}});
    let o = s.bridge(&["--agent", "neocode"], &neocode.to_string());
    assert_eq!(out(&o), r#"{"status":"block","message":"rm is not allowed"}"#);
    assert_eq!(o.status.code(), Some(0));
    let ub = json!({"event": "pre_tool_call", "session_id": "s", "turn": 1, "cwd": p,
                    "tool": {"name": "bash", "use_id": "u", "args": {"command": "rm -rf x"}}});
    let o = s.bridge(&["--agent", "ub"], &ub.to_string());
    let e = err(&o);
    assert_eq!((o.status.code(), e.trim()), (Some(2), "rm is not allowed"));
}

/// A tool the bridge cannot name as Claude Code's passes as it is, and stderr says so once per
/// fire, so that a `Bash` guard that does not run for it is not a silent miss.
#[test]
fn an_unknown_tool_name_passes_unchanged_with_one_warning() {
    let s = Scratch::new("bridge", "unknowntool");
    s.user_guard("Bash", EXIT2_GUARD);
    let ok = json!({"event": "PreToolUse", "cwd": s.proj(), "toolName": "frobnicate", "toolArgs": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "ok"], &ok.to_string());
    let stdout = out(&o);
    assert_eq!((o.status.code(), stdout.as_str()), (Some(0), ""), "{}", err(&o));
    let stderr = err(&o);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("\"frobnicate\"")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].starts_with("hookwire bridge: warning: ok's tool \"frobnicate\""), "{}", warnings[0]);
    // A guard matching the agent's own name runs for it.
    s.user_guard("frobnicate", EXIT2_GUARD);
    let o = s.bridge(&["--agent", "ok"], &ok.to_string());
    let e = err(&o);
    assert_eq!((o.status.code(), e.trim()), (Some(2), "rm is not allowed"));
    // Claude Code's own names say nothing.
    s.user_guard("Bash", EXIT2_GUARD);
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), "ls"));
    let e = err(&o);
    assert_eq!((o.status.code(), e.as_str()), (Some(0), ""));
}

/// neocode sends a 4 KiB preview of the arguments: a cut preview still runs an `if` guard on
/// the command (it cannot be judged), with a warning.
#[test]
fn a_cut_argument_preview_runs_an_if_guard_and_warns() {
    let s = Scratch::new("bridge", "preview");
    s.user_settings(&json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "if": "Bash(rm *)", "command": EXIT2_GUARD}]}]}}));
    let long = json!({"description": "d".repeat(5000), "command": "rm -rf x"}).to_string();
    let cut = &long[..4096];
    let neocode = json!({"point": "before_tool_call", "session_id": "s",
                         "metadata": {"tool_name": "bash", "tool_arguments_preview": cut, "workdir": s.proj()}});
    let o = s.bridge(&["--agent", "neocode"], &neocode.to_string());
    assert_eq!(out(&o), r#"{"status":"block","message":"rm is not allowed"}"#, "{}", err(&o));
    assert!(err(&o).contains("did not arrive whole"), "{}", err(&o));
    // The whole preview is judged: `ls` does not run the guard.
    let whole = json!({"point": "before_tool_call", "session_id": "s", "metadata": {"tool_name": "bash",
                       "tool_arguments_preview": json!({"command": "ls"}).to_string(), "workdir": s.proj()}});
    let o = s.bridge(&["--agent", "neocode"], &whole.to_string());
    let stdout = out(&o);
    assert_eq!((o.status.code(), stdout.as_str()), (Some(0), ""), "{}", err(&o));
}

/// A model can nest a tool's arguments deeper than any JSON parser's limit; refused, the
/// payload made the bridge exit 1, which Codex, Gemini and Claude Code read as "run the tool":
/// the guard was skipped. Read clipped, the guard runs and denies, and stderr says so.
#[test]
fn a_payload_nested_past_the_parsers_depth_still_meets_the_guard() {
    let s = Scratch::new("bridge", "deep");
    s.user_guard("Bash", EXIT2_GUARD);
    let deep = "[".repeat(5000) + &"]".repeat(5000);
    let codex = codex_pre_tool_use(&s.proj(), "rm -rf x").replacen(
        r#""tool_input":{"#,
        &format!(r#""tool_input":{{"x":{deep},"#),
        1,
    );
    assert!(codex.contains(&deep));
    let o = s.bridge(&["--agent", "codex"], &codex);
    assert_eq!(out(&o), CLAUDE_DENY);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("nests deeper than 100 levels"), "{}", err(&o));
    let cursor = cursor_before_shell(&s.proj(), "rm -rf x").replacen('{', &format!(r#"{{"x":{deep},"#), 1);
    let o = s.bridge(&["--agent", "cursor"], &cursor);
    assert_eq!(out(&o), r#"{"permission":"deny","agent_message":"rm is not allowed"}"#, "{}", err(&o));
}

/// An agent hands its hooks a tool's whole output or a pasted prompt; above the bridge's 16 MiB
/// such a payload was refused and the bridge exited 1, which Codex, Gemini and Claude Code read
/// as "go on": no hook ran (an output scanner for secrets, an `rm` guard on a command padded past
/// the bound). Read with its long strings cut, the hooks run: the scanner sees the output's
/// beginning and blocks, and an `if` rule that cannot see the end of a cut command runs its guard.
#[test]
fn a_payload_too_large_to_read_whole_still_meets_the_guards() {
    let s = Scratch::new("bridge", "huge");
    let scanner =
        "head -c 100000 | grep -q AKIA_SECRET && { echo 'a secret in the output' >&2; exit 2; }; exit 0";
    s.user_settings(&json!({"hooks": {
        "PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": scanner}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "if": "Bash(rm *)", "command": EXIT2_GUARD}]}],
    }}));
    let output = format!("AKIA_SECRET {}", "x".repeat(20 << 20));
    let post = json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PostToolUse", "tool_name": "Read",
                      "tool_input": {"file_path": "/p/big.log"}, "tool_response": {"content": output}, "tool_use_id": "t"});
    let o = s.bridge(&["--agent", "claude-code"], &post.to_string());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains(r#""decision":"block""#) && out(&o).contains("a secret in the output"),
        "{}",
        out(&o)
    );
    assert!(err(&o).contains("too large to read whole"), "{}", err(&o));
    // The `rm` after 17 MiB of blanks is past what is read: the rule cannot decide, the guard runs.
    let padded = format!("ls {} ; rm -rf ~", " ".repeat(17 << 20));
    let o = s.bridge(&["--agent", "codex"], &codex_pre_tool_use(&s.proj(), &padded));
    assert_eq!((out(&o).as_str(), o.status.code()), (CLAUDE_DENY, Some(0)), "{}", err(&o));
    // A payload of many short strings is not made of anything to cut: still the bridge's error.
    let many = format!(r#"{{"hook_event_name":"PreToolUse","x":[{}0]}}"#, r#""abcdefgh","#.repeat(2 << 20));
    let o = s.bridge(&["--agent", "codex"], &many);
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(1)));
    assert!(err(&o).contains("larger than 16 MiB"), "{}", err(&o));
    // An auto-approver shown `ls` and blanks approved what it saw, not `; rm -rf ~`: its allow is
    // dropped and the agent decides as it would without hooks.
    let approver = r#"cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"#;
    let s = Scratch::new("bridge", "hugeallow");
    s.user_guard("Bash", approver);
    let claude = |command: &str| {
        json!({"session_id": "s1", "cwd": s.proj(), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}})
        .to_string()
    };
    let o = s.bridge(&["--agent", "claude-code"], &claude("ls"));
    assert!(out(&o).contains(r#""permissionDecision":"allow""#), "{}", out(&o));
    let o = s.bridge(&["--agent", "claude-code"], &claude(&padded));
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)), "{}", err(&o));
    assert!(err(&o).contains("the allow is dropped"), "{}", err(&o));
}

#[test]
fn a_kiro_cli_payload_in_its_own_camel_case_meets_a_bash_guard() {
    // Kiro CLI names its triggers in camelCase in the payload (`preToolUse`, agents-2.md §2.6)
    // and its shell tool `execute_bash`: the user's `Bash` guard must meet it, as it does for
    // the PascalCase spelling.
    let s = Scratch::new("bridge", "kirocamel");
    s.user_guard("Bash", EXIT2_GUARD);
    let kiro = json!({"hook_event_name": "preToolUse", "cwd": s.proj(), "tool_name": "execute_bash", "tool_input": {"command": "rm -rf x"}});
    let o = s.bridge(&["--agent", "kiro"], &kiro.to_string());
    assert_eq!((out(&o).as_str(), err(&o).as_str(), o.status.code()), ("", "rm is not allowed\n", Some(2)));
}

#[test]
fn a_relative_hooks_path_names_the_file_in_the_directory_the_bridge_runs_in() {
    // An agent runs `hookwire bridge --hooks hooks/guard.json` from the project root while the
    // tool runs elsewhere (the payload's `cwd`): the file is the one the path names from the
    // bridge's own directory, checked there; it must not be looked for again under the cwd,
    // where it is missing and the guard silently never ran.
    let s = Scratch::new("bridge", "relhooks");
    std::fs::create_dir_all(s.0.join("proj/hooks")).unwrap();
    std::fs::create_dir_all(s.0.join("elsewhere")).unwrap();
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": EXIT2_GUARD}]}]}});
    std::fs::write(s.0.join("proj/hooks/guard.json"), guard.to_string()).unwrap();
    let payload = codex_pre_tool_use(s.0.join("elsewhere").to_str().unwrap(), "rm -rf x");
    let o = common::run(
        s.hookwire(&s.0.join("proj")).args(["bridge", "--agent", "codex", "--hooks", "hooks/guard.json"]),
        &payload,
    );
    assert_eq!(out(&o), CLAUDE_DENY, "{}", err(&o));
}

#[test]
fn a_hooks_file_in_a_directory_two_agents_share_is_read_as_the_running_agent_reads_it() {
    // `.github/hooks/*.json` is read by Copilot CLI and by VS Code, each its own way: Copilot
    // CLI denies the tool when a preToolUse hook fails, VS Code does not (a failing hook is a
    // warning). Run by VS Code's bridge, the file is VS Code's, so a hook that cannot start
    // does not deny every tool call.
    let s = Scratch::new("bridge", "shareddir");
    std::fs::create_dir_all(s.0.join("proj/.github/hooks")).unwrap();
    let file = s.0.join("proj/.github/hooks/team.json");
    let doc = json!({"hooks": {"PreToolUse": [{"type": "command", "command": "cat >/dev/null; exit 1"}]}});
    std::fs::write(&file, doc.to_string()).unwrap();
    let vs = json!({"hook_event_name": "PreToolUse", "hookEventName": "PreToolUse", "sessionId": "s1", "session_id": "s1",
                    "timestamp": "t", "cwd": s.proj(), "tool_name": "runTerminalCommand", "tool_input": {"command": "ls"}});
    let o = s.bridge(&["--agent", "vs-code", "--hooks", file.to_str().unwrap()], &vs.to_string());
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)), "{}", err(&o));
    // Copilot CLI's own bridge still reads it as Copilot CLI does: the failing hook denies.
    let copilot =
        json!({"timestamp": 1700, "cwd": s.proj(), "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"});
    let o = s.bridge(
        &["--agent", "copilot-cli", "--event", "preToolUse", "--hooks", file.to_str().unwrap()],
        &copilot.to_string(),
    );
    assert!(out(&o).contains(r#""permissionDecision":"deny""#), "{}", out(&o));
}
