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
        r#"{"event":"SessionEnd","action":"proceed","tool_input":null,"message":null,"feedback":null,"tool_output":null,"prompt":null,"context":null,"user_message":null,"stop":false,"seen_by":{"message":null,"feedback":null,"prompt":null,"context":null,"user_message":null},"approved":false}"#
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
fn ask_is_a_deny_when_nobody_can_be_asked_and_its_reason_is_shown_to_the_user_too() {
    let s = step_of(pre(json!({"decision": "ask", "reason": "confirm the push"})));
    assert_eq!((s["action"].as_str(), s["message"].as_str()), (Some("deny_tool"), Some("confirm the push")));
    // Claude Code 2.1.332 (agents.md §5.1): also a `permission_denied` line for the user.
    assert_eq!(s["seen_by"]["message"], "both");
    assert_eq!(s["user_message"], Value::Null, "shown once, through `message`");
}

#[test]
fn a_plain_deny_reason_is_the_models_alone() {
    let s = step_of(pre(json!({"decision": "deny", "reason": "no"})));
    assert_eq!(
        s["seen_by"],
        json!({"message": "model", "feedback": null, "prompt": null,
                                     "context": null, "user_message": null})
    );
}

#[test]
fn a_json_deny_gives_the_bare_reason_without_claude_codes_tool_prefix() {
    // §5.1 row 5: 2.1.332 prefixes `PreToolUse:<tool> hook error: `; a result does not name the
    // tool, so the step keeps the bare reason (docs/adapters.md says so).
    let s = step_of(pre(json!({"decision": "deny", "reason": "not here"})));
    assert_eq!(s["message"], "not here");
}

#[test]
fn a_pre_tool_use_system_message_is_shown_to_the_user_and_never_the_model() {
    let s = step_of(pre(json!({"decision": "deny", "reason": "r", "system_message": "guard v2 active"})));
    assert_eq!(s["user_message"], "guard v2 active");
    assert_eq!(s["seen_by"]["user_message"], "user");
    assert_eq!(s["message"], "r");
    assert_eq!(s["context"], Value::Null);
    let allowed = step_of(pre(json!({"decision": "allow", "system_message": "logged"})));
    assert_eq!(
        (allowed["action"].as_str(), allowed["user_message"].as_str()),
        (Some("run_tool"), Some("logged"))
    );
}

#[test]
fn tool_context_is_a_model_text_of_its_own_slot_never_folded_into_the_tool_result() {
    // §5.1 row 4: a system message of its own since 2.1.332; the text is unchanged.
    for event in ["PreToolUse", "PostToolUse", "PostToolUseFailure"] {
        let s = step_of(json!({"event": event, "decision": null, "additional_context": "ctx"}));
        assert_eq!(s["context"], format!("{event} hook additional context: ctx"));
        assert_eq!(s["seen_by"]["context"], "model");
        assert!(s["message"].is_null() && s["feedback"].is_null(), "{s}");
    }
}

#[test]
fn a_permission_request_allow_runs_the_tool_with_its_updated_input() {
    let s = step_of(json!({"event": "PermissionRequest", "decision": "allow",
                           "updated_input": {"command": "ls"}}));
    assert_eq!(s["action"], "run_tool");
    assert_eq!(s["tool_input"], json!({"command": "ls"}));
    assert_eq!(s["message"], Value::Null);
}

#[test]
fn a_permission_request_deny_gives_its_message_to_the_model_and_the_user() {
    let s = step_of(json!({"event": "PermissionRequest", "decision": "deny", "reason": "not on Fridays"}));
    assert_eq!((s["action"].as_str(), s["message"].as_str()), (Some("deny_tool"), Some("not on Fridays")));
    assert_eq!(s["seen_by"]["message"], "both");
    assert_eq!(s["stop"], false);
    let bare = step_of(json!({"event": "PermissionRequest", "decision": "deny"}));
    assert_eq!(bare["message"], NO_REASON);
}

#[test]
fn a_permission_request_without_a_decision_denies_with_nobody_to_ask() {
    let s = step_of(json!({"event": "PermissionRequest", "decision": null}));
    assert_eq!((s["action"].as_str(), s["message"].as_str()), (Some("deny_tool"), Some(NOT_ALLOWED)));
    assert_eq!(s["seen_by"]["message"], "both");
}

#[test]
fn a_permission_request_deny_with_interrupt_ends_the_run() {
    let s = step_of(json!({"event": "PermissionRequest", "decision": "deny", "reason": "r",
                           "extra": {"interrupt": true}}));
    assert_eq!((s["action"].as_str(), s["stop"].as_bool()), (Some("deny_tool"), Some(true)));
}

#[test]
fn a_fired_permission_request_deny_reaches_the_step_with_its_message() {
    let d = crate::Dispatcher::new(
        r#"{"hooks":{"PermissionRequest":[{"hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"ask the owner\"}}}'"}]}]}}"#,
    )
    .unwrap();
    let event = json!({"hook_event_name":"PermissionRequest","session_id":"s","cwd":"/","tool_name":"Bash","tool_input":{"command":"ls"}});
    let s = serde_json::to_value(HostStep::of(&d.fire(&event).unwrap())).unwrap();
    assert_eq!((s["action"].as_str(), s["message"].as_str()), (Some("deny_tool"), Some("ask the owner")));
    assert_eq!(s["seen_by"]["message"], "both");
}

#[test]
fn a_skill_shell_command_denial_reads_as_claude_codes_bracket_for_model_and_user() {
    let s = step_of(json!({"event": "PreSkillShellCommand", "decision": "deny", "reason": "no curl"}));
    assert_eq!(s["action"], "deny_tool");
    assert_eq!(s["message"], "[not run: blocked by hook: no curl]");
    assert_eq!(s["seen_by"]["message"], "both");
    let ask = step_of(json!({"event": "PreSkillShellCommand", "decision": "ask"}));
    assert_eq!(ask["message"], "[not run: blocked by hook: Blocked by hook]");
}

#[test]
fn a_skill_shell_command_rewrite_is_refused_as_claude_code_refuses_it() {
    let s = step_of(json!({"event": "PreSkillShellCommand", "decision": "allow",
                           "updated_input": {"command": "ls"}}));
    assert_eq!(s["action"], "deny_tool");
    assert_eq!(
        s["message"],
        "[not run: blocked by hook: the hook changed the command, which isn't supported here]"
    );
    assert_eq!(s["tool_input"], Value::Null);
    let plain = step_of(json!({"event": "PreSkillShellCommand", "decision": "allow"}));
    assert_eq!((plain["action"].as_str(), plain["message"].as_str()), (Some("run_tool"), None));
    let defer = step_of(json!({"event": "PreSkillShellCommand", "decision": "defer"}));
    assert_eq!(defer["action"], "defer_tool");
}

#[test]
fn a_denied_model_switch_keeps_the_model_and_tells_only_the_user() {
    for decision in ["deny", "ask"] {
        let s = step_of(json!({"event": "PreModelSwitch", "decision": decision, "reason": "cache is warm"}));
        assert_eq!(s["action"], "keep_model");
        assert_eq!(s["user_message"], "cache is warm");
        assert_eq!(
            (s["message"].clone(), s["seen_by"]["user_message"].clone()),
            (Value::Null, json!("user"))
        );
    }
    for decision in [json!("allow"), json!(null)] {
        assert_eq!(
            step_of(json!({"event": "PreModelSwitch", "decision": decision}))["action"],
            "switch_model"
        );
    }
}

#[test]
fn post_model_switch_context_goes_to_the_model() {
    let s = step_of(json!({"event": "PostModelSwitch", "additional_context": "now on opus"}));
    assert_eq!(s["action"], "proceed");
    assert_eq!(s["context"], "PostModelSwitch hook additional context: now on opus");
    assert_eq!(s["seen_by"]["context"], "model");
}

#[test]
fn a_rewake_shows_its_summary_to_the_user_and_its_text_to_the_model() {
    let s = step_of(json!({"event": "UserPromptSubmit", "pending_context": "Security warning\nfound a key",
                           "async_outcomes": [{"rewake": {"message": "Security warning", "summary": "security check"}},
                                              {"rewake": null}]}));
    assert_eq!(s["user_message"], "security check");
    assert_eq!(s["context"], "Async hook context: Security warning\nfound a key");
    assert_eq!(
        (s["seen_by"]["user_message"].as_str(), s["seen_by"]["context"].as_str()),
        (Some("user"), Some("model"))
    );
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
fn only_a_hooks_allow_approves_the_call_over_the_hosts_own_approval() {
    let allowed = step_of(pre(json!({"decision": "allow"})));
    assert_eq!((allowed["action"].as_str(), allowed["approved"].as_bool()), (Some("run_tool"), Some(true)));
    let undecided = step_of(pre(json!({})));
    assert_eq!(
        (undecided["action"].as_str(), undecided["approved"].as_bool()),
        (Some("run_tool"), Some(false))
    );
    let rewritten = step_of(pre(json!({"updated_input": {"command": "ls"}})));
    assert_eq!(rewritten["approved"], false, "a rewrite without allow leaves the host's approval in charge");
    let granted = step_of(json!({"event": "PermissionRequest", "decision": "allow"}));
    assert_eq!(granted["approved"], true);
    for denied in [
        pre(json!({"decision": "deny"})),
        pre(json!({"decision": "ask"})),
        json!({"event": "PermissionRequest"}),
    ] {
        assert_eq!(step_of(denied)["approved"], false);
    }
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

#[test]
fn a_replacement_output_of_another_kind_than_the_tools_is_refused_for_that_tool() {
    let result = json!({"event": "PostToolUse", "updated_tool_output": {"lines": 3}}).to_string();
    let step_for = |response: &str| -> Value {
        serde_json::from_str(&HostStep::of_json_for(&result, response).unwrap()).unwrap()
    };
    assert_eq!(step_for(r#"{"lines": 9}"#)["tool_output"], json!({"lines": 3}));
    assert_eq!(step_for(r#""nine lines""#)["tool_output"], Value::Null);
    assert_eq!(step_for("[1]")["tool_output"], Value::Null);
    assert_eq!(step_for("null")["tool_output"], Value::Null);
    let text = json!({"event": "PostToolUse", "updated_tool_output": "short"}).to_string();
    let s: Value = serde_json::from_str(&HostStep::of_json_for(&text, r#""long""#).unwrap()).unwrap();
    assert_eq!(s["tool_output"], "short");
    assert!(!output_fits(&json!(1), &json!(true)), "a bool is not a number");
    assert!(output_fits(&json!(1), &json!(2.5)));
    assert_eq!(HostStep::of_json_for(&result, "{").unwrap_err().kind(), ErrorKind::InvalidJson);
}
