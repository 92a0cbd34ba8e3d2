//! Gemini's group matcher (agents.md §3.1 "matcher"): trimmed; `""`, `"*"` or absent match
//! all. On tool events, an unanchored regex tested against the **Gemini** tool name (a Claude
//! Code name from the host is translated first), with no exact-list step; a pattern that is not
//! a regex the engine accepts is compared as an exact string. On lifecycle events, exact
//! equality with the event's field. Ignored where the event has no matcher field.

use super::tools::gemini_name;
use crate::catalog::{EventSpec, MatchOn};
use crate::matcher::{GroupMatch, Pattern, compile_regex};
use regex::Regex;
use serde_json::Value;

#[derive(Debug, Clone)]
enum Kind {
    All,
    Regex(Regex),
    Exact(String),
}

/// One group's matcher.
#[derive(Debug, Clone)]
pub(super) struct GeminiMatcher(Kind);

impl GeminiMatcher {
    /// Reads a group's `matcher` on a tool event (`tool`) or a lifecycle event. The second
    /// value is a warning for a pattern that is compared as an exact string because it is not
    /// a regex the engine accepts.
    pub(super) fn compile(raw: Option<&str>, tool: bool) -> (GeminiMatcher, Option<String>) {
        let trimmed = raw.unwrap_or("").trim();
        if trimmed.is_empty() || trimmed == "*" {
            return (GeminiMatcher(Kind::All), None);
        }
        if !tool {
            return (GeminiMatcher(Kind::Exact(trimmed.to_string())), None);
        }
        match compile_regex(trimmed) {
            Ok(re) => (GeminiMatcher(Kind::Regex(re)), None),
            Err(why) => {
                let warning = format!("{why}; compared as an exact string, as Gemini does");
                (GeminiMatcher(Kind::Exact(trimmed.to_string())), Some(warning))
            }
        }
    }

    fn test(&self, spec: &EventSpec, value: &str) -> bool {
        if spec.match_on == MatchOn::Nothing {
            return true;
        }
        let value = if spec.tool_event { gemini_name(value) } else { value };
        match &self.0 {
            Kind::All => true,
            Kind::Regex(re) => re.is_match(value),
            Kind::Exact(s) => s == value,
        }
    }
}

impl GroupMatch for GeminiMatcher {
    fn describe(&self) -> String {
        match &self.0 {
            Kind::All => "*".into(),
            Kind::Regex(re) => format!("regex /{}/ on the Gemini tool name", re.as_str()),
            Kind::Exact(s) => format!("exactly {s:?}"),
        }
    }

    fn matches(&self, spec: &EventSpec, value: &str, _event: &Value) -> bool {
        self.test(spec, value)
    }

    /// The translation needs only the tool name, so the fast path can always answer.
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        Some(self.test(spec, value))
    }

    fn pattern(&self) -> Option<Pattern> {
        Some(match &self.0 {
            Kind::All => Pattern::All,
            Kind::Regex(re) => Pattern::Regex(re.as_str().to_string()),
            Kind::Exact(s) => Pattern::Exact(s.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};

    fn runs(matcher: &str, event: &str, value: &str) -> bool {
        let s = spec(lookup(event).unwrap());
        let (m, _) = GeminiMatcher::compile(Some(matcher), s.tool_event);
        m.matches(s, value, &Value::Null) && m.matches_value(s, value) == Some(true)
    }

    #[test]
    fn tool_matchers_are_unanchored_regexes_on_the_gemini_name() {
        for m in ["run_shell", "^run_shell_command$", "read_file|run_shell_command", "*", "", "  *  "] {
            assert!(runs(m, "PreToolUse", "Bash"), "{m}");
            assert!(runs(m, "PreToolUse", "run_shell_command"), "{m}");
        }
        for m in ["Bash", "RUN_SHELL_COMMAND", "read_file, run_shell_command"] {
            assert!(!runs(m, "PreToolUse", "Bash"), "{m}");
        }
        assert!(runs("read_file, run_shell_command", "PostToolUse", "read_file, run_shell_command"));
        assert!(runs("^mcp__memory__", "PostToolUseFailure", "mcp__memory__read"));
    }

    #[test]
    fn an_unsupported_regex_is_compared_exactly_with_a_warning() {
        let (m, warning) = GeminiMatcher::compile(Some("(?=x)run"), true);
        assert!(warning.is_some());
        let s = spec(lookup("PreToolUse").unwrap());
        assert!(m.matches(s, "(?=x)run", &Value::Null));
        assert!(!m.matches(s, "Bash", &Value::Null));
        let (m, warning) = GeminiMatcher::compile(Some("read_file["), true);
        assert!(warning.is_some());
        assert!(m.matches(s, "read_file[", &Value::Null));
    }

    #[test]
    fn lifecycle_matchers_compare_the_whole_field() {
        assert!(runs("resume", "SessionStart", "resume"));
        assert!(!runs("resume", "SessionStart", "startup"));
        assert!(!runs("res", "SessionStart", "resume"));
        assert!(runs(" exit ", "SessionEnd", "exit"));
        assert!(runs("anything", "UserPromptSubmit", ""));
        assert!(runs("anything", "Stop", ""));
    }
}
