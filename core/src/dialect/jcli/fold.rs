//! Folds the steps of one fire of this dialect into one decision.

use super::reading::JCliStep;
use crate::dialect::Step;
use crate::fold::Folded;
use crate::verdict::Verdict;
use serde_json::{Map, Value};

/// The chain fold: replaced fields last wins; `inject_messages` concatenate; the first stop or
/// skip ends the chain and keeps only its action, `retry_feedback` and `system_message`.
pub fn fold(steps: &[&Step]) -> Folded {
    let action_of = |s: &Step| s.own.get::<JCliStep>().and_then(|o| o.action);
    if let Some((last, action)) = steps.last().and_then(|s| Some((s, action_of(s)?))) {
        let v = &last.reading.verdict;
        let mut extra = Map::new();
        if let Some(fb) = v.extra.get("retry_feedback") {
            extra.insert("retry_feedback".into(), fb.clone());
        }
        extra.insert("action".into(), Value::String(action.to_string()));
        return Folded {
            decision: v.decision,
            reason: v.reason.clone(),
            continue_: v.continue_,
            stop_reason: v.stop_reason.clone(),
            updated_input: None,
            updated_tool_output: None,
            additional_context: None,
            system_message: v.system_message.clone(),
            suppress_output: false,
            extra,
            warnings: Vec::new(),
        };
    }
    let verdicts: Vec<&Verdict> = steps.iter().map(|s| &s.reading.verdict).collect();
    let last =
        |pick: fn(&Verdict) -> Option<&Value>| verdicts.iter().filter_map(|v| pick(v).cloned()).next_back();
    let last_text =
        |pick: fn(&Verdict) -> Option<&String>| verdicts.iter().filter_map(|v| pick(v).cloned()).next_back();
    let mut extra = Map::new();
    let mut injected: Vec<Value> = Vec::new();
    for v in &verdicts {
        for (k, x) in &v.extra {
            if k == "inject_messages" {
                match x {
                    Value::Array(a) => injected.extend(a.iter().cloned()),
                    other => injected.push(other.clone()),
                }
            } else {
                extra.insert(k.clone(), x.clone());
            }
        }
    }
    if !injected.is_empty() {
        extra.insert("inject_messages".into(), Value::Array(injected));
    }
    Folded {
        decision: None,
        reason: None,
        continue_: true,
        stop_reason: None,
        updated_input: last(|v| v.updated_input.as_ref()),
        updated_tool_output: last(|v| v.updated_tool_output.as_ref()),
        additional_context: last_text(|v| v.additional_context.as_ref()),
        system_message: last_text(|v| v.system_message.as_ref()),
        suppress_output: false,
        extra,
        warnings: Vec::new(),
    }
}
