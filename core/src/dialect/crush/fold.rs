//! Crush's fold (observed, its `aggregate`): deny beats allow and every deny reason is joined
//! with a newline in configuration order (not finishing order); a halt is sticky; contexts are
//! joined with a newline and dropped on a deny; `updated_input` patches are shallow-merged in
//! configuration order, a later hook's keys winning.

use super::reading::Patch;
use crate::dialect::{Step, verdicts};
use crate::fold::Folded;
use serde_json::Value;

pub(super) fn fold(steps: &[&Step]) -> Folded {
    let mut f = crate::fold::fold(&verdicts(steps));
    let join = |parts: Vec<&str>| if parts.is_empty() { None } else { Some(parts.join("\n")) };
    if f.decision.is_some_and(|d| d.is_blocking()) {
        let reasons = steps
            .iter()
            .map(|s| &s.reading.verdict)
            .filter(|v| v.blocking)
            .filter_map(|v| v.reason.as_deref())
            .filter(|r| !r.is_empty());
        f.reason = join(reasons.collect()).or(f.reason);
        f.additional_context = None;
        f.updated_input = None;
        return f;
    }
    let contexts = steps.iter().filter_map(|s| s.reading.verdict.additional_context.as_deref());
    f.additional_context = join(contexts.filter(|c| !c.is_empty()).collect());
    let mut merged: Option<Value> = None;
    for s in steps {
        let Some(Patch(patch)) = s.own.get::<Patch>() else { continue };
        match &mut merged {
            None => merged = s.reading.verdict.updated_input.clone(),
            Some(Value::Object(input)) => input.extend(patch.clone()),
            Some(_) => {}
        }
    }
    f.updated_input = merged;
    f
}
