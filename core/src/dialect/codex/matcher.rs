//! Codex's group matcher (agents.md §2.1): `""`, `"*"` or absent = all; only ASCII letters,
//! digits, `_` and `|` = exact names split on `|`; anything else an unanchored regex (no comma
//! or space tolerance, case-sensitive). On tool events it is tested against the payload's
//! `tool_name` and its aliases, on `SessionStart` against `source`, on the subagent events
//! against `agent_type`; elsewhere it is ignored.

use super::payload;
use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, Pattern, compile_regex};
use regex::Regex;
use serde_json::Value;

/// Names that stand for one another (either way): a matcher naming one matches them all.
const ALIASES: &[&[&str]] = &[&["apply_patch", "Edit", "Write"], &["spawn_agent", "Agent"]];

#[derive(Debug, Clone)]
enum Rule {
    All,
    Exact(Vec<String>),
    Regex(Regex),
}

/// One group's matcher.
#[derive(Debug, Clone)]
pub struct CodexMatcher(Rule);

/// What an event's matcher is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Tool,
    Source,
    AgentType,
    Nothing,
}

fn target(spec: &EventSpec) -> Target {
    match spec.name {
        "PreToolUse" | "PermissionRequest" | "PostToolUse" | "PostToolUseFailure" => Target::Tool,
        "SessionStart" => Target::Source,
        "SubagentStart" | "SubagentStop" => Target::AgentType,
        _ => Target::Nothing,
    }
}

impl CodexMatcher {
    /// Compiles a matcher for `spec`; an invalid regex gives `Err(reason)` (the group never
    /// runs). On events whose matcher Codex ignores, any matcher matches all.
    pub fn compile(raw: Option<&str>, spec: &EventSpec) -> Result<CodexMatcher, String> {
        let raw = match raw {
            _ if target(spec) == Target::Nothing => return Ok(CodexMatcher(Rule::All)),
            None | Some("") | Some("*") => return Ok(CodexMatcher(Rule::All)),
            Some(r) => r,
        };
        if raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|') {
            return Ok(CodexMatcher(Rule::Exact(raw.split('|').map(str::to_string).collect())));
        }
        compile_regex(raw).map(|r| CodexMatcher(Rule::Regex(r)))
    }

    fn hits(&self, name: &str) -> bool {
        match &self.0 {
            Rule::All => true,
            Rule::Exact(names) => names.iter().any(|n| !n.is_empty() && n == name),
            Rule::Regex(r) => r.is_match(name),
        }
    }

    /// Whether it matches the value Codex would test: for a tool, the payload's name or any
    /// of its aliases.
    fn matches_target(&self, spec: &EventSpec, value: &str) -> bool {
        if matches!(self.0, Rule::All) {
            return true;
        }
        match target(spec) {
            Target::Nothing => true,
            Target::Tool => {
                let name = payload::tool_name(value);
                match ALIASES.iter().find(|g| g.contains(&name)) {
                    Some(group) => group.iter().any(|n| self.hits(n)),
                    None => self.hits(name),
                }
            }
            Target::Source | Target::AgentType => self.hits(value),
        }
    }
}

impl GroupMatch for CodexMatcher {
    fn describe(&self) -> String {
        match &self.0 {
            Rule::All => "*".into(),
            Rule::Exact(names) => format!("exact {} (with Codex aliases)", names.join(" | ")),
            Rule::Regex(r) => format!("regex /{}/ (with Codex aliases)", r.as_str()),
        }
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        let field = |k: &str| event.get(k).and_then(Value::as_str);
        let value = match target(spec) {
            Target::Tool => field("tool_name").unwrap_or(""),
            Target::Source => field("source").unwrap_or(payload::DEFAULT_SOURCE),
            Target::AgentType => field("agent_type").unwrap_or(""),
            Target::Nothing => "",
        };
        self.matches_target(spec, value)
    }

    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        match target(spec) {
            // An absent `source` is read as "startup"; an empty value may be either.
            Target::Source if value.is_empty() => None,
            _ => Some(self.matches_target(spec, value)),
        }
    }

    fn pattern(&self) -> Option<Pattern> {
        Some(match &self.0 {
            Rule::All => Pattern::All,
            Rule::Exact(names) => Pattern::Names(names.clone()),
            Rule::Regex(r) => Pattern::Regex(r.as_str().to_string()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> &'static EventSpec {
        crate::catalog::spec(crate::catalog::lookup(name).unwrap())
    }

    fn runs(matcher: &str, tool: &str) -> bool {
        let m = CodexMatcher::compile(Some(matcher), spec("PreToolUse")).unwrap();
        m.matches(spec("PreToolUse"), tool, &serde_json::json!({ "tool_name": tool }))
    }

    #[test]
    fn names_are_exact_and_case_sensitive_and_other_text_is_an_unanchored_regex() {
        for m in ["Bash", "Read|Bash", "^Ba.h$", "*", "", "as"] {
            assert_eq!(runs(m, "Bash"), m != "as", "{m}");
        }
        for m in ["bash", "Bas", "exec_command", "shell", "Read, Bash", "Read,Bash"] {
            assert!(!runs(m, "Bash"), "{m}");
        }
        assert!(runs("B.s", "Bash"));
    }

    #[test]
    fn apply_patch_and_spawn_agent_match_their_claude_code_names_both_ways() {
        assert!(runs("Edit", "apply_patch"));
        assert!(runs("Write", "apply_patch"));
        assert!(runs("apply_patch", "Edit"));
        assert!(runs("Edit", "Write"), "Write is apply_patch in Codex");
        assert!(runs("Edit", "MultiEdit"));
        assert!(runs("Agent", "Task"));
        assert!(runs("spawn_agent", "Agent"));
        assert!(!runs("Read", "apply_patch"));
    }

    #[test]
    fn an_empty_part_matches_nothing() {
        assert!(!runs("|", ""));
        assert!(runs("Read|", "Read"));
    }

    #[test]
    fn the_matcher_is_ignored_where_codex_ignores_it_and_tests_source_and_agent_type_elsewhere() {
        let ups = CodexMatcher::compile(Some("Nope"), spec("UserPromptSubmit")).unwrap();
        assert!(ups.matches(spec("UserPromptSubmit"), "", &serde_json::json!({})));
        let invalid = CodexMatcher::compile(Some("["), spec("Stop"));
        assert!(invalid.is_ok(), "ignored matchers are not compiled");
        let ss = CodexMatcher::compile(Some("startup"), spec("SessionStart")).unwrap();
        assert!(ss.matches(spec("SessionStart"), "", &serde_json::json!({})));
        assert!(!ss.matches(spec("SessionStart"), "resume", &serde_json::json!({"source":"resume"})));
        let sub = CodexMatcher::compile(Some("worker"), spec("SubagentStop")).unwrap();
        assert!(sub.matches(spec("SubagentStop"), "worker", &serde_json::json!({"agent_type":"worker"})));
        assert!(!sub.matches(spec("SubagentStop"), "", &serde_json::json!({})));
    }

    #[test]
    fn an_invalid_regex_is_an_error() {
        assert!(CodexMatcher::compile(Some("Bash["), spec("PreToolUse")).is_err());
    }
}
