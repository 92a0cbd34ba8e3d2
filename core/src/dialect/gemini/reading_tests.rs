use super::*;
use crate::catalog::{Dialect, Shell, lookup, lookup_native, spec};
use crate::config::CommandSpec;
use crate::runner::Text;
use serde_json::json;

fn handler(native: &str) -> Handler {
    let cmd = CommandSpec::Shell { script: "x".into(), shell: Shell::Bash };
    Handler::command("user:X[0].hooks[0]".into(), 0, cmd, Dialect::Gemini, native)
}

fn text(s: &str) -> Text {
    Text { text: s.to_string(), truncated: false, lossy: false }
}

/// Reads a hook configured under `native`, fired as canonical `event`, that ended with `end`.
fn run(native: &str, event: &str, input: Value, end: End, out: &str, err: &str) -> Step {
    let id = lookup(event).or_else(|| lookup_native("gemini", event)).unwrap();
    let ev = FireEvent::plain(spec(id), &input);
    let (o, e) = (text(out), text(err));
    read(&handler(native), &ev, &Finished { end: &end, stdout: &o, stderr: &e, timeout_s: 1.0 })
}

fn tool(end: End, out: &str, err: &str) -> Step {
    let input = json!({"tool_name": "Bash", "tool_input": {"command": "a", "description": "d"}});
    run("BeforeTool", "PreToolUse", input, end, out, err)
}

#[test]
fn exit_2_with_stderr_denies_and_json_on_stdout_wins_over_it() {
    let v = tool(End::Exited(2), "", "e\n").reading.verdict;
    assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("e")));
    let s = tool(End::Exited(2), r#"{"decision":"allow"}"#, "e");
    assert_eq!((s.reading.verdict.decision, s.reading.status), (Some(Decision::Allow), Status::Ok));
    let v = tool(End::Exited(2), r#"{"systemMessage":"s"}"#, "e").reading.verdict;
    assert_eq!((v.decision, v.system_message.as_deref()), (None, Some("s")));
    let v = tool(End::Exited(2), r#"{"decision":"deny","reason":"j"}"#, "e").reading.verdict;
    assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("j")));
}

#[test]
fn exit_2_without_stderr_is_an_error_without_a_decision() {
    let s = tool(End::Exited(2), "", "  ");
    assert_eq!((s.reading.verdict.decision, s.reading.status), (None, Status::Error));
}

#[test]
fn other_exits_warn_the_user_and_plain_stdout_is_never_context() {
    let s = tool(End::Exited(1), "", "w\n");
    assert_eq!(s.reading.status, Status::Error);
    assert_eq!(s.reading.verdict.system_message.as_deref(), Some("Warning: w"));
    let s = run("BeforeAgent", "UserPromptSubmit", json!({"prompt": "p"}), End::Exited(0), "hi\n", "");
    assert_eq!(s.reading.verdict.system_message.as_deref(), Some("hi"));
    assert_eq!(s.reading.verdict.additional_context, None);
    let s = run("BeforeAgent", "UserPromptSubmit", json!({}), End::Exited(0), "{not json", "");
    assert_eq!(s.reading.verdict.system_message.as_deref(), Some("{not json"));
}

#[test]
fn a_json_string_is_parsed_once_more() {
    let v = tool(End::Exited(0), r#""{\"decision\":\"deny\",\"reason\":\"r\"}""#, "").reading.verdict;
    assert_eq!((v.decision, v.reason.as_deref()), (Some(Decision::Deny), Some("r")));
    let s = tool(End::Exited(0), r#"[1,2]"#, "");
    assert_eq!(s.reading.verdict.source, VerdictSource::None);
    assert_eq!(s.reading.warnings.len(), 1);
}

#[test]
fn claude_code_fields_are_unknown_here() {
    let out = r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","permissionDecision":"deny"}}"#;
    let s = tool(End::Exited(0), out, "");
    assert_eq!(s.reading.verdict.decision, None);
    assert!(s.reading.warnings.iter().any(|w| w.contains("permissionDecision (a Claude Code field)")));
}

#[test]
fn a_tool_input_rewrite_is_kept_as_given_and_chained_merged() {
    let s = tool(End::Exited(0), r#"{"hookSpecificOutput":{"tool_input":{"command":"b"}}}"#, "");
    assert_eq!(s.reading.verdict.updated_input, Some(json!({"command": "b"})));
    assert_eq!(s.chain, vec![("tool_input".to_string(), json!({"command": "b", "description": "d"}))]);
}

#[test]
fn decisions_an_event_cannot_take_are_ignored_with_a_warning() {
    let input = json!({"tool_name": "Bash"});
    let s = run("AfterTool", "PostToolUse", input.clone(), End::Exited(0), r#"{"decision":"allow"}"#, "");
    assert_eq!(s.reading.verdict.decision, None);
    assert_eq!(s.reading.warnings.len(), 1);
    let s = run("AfterTool", "PostToolUseFailure", input, End::Exited(0), r#"{"decision":"deny"}"#, "");
    assert_eq!(s.reading.verdict.decision, Some(Decision::Block));
    let s = run("SessionStart", "SessionStart", json!({}), End::Exited(0), r#"{"decision":"block"}"#, "");
    assert_eq!(s.reading.verdict.decision, None);
}

#[test]
fn after_agent_context_is_not_honoured_and_clear_context_goes_to_extra() {
    let out = r#"{"hookSpecificOutput":{"hookEventName":"AfterAgent","additionalContext":"c","clearContext":true}}"#;
    let s = run("AfterAgent", "Stop", json!({}), End::Exited(0), out, "");
    assert_eq!(s.reading.verdict.additional_context, None);
    assert_eq!(s.reading.verdict.extra["clearContext"], json!(true));
    assert!(s.reading.warnings.iter().any(|w| w.contains("additionalContext")));
}

#[test]
fn wrong_types_drop_only_that_field() {
    let out = r#"{"decision":5,"systemMessage":"s","continue":"no","hookSpecificOutput":{"tool_input":"x"}}"#;
    let s = tool(End::Exited(0), out, "");
    let v = &s.reading.verdict;
    assert_eq!((v.decision, v.system_message.as_deref(), v.continue_), (None, Some("s"), true));
    assert_eq!(v.updated_input, None);
    assert_eq!(s.reading.warnings.len(), 3);
}

#[test]
fn before_agent_context_chains_into_the_prompt_and_before_model_merges_the_request() {
    let out = r#"{"hookSpecificOutput":{"additionalContext":"ctx"}}"#;
    let s = run("BeforeAgent", "UserPromptSubmit", json!({"prompt": "p"}), End::Exited(0), out, "");
    assert_eq!(s.reading.verdict.additional_context.as_deref(), Some("ctx"));
    assert_eq!(s.chain, vec![("prompt".to_string(), json!("p\n\nctx"))]);
    let out = r#"{"hookSpecificOutput":{"llm_request":{"model":"m2"}}}"#;
    let ev = json!({"llm_request": {"model": "m1", "messages": []}});
    let s = run("BeforeModel", "BeforeModel", ev, End::Exited(0), out, "");
    assert_eq!(s.chain, vec![("llm_request".to_string(), json!({"model": "m2", "messages": []}))]);
    assert_eq!(s.reading.verdict.extra["llm_request"], json!({"model": "m2"}));
}

#[test]
fn failures_fail_open_unless_fail_closed() {
    let s = tool(End::TimedOut { started: true }, "", "");
    assert_eq!((s.reading.status, s.reading.verdict.decision), (Status::TimedOut, None));
    let input = json!({"tool_name": "Bash"});
    let id = lookup("PreToolUse").unwrap();
    let ev = FireEvent::plain(spec(id), &input);
    let mut h = handler("BeforeTool");
    h.fail_closed = true;
    let (o, e) = (text(""), text(""));
    let s = read(&h, &ev, &Finished { end: &End::Exited(3), stdout: &o, stderr: &e, timeout_s: 1.0 });
    assert_eq!(s.reading.verdict.decision, Some(Decision::Deny));
    assert!(s.reading.verdict.reason.unwrap().contains("failed closed"));
}

#[test]
fn deeply_nested_hook_output_is_refused_without_overflowing() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let s = tool(End::Exited(0), &deep, "");
    assert_eq!(s.reading.verdict.decision, None);
    let nested = format!("{}1{}", "{\"a\":".repeat(100), "}".repeat(100));
    let s = tool(End::Exited(0), &nested, "");
    assert_eq!(s.reading.verdict.decision, None);
}
