//! Which answers a hook can give on an event in the source agent but not in the target: each
//! kind of answer is put to both agents' answer forms (the bridge's rules, `dialect/*/answer.rs`)
//! and the target's loss line says what it gets instead. An answer the source agent itself
//! cannot express is not counted (its hooks cannot have relied on it).

use crate::catalog::{Decisions, EventSpec};
use crate::dialect::Profile;
use crate::dialect::answering::{AnswerFn, Answering, Fired};
use crate::result::FireResult;
use crate::verdict::Decision;
use serde_json::{Value, json};

/// The kinds of answer tried on `spec`, each as a result holding it.
fn probes(spec: &EventSpec) -> Vec<(&'static str, FireResult)> {
    let base = || FireResult::empty(spec.name);
    let mut out = Vec::new();
    if spec.decisions != Decisions::None {
        let decision = crate::dialect::block_decision(spec);
        out.push(("a block", FireResult { decision: Some(decision), reason: Some("r".into()), ..base() }));
    }
    if spec.decisions == Decisions::Permission {
        out.push(("ask", FireResult { decision: Some(Decision::Ask), reason: Some("r".into()), ..base() }));
        out.push(("defer", FireResult { decision: Some(Decision::Defer), ..base() }));
    }
    if spec.tool_event && spec.name != "PostToolUse" && spec.name != "PostToolUseFailure" {
        out.push((
            "a rewritten tool input",
            FireResult { updated_input: Some(json!({"command": "x"})), ..base() },
        ));
    }
    if spec.name == "UserPromptSubmit" {
        out.push((
            "a rewritten prompt",
            FireResult { updated_input: Some(json!({"prompt": "x"})), ..base() },
        ));
    }
    if !spec.discards_all_json {
        out.push(("added context", FireResult { additional_context: Some("c".into()), ..base() }));
    }
    out
}

/// What the target cannot express on `spec` that the source can: one line per answer kind,
/// the target's own words. Empty when either agent has no answer form (nothing is known).
pub fn lost(spec: &'static EventSpec, source: &Profile, target: &Profile) -> Vec<String> {
    let (Some(from), Some(to)) = (source.answer, target.answer) else { return Vec::new() };
    let (Some(from_name), Some(to_name)) =
        (super::native_name(source, spec), super::native_name(target, spec))
    else {
        return Vec::new();
    };
    let event = json!({"hook_event_name": spec.name, "tool_name": "Bash", "tool_input": {"command": "ls"}, "prompt": "p"});
    let mut out = Vec::new();
    for (what, result) in probes(spec) {
        if losses(from, from_name, spec, &event, &result).is_empty() {
            let lines = losses(to, to_name, spec, &event, &result);
            if let Some(first) = lines.first() {
                out.push(format!("{what}: {first}"));
            }
        }
    }
    out
}

fn losses(f: AnswerFn, native: &str, spec: &'static EventSpec, event: &Value, r: &FireResult) -> Vec<String> {
    f(&Answering { native, spec: Some(spec), event, fired: Fired::Result(r) }).losses
}
