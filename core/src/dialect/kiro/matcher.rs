//! Kiro's matcher (agents-2.md §2.6): a regex searched anywhere (`fs_write|str_replace`,
//! `\.ts$`), tested against the host's tool name and Kiro's name for it, MCP tools included
//! (`@git` matches Claude Code's `mcp__git__status`, Kiro's `@git/status`); on file triggers
//! against the file's path; ignored on the other triggers.

use super::tools::{TOOL_NAMES, kiro_name};
use crate::catalog::EventSpec;
use crate::dialect::family::FamilyMatcher;
use crate::matcher::GroupMatch;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct KiroMatcher {
    inner: FamilyMatcher,
}

impl KiroMatcher {
    /// Absent, `""` or `*` match all; an invalid regex gives `Err(reason)`.
    pub fn compile(raw: Option<&str>) -> Result<KiroMatcher, String> {
        FamilyMatcher::unanchored(raw, TOOL_NAMES).map(|inner| KiroMatcher { inner })
    }

    /// Whether the MCP tool `value` matches under Kiro's name for it.
    fn mcp_hit(&self, spec: &EventSpec, value: &str) -> bool {
        spec.tool_event
            && value.starts_with("mcp__")
            && self.inner.matches(spec, &kiro_name(value), &Value::Null)
    }
}

impl GroupMatch for KiroMatcher {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        self.inner.matches(spec, value, event) || self.mcp_hit(spec, value)
    }

    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        self.inner.matches_value(spec, value).map(|hit| hit || self.mcp_hit(spec, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};

    #[test]
    fn a_server_matcher_reaches_claude_codes_mcp_names() {
        let pre = spec(lookup("PreToolUse").unwrap());
        let m = KiroMatcher::compile(Some("@git")).unwrap();
        assert_eq!(m.matches_value(pre, "mcp__git__status"), Some(true));
        assert_eq!(m.matches_value(pre, "mcp__gitlab2__x"), Some(true)); // searched anywhere, as Kiro's regex
        assert_eq!(m.matches_value(pre, "Bash"), Some(false));
        let m = KiroMatcher::compile(Some("execute_bash")).unwrap();
        assert_eq!(m.matches_value(pre, "Bash"), Some(true));
    }
}
