//! Group matchers (protocol.md §4.1, §4.4): match-all, an exact list of names, or an
//! unanchored regex, decided and compiled once at load.
//!
//! A matcher that cannot be compiled becomes [`Matcher::Never`] and the load warns; matching
//! itself never fails and never allocates.

use crate::catalog::{EventSpec, MatchOn, Rules};
use regex::{Regex, RegexBuilder};
use serde_json::Value;

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

/// A group's matcher in any dialect (§4.1, §4.5): decided at load, tested against the event.
#[derive(Debug, Clone)]
pub enum GroupMatcher {
    /// claude-code: tested against the event's matcher field.
    Cc(Matcher),
    /// jcode: `|` parts, exact or regex, tested against the tool name and its aliases; empty =
    /// all; ignored on non-tool events.
    Jcode(Vec<JcodePart>),
    /// neocode: the structured `match` object.
    Neocode(NeoMatch),
    /// ok: a regex anchored at both ends on tool events; `None` = all.
    Anchored(Option<Regex>),
    /// j-cli: `filter`.
    JCli(JFilter),
    /// ub: exact tool names; empty = all; ignored on user-turn events.
    Tools(Vec<String>),
}

#[derive(Debug, Clone)]
pub enum JcodePart {
    Exact(String),
    Regex(Regex),
}

/// neocode's `match`: fields AND, list values OR.
#[derive(Debug, Clone, Default)]
pub struct NeoMatch {
    /// Lower-cased exact tool names.
    pub tool_names: Vec<String>,
    pub tool_regex: Option<Regex>,
    /// Lower-cased substrings of the arguments preview.
    pub args_contains: Vec<String>,
}

/// j-cli's `filter`: fields AND; a set field whose event value is missing never matches.
#[derive(Debug, Clone, Default)]
pub struct JFilter {
    pub tool_name: Option<String>,
    pub tool_matcher: Option<Vec<String>>,
    pub model_prefix: Option<String>,
}

/// jcode alias groups (§4.5), bidirectional.
const JCODE_ALIASES: &[&[&str]] = &[
    &["Bash", "execute", "run_shell"],
    &["Write", "write"],
    &["Edit", "edit"],
    &["Read", "read"],
    &["Glob", "glob"],
    &["Grep", "grep"],
];

fn is_tool_event(spec: &EventSpec) -> bool {
    spec.match_on == MatchOn::Field("tool_name")
}

impl GroupMatcher {
    /// A short description for people (`hookwire list`): what the matcher accepts.
    pub fn describe(&self) -> String {
        match self {
            GroupMatcher::Cc(Matcher::All) | GroupMatcher::Anchored(None) => "*".into(),
            GroupMatcher::Cc(Matcher::Exact(n)) => format!("exact {}", n.join("|")),
            GroupMatcher::Cc(Matcher::Regex(r)) => format!("regex /{}/", r.as_str()),
            GroupMatcher::Cc(Matcher::Never) => "never (invalid pattern)".into(),
            GroupMatcher::Jcode(parts) if parts.is_empty() => "*".into(),
            GroupMatcher::Jcode(parts) => parts
                .iter()
                .map(|p| match p {
                    JcodePart::Exact(e) => format!("exact {e} (with aliases)"),
                    JcodePart::Regex(r) => format!("regex /{}/", r.as_str()),
                })
                .collect::<Vec<_>>()
                .join(" | "),
            GroupMatcher::Neocode(m) => {
                let mut parts = Vec::new();
                if !m.tool_names.is_empty() {
                    parts.push(format!("tool_name in [{}]", m.tool_names.join(", ")));
                }
                if let Some(r) = &m.tool_regex {
                    parts.push(format!("tool_name =~ /{}/", r.as_str()));
                }
                if !m.args_contains.is_empty() {
                    parts.push(format!("arguments contain [{}]", m.args_contains.join(", ")));
                }
                if parts.is_empty() { "*".into() } else { parts.join(" and ") }
            }
            GroupMatcher::Anchored(Some(r)) => format!("anchored regex /{}/", r.as_str()),
            GroupMatcher::JCli(f) => {
                let mut parts = Vec::new();
                if let Some(t) = &f.tool_name {
                    parts.push(format!("tool_name == {t}"));
                } else if let Some(l) = &f.tool_matcher {
                    parts.push(format!("tool_name in [{}]", l.join("|")));
                }
                if let Some(p) = &f.model_prefix {
                    parts.push(format!("model starts with {p}"));
                }
                if parts.is_empty() { "*".into() } else { parts.join(" and ") }
            }
            GroupMatcher::Tools(t) if t.is_empty() => "*".into(),
            GroupMatcher::Tools(t) => format!("tools [{}]", t.join(", ")),
        }
    }

    /// Whether the group matches the event; `value` is the event's matcher value (§4.2).
    pub fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        let tool = || event.get("tool_name").and_then(Value::as_str).unwrap_or("");
        match self {
            GroupMatcher::Cc(m) => m.matches(value),
            GroupMatcher::Jcode(parts) => {
                if parts.is_empty() || !is_tool_event(spec) {
                    return true;
                }
                let name = tool();
                let group = JCODE_ALIASES.iter().find(|g| g.contains(&name));
                let names: Vec<&str> = match group {
                    Some(g) => g.to_vec(),
                    None => vec![name],
                };
                parts.iter().any(|p| {
                    names.iter().any(|n| match p {
                        JcodePart::Exact(e) => e == n,
                        JcodePart::Regex(r) => r.is_match(n),
                    })
                })
            }
            GroupMatcher::Neocode(m) => {
                let name = tool().to_lowercase();
                if !m.tool_names.is_empty() && !m.tool_names.contains(&name) {
                    return false;
                }
                if let Some(r) = &m.tool_regex
                    && !r.is_match(tool())
                {
                    return false;
                }
                if !m.args_contains.is_empty() {
                    let preview = arguments_preview(event).to_lowercase();
                    if !m.args_contains.iter().any(|s| preview.contains(s.as_str())) {
                        return false;
                    }
                }
                true
            }
            GroupMatcher::Anchored(re) => match re {
                Some(r) if is_tool_event(spec) => r.is_match(tool()),
                _ => true,
            },
            GroupMatcher::JCli(f) => {
                let field = |k: &str| event.get(k).and_then(Value::as_str);
                if let Some(want) = &f.tool_name {
                    if field("tool_name") != Some(want.as_str()) {
                        return false;
                    }
                } else if let Some(list) = &f.tool_matcher {
                    match field("tool_name") {
                        Some(t) if list.iter().any(|n| n == t) => {}
                        _ => return false,
                    }
                }
                if let Some(prefix) = &f.model_prefix {
                    match field("model") {
                        Some(m) if m.starts_with(prefix.as_str()) => {}
                        _ => return false,
                    }
                }
                true
            }
            GroupMatcher::Tools(names) => {
                names.is_empty() || !is_tool_event(spec) || names.iter().any(|n| n == tool())
            }
        }
    }
}

/// Compiles a regex anchored at both ends (ok's `match`, §4.5).
pub fn compile_anchored(pattern: &str) -> Result<Regex, String> {
    compile_regex(&format!("^(?:{pattern})$"))
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
    fn jcode_parts_match_aliases_exactly_and_regex_parts_loosely() {
        let spec = crate::catalog::spec(crate::catalog::lookup("PreToolUse").unwrap());
        let ev = |t: &str| serde_json::json!({"tool_name": t});
        let write = GroupMatcher::Jcode(vec![JcodePart::Exact("write".into())]);
        assert!(write.matches(spec, "", &ev("Write")));
        assert!(!write.matches(spec, "", &ev("todowrite")));
        let re = GroupMatcher::Jcode(vec![JcodePart::Regex(compile_regex("^write$").unwrap())]);
        assert!(!re.matches(spec, "", &ev("todowrite")));
        assert!(re.matches(spec, "", &ev("Write")));
    }

    #[test]
    fn ok_matchers_are_anchored() {
        let spec = crate::catalog::spec(crate::catalog::lookup("PreToolUse").unwrap());
        let ev = |t: &str| serde_json::json!({"tool_name": t});
        assert!(!GroupMatcher::Anchored(Some(compile_anchored("file").unwrap())).matches(
            spec,
            "",
            &ev("read_file")
        ));
        assert!(GroupMatcher::Anchored(Some(compile_anchored(".*file").unwrap())).matches(
            spec,
            "",
            &ev("read_file")
        ));
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
