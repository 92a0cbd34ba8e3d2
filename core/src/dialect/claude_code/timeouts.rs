//! Claude Code's default timeouts (protocol.md §5.6): 600 s under `current` (60 s under
//! `classic`), the event's own default where the catalogue gives one, 30 s for `prompt` and 60 s
//! for `agent` handlers, all capped by `limits.default_timeout_s`; and on `SessionEnd` one
//! shared budget, the largest configured timeout of the fire between 1.5 and 60 s.

use crate::catalog::{Dialect, EventSpec, HandlerType, Rules};
use crate::config::{Handler, Limits};

/// What a fire knows when it sets its handlers' timeouts.
pub struct TimeoutContext {
    /// The default of any dialect without its own rule: 600 s / 60 s, or the configured cap.
    pub generic: f64,
    /// `limits.default_timeout_s`.
    cap: Option<f64>,
    /// The default for a claude-code command on this event.
    event_default: f64,
    /// `SessionEnd` under `current`: the fire's shared budget.
    budget: Option<f64>,
}

impl TimeoutContext {
    /// The context for the handlers about to run on `spec`.
    pub fn new<'a>(
        spec: &EventSpec,
        rules: Rules,
        limits: &Limits,
        handlers: impl Iterator<Item = &'a Handler>,
    ) -> TimeoutContext {
        let cap = limits.default_timeout_s;
        let generic = cap.unwrap_or(match rules {
            Rules::Current => 600.0,
            Rules::Classic => 60.0,
        });
        let event_default = match (rules, spec.current_timeout_s) {
            (Rules::Current, Some(t)) => cap.map_or(t, |c| c.min(t)),
            _ => generic,
        };
        let budget = (spec.name == "SessionEnd" && rules == Rules::Current).then(|| {
            let largest = handlers
                .filter(|h| h.dialect == Dialect::ClaudeCode)
                .filter_map(|h| h.timeout_s)
                .fold(1.5_f64, f64::max);
            largest.min(60.0)
        });
        TimeoutContext { generic, cap, event_default, budget }
    }

    /// A dialect's own default timeout `own`, replaced by `limits.default_timeout_s` when that
    /// is set (§2.2: it replaces the generic default of every dialect).
    pub fn default_or(&self, own: f64) -> f64 {
        self.cap.unwrap_or(own)
    }

    /// A claude-code handler's timeout.
    pub fn claude_code(&self, h: &Handler) -> f64 {
        let typed = match h.ty {
            HandlerType::Prompt => Some(self.cap.map_or(30.0, |c| c.min(30.0))),
            HandlerType::Agent => Some(self.cap.map_or(60.0, |c| c.min(60.0))),
            _ => None,
        };
        match self.budget {
            Some(b) => h.timeout_s.or(typed).unwrap_or(b).min(b),
            None => h.timeout_s.or(typed).unwrap_or(self.event_default),
        }
    }
}
