use super::*;
use crate::error::ErrorKind;
use serde_json::json;

/// The host step of a result written as JSON, read back as a value.
fn step_of(result: Value) -> Value {
    serde_json::from_str(&HostStep::of_json(&result.to_string()).unwrap()).unwrap()
}

fn pre(extra: Value) -> Value {
    let mut r = json!({"event": "PreToolUse", "decision": null, "reason": null, "continue": true});
    r.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    r
}

#[test]
fn every_key_is_present_in_the_order_documented() {
    let text = HostStep::of_json(r#"{"event":"SessionEnd"}"#).unwrap();
    assert_eq!(
        text,
        r#"{"event":"SessionEnd","action":"proceed","tool_input":null,"message":null,"feedback":null,"tool_output":null,"prompt":null,"context":null,"user_message":null,"stop":false}"#
    );
}

#[test]
fn a_deny_keeps_the_tool_from_running_and_gives_the_model_the_bare_reason() {
    let s = step_of(pre(json!({"decision": "deny", "reason": "no rm -rf here"})));
    assert_eq!(s["action"], "deny_tool");
    assert_eq!(s["message"], "no rm -rf here");
    assert_eq!(s["stop"], false);
}

#[test]
fn a_deny_without_a_reason_says_blocked_by_hook() {
    for reason in [json!(null), json!("")] {
        let s = step_of(pre(json!({"decision": "deny", "reason": reason})));
        assert_eq!(s["message"], NO_REASON);
    }
}

#[test]
fn ask_is_a_deny_when_nobody_can_be_asked() {
    let s = step_of(pre(json!({"decision": "ask", "reason": "confirm the push"})));
    assert_eq!((s["action"].as_str(), s["message"].as_str()), (Some("deny_tool"), Some("confirm the push")));
}

#[test]
fn defer_hands_the_call_back_and_ends_the_run() {
    let s = step_of(pre(json!({"decision": "defer"})));
    assert_eq!((s["action"].as_str(), s["stop"].as_bool()), (Some("defer_tool"), Some(true)));
    assert_eq!(s["message"], Value::Null);
}

#[test]
fn a_rewrite_runs_the_tool_with_the_new_input_even_without_a_decision() {
    let s = step_of(pre(json!({"updated_input": {"command": "ls -la"}})));
    assert_eq!(s["action"], "run_tool");
    assert_eq!(s["tool_input"], json!({"command": "ls -la"}));
}

#[test]
fn the_reason_of_an_allow_never_reaches_the_model() {
    let s = step_of(pre(json!({"decision": "allow", "reason": "looks fine"})));
    assert_eq!(s["action"], "run_tool");
    assert_eq!((s["message"].clone(), s["context"].clone()), (Value::Null, Value::Null));
}

#[test]
fn pre_tool_use_context_reaches_the_model_also_beside_a_denial() {
    let s = step_of(pre(json!({"decision": "deny", "reason": "r", "additional_context": "policy 7"})));
    assert_eq!(s["context"], "PreToolUse hook additional context: policy 7");
}

#[test]
fn continue_false_on_pre_tool_use_runs_the_tool_then_stops_and_tells_only_the_user() {
    let s = step_of(pre(json!({"continue": false, "stop_reason": "budget spent", "system_message": "note"})));
    assert_eq!((s["action"].as_str(), s["stop"].as_bool()), (Some("run_tool"), Some(true)));
    assert_eq!(s["user_message"], "budget spent\nnote");
    assert_eq!(s["message"], Value::Null);
}

#[test]
fn a_post_tool_use_block_is_feedback_beside_the_result_and_keeps_the_output() {
    let s = step_of(json!({"event": "PostToolUse", "decision": "block", "reason": "lint failed",
                           "updated_tool_output": {"stdout": "x", "stderr": "", "interrupted": false},
                           "additional_context": "run the linter"}));
    assert_eq!(s["action"], "deliver_result");
    assert_eq!(s["feedback"], "PostToolUse hook blocking error: lint failed");
    assert_eq!(s["tool_output"]["stdout"], "x");
    assert_eq!(s["context"], "PostToolUse hook additional context: run the linter");
}

#[test]
fn a_failure_result_is_delivered_like_a_post_tool_use_result() {
    let s = step_of(json!({"event": "PostToolUseFailure", "decision": "block"}));
    assert_eq!(s["action"], "deliver_result");
    assert_eq!(s["feedback"], "PostToolUseFailure hook blocking error: Blocked by hook");
}

#[test]
fn a_prompt_block_makes_no_model_call_and_shows_the_reason_to_the_user_only() {
    let s = step_of(json!({"event": "UserPromptSubmit", "decision": "block", "reason": "no secrets",
                           "additional_context": "ignored"}));
    assert_eq!((s["action"].as_str(), s["stop"].as_bool()), (Some("block_prompt"), Some(true)));
    assert_eq!(s["user_message"], "UserPromptSubmit operation blocked by hook:\nno secrets");
    assert_eq!((s["message"].clone(), s["context"].clone()), (Value::Null, Value::Null));
}

#[test]
fn continue_false_on_a_prompt_beats_its_block_and_says_the_stop_reason() {
    let s = step_of(json!({"event": "UserPromptSubmit", "decision": "block", "reason": "r",
                           "continue": false, "stop_reason": "maintenance"}));
    assert_eq!(s["action"], "block_prompt");
    assert_eq!(s["user_message"], "Operation stopped by hook: maintenance");
}

#[test]
fn a_prompt_rewrite_and_its_context_go_to_the_model_call() {
    let s = step_of(json!({"event": "UserPromptSubmit", "updated_input": {"prompt": "safer words"},
                           "additional_context": "repo is X"}));
    assert_eq!(s["action"], "call_model");
    assert_eq!(s["prompt"], "safer words");
    assert_eq!(s["context"], "UserPromptSubmit hook additional context: repo is X");
}

#[test]
fn a_stop_block_is_one_more_model_call_with_claude_codes_feedback_text() {
    let s = step_of(json!({"event": "Stop", "decision": "block", "reason": "tests fail"}));
    assert_eq!((s["action"].as_str(), s["stop"].as_bool()), (Some("continue_turn"), Some(false)));
    assert_eq!(s["message"], "Stop hook feedback:\ntests fail");
}

#[test]
fn a_stop_block_without_a_reason_sends_blocked_by_hook() {
    let s = step_of(json!({"event": "Stop", "decision": "block"}));
    assert_eq!(s["message"], "Stop hook feedback:\nBlocked by hook");
}

#[test]
fn stop_context_alone_also_continues_the_turn() {
    let s = step_of(json!({"event": "SubagentStop", "additional_context": "check the logs"}));
    assert_eq!(s["action"], "continue_turn");
    assert_eq!(s["message"], "SubagentStop hook additional context: check the logs");
    assert_eq!(s["context"], Value::Null);
}

#[test]
fn continue_false_on_stop_ends_the_turn_despite_a_block() {
    let s = step_of(json!({"event": "Stop", "decision": "block", "reason": "r", "continue": false}));
    assert_eq!((s["action"].as_str(), s["stop"].as_bool()), (Some("end_turn"), Some(true)));
}

#[test]
fn a_stop_without_a_decision_ends_the_turn() {
    assert_eq!(step_of(json!({"event": "Stop"}))["action"], "end_turn");
}

#[test]
fn session_start_context_is_labelled_and_async_context_follows_it() {
    let s = step_of(json!({"event": "SessionStart", "additional_context": "branch main",
                           "pending_context": "lint done"}));
    assert_eq!(s["action"], "proceed");
    assert_eq!(
        s["context"],
        "SessionStart hook additional context: branch main\n\nAsync hook context: lint done"
    );
}

#[test]
fn a_fired_result_and_its_json_give_the_same_step() {
    let d = crate::Dispatcher::new(
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#,
    )
    .unwrap();
    let event = json!({"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","tool_name":"Bash","tool_input":{"command":"ls"}});
    let result = d.fire(&event).unwrap();
    assert_eq!(result.decision, Some(Decision::Deny));
    let from_result = serde_json::to_value(HostStep::of(&result)).unwrap();
    let from_json = step_of(serde_json::to_value(&result).unwrap());
    assert_eq!(from_result, from_json);
    assert_eq!(from_json["action"], "deny_tool");
    assert_eq!(from_json["message"], "no");
}

#[test]
fn text_that_is_not_a_result_is_a_clear_error_never_a_panic() {
    let cases = [
        ("not json", ErrorKind::InvalidJson),
        ("[]", ErrorKind::InvalidEvent),
        (r#"{"decision":"deny"}"#, ErrorKind::InvalidEvent),
        (r#"{"event":"PreToolUse","decision":"approve"}"#, ErrorKind::InvalidEvent),
        (r#"{"event":"PreToolUse","continue":"no"}"#, ErrorKind::InvalidEvent),
    ];
    for (text, kind) in cases {
        let e = HostStep::of_json(text).unwrap_err();
        assert_eq!(e.kind(), kind, "{text}: {e}");
    }
}

#[test]
fn a_deeply_nested_result_is_refused_without_overflowing_the_stack() {
    let deep =
        format!(r#"{{"event":"PreToolUse","updated_input":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(HostStep::of_json(&deep).unwrap_err().kind(), ErrorKind::InvalidJson);
}
