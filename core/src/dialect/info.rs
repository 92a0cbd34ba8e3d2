//! What `hookwire dialects` tells people about each dialect, read from the profiles: nothing
//! here is written twice, so the listing cannot drift from what the engine does.

use crate::catalog::{self, ALL_DIALECTS};
use serde::Serialize;

/// One dialect, for people.
#[derive(Debug, Clone, Serialize)]
pub struct DialectInfo {
    pub name: &'static str,
    /// The files the agent reads its hooks from.
    pub files: &'static str,
    /// The shape of a document, from event to handler.
    pub shape: &'static str,
    /// How the agent's hooks differ from Claude Code's (empty for Claude Code).
    pub differs: &'static str,
    /// How a fire runs and folds its hooks when this is the envelope's dialect.
    pub strategy: &'static str,
    /// The event names its documents use, in its own spelling.
    pub events: Vec<&'static str>,
    /// The unit of a handler's `timeout`.
    pub timeout_unit: &'static str,
}

/// Every dialect, in the order of the list.
pub fn dialects() -> Vec<DialectInfo> {
    ALL_DIALECTS
        .iter()
        .map(|d| {
            let p = d.rules().profile();
            let events = match p.native_events {
                Some(events) => events.iter().map(|e| e.name).collect(),
                None => (0..catalog::count())
                    .map(catalog::spec)
                    .filter(|s| s.native_of.is_none())
                    .map(|s| s.name)
                    .collect(),
            };
            DialectInfo {
                name: d.as_str(),
                files: p.files,
                shape: p.shape,
                differs: p.differs,
                strategy: p.fold_summary,
                events,
                timeout_unit: p.timeout_unit.as_str(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_says_its_files_shape_and_events() {
        let all = dialects();
        assert_eq!(all.len(), ALL_DIALECTS.len());
        for d in &all {
            assert!(!d.files.is_empty() && !d.shape.is_empty() && !d.events.is_empty(), "{}", d.name);
            assert_eq!(d.differs.is_empty(), d.name == "claude-code", "{}: says how it differs", d.name);
        }
        let claude = &all[0];
        assert_eq!(claude.name, "claude-code");
        assert!(claude.events.contains(&"PreModelSwitch"));
        let gemini = all.iter().find(|d| d.name == "gemini").unwrap();
        assert_eq!(gemini.timeout_unit, "milliseconds");
        assert!(gemini.events.contains(&"BeforeTool"));
    }
}
