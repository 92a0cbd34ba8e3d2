//! Folds the steps of one fire of this dialect into one decision.

use crate::dialect::Step;
use crate::fold::Folded;
use crate::verdict::{Decision, Verdict};
use serde_json::Value;

/// Sequential stop-at-first-block; no chaining; the first rewrite wins and is dropped when
/// the fire blocks; messages and annotations accumulate.
pub fn fold(steps: &[&Step]) -> Folded {
    let mut f = crate::fold::first_block(&crate::dialect::verdicts(steps));
    let verdicts: Vec<&Verdict> = steps.iter().map(|s| &s.reading.verdict).collect();
    let blocked = f.decision.is_some_and(Decision::is_blocking);
    f.updated_input = if blocked { None } else { verdicts.iter().find_map(|v| v.updated_input.clone()) };
    let notes: Vec<Value> = verdicts
        .iter()
        .filter_map(|v| v.extra.get("annotations").and_then(Value::as_array))
        .flatten()
        .cloned()
        .collect();
    if notes.is_empty() {
        f.extra.remove("annotations");
    } else {
        f.extra.insert("annotations".into(), Value::Array(notes));
    }
    f
}
