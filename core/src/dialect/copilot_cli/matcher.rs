//! Copilot's `matcher` (observed): on a camelCase event a regex anchored `^(?:p)$`,
//! case-sensitive, tested against Copilot's own name for the tool (`bash`, not `Bash`); on a
//! PascalCase event Claude Code's matcher, which accepts Claude Code's name or Copilot's
//! (`Bash` and `bash` both match). Absent, `""` and `*` match everything. Outside tool events
//! a camelCase matcher is not applied (unverified: Copilot documents matchers for tool events
//! only).

use super::Style;
use super::tools::copilot_name;
use crate::catalog::{EventSpec, Rules};
use crate::matcher::{GroupMatch, Matcher, compile_regex};
use regex::Regex;
use serde_json::Value;

#[derive(Debug)]
pub enum CopilotMatcher {
    /// Everything.
    All,
    /// A camelCase entry's anchored regex, on Copilot's tool name.
    Anchored(Regex),
    /// A PascalCase entry's Claude Code matcher.
    Claude(Matcher),
}

impl CopilotMatcher {
    /// Reads an entry's `matcher` in the entry's style; an invalid regex is `Err(reason)`.
    pub fn compile(style: Style, raw: Option<&str>) -> Result<CopilotMatcher, String> {
        match (style, raw.map(str::trim)) {
            (_, None | Some("" | "*")) => Ok(CopilotMatcher::All),
            (Style::Camel, Some(_)) => {
                Ok(CopilotMatcher::Anchored(compile_regex(&format!("^(?:{})$", raw.unwrap_or_default()))?))
            }
            (Style::Pascal, _) => Ok(CopilotMatcher::Claude(Matcher::compile(raw, Rules::Current, false)?)),
        }
    }
}

impl GroupMatch for CopilotMatcher {
    fn describe(&self) -> String {
        match self {
            CopilotMatcher::All => "*".into(),
            CopilotMatcher::Anchored(re) => format!("anchored regex {} on Copilot's tool name", re.as_str()),
            CopilotMatcher::Claude(m) => m.describe(),
        }
    }

    fn matches(&self, spec: &EventSpec, value: &str, _event: &Value) -> bool {
        self.matches_value(spec, value).unwrap_or(true)
    }

    /// The matcher value (the tool name on tool events) decides alone.
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        Some(match self {
            CopilotMatcher::All => true,
            CopilotMatcher::Anchored(_) if !spec.tool_event => true,
            CopilotMatcher::Anchored(re) => re.is_match(copilot_name(value)),
            CopilotMatcher::Claude(m) if spec.tool_event => {
                m.matches(value) || m.matches(copilot_name(value))
            }
            CopilotMatcher::Claude(m) => m.matches(value),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};

    fn pre() -> &'static EventSpec {
        spec(lookup("PreToolUse").unwrap())
    }

    fn matches(style: Style, raw: &str, tool: &str) -> bool {
        CopilotMatcher::compile(style, Some(raw)).unwrap().matches_value(pre(), tool).unwrap()
    }

    #[test]
    fn a_camel_case_matcher_is_anchored_and_case_sensitive_on_copilots_tool_name() {
        for (raw, yes) in
            [("bash", true), ("view|bash", true), ("b.*h", true), ("Bash", false), ("bas", false)]
        {
            assert_eq!(matches(Style::Camel, raw, "Bash"), yes, "{raw}");
        }
    }

    #[test]
    fn a_pascal_case_matcher_takes_claude_codes_name_or_copilots() {
        for raw in ["Bash", "bash", "Edit|Bash", "B.*"] {
            assert!(matches(Style::Pascal, raw, "Bash"), "{raw}");
        }
        assert!(!matches(Style::Pascal, "Read", "Bash"));
    }
}
