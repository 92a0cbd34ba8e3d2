//! Windsurf has no matchers (agents-2.md §2.4): the event a hook is configured under is its only
//! filter. Its tool events share Claude Code's PreToolUse and PostToolUse, so a handler stored
//! there runs only for its kind of tool (`Bash` for `pre_run_command`, `Read` for
//! `pre_read_code`, `Edit`/`Write`/`MultiEdit` for `pre_write_code`, `mcp__…` for
//! `pre_mcp_tool_use`); on every other event it always matches.

use super::kind::Kind;
use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, tool_name};
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct WindsurfMatcher {
    pub kind: Kind,
}

impl GroupMatch for WindsurfMatcher {
    fn describe(&self) -> String {
        match self.kind.tool() {
            Some(t) => format!("{} ({t:?} tools)", self.kind.name()),
            None => format!("{} *", self.kind.name()),
        }
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        !spec.tool_event || self.kind.takes_tool(tool_name(event))
    }

    /// On a tool event the matcher value is the tool name: all this matcher needs.
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        Some(!spec.tool_event || self.kind.takes_tool(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};
    use serde_json::json;

    #[test]
    fn a_tool_events_hook_runs_only_for_its_kind_of_tool_and_others_always() {
        let pre = spec(lookup("PreToolUse").unwrap());
        let run = WindsurfMatcher { kind: Kind::PreRunCommand };
        assert_eq!(run.matches_value(pre, "Bash"), Some(true));
        assert_eq!(run.matches_value(pre, "Read"), Some(false));
        assert!(!run.matches(pre, "Read", &json!({"tool_name": "Read"})));
        let prompt = spec(lookup("UserPromptSubmit").unwrap());
        let ups = WindsurfMatcher { kind: Kind::PreUserPrompt };
        assert_eq!(ups.matches_value(prompt, "anything"), Some(true));
    }
}
