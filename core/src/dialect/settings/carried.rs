//! Handler keys a source dialect keeps for itself, as its reader left them in the handler's
//! knobs: read here once, so that every writer can carry them where its target has them and
//! report them where it has not. Here, beside the writers' shared code (`write.rs`), so that
//! the porting model knows no dialect's knobs: a handler's `env` is its profile's to say
//! (`Profile::handler_env`).

use super::SequentialEnv;
use crate::config::Handler;

/// The handler's own variables (`env` of Gemini, Qwen Code, Copilot and VS Code); `None` when
/// it sets none.
pub fn env_of(h: &Handler) -> Option<&[(String, String)]> {
    let env = (h.dialect.rules().profile().handler_env)(h);
    (!env.is_empty()).then_some(env)
}

/// Whether the handler's group runs its hooks one at a time (Gemini's and Qwen Code's
/// `sequential: true`).
pub fn sequential(h: &Handler) -> bool {
    h.knobs.get::<SequentialEnv>().is_some_and(|k| k.sequential)
}
