//! A case's expectations against a fire's result: which expected keys the result does not
//! satisfy, and, for `--record`, the expectations a result satisfies exactly. It reads the
//! core's `FireResult` as it is; it never re-decides what the hooks said.

use super::case::{Expect, ExpectedDecision, ExpectedOutcome};
use hookwire_core::{Decision, FireResult};
use serde::Serialize;
use serde_json::{Value, json};

/// One expected key the result does not satisfy.
#[derive(Debug, Serialize)]
pub struct Difference {
    /// The key of `expect`.
    pub key: &'static str,
    /// How the key is compared.
    pub test: Test,
    pub expected: Value,
    pub got: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// The result's value equals the expected one.
    Equals,
    /// The result's text contains the expected one.
    Contains,
}

impl ExpectedDecision {
    /// The result's decision in the case format's words.
    pub fn of(d: Option<Decision>) -> ExpectedDecision {
        match d {
            None => ExpectedDecision::None,
            Some(Decision::Allow) => ExpectedDecision::Allow,
            Some(Decision::Deny) => ExpectedDecision::Deny,
            Some(Decision::Ask) => ExpectedDecision::Ask,
            Some(Decision::Defer) => ExpectedDecision::Defer,
            Some(Decision::Block) => ExpectedDecision::Block,
        }
    }
}

fn outcomes_of(r: &FireResult) -> Vec<ExpectedOutcome> {
    r.outcomes.iter().map(|o| ExpectedOutcome { hook: o.hook.clone(), status: o.status }).collect()
}

fn to_json<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// `key` when `got` is not `expected`.
fn equal(key: &'static str, expected: Value, got: Value) -> Option<Difference> {
    (expected != got).then_some(Difference { key, test: Test::Equals, expected, got })
}

/// A text key: `Some(text)` must be in the result's text, `None` (`null`) expects none.
fn text(key: &'static str, want: &Option<String>, got: &Option<String>) -> Option<Difference> {
    match (want, got) {
        (None, _) => equal(key, Value::Null, to_json(got)),
        (Some(w), Some(g)) if g.contains(w.as_str()) => None,
        (Some(w), _) => Some(Difference { key, test: Test::Contains, expected: json!(w), got: to_json(got) }),
    }
}

/// The expected keys `r` does not satisfy, in the order of [`Expect`]'s keys.
pub fn differences(e: &Expect, r: &FireResult) -> Vec<Difference> {
    [
        e.decision.and_then(|d| equal("decision", to_json(&d), to_json(&ExpectedDecision::of(r.decision)))),
        e.reason.as_ref().and_then(|w| text("reason", w, &r.reason)),
        e.context.as_ref().and_then(|w| text("context", w, &r.additional_context)),
        e.system_message.as_ref().and_then(|w| text("system_message", w, &r.system_message)),
        e.updated_input
            .as_ref()
            .and_then(|v| equal("updated_input", v.clone(), r.updated_input.clone().unwrap_or(Value::Null))),
        e.continue_.and_then(|c| equal("continue", json!(c), json!(r.continue_))),
        e.stop_reason.as_ref().and_then(|w| text("stop_reason", w, &r.stop_reason)),
        e.outcomes.as_ref().and_then(|list| equal("outcomes", to_json(list), to_json(&outcomes_of(r)))),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The expectations `r` satisfies, as `--record` writes them: the decision and the hooks'
/// outcomes always, every other key when the result has a value for it (`continue` only when
/// it is `false`).
pub fn recorded(r: &FireResult) -> Expect {
    Expect {
        decision: Some(ExpectedDecision::of(r.decision)),
        reason: r.reason.clone().map(Some),
        context: r.additional_context.clone().map(Some),
        system_message: r.system_message.clone().map(Some),
        updated_input: r.updated_input.clone(),
        continue_: (!r.continue_).then_some(false),
        stop_reason: r.stop_reason.clone().map(Some),
        outcomes: Some(outcomes_of(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real result: one hook allows with a reason, context and a rewritten input; one fails.
    fn result() -> FireResult {
        let allow = r#"printf '{"systemMessage":"m","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine by me","updatedInput":{"command":"ls -l"},"additionalContext":"ctx"}}'"#;
        let config = json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": allow},
            {"type": "command", "command": "exit 1"},
        ]}]}});
        let d = hookwire_core::Dispatcher::from_value(config).unwrap();
        d.fire(
            &json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}),
        )
        .unwrap()
    }

    fn expect(text: &str) -> Expect {
        serde_json::from_str(text).unwrap()
    }

    fn keys(d: &[Difference]) -> Vec<&str> {
        d.iter().map(|d| d.key).collect()
    }

    #[test]
    fn a_result_satisfies_what_was_recorded_from_it() {
        let r = result();
        let e = recorded(&r);
        assert_eq!(e.decision, Some(ExpectedDecision::Allow));
        assert_eq!(e.outcomes.as_ref().map(Vec::len), Some(2));
        assert!(differences(&e, &r).is_empty(), "{:?}", differences(&e, &r));
    }

    #[test]
    fn text_keys_match_a_substring_and_null_expects_none() {
        let r = result();
        assert!(differences(&expect(r#"{"reason": "fine", "context": "ct"}"#), &r).is_empty());
        let d = differences(&expect(r#"{"reason": "nope", "stop_reason": null, "context": null}"#), &r);
        assert_eq!(keys(&d), ["reason", "context"]);
        assert_eq!(d[0].test, Test::Contains);
        assert_eq!(d[1].test, Test::Equals);
        assert_eq!(d[1].got, json!("ctx"));
    }

    #[test]
    fn every_other_key_must_equal_the_result() {
        let r = result();
        let e = expect(
            r#"{"decision": "deny", "updated_input": {"command": "ls"}, "continue": false,
                "outcomes": [{"hook": "session:PreToolUse[0].hooks[0]", "status": "ok"}]}"#,
        );
        let d = differences(&e, &r);
        assert_eq!(keys(&d), ["decision", "updated_input", "continue", "outcomes"]);
        assert_eq!((&d[0].expected, &d[0].got), (&json!("deny"), &json!("allow")));
        assert_eq!(d[3].got[1]["status"], "error");
    }

    #[test]
    fn no_decision_is_spelt_none() {
        let r = FireResult::empty("Stop");
        assert!(differences(&expect(r#"{"decision": "none"}"#), &r).is_empty());
        assert_eq!(keys(&differences(&expect(r#"{"decision": "allow"}"#), &r)), ["decision"]);
    }
}
