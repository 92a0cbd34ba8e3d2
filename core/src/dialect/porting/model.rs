//! The port's model: a source configuration as the engine loaded it with its own dialect's
//! reader (so a port reads exactly what the agent would run), flattened into hooks in
//! configuration order, each with its canonical event, its compiled matcher and its place in
//! the source file.

use super::loss::At;
use crate::catalog::{self, Dialect, EventSpec};
use crate::config::{Config, Handler};
use crate::matcher::GroupMatcher;

/// One handler under one canonical event. A handler the source writes once under an event
/// that stands for two (Codex's `PostToolUse`) is one hook per canonical event, same id.
#[derive(Debug)]
pub struct Hook {
    pub event: &'static EventSpec,
    pub handler: Handler,
    pub matcher: GroupMatcher,
    /// The group's id (`user:PreToolUse[0]`): handlers of one group stay together.
    pub group: String,
    pub at: At,
}

/// A source configuration, ready to be written in another dialect.
#[derive(Debug)]
pub struct Model {
    pub dialect: Dialect,
    pub hooks: Vec<Hook>,
}

impl Model {
    /// The hooks of a loaded configuration, event by event in the catalogue's order, groups and
    /// handlers in configuration order. `file`: the source file as given, for locations.
    pub(crate) fn of(config: &Config, dialect: Dialect, file: Option<&str>) -> Model {
        let mut hooks = Vec::new();
        for (id, groups) in config.events.iter().enumerate() {
            let spec = catalog::spec(id);
            for g in groups {
                for h in &g.handlers {
                    let path = h.id.split_once(':').map_or(h.id.as_str(), |(_, p)| p);
                    let group = match h.id.rfind(".hooks[") {
                        Some(at) => h.id[..at].to_string(),
                        None => h.id.clone(),
                    };
                    let at =
                        At { file: file.map(str::to_string), pointer: pointer_of(path), hook: h.id.clone() };
                    hooks.push(Hook {
                        event: spec,
                        handler: h.clone(),
                        matcher: g.matcher.clone(),
                        group,
                        at,
                    });
                }
            }
        }
        Model { dialect, hooks }
    }

    /// Whether the handler with hook id `id` also runs on `event`.
    pub fn runs_on(&self, id: &str, event: &EventSpec) -> bool {
        self.hooks.iter().any(|h| h.handler.id == id && std::ptr::eq(h.event, event))
    }
}

/// The JSON pointer of a hook path (`PreToolUse[0].hooks[1]` → `/hooks/PreToolUse/0/hooks/1`).
pub fn pointer_of(path: &str) -> String {
    let mut out = String::from("/hooks");
    for part in path.split('.') {
        let (name, index) = match part.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
            Some((n, i)) => (n, Some(i)),
            None => (part, None),
        };
        out.push('/');
        out.push_str(&crate::config::escape(name));
        if let Some(i) = index {
            out.push('/');
            out.push_str(i);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_hook_path_becomes_the_pointer_of_its_handler() {
        assert_eq!(super::pointer_of("PreToolUse[0].hooks[1]"), "/hooks/PreToolUse/0/hooks/1");
        assert_eq!(super::pointer_of("a/b[2]"), "/hooks/a~1b/2");
    }
}
