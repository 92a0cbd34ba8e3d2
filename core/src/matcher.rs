//! Group matchers (protocol.md §4.1, §4.4): match-all, an exact list of names, or an
//! unanchored regex, decided and compiled once at load.
//!
//! A matcher that cannot be compiled becomes [`Matcher::Never`] and the load warns; matching
//! itself never fails and never allocates.

use crate::config::Rules;
use regex::{Regex, RegexBuilder};

/// Longest regex source accepted (§5.12).
const MAX_REGEX_BYTES: usize = 4096;
/// Compiled-size limit of one regex (§5.12).
const MAX_COMPILED_BYTES: usize = 1 << 20;

#[derive(Debug, Clone)]
pub enum Matcher {
    /// Absent, `""`, `"*"` or only whitespace.
    All,
    /// Exact names; an empty part matches nothing.
    Exact(Vec<String>),
    /// Tested unanchored: a match anywhere counts.
    Regex(Regex),
    /// An invalid or unsupported pattern: the group loads but never fires.
    Never,
}

impl Matcher {
    /// Reads a CC matcher string under a rule set. `narrow` is set for events whose exact
    /// lists use the narrow character set in both rule sets (`FileChanged`, `StopFailure`).
    /// An invalid regex gives `Err(reason)`; the caller warns and uses [`Matcher::Never`].
    pub fn compile(raw: Option<&str>, rules: Rules, narrow: bool) -> Result<Matcher, String> {
        let Some(raw) = raw else { return Ok(Matcher::All) };
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed == "*" {
            return Ok(Matcher::All);
        }
        let wide = rules == Rules::Current && !narrow;
        let is_list = raw.chars().all(|c| {
            c.is_ascii_alphanumeric() || c == '_' || c == '|' || (wide && (c == '-' || c == ' ' || c == ','))
        });
        if is_list {
            let parts = raw.split(|c| c == '|' || (wide && c == ','));
            return Ok(Matcher::Exact(parts.map(|p| p.trim().to_string()).collect()));
        }
        compile_regex(raw).map(Matcher::Regex)
    }

    pub fn matches(&self, value: &str) -> bool {
        match self {
            Matcher::All => true,
            Matcher::Exact(names) => names.iter().any(|n| !n.is_empty() && n == value),
            Matcher::Regex(re) => re.is_match(value),
            Matcher::Never => false,
        }
    }
}

/// Compiles an unanchored regex under the size limits every dialect shares.
pub fn compile_regex(pattern: &str) -> Result<Regex, String> {
    if pattern.len() > MAX_REGEX_BYTES {
        return Err(format!("regex is {} bytes, over the {MAX_REGEX_BYTES}-byte limit", pattern.len()));
    }
    RegexBuilder::new(pattern)
        .size_limit(MAX_COMPILED_BYTES)
        .build()
        .map_err(|e| format!("invalid or unsupported regex {pattern:?}: {}", first_line(&e.to_string())))
}

fn first_line(s: &str) -> String {
    // regex errors are multi-line with a caret diagram; the last non-empty line says why.
    s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(s).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(raw: &str, rules: Rules) -> Matcher {
        Matcher::compile(Some(raw), rules, false).unwrap()
    }

    #[test]
    fn absent_empty_star_and_blank_match_everything() {
        assert!(Matcher::compile(None, Rules::Current, false).unwrap().matches("Anything"));
        for raw in ["", "*", "   ", " * "] {
            assert!(m(raw, Rules::Current).matches("Bash"), "{raw:?}");
            assert!(m(raw, Rules::Classic).matches(""), "{raw:?}");
        }
    }

    #[test]
    fn exact_names_do_not_match_longer_names() {
        assert!(m("Bash", Rules::Current).matches("Bash"));
        assert!(!m("Bash", Rules::Current).matches("BashOutput"));
        assert!(!m("bash", Rules::Current).matches("Bash"));
    }

    #[test]
    fn pipe_lists_are_exact_in_both_rule_sets() {
        for r in [Rules::Current, Rules::Classic] {
            let x = m("Edit|Write", r);
            assert!(x.matches("Write"));
            assert!(!x.matches("NotebookEdit"));
        }
    }

    #[test]
    fn comma_lists_are_exact_under_current_and_a_regex_under_classic() {
        let cur = m("Edit, Write", Rules::Current);
        assert!(cur.matches("Edit") && cur.matches("Write"));
        let classic = m("Edit, Write", Rules::Classic);
        assert!(!classic.matches("Edit") && !classic.matches("Write"));
    }

    #[test]
    fn regexes_are_unanchored() {
        assert!(m("Edit.*", Rules::Current).matches("NotebookEdit"));
        assert!(!m("^Edit$", Rules::Current).matches("NotebookEdit"));
        assert!(m("mcp__memory__.*", Rules::Current).matches("mcp__memory__create_entities"));
        assert!(!m("mcp__memory", Rules::Current).matches("mcp__memory__create_entities"));
        assert!(m("Bash|mcp__.*", Rules::Current).matches("BashOutput"));
    }

    #[test]
    fn hyphenated_names_are_exact_under_current_and_substring_regexes_under_classic() {
        assert!(!m("code-reviewer", Rules::Current).matches("senior-code-reviewer"));
        assert!(m("code-reviewer", Rules::Classic).matches("senior-code-reviewer"));
    }

    #[test]
    fn narrow_events_use_the_narrow_set_under_current_too() {
        let x = Matcher::compile(Some("a-b"), Rules::Current, true).unwrap();
        assert!(matches!(x, Matcher::Regex(_)));
    }

    #[test]
    fn empty_list_parts_match_nothing() {
        let x = m("Bash||", Rules::Current);
        assert!(x.matches("Bash"));
        assert!(!x.matches(""));
    }

    #[test]
    fn invalid_and_oversized_and_lookaround_patterns_are_refused() {
        assert!(Matcher::compile(Some("["), Rules::Current, false).is_err());
        assert!(Matcher::compile(Some("(?=a)b"), Rules::Current, false).is_err());
        let big = format!("a{}", ".".repeat(5000));
        assert!(Matcher::compile(Some(&big), Rules::Current, false).is_err());
        assert!(!Matcher::Never.matches(""));
    }
}
