//! Codex's fold (agents.md §2.4): Claude Code's parallel precedence fold in configuration order
//! (deny > allow, the first configured reason, the last configured `updated_input` among allows,
//! context joined with `\n\n`, messages with `\n`), except on `Stop` and `SubagentStop`: every
//! blocking reason is kept, joined with `\n\n` in configuration order, and a `continue: false`
//! from any hook means the turn ends, so nothing blocks.

use crate::catalog::EventSpec;
use crate::dialect::{Step, verdicts};
use crate::fold::Folded;
use crate::verdict::Decision;

pub fn fold(spec: &EventSpec, steps: &[&Step]) -> Folded {
    let vs = verdicts(steps);
    let mut folded = crate::fold::fold(&vs);
    if spec.stop_like && folded.decision == Some(Decision::Block) {
        if !folded.continue_ {
            folded.decision = None;
            folded.reason = None;
        } else {
            let reasons: Vec<&str> = vs
                .iter()
                .filter(|v| v.decision == Some(Decision::Block))
                .filter_map(|v| v.reason.as_deref())
                .collect();
            folded.reason = (!reasons.is_empty()).then(|| reasons.join("\n\n"));
        }
    }
    folded
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Reading, Status, Verdict};

    fn step(decision: Option<Decision>, reason: Option<&str>, cont: bool) -> Step {
        let mut verdict =
            Verdict { decision, reason: reason.map(str::to_string), continue_: cont, ..Verdict::default() };
        verdict.finish();
        Step::of(Reading { verdict, status: Status::Ok, error: None, warnings: Vec::new() })
    }

    fn spec(name: &str) -> &'static EventSpec {
        crate::catalog::spec(crate::catalog::lookup(name).unwrap())
    }

    #[test]
    fn stop_joins_every_blocking_reason_in_configuration_order() {
        let (a, b, c) = (
            step(Some(Decision::Block), Some("one"), true),
            step(None, None, true),
            step(Some(Decision::Block), Some("two"), true),
        );
        let f = fold(spec("Stop"), &[&a, &b, &c]);
        assert_eq!(f.decision, Some(Decision::Block));
        assert_eq!(f.reason.as_deref(), Some("one\n\ntwo"));
    }

    #[test]
    fn stop_does_not_block_when_a_hook_says_continue_false() {
        let (a, b) = (step(Some(Decision::Block), Some("one"), true), step(None, None, false));
        let f = fold(spec("SubagentStop"), &[&a, &b]);
        assert_eq!(f.decision, None);
        assert!(!f.continue_);
    }

    #[test]
    fn elsewhere_the_first_configured_reason_wins() {
        let (a, b) = (
            step(Some(Decision::Deny), Some("first"), true),
            step(Some(Decision::Deny), Some("second"), true),
        );
        let f = fold(spec("PreToolUse"), &[&a, &b]);
        assert_eq!(f.reason.as_deref(), Some("first"));
        let (a, b) = (
            step(Some(Decision::Block), Some("first"), true),
            step(Some(Decision::Block), Some("second"), true),
        );
        assert_eq!(fold(spec("PostToolUse"), &[&a, &b]).reason.as_deref(), Some("first"));
    }
}
