//! Group matchers (protocol.md §4.1, §4.4): match-all, an exact list of names, or an
//! unanchored regex, decided and compiled once at load.
//!
//! A matcher that cannot be compiled becomes [`Matcher::Never`] and the load warns; matching
//! itself never fails and never allocates.

use crate::catalog::{EventSpec, MatchOn, Rules};
use crate::lazy_regex::LazyRegex;
use regex::{Regex, RegexBuilder};
use serde_json::Value;
use std::sync::Arc;

/// Longest regex source accepted (§5.12).
const MAX_REGEX_BYTES: usize = 4096;
/// Compiled-size limit of one regex (§5.12).
const MAX_COMPILED_BYTES: usize = 1 << 20;
/// Longest matcher regex left to compile on first use: no pattern this short (without a
/// counted repetition) exceeds [`MAX_COMPILED_BYTES`]; Unicode `\w`, the widest class per
/// byte, reaches it from 42 bytes on (`lazy_regex` tests pin the bound).
const DEFER_UP_TO_BYTES: usize = 24;

#[derive(Debug, Clone)]
pub enum Matcher {
    /// Absent, `""`, `"*"` or only whitespace.
    All,
    /// Exact names; an empty part matches nothing.
    Exact(Vec<String>),
    /// Tested unanchored: a match anywhere counts. Checked at load, compiled on first use.
    Regex(LazyRegex),
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
        compile_lazy_regex(raw).map(Matcher::Regex)
    }

    /// Whether this matcher can match one of `values`, the closed set an event's matcher field
    /// takes (`None` when the set is open): an exact list naming none of them never matches.
    pub fn can_match(&self, values: &[&str]) -> bool {
        match self {
            Matcher::Exact(names) if !values.is_empty() => names.iter().any(|n| values.contains(&n.as_str())),
            Matcher::Regex(re) if !values.is_empty() => values.iter().any(|v| re.is_match(v)),
            Matcher::Never => false,
            _ => true,
        }
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

/// As [`compile_regex`], compiled on first use ([`LazyRegex`]), with the same errors at once.
pub fn compile_lazy_regex(pattern: &str) -> Result<LazyRegex, String> {
    if pattern.len() > MAX_REGEX_BYTES {
        return Err(format!("regex is {} bytes, over the {MAX_REGEX_BYTES}-byte limit", pattern.len()));
    }
    LazyRegex::new(pattern, MAX_COMPILED_BYTES, DEFER_UP_TO_BYTES)
        .map_err(|e| format!("invalid or unsupported regex {pattern:?}: {}", first_line(&e)))
}

fn first_line(s: &str) -> String {
    // regex errors are multi-line with a caret diagram; the last non-empty line says why.
    s.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(s).trim().to_string()
}

/// A group's matcher in one dialect (§4.1, §4.5): decided at load, tested against the event.
/// Claude Code's is [`Matcher`]; every other dialect keeps its own beside its reader
/// (`dialect/<name>/matcher.rs`), so a new matcher flavour touches no shared file.
pub trait GroupMatch: std::fmt::Debug + Send + Sync {
    /// A short description for people (`hookwire list`): what the matcher accepts.
    fn describe(&self) -> String;
    /// Whether the group matches the event; `value` is the event's matcher value (§4.2).
    fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool;
    /// The answer from the matcher value alone, when the matcher needs nothing else of the
    /// event; the fast no-match path (`nomatch.rs`) reads only the event's head.
    fn matches_value(&self, _spec: &EventSpec, _value: &str) -> Option<bool> {
        None
    }
    /// Whether it can match one of `values`, the closed set of an event's matcher field
    /// (empty = open set); `false` only when it surely cannot.
    fn can_match_any(&self, _values: &[&str]) -> bool {
        true
    }
    /// The names this matcher accepts when it accepts exactly those, compared whole and
    /// case-sensitively with the matcher value on every event, and needs nothing else of the
    /// event; `None` for any other matcher. Such groups are found by name at fire time
    /// (`group_index`) instead of being tested one by one, so only a matcher that is certain
    /// to behave this way may say so.
    fn exact_names(&self) -> Option<&[String]> {
        None
    }
    /// What the matcher accepts, in a form another dialect's matcher can be written from
    /// (`hookwire port`); `None`: it has none (the port writes the group without a matcher and
    /// says so).
    fn pattern(&self) -> Option<Pattern> {
        None
    }
}

/// A matcher's portable form ([`GroupMatch::pattern`]): how `hookwire port` starts writing it in
/// another dialect, before it checks what that dialect's own matcher makes of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// Every value.
    All,
    /// Exactly these names, case-sensitive.
    Names(Vec<String>),
    /// An unanchored regex.
    Regex(String),
    /// Exactly this text.
    Exact(String),
}

/// A group's matcher, whichever dialect compiled it. Shared, because a flat dialect registers
/// one hook under several events (ub's `post_tool_call`).
#[derive(Debug, Clone)]
pub struct GroupMatcher(Arc<dyn GroupMatch>);

impl GroupMatcher {
    pub fn new(m: impl GroupMatch + 'static) -> GroupMatcher {
        GroupMatcher(Arc::new(m))
    }

    /// A short description for people (`hookwire list`): what the matcher accepts.
    pub fn describe(&self) -> String {
        self.0.describe()
    }

    /// Whether the group matches the event; `value` is the event's matcher value (§4.2).
    pub fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        self.0.matches(spec, value, event)
    }

    /// Whether it can match one of `values`, the closed set of an event's matcher field.
    pub fn can_match_any(&self, values: &[&str]) -> bool {
        self.0.can_match_any(values)
    }

    /// The answer from the matcher value alone, when it needs nothing else of the event.
    pub fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        self.0.matches_value(spec, value)
    }

    /// The exact names it accepts, when that is all it does ([`GroupMatch::exact_names`]).
    pub fn exact_names(&self) -> Option<&[String]> {
        self.0.exact_names()
    }

    /// Its portable form, when it has one ([`GroupMatch::pattern`]).
    pub fn pattern(&self) -> Option<Pattern> {
        self.0.pattern()
    }

    /// Which compiled matcher this is: groups that share one (compiled once for one text) give
    /// the same value, so the selector tests it once per fire.
    pub fn identity(&self) -> *const () {
        Arc::as_ptr(&self.0).cast::<()>()
    }
}

impl GroupMatch for Matcher {
    fn describe(&self) -> String {
        match self {
            Matcher::All => "*".into(),
            Matcher::Exact(n) => format!("exact {}", n.join("|")),
            Matcher::Regex(r) => format!("regex /{}/", r.as_str()),
            Matcher::Never => "never (invalid pattern)".into(),
        }
    }
    fn matches(&self, _spec: &EventSpec, value: &str, _event: &Value) -> bool {
        Matcher::matches(self, value)
    }
    fn matches_value(&self, _spec: &EventSpec, value: &str) -> Option<bool> {
        Some(Matcher::matches(self, value))
    }
    fn can_match_any(&self, values: &[&str]) -> bool {
        self.can_match(values)
    }
    fn exact_names(&self) -> Option<&[String]> {
        match self {
            Matcher::Exact(names) => Some(names),
            _ => None,
        }
    }
    fn pattern(&self) -> Option<Pattern> {
        match self {
            Matcher::All => Some(Pattern::All),
            Matcher::Exact(n) => Some(Pattern::Names(n.clone())),
            Matcher::Regex(r) => Some(Pattern::Regex(r.as_str().to_string())),
            Matcher::Never => None,
        }
    }
}

/// Whether the event is about a tool call (its matcher value is `tool_name`): the only events
/// where most dialects' tool matchers apply.
pub fn is_tool_event(spec: &EventSpec) -> bool {
    spec.match_on == MatchOn::Field("tool_name")
}

/// The event's `tool_name`, or `""`.
pub fn tool_name(event: &Value) -> &str {
    event.get("tool_name").and_then(Value::as_str).unwrap_or("")
}

/// Joins the parts of a compound matcher's description; `*` when it has none.
pub fn describe_all(parts: Vec<String>) -> String {
    if parts.is_empty() { "*".into() } else { parts.join(" and ") }
}

/// Bytes of the arguments preview (§9.2).
const PREVIEW_BYTES: usize = 4096;

/// neocode's `tool_arguments_preview` (its matchers test it, its payload carries it): compact
/// JSON of `tool_input`, cut at 4,096 bytes on a character boundary.
pub fn arguments_preview(event: &Value) -> String {
    let Some(input) = event.get("tool_input") else { return String::new() };
    let mut s = input.to_string();
    if s.len() > PREVIEW_BYTES {
        let mut cut = PREVIEW_BYTES;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
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
