//! jcode's matcher (protocol.md §4.5): `|` parts, each an exact name or an unanchored regex,
//! tested against the tool name and its aliases; ignored on events that are not about a tool.

use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, compile_regex, is_tool_event, tool_name};
use regex::Regex;
use serde_json::Value;

/// Alias groups (§4.5), bidirectional: a part naming one name of a group matches them all.
const ALIASES: &[&[&str]] = &[
    &["Bash", "execute", "run_shell"],
    &["Write", "write"],
    &["Edit", "edit"],
    &["Read", "read"],
    &["Glob", "glob"],
    &["Grep", "grep"],
];

/// Claude Code's name for one of jcode's (`execute`, `run_shell` → `Bash`), for the bridge.
pub(super) fn claude_code_name(tool: &str) -> Option<&'static str> {
    ALIASES.iter().find(|group| group[1..].contains(&tool)).map(|group| group[0])
}

#[derive(Debug, Clone)]
enum Part {
    Exact(String),
    Regex(Regex),
}

/// The parts of one group's matcher; none = every tool.
#[derive(Debug, Clone)]
pub struct JcodeMatcher(Vec<Part>);

impl JcodeMatcher {
    /// `""`/`*` = all; `|` parts; a part with a regex metacharacter is an unanchored regex, any
    /// other part an exact name. An invalid regex gives `Err(reason)`.
    pub fn compile(raw: &str) -> Result<JcodeMatcher, String> {
        let raw = raw.trim();
        if raw.is_empty() || raw == "*" {
            return Ok(JcodeMatcher(Vec::new()));
        }
        let mut parts = Vec::new();
        for part in raw.split('|').map(str::trim).filter(|p| !p.is_empty()) {
            if part.chars().any(|c| ".^$*+?()[]{}|".contains(c)) {
                parts.push(Part::Regex(compile_regex(part)?));
            } else {
                parts.push(Part::Exact(part.to_string()));
            }
        }
        Ok(JcodeMatcher(parts))
    }
}

impl GroupMatch for JcodeMatcher {
    fn describe(&self) -> String {
        if self.0.is_empty() {
            return "*".into();
        }
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|p| match p {
                Part::Exact(e) => format!("exact {e} (with aliases)"),
                Part::Regex(r) => format!("regex /{}/", r.as_str()),
            })
            .collect();
        parts.join(" | ")
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        if self.0.is_empty() || !is_tool_event(spec) {
            return true;
        }
        let name = tool_name(event);
        let names: &[&str] = match ALIASES.iter().find(|g| g.contains(&name)) {
            Some(g) => g,
            None => std::slice::from_ref(&name),
        };
        self.0.iter().any(|p| {
            names.iter().any(|n| match p {
                Part::Exact(e) => e == n,
                Part::Regex(r) => r.is_match(n),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_match_aliases_exactly_and_regex_parts_loosely() {
        let spec = crate::catalog::spec(crate::catalog::lookup("PreToolUse").unwrap());
        let ev = |t: &str| serde_json::json!({"tool_name": t});
        let write = JcodeMatcher::compile("write").unwrap();
        assert!(write.matches(spec, "", &ev("Write")));
        assert!(!write.matches(spec, "", &ev("todowrite")));
        let re = JcodeMatcher::compile("^write$").unwrap();
        assert!(!re.matches(spec, "", &ev("todowrite")));
        assert!(re.matches(spec, "", &ev("Write")));
    }
}
