//! The group matcher of the Claude Code family: Claude Code's own (exact names for plain
//! names, an unanchored regex otherwise) or an unanchored regex for every matcher (CodeBuddy,
//! where `Write` also matches `NotebookWrite`; Auggie, where `launch` matches
//! `launch-process`), tested against the event's matcher value and, on tool events, against the
//! agent's names for a Claude Code tool: a host firing Claude Code's `Bash` reaches a hook whose
//! matcher says Devin's `exec`. The translation goes one way only: a host firing the agent's own
//! name is matched as the agent matches it (Auggie's `Bash` never matches `launch-process`).

use crate::catalog::{EventSpec, Rules};
use crate::matcher::{GroupMatch, Matcher, compile_lazy_regex, is_tool_event};
use serde_json::Value;

/// How a family member reads a matcher string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchoring {
    /// Claude Code's rule (§4.1): a list of plain names is exact, anything else a regex.
    ClaudeCode,
    /// Every matcher is a regex searched anywhere in the name, case-sensitive.
    Unanchored,
}

/// Claude Code's tool names and the agent's names for the same tools.
pub type ToolNames = &'static [(&'static str, &'static [&'static str])];

/// One group's matcher.
#[derive(Debug, Clone)]
pub struct FamilyMatcher {
    inner: Matcher,
    tools: ToolNames,
}

impl FamilyMatcher {
    /// `""`, `"*"`, blank or absent match all; an invalid regex gives `Err(reason)`.
    pub fn compile(
        raw: Option<&str>,
        spec: &EventSpec,
        rules: Rules,
        anchoring: Anchoring,
        tools: ToolNames,
    ) -> Result<FamilyMatcher, String> {
        let inner = match (anchoring, raw.map(str::trim)) {
            (Anchoring::Unanchored, Some(r)) if !r.is_empty() && r != "*" => {
                Matcher::Regex(compile_lazy_regex(raw.unwrap_or(""))?)
            }
            _ => Matcher::compile(raw, rules, spec.narrow_matcher)?,
        };
        Ok(FamilyMatcher { inner, tools })
    }

    /// Whether the matcher accepts `value` or, on a tool event, one of the agent's names for it.
    fn hits(&self, spec: &EventSpec, value: &str) -> bool {
        if self.inner.matches(value) {
            return true;
        }
        is_tool_event(spec)
            && self
                .tools
                .iter()
                .filter(|(cc, _)| *cc == value)
                .flat_map(|(_, names)| names.iter())
                .any(|n| self.inner.matches(n))
    }
}

impl GroupMatch for FamilyMatcher {
    fn describe(&self) -> String {
        let own = GroupMatch::describe(&self.inner);
        if self.tools.is_empty() { own } else { format!("{own} (and the agent's tool names)") }
    }

    fn matches(&self, spec: &EventSpec, value: &str, _event: &Value) -> bool {
        self.hits(spec, value)
    }

    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        Some(self.hits(spec, value))
    }

    fn can_match_any(&self, values: &[&str]) -> bool {
        self.inner.can_match(values)
    }

    /// Exact names only when no tool name is translated (a translated name is not the value).
    fn exact_names(&self) -> Option<&[String]> {
        if self.tools.is_empty() { GroupMatch::exact_names(&self.inner) } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> &'static EventSpec {
        crate::catalog::spec(crate::catalog::lookup(name).unwrap())
    }

    fn hits(raw: &str, anchoring: Anchoring, tools: ToolNames, value: &str) -> bool {
        let m =
            FamilyMatcher::compile(Some(raw), spec("PreToolUse"), Rules::Current, anchoring, tools).unwrap();
        m.matches_value(spec("PreToolUse"), value).unwrap()
    }

    #[test]
    fn an_unanchored_matcher_finds_a_plain_name_inside_a_longer_one() {
        assert!(hits("Write", Anchoring::Unanchored, &[], "NotebookWrite"));
        assert!(!hits("Write", Anchoring::ClaudeCode, &[], "NotebookWrite"));
        assert!(!hits("write", Anchoring::Unanchored, &[], "Write"));
        assert!(hits("*", Anchoring::Unanchored, &[], "Anything"));
    }

    #[test]
    fn a_claude_code_tool_name_reaches_the_agents_name_but_not_the_other_way() {
        const TOOLS: ToolNames = &[("Bash", &["exec"])];
        assert!(hits("exec", Anchoring::ClaudeCode, TOOLS, "Bash"));
        assert!(hits("exec", Anchoring::ClaudeCode, TOOLS, "exec"));
        assert!(!hits("Bash", Anchoring::ClaudeCode, TOOLS, "exec"));
        // Not on events that are not about a tool.
        let m = FamilyMatcher::compile(
            Some("exec"),
            spec("SessionStart"),
            Rules::Current,
            Anchoring::ClaudeCode,
            TOOLS,
        )
        .unwrap();
        assert_eq!(m.matches_value(spec("SessionStart"), "Bash"), Some(false));
    }
}
