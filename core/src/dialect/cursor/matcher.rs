//! Which of Cursor's native events run for a fire, and its `matcher` (agents.md §4.1): a
//! handler of a tool-specific event is stored under the canonical event and runs only for its
//! tool (`Bash` for the shell events, `mcp__…` for MCP, `Read`, `Edit`/`Write`/`MultiEdit`);
//! then its matcher, an unanchored case-sensitive regex, is tested against the Cursor tool
//! name, the command text or the subagent type, and ignored elsewhere.

use super::kind::{Kind, On};
use super::tools;
use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, Pattern, compile_regex, tool_name};
use regex::Regex;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct CursorMatcher {
    kind: Kind,
    /// `None`: absent, `""`, `"*"`, or ignored on this event.
    re: Option<Regex>,
}

impl CursorMatcher {
    /// Reads a `matcher` for a handler of `kind`; an invalid regex gives `Err(reason)`.
    pub fn compile(kind: Kind, raw: Option<&str>) -> Result<CursorMatcher, String> {
        let re = match (kind.matcher_on(), raw.map(str::trim)) {
            (On::Ignored, _) | (_, None | Some("" | "*")) => None,
            (_, Some(_)) => Some(compile_regex(raw.unwrap_or_default())?),
        };
        Ok(CursorMatcher { kind, re })
    }
}

/// The shell command of a tool event: Cursor's own `command`, else `tool_input.command`.
pub fn command_text(event: &Value) -> &str {
    event
        .get("command")
        .and_then(Value::as_str)
        .or_else(|| event.get("tool_input").and_then(|i| i.get("command")).and_then(Value::as_str))
        .unwrap_or("")
}

/// The subagent's type: Cursor's own `subagent_type`, else `agent_type`.
pub fn subagent_type(event: &Value) -> &str {
    event
        .get("subagent_type")
        .and_then(Value::as_str)
        .or_else(|| event.get("agent_type").and_then(Value::as_str))
        .unwrap_or("")
}

impl GroupMatch for CursorMatcher {
    fn describe(&self) -> String {
        let on = match self.kind.matcher_on() {
            On::ToolName => "tool name",
            On::Command => "command",
            On::SubagentType => "subagent type",
            On::Ignored => "",
        };
        match &self.re {
            None => format!("{} *", self.kind.name()),
            Some(re) => format!("{} {on} /{}/", self.kind.name(), re.as_str()),
        }
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        if spec.tool_event && !self.kind.takes_tool(tool_name(event)) {
            return false;
        }
        let Some(re) = &self.re else { return true };
        match self.kind.matcher_on() {
            On::ToolName => re.is_match(&tools::cursor_name(tool_name(event))),
            On::Command => re.is_match(command_text(event)),
            On::SubagentType => re.is_match(subagent_type(event)),
            On::Ignored => true,
        }
    }

    /// A hook of a tool-specific event (`beforeShellExecution`) without a matcher is the shell
    /// tool's; a regex on the command text or on a tool-specific event has no portable form.
    fn pattern(&self) -> Option<Pattern> {
        let every_tool = ["Bash", "Read", "Write", "mcp__s__t"].iter().all(|t| self.kind.takes_tool(t));
        match (&self.re, every_tool) {
            (None, true) => Some(Pattern::All),
            (Some(re), true) if self.kind.matcher_on() == On::ToolName => {
                Some(Pattern::Regex(re.as_str().to_string()))
            }
            (None, false) if self.kind.takes_tool("Bash") && !self.kind.takes_tool("Read") => {
                Some(Pattern::Names(vec!["Bash".to_string()]))
            }
            _ => None,
        }
    }

    /// On a tool event the matcher value is the tool name: enough to say whether the event's
    /// tool is this handler's, and to test a tool-name regex; a command or subagent regex needs
    /// the whole event.
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        if spec.tool_event && !self.kind.takes_tool(value) {
            return Some(false);
        }
        match (&self.re, self.kind.matcher_on()) {
            (None, _) | (_, On::Ignored) => Some(true),
            (Some(re), On::ToolName) if spec.tool_event => Some(re.is_match(&tools::cursor_name(value))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};
    use serde_json::json;

    fn pre() -> &'static EventSpec {
        spec(lookup("PreToolUse").unwrap())
    }

    fn m(kind: Kind, raw: &str) -> CursorMatcher {
        CursorMatcher::compile(kind, Some(raw)).unwrap()
    }

    #[test]
    fn a_shell_matcher_is_an_unanchored_regex_on_the_command_text() {
        let x = m(Kind::BeforeShellExecution, "curl|wget");
        let curl = json!({"tool_name": "Bash", "tool_input": {"command": "curl a"}});
        let ls = json!({"tool_name": "Bash", "tool_input": {"command": "ls"}});
        assert!(x.matches(pre(), "Bash", &curl));
        assert!(!x.matches(pre(), "Bash", &ls));
        assert_eq!(x.matches_value(pre(), "Bash"), None);
        assert_eq!(x.matches_value(pre(), "Read"), Some(false));
    }

    #[test]
    fn a_tool_matcher_tests_the_cursor_name_case_sensitively() {
        let x = m(Kind::PreToolUse, "^Shell$");
        assert_eq!(x.matches_value(pre(), "Bash"), Some(true));
        assert_eq!(x.matches_value(pre(), "Read"), Some(false));
        assert!(!m(Kind::PreToolUse, "shell").matches(pre(), "Bash", &json!({"tool_name": "Bash"})));
        assert_eq!(m(Kind::PreToolUse, "MCP:").matches_value(pre(), "mcp__s__t"), Some(true));
    }

    #[test]
    fn ignored_matchers_match_everything_of_their_tool_even_when_invalid() {
        let x = CursorMatcher::compile(Kind::BeforeMcpExecution, Some("[")).unwrap();
        assert_eq!(x.matches_value(pre(), "mcp__s__t"), Some(true));
        assert_eq!(x.matches_value(pre(), "Bash"), Some(false));
    }

    #[test]
    fn star_empty_and_absent_match_all_and_invalid_regexes_are_refused() {
        for raw in [None, Some(""), Some("*"), Some(" * ")] {
            let x = CursorMatcher::compile(Kind::PreToolUse, raw).unwrap();
            assert_eq!(x.matches_value(pre(), "Anything"), Some(true));
        }
        assert!(CursorMatcher::compile(Kind::PreToolUse, Some("(")).is_err());
        assert!(CursorMatcher::compile(Kind::PreToolUse, Some(&"a".repeat(100_000))).is_err());
    }

    #[test]
    fn subagent_matchers_test_the_native_type_first() {
        let stop = spec(lookup("SubagentStop").unwrap());
        let x = m(Kind::SubagentStop, "review");
        assert!(x.matches(stop, "other", &json!({"subagent_type": "code-review"})));
        assert!(x.matches(stop, "code-review", &json!({"agent_type": "code-review"})));
        assert!(!x.matches(stop, "plan", &json!({"agent_type": "plan"})));
        assert_eq!(x.matches_value(stop, "plan"), None);
    }
}
