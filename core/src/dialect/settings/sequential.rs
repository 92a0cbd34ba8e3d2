//! Two keys of Gemini CLI's settings that its fork Qwen Code kept (VS Code has the second): a group's `sequential:
//! true` (a fire runs its hooks one at a time when a selected handler sits in such a group)
//! and a handler's `env` (added to its environment, last). Read and applied once here, for
//! both dialects.

use crate::config::{Fields, Handler, escape};
use crate::dialect::Strategy;

/// A handler's `sequential` group and its own `env`, kept as its knobs.
#[derive(Debug, Default)]
pub(crate) struct SequentialEnv {
    /// Its group says `sequential: true`.
    pub sequential: bool,
    /// `env`: added to this hook's environment, last.
    pub env: Vec<(String, String)>,
}

/// A handler's `env` object (Gemini, Qwen Code, Copilot, VS Code): variables added to its
/// environment, last; one that cannot be set (empty name, `=` or NUL) makes the handler invalid.
pub(crate) fn handler_env(f: &Fields<'_>) -> Result<Vec<(String, String)>, (String, String)> {
    let env = f.string_pairs("env")?.unwrap_or_default();
    if let Some((k, _)) =
        env.iter().find(|(k, v)| k.is_empty() || k.contains(['=', '\0']) || v.contains('\0'))
    {
        let why = "not a valid environment variable (empty name, `=` or NUL)";
        return Err((format!("{}/env/{}", f.hptr, escape(k)), why.to_string()));
    }
    Ok(env)
}

impl SequentialEnv {
    /// Reads the group's `sequential` and the handler's `env`; a variable that cannot be set
    /// (empty name, `=` or NUL) makes the handler invalid.
    pub fn read(group: &Fields<'_>, f: &Fields<'_>) -> Result<SequentialEnv, (String, String)> {
        let sequential = group.boolean("sequential")?.unwrap_or(false);
        Ok(SequentialEnv { sequential, env: handler_env(f)? })
    }

    fn of(h: &Handler) -> Option<&SequentialEnv> {
        h.knobs.get::<SequentialEnv>()
    }

    /// One at a time, every hook running even after a deny, when any selected handler sits
    /// in a `sequential` group; all at once otherwise.
    pub fn strategy(selected: &[&Handler]) -> Strategy {
        if selected.iter().any(|h| Self::of(h).is_some_and(|k| k.sequential)) {
            Strategy::RunAll
        } else {
            Strategy::Parallel
        }
    }

    /// The handler's own `env` (`Profile::handler_env`).
    pub fn env_of(h: &Handler) -> &[(String, String)] {
        Self::of(h).map_or(&[], |k| k.env.as_slice())
    }

    /// The handler's own `env`.
    pub fn env(h: &Handler) -> impl Iterator<Item = (String, String)> + '_ {
        Self::of(h).into_iter().flat_map(|k| k.env.iter().cloned())
    }
}
