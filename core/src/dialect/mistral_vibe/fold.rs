//! Vibe's fold (observed): hooks ran one at a time, the first deny ended the chain and its
//! reason is the result's; rewrites composed (each hook saw the input as the one before left
//! it), so the last rewrite is the composed one; contexts join with a newline (documented).

use crate::dialect::{Step, verdicts};
use crate::fold::Folded;

pub(super) fn fold(steps: &[&Step]) -> Folded {
    crate::fold::first_block(&verdicts(steps))
}
