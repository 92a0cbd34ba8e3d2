//! Exhaustive reading tests: each pins one rule of protocol.md §6 without spawning anything.

use super::*;
use crate::catalog::{lookup, spec};
use serde_json::json;

fn text(s: &str) -> Text {
    Text { text: s.to_string(), truncated: false, lossy: false }
}

fn read_as(event: &str, rules: Rules, end: End, out: &str, err: &str, fail_closed: bool) -> Reading {
    let ev = json!({"hook_event_name": event, "source": "x"});
    read(&Input {
        spec: spec(lookup(event).unwrap()),
        rules,
        event: &ev,
        hook_id: "user:Test[0].hooks[0]",
        fail_closed,
        shell_form: true,
        end: &end,
        stdout: &text(out),
        stderr: &text(err),
        timeout_s: 1.0,
    })
}

fn cur(event: &str, code: i32, out: &str, err: &str) -> Reading {
    read_as(event, Rules::Current, End::Exited(code), out, err, false)
}

#[test]
fn exit_zero_with_nothing_is_no_decision_and_ok() {
    let r = cur("PreToolUse", 0, "  \n", "");
    assert_eq!(r.status, Status::Ok);
    assert_eq!(r.verdict, Verdict::default());
}

#[test]
fn hso_deny_is_read_with_its_reason() {
    let r = cur(
        "PreToolUse",
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
        "",
    );
    assert_eq!(r.verdict.decision, Some(Decision::Deny));
    assert_eq!(r.verdict.reason.as_deref(), Some("no"));
    assert!(r.verdict.blocking);
    assert_eq!(r.verdict.source, VerdictSource::Json);
}

#[test]
fn flat_permission_decision_is_ignored_with_a_warning() {
    let r = cur("PreToolUse", 0, r#"{"permissionDecision":"deny"}"#, "");
    assert_eq!(r.verdict.decision, None);
    assert!(r.warnings.iter().any(|w| w.contains("hookSpecificOutput")));
}

#[test]
fn deprecated_top_level_decisions_map_to_allow_and_deny() {
    assert_eq!(cur("PreToolUse", 0, r#"{"decision":"approve"}"#, "").verdict.decision, Some(Decision::Allow));
    let r = cur("PreToolUse", 0, r#"{"decision":"block","reason":"r"}"#, "");
    assert_eq!(r.verdict.decision, Some(Decision::Deny));
    assert_eq!(r.verdict.reason.as_deref(), Some("r"));
}

#[test]
fn exit_two_blocks_with_stderr_and_beats_a_json_allow() {
    let r = cur(
        "PreToolUse",
        2,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        "nope\n",
    );
    assert_eq!(r.verdict.decision, Some(Decision::Deny));
    assert_eq!(r.verdict.reason.as_deref(), Some("nope"));
    assert_eq!(r.verdict.source, VerdictSource::ExitCode);
}

#[test]
fn exit_two_without_stderr_gets_the_default_reason() {
    let r = cur("Stop", 2, "", "");
    assert_eq!(r.verdict.decision, Some(Decision::Block));
    assert_eq!(r.verdict.reason.as_deref(), Some("blocked by user:Test[0].hooks[0] (exit 2)"));
}

#[test]
fn exit_one_is_a_non_blocking_error_naming_stderr() {
    let r = cur("PreToolUse", 1, "", "err\nmore");
    assert_eq!(r.status, Status::Error);
    assert_eq!(r.error.as_deref(), Some("exit 1: err"));
    assert_eq!(r.verdict.decision, None);
    assert!(r.warnings[0].contains("exit 1: err"));
}

#[test]
fn json_on_a_non_zero_exit_decides_under_current_only() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#;
    assert_eq!(cur("PreToolUse", 1, deny, "").verdict.decision, Some(Decision::Deny));
    let classic = read_as("PreToolUse", Rules::Classic, End::Exited(1), deny, "", false);
    assert_eq!(classic.status, Status::Error);
    assert_eq!(classic.verdict.decision, None);
}

#[test]
fn plain_text_and_non_objects_are_not_json() {
    for out in ["Shell ready\n{\"decision\":\"block\"}", "[1,2]", "\"text\""] {
        let r = cur("PreToolUse", 0, out, "");
        assert_eq!(r.status, Status::Ok, "{out}");
        assert_eq!(r.verdict.decision, None);
    }
}

#[test]
fn broken_json_is_an_error_and_never_context() {
    let r = cur("SessionStart", 0, "{not json", "");
    assert_eq!(r.status, Status::Error);
    assert!(r.verdict.additional_context.is_none());
}

#[test]
fn leading_whitespace_before_json_is_fine() {
    let r = cur("PreToolUse", 0, r#"   {"continue":false,"stopReason":"s"}"#, "");
    assert!(!r.verdict.continue_);
    assert_eq!(r.verdict.stop_reason.as_deref(), Some("s"));
}

#[test]
fn mismatched_hook_event_name_is_a_schema_failure() {
    let r = cur(
        "PreToolUse",
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}"#,
        "",
    );
    assert_eq!(r.status, Status::Error);
    assert_eq!(r.verdict.decision, None);
}

#[test]
fn wrong_types_are_schema_failures() {
    for out in [
        r#"{"continue":"no"}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":5}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":[]}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}"#,
    ] {
        assert_eq!(cur("PreToolUse", 0, out, "").status, Status::Error, "{out}");
    }
}

#[test]
fn stop_block_without_a_reason_blocks_with_claude_codes_words() {
    // protocol.md §6.4, checklist 57: Claude Code 2.1.197 continues the turn, and its model
    // receives "Blocked by hook".
    for event in ["Stop", "SubagentStop"] {
        for out in [r#"{"decision":"block"}"#, r#"{"decision":"block","reason":"  "}"#] {
            let r = cur(event, 0, out, "");
            assert_eq!(r.status, Status::Ok, "{event} {out}");
            assert_eq!(r.verdict.decision, Some(Decision::Block), "{event} {out}");
            assert_eq!(r.verdict.reason.as_deref(), Some("Blocked by hook"), "{event} {out}");
            assert!(r.verdict.blocking);
        }
    }
    let r = cur("Stop", 0, r#"{"decision":"block","reason":"keep going"}"#, "");
    assert_eq!(r.verdict.reason.as_deref(), Some("keep going"));
}

#[test]
fn plain_stdout_is_context_only_where_the_event_says_so() {
    assert_eq!(cur("UserPromptSubmit", 0, "ctx\n", "").verdict.additional_context.as_deref(), Some("ctx"));
    assert_eq!(cur("SessionStart", 0, "ctx", "").verdict.additional_context.as_deref(), Some("ctx"));
    assert_eq!(cur("PostToolUse", 0, "ctx", "").verdict.additional_context, None);
}

#[test]
fn exit_two_effects_follow_the_catalogue() {
    assert_eq!(cur("PermissionRequest", 2, "", "x").verdict.decision, None);
    assert_eq!(cur("Notification", 2, "", "x").verdict, Verdict::default());
    assert_eq!(cur("SessionStart", 2, "", "s").verdict.system_message.as_deref(), Some("s"));
    assert_eq!(cur("PreCompact", 2, "", "s").verdict.decision, Some(Decision::Block));
    let classic = read_as("PreCompact", Rules::Classic, End::Exited(2), "", "s", false);
    assert_eq!(classic.verdict.decision, None);
    assert_eq!(classic.verdict.system_message.as_deref(), Some("s"));
}

#[test]
fn permission_request_behavior_is_read() {
    let r = cur(
        "PermissionRequest",
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}"#,
        "",
    );
    assert_eq!(r.verdict.decision, Some(Decision::Deny));
    assert_eq!(r.verdict.reason.as_deref(), Some("m"));
}

#[test]
fn long_context_is_capped_with_a_marker() {
    let long = "x".repeat(20_000);
    let out =
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": long}}).to_string();
    let ctx = cur("PreToolUse", 0, &out, "").verdict.additional_context.unwrap();
    assert!(ctx.starts_with(&"x".repeat(10_000)));
    assert!(ctx.ends_with("\n[hookwire: 10000 more characters truncated]"));
}

#[test]
fn failures_fail_open_unless_fail_closed() {
    for end in [End::TimedOut { started: true }, End::SpawnFailed("gone".into()), End::Signaled(9)] {
        let open = read_as("PreToolUse", Rules::Current, end.clone(), "", "", false);
        assert_eq!(open.verdict.decision, None);
        let closed = read_as("PreToolUse", Rules::Current, end.clone(), "", "", true);
        assert_eq!(closed.verdict.decision, Some(Decision::Deny), "{end:?}");
        assert_eq!(closed.verdict.source, VerdictSource::Failure);
        let notify = read_as("Notification", Rules::Current, end, "", "", true);
        assert_eq!(notify.verdict.decision, None);
    }
}

#[test]
fn signals_and_missing_scripts_are_named() {
    let r = read_as("PreToolUse", Rules::Current, End::Signaled(9), "", "", false);
    assert_eq!(r.error.as_deref(), Some("terminated by signal 9 (SIGKILL)"));
    let r = cur("PreToolUse", 127, "", "sh: x: not found");
    assert_eq!(r.error.as_deref(), Some("command not found (exit 127)"));
}

#[test]
fn truncated_json_is_not_read() {
    let ev = json!({"hook_event_name": "PreToolUse"});
    let out = Text { text: "{\"a\":".into(), truncated: true, lossy: false };
    let r = read(&Input {
        spec: spec(lookup("PreToolUse").unwrap()),
        rules: Rules::Current,
        event: &ev,
        hook_id: "h",
        fail_closed: false,
        shell_form: false,
        end: &End::Exited(0),
        stdout: &out,
        stderr: &text(""),
        timeout_s: 1.0,
    });
    assert_eq!(r.error.as_deref(), Some("stdout exceeded max_output_bytes; JSON not read"));
}

#[test]
fn session_end_discards_all_json_and_stop_failure_keeps_only_terminal_sequence() {
    let r = cur("SessionEnd", 0, r#"{"continue":false,"systemMessage":"m"}"#, "");
    assert!(r.verdict.continue_ && r.verdict.system_message.is_none());
    let r = cur("StopFailure", 2, r#"{"terminalSequence":"\u0007","continue":false}"#, "");
    assert_eq!(r.verdict.extra["terminalSequence"], json!("\u{7}"));
    assert!(r.verdict.continue_);
}

#[test]
fn worktree_create_blocks_on_any_failure_and_reads_the_last_line() {
    let r = cur("WorktreeCreate", 1, "", "cannot");
    assert_eq!(r.verdict.decision, Some(Decision::Block));
    let r = cur("WorktreeCreate", 0, "creating\n\u{1b}[32m/tmp/wt\u{1b}[0m\n\n", "");
    assert_eq!(r.verdict.extra["worktreePath"], json!("/tmp/wt"));
}

/// Only the values of `READ_KEYS` are parsed (issue 20): every top-level key the reading honours
/// must be among them, and a large unknown key beside them changes nothing but the warning.
#[test]
fn every_honoured_top_level_key_is_read_beside_a_large_unknown_one() {
    let big = "e".repeat(1 << 20);
    let out = json!({
        "echo": {"tool_input": {"content": big}},
        "continue": false,
        "stopReason": "stop",
        "suppressOutput": true,
        "systemMessage": "msg",
        "terminalSequence": "\u{7}",
        "decision": "block",
        "reason": "why",
    })
    .to_string();
    let r = cur("PostToolUse", 0, &out, "");
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    let v = &r.verdict;
    assert!(!v.continue_ && v.suppress_output);
    assert_eq!(v.stop_reason.as_deref(), Some("stop"));
    assert_eq!(v.system_message.as_deref(), Some("msg"));
    assert_eq!(v.extra["terminalSequence"], json!("\u{7}"));
    assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Block), Some("why")));
    assert!(r.warnings.iter().any(|w| w.ends_with("ignored: echo")), "{:?}", r.warnings);
    for key in READ_KEYS {
        assert!(out.contains(&format!("\"{key}\"")) || *key == "hookSpecificOutput", "{key} untested");
    }
    let hso = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c"},"x":[1]}"#;
    assert_eq!(cur("PostToolUse", 0, hso, "").verdict.additional_context.as_deref(), Some("c"));
}
