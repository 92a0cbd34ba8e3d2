//! Cursor's fold of one fire (agents.md §4.3): deny > ask > allow, block if any hook blocks,
//! the reason of the first deciding verdict in configuration order, the last `updated_input`
//! in configuration order whatever its hook decided (none on deny), contexts joined with a
//! blank line and messages with a newline. Pure.

use crate::dialect::{Step, verdicts};
use crate::fold::Folded;
use crate::verdict::Decision;

pub fn fold(steps: &[&Step]) -> Folded {
    let vs = verdicts(steps);
    let mut f = crate::fold::fold(&vs);
    f.updated_input = match f.decision {
        Some(Decision::Deny | Decision::Block) => None,
        _ => vs.iter().filter_map(|v| v.updated_input.clone()).next_back(),
    };
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Reading, Status, Verdict, VerdictSource};
    use serde_json::json;

    fn step(d: Option<Decision>, reason: Option<&str>, input: Option<serde_json::Value>) -> Step {
        let verdict = Verdict {
            source: VerdictSource::Json,
            decision: d,
            reason: reason.map(str::to_string),
            updated_input: input,
            ..Verdict::default()
        };
        Step::of(Reading { verdict, status: Status::Ok, error: None, warnings: Vec::new() })
    }

    #[test]
    fn deny_beats_ask_beats_allow_and_the_first_deciding_reason_is_kept() {
        let (a, b, c) = (
            step(Some(Decision::Allow), None, None),
            step(Some(Decision::Ask), Some("ask1"), None),
            step(Some(Decision::Ask), Some("ask2"), None),
        );
        let f = fold(&[&a, &b, &c]);
        assert_eq!(f.decision, Some(Decision::Ask));
        assert_eq!(f.reason.as_deref(), Some("ask1"));
        let d = step(Some(Decision::Deny), Some("no"), None);
        assert_eq!(fold(&[&b, &d]).decision, Some(Decision::Deny));
    }

    #[test]
    fn the_last_rewrite_wins_even_under_ask_and_none_survives_a_deny() {
        let a = step(Some(Decision::Allow), None, Some(json!({"c": 1})));
        let b = step(Some(Decision::Allow), None, Some(json!({"c": 2})));
        let ask = step(Some(Decision::Ask), Some("?"), None);
        assert_eq!(fold(&[&a, &b, &ask]).updated_input, Some(json!({"c": 2})));
        let deny = step(Some(Decision::Deny), Some("no"), None);
        assert_eq!(fold(&[&a, &deny]).updated_input, None);
    }
}
