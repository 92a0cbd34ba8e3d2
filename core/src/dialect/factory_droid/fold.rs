//! Droid's fold (observed): the hooks of one fire run in parallel, and the **first configured
//! hook's decision wins**, not the strongest: allow (first) + deny (second) lets the tool run,
//! whichever finished first. Of several `updatedInput`s the first configured one wins too.
//! Everything else (contexts, messages, `continue: false`) folds as Claude Code's does.
//!
//! Unverified, chosen: a hook that decides nothing (no output) does not count as "first";
//! the first hook that *decides* wins (a silent hook beside a deny still denies).

use crate::fold::{Folded, fold};
use crate::verdict::{Decision, Verdict};

pub(super) fn first_decision(verdicts: &[&Verdict]) -> Folded {
    let mut folded = fold(verdicts);
    let first = verdicts.iter().find(|v| v.decision.is_some());
    folded.decision = first.and_then(|v| v.decision);
    folded.reason = first.and_then(|v| v.reason.clone());
    folded.updated_input = match folded.decision {
        Some(d) if Decision::is_blocking(d) => None,
        _ => verdicts.iter().find_map(|v| v.updated_input.clone()),
    };
    folded
}
