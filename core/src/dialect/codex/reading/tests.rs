//! Codex's strict reading, one behaviour per test.

use super::*;
use crate::catalog::Dialect;
use crate::config::{CommandSpec, Handler};
use crate::runner::Text;
use serde_json::json;

fn handler(native: &str) -> Handler {
    let mut h = Handler::command(
        "user:X[0].hooks[0]".into(),
        0,
        CommandSpec::Shell { script: "x".into(), shell: crate::catalog::Shell::Login },
        Dialect::Codex,
        native,
    );
    h.native = native.to_string();
    h
}

fn text(s: &str) -> Text {
    Text { text: s.to_string(), truncated: false, lossy: false }
}

/// Reads a hook configured under `native`, fired as `event_name`, that exited `code`.
fn run(native: &str, event_name: &str, event: Value, code: i32, out: &str, err: &str) -> Reading {
    let spec = crate::catalog::spec(crate::catalog::lookup(event_name).unwrap());
    let ev = FireEvent::plain(spec, &event);
    let end = End::Exited(code);
    let (o, e) = (text(out), text(err));
    read(&handler(native), &ev, &Finished { end: &end, stdout: &o, stderr: &e, timeout_s: 600.0 })
}

fn pre(code: i32, out: &str, err: &str) -> Reading {
    let ev = json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"a","description":"d"}});
    run("PreToolUse", "PreToolUse", ev, code, out, err)
}

fn hso(fields: &str) -> String {
    format!(r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse"{fields}}}}}"#)
}

#[test]
fn exit2_with_a_reason_denies_and_ignores_stdout() {
    let r =
        pre(2, r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"c"}}"#, " r \n");
    assert_eq!(r.verdict.decision, Some(Decision::Deny));
    assert_eq!(r.verdict.reason.as_deref(), Some("r"));
    assert_eq!(r.verdict.additional_context, None);
    assert_eq!(r.verdict.source, VerdictSource::ExitCode);
}

#[test]
fn exit2_without_a_reason_is_an_error_even_with_a_json_deny() {
    let r = pre(2, &hso(r#","permissionDecision":"deny","permissionDecisionReason":"x""#), "  ");
    assert_eq!(r.status, Status::Error);
    assert_eq!(r.verdict.decision, None);
    assert_eq!(r.error.as_deref(), Some("exit 2 without a reason on stderr"));
}

#[test]
fn each_invalid_pretooluse_output_is_rejected_whole() {
    for out in [
        hso(r#","permissionDecision":"deny""#),
        hso(r#","permissionDecision":"deny","permissionDecisionReason":"  ""#),
        format!(
            "{{\"continue\":false,{}",
            &hso(r#","permissionDecision":"deny","permissionDecisionReason":"r""#)[1..]
        ),
        format!(
            "{{\"foo\":1,{}",
            &hso(r#","permissionDecision":"deny","permissionDecisionReason":"r""#)[1..]
        ),
        hso(r#","permissionDecision":"ask","permissionDecisionReason":"r""#),
        hso(r#","permissionDecision":"allow""#),
        hso(r#","updatedInput":{"command":"b"}"#),
        hso(r#","permissionDecisionReason":"r""#),
        hso(r#","permissionDecision":"deny","permissionDecisionReason":"r","bogus":1"#),
        r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}"#.into(),
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}"#.into(),
        r#"{"decision":"approve"}"#.into(),
        r#"{"decision":"block"}"#.into(),
        r#"{"reason":"r"}"#.into(),
        r#"{"stopReason":"s"}"#.into(),
        r#"{"suppressOutput":true}"#.into(),
        r#"{"systemMessage":5}"#.into(),
        r#"[1]"#.into(),
        r#"{"decision":"block","reason":"r""#.into(),
    ] {
        let r = pre(0, &out, "");
        assert_eq!(r.status, Status::Error, "{out}");
        assert_eq!(r.verdict, Verdict::default(), "{out}");
        assert!(r.error.as_deref().unwrap_or("").starts_with("invalid PreToolUse hook JSON output"), "{out}");
    }
}

#[test]
fn valid_pretooluse_outputs_are_read() {
    let r = pre(0, &hso(r#","permissionDecision":"deny","permissionDecisionReason":"no""#), "");
    assert_eq!((r.verdict.decision, r.verdict.reason.as_deref()), (Some(Decision::Deny), Some("no")));
    let r = pre(0, r#"{"decision":"block","reason":"legacy","systemMessage":"m"}"#, "");
    assert_eq!((r.verdict.decision, r.verdict.reason.as_deref()), (Some(Decision::Deny), Some("legacy")));
    assert_eq!(r.verdict.system_message.as_deref(), Some("m"));
    let r = pre(0, &hso(r#","additionalContext":"c""#), "");
    assert_eq!(r.verdict.additional_context.as_deref(), Some("c"));
    assert_eq!(r.status, Status::Ok);
}

#[test]
fn allow_on_bash_replaces_only_the_command() {
    let r = pre(0, &hso(r#","permissionDecision":"allow","updatedInput":{"command":"b","timeout":9}"#), "");
    assert_eq!(r.verdict.decision, Some(Decision::Allow));
    assert_eq!(r.verdict.updated_input, Some(json!({"command":"b","description":"d"})));
    assert!(r.warnings.iter().any(|w| w.contains("`timeout` ignored")), "{:?}", r.warnings);
}

#[test]
fn allow_on_another_tool_replaces_the_input() {
    let ev = json!({"tool_name":"Write","tool_input":{"file_path":"/a","content":"x"}});
    let out = hso(r#","permissionDecision":"allow","updatedInput":{"file_path":"/b"}"#);
    let r = run("PreToolUse", "PreToolUse", ev, 0, &out, "");
    assert_eq!(r.verdict.updated_input, Some(json!({"file_path":"/b"})));
}

#[test]
fn other_exits_are_errors_and_ignore_stdout() {
    let r = pre(3, r#"{"decision":"block","reason":"r"}"#, "first\nsecond");
    assert_eq!(r.status, Status::Error);
    assert_eq!(r.error.as_deref(), Some("exit 3: first"));
    assert_eq!(r.verdict.decision, None);
}

#[test]
fn plain_text_is_context_only_on_prompt_and_session_start_and_an_error_on_stop() {
    let r = run("UserPromptSubmit", "UserPromptSubmit", json!({}), 0, " ctx \n", "");
    assert_eq!(r.verdict.additional_context.as_deref(), Some("ctx"));
    let r = run("SessionStart", "SessionStart", json!({}), 0, "ctx", "");
    assert_eq!(r.verdict.additional_context.as_deref(), Some("ctx"));
    let r = run("PostToolUse", "PostToolUse", json!({}), 0, "ctx", "");
    assert_eq!((r.status, r.verdict.additional_context), (Status::Ok, None));
    let r = run("Stop", "Stop", json!({}), 0, "ctx", "");
    assert_eq!(r.status, Status::Error);
}

#[test]
fn stop_blocks_only_with_a_reason_and_rejects_hook_specific_output() {
    let r = run("Stop", "Stop", json!({}), 0, r#"{"decision":"block"}"#, "");
    assert_eq!((r.status, r.verdict.decision), (Status::Error, None));
    let r = run("Stop", "Stop", json!({}), 0, r#"{"decision":"block","reason":"r"}"#, "");
    assert_eq!((r.verdict.decision, r.verdict.reason.as_deref()), (Some(Decision::Block), Some("r")));
    let r = run(
        "Stop",
        "Stop",
        json!({}),
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"c"}}"#,
        "",
    );
    assert_eq!(r.status, Status::Error);
    let r = run("Stop", "Stop", json!({}), 0, r#"{"continue":false,"stopReason":"done"}"#, "");
    assert_eq!((r.verdict.continue_, r.verdict.stop_reason.as_deref()), (false, Some("done")));
}

#[test]
fn posttooluse_block_continue_and_output_rewrite() {
    let r = run("PostToolUse", "PostToolUse", json!({}), 0, r#"{"decision":"block","reason":"r"}"#, "");
    assert_eq!(r.verdict.decision, Some(Decision::Block));
    let r = run("PostToolUse", "PostToolUse", json!({}), 0, r#"{"continue":false,"stopReason":"s"}"#, "");
    assert_eq!((r.verdict.continue_, r.verdict.stop_reason.as_deref()), (false, Some("s")));
    let r = run("PostToolUse", "PostToolUse", json!({}), 0, r#"{"reason":"r"}"#, "");
    assert_eq!(r.status, Status::Error);
    let r = run("PostToolUse", "PostToolUse", json!({}), 0, r#"{"suppressOutput":true}"#, "");
    assert_eq!(r.status, Status::Error);
    let out = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"a":1}}}"#;
    let r = run("PostToolUse", "PostToolUseFailure", json!({}), 0, out, "");
    assert_eq!(r.verdict.updated_tool_output, Some(json!({"a":1})));
    let r = run("PostToolUse", "PostToolUseFailure", json!({}), 2, "", "bad");
    assert_eq!(r.verdict.decision, Some(Decision::Block));
}

#[test]
fn permission_request_reads_behavior_and_rejects_what_codex_does_not_support() {
    let pr = |d: &str| {
        let out =
            format!(r#"{{"hookSpecificOutput":{{"hookEventName":"PermissionRequest","decision":{d}}}}}"#);
        run("PermissionRequest", "PermissionRequest", json!({}), 0, &out, "")
    };
    assert_eq!(pr(r#"{"behavior":"allow"}"#).verdict.decision, Some(Decision::Allow));
    let r = pr(r#"{"behavior":"deny"}"#);
    assert_eq!(r.verdict.reason.as_deref(), Some("PermissionRequest hook denied approval"));
    assert_eq!(pr(r#"{"behavior":"deny","message":" m "}"#).verdict.reason.as_deref(), Some("m"));
    for bad in [
        r#"{"behavior":"allow","updatedInput":{}}"#,
        r#"{"behavior":"allow","updatedPermissions":[]}"#,
        r#"{"behavior":"deny","interrupt":true}"#,
        r#"{"behavior":"ask"}"#,
        r#"{}"#,
    ] {
        assert_eq!(pr(bad).status, Status::Error, "{bad}");
    }
}

#[test]
fn other_events_accept_only_the_universal_fields() {
    let r = run("PreCompact", "PreCompact", json!({}), 0, r#"{"systemMessage":"m"}"#, "");
    assert_eq!(r.verdict.system_message.as_deref(), Some("m"));
    let r = run("PreCompact", "PreCompact", json!({}), 0, r#"{"decision":"block","reason":"r"}"#, "");
    assert_eq!(r.status, Status::Error);
    let r = run("SessionStart", "SessionStart", json!({}), 2, "", "why");
    assert_eq!((r.verdict.decision, r.verdict.system_message.as_deref()), (None, Some("why")));
}

#[test]
fn deeply_nested_or_huge_output_is_rejected_without_a_stack_overflow() {
    for out in ["[".repeat(100_000), format!("{}1{}", "{\"a\":".repeat(100_000), "}".repeat(100_000))] {
        let r = pre(0, &out, "");
        assert_eq!(r.status, Status::Error);
    }
    let big = format!(r#"{{"systemMessage":"{}"}}"#, "x".repeat(2_000_000));
    let r = pre(0, &big, "");
    assert_eq!(r.verdict.system_message.map(|m| m.len() < 20_000), Some(true));
}
