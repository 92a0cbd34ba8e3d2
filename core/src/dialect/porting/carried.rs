//! Handler keys a source dialect keeps for itself, as its reader left them in the handler's
//! knobs: read here once, so that every writer can carry them where its target has them and
//! report them where it has not.

use crate::config::Handler;
use crate::dialect::copilot_cli::CopilotKnobs;
use crate::dialect::settings::SequentialEnv;
use crate::dialect::vs_code::VsCodeKnobs;

/// The handler's own variables (`env` of Gemini, Qwen Code, Copilot and VS Code); `None` when
/// it sets none.
pub fn env_of(h: &Handler) -> Option<&[(String, String)]> {
    let env = None
        .or_else(|| h.knobs.get::<SequentialEnv>().map(|k| k.env.as_slice()))
        .or_else(|| h.knobs.get::<CopilotKnobs>().map(|k| k.env.as_slice()))
        .or_else(|| h.knobs.get::<VsCodeKnobs>().map(|k| k.env.as_slice()))?;
    (!env.is_empty()).then_some(env)
}

/// Whether the handler's group runs its hooks one at a time (Gemini's and Qwen Code's
/// `sequential: true`).
pub fn sequential(h: &Handler) -> bool {
    h.knobs.get::<SequentialEnv>().is_some_and(|k| k.sequential)
}
