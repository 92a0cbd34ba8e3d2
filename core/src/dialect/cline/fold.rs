//! Cline's fold (observed): hooks ran one at a time and every one ran; any cancel wins and the
//! run is aborted, so the other hooks' context and input overrides are dropped with it;
//! otherwise contexts are joined with a newline (one `<hook_context>` block) and the last
//! `overrideInput` wins.

use crate::dialect::{Step, verdicts};
use crate::fold::Folded;

pub(super) fn fold(steps: &[&Step]) -> Folded {
    let mut f = crate::fold::first_block(&verdicts(steps));
    if !f.continue_ {
        f.additional_context = None;
        f.updated_input = None;
    }
    f
}
