//! ok's `match` (protocol.md §4.5): a regex anchored at both ends, tested against the tool name
//! on tool events; absent, `""` or `*` matches everything.

use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, compile_regex, is_tool_event, tool_name};
use regex::Regex;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct AnchoredMatcher(Option<Regex>);

impl AnchoredMatcher {
    /// Reads a `match` value; an invalid regex gives `Err(reason)`.
    pub fn compile(pattern: Option<&str>) -> Result<AnchoredMatcher, String> {
        match pattern.map(str::trim) {
            None | Some("") | Some("*") => Ok(AnchoredMatcher(None)),
            Some(pat) => compile_regex(&format!("^(?:{pat})$")).map(|re| AnchoredMatcher(Some(re))),
        }
    }
}

impl GroupMatch for AnchoredMatcher {
    fn describe(&self) -> String {
        match &self.0 {
            None => "*".into(),
            Some(r) => format!("anchored regex /{}/", r.as_str()),
        }
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        match &self.0 {
            Some(r) if is_tool_event(spec) => r.is_match(tool_name(event)),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_anchored_at_both_ends() {
        let spec = crate::catalog::spec(crate::catalog::lookup("PreToolUse").unwrap());
        let ev = serde_json::json!({"tool_name": "read_file"});
        assert!(!AnchoredMatcher::compile(Some("file")).unwrap().matches(spec, "", &ev));
        assert!(AnchoredMatcher::compile(Some(".*file")).unwrap().matches(spec, "", &ev));
    }
}
