//! The matcher of the Claude Code clones observed to *search* rather than match whole
//! (agents-2.md §0: Factory Droid, Qwen Code, Kimi CLI): the group's matcher is one
//! case-sensitive regex, found anywhere in the value (`Exec` matches `Execute`), with no
//! exact-list reading (Claude Code reads `Bash|Read` as two names; these read it as a regex,
//! which matches the same names and more). Each agent adds its own tool names: a host firing
//! Claude Code's `Bash` must reach a Droid hook that says `Execute` and a Qwen hook that says
//! `run_shell_command`; that map is the dialect's, handed in as `names`.

use crate::catalog::{EventSpec, MatchOn};
use crate::matcher::{GroupMatch, compile_regex};
use regex::Regex;
use serde_json::Value;

/// The other names a tool is known by in an agent: for a tool name the event carries, the
/// names the agent's matchers are also tested against. Directional: Droid's `Execute` is not
/// matched by a `Bash` matcher (observed), but a Claude Code host's `Bash` is Droid's `Execute`.
pub(crate) type ToolNames = &'static [(&'static str, &'static [&'static str])];

/// One group's matcher.
#[derive(Debug, Clone)]
pub(crate) struct SearchMatcher {
    /// `None`: every value.
    re: Option<Regex>,
    names: ToolNames,
    /// On `UserPromptSubmit` the regex is searched in the prompt's text (Kimi, observed);
    /// otherwise the matcher is ignored there, as in Claude Code.
    prompt: bool,
}

impl SearchMatcher {
    /// Absent, `""` or `*` = every value (Droid and Qwen; Kimi refuses `*` before this), else
    /// an unanchored regex; an invalid one gives `Err(reason)` and the group never runs.
    pub(crate) fn compile(raw: Option<&str>, names: ToolNames) -> Result<SearchMatcher, String> {
        let re = match raw.map(str::trim) {
            None | Some("") | Some("*") => None,
            Some(_) => Some(compile_regex(raw.unwrap_or_default())?),
        };
        Ok(SearchMatcher { re, names, prompt: false })
    }

    /// The same matcher, also searched in the prompt on `UserPromptSubmit` (Kimi).
    pub(crate) fn on_prompt(self) -> SearchMatcher {
        SearchMatcher { prompt: true, ..self }
    }

    fn on_prompt_of(&self, spec: &EventSpec) -> bool {
        self.prompt && spec.name == "UserPromptSubmit"
    }

    /// Whether the regex is found in the value or, on a tool event, in another name of it.
    fn hits(&self, spec: &EventSpec, value: &str) -> bool {
        let Some(re) = &self.re else { return true };
        if re.is_match(value) {
            return true;
        }
        spec.match_on == MatchOn::Field("tool_name")
            && self
                .names
                .iter()
                .filter(|(n, _)| *n == value)
                .any(|(_, other)| other.iter().any(|o| re.is_match(o)))
    }
}

impl GroupMatch for SearchMatcher {
    fn describe(&self) -> String {
        match &self.re {
            None => "*".into(),
            Some(r) => format!("regex /{}/ searched anywhere (with the agent's tool names)", r.as_str()),
        }
    }

    /// Events without a matcher field in Claude Code ignore the matcher (Claude Code's rule).
    fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        if self.on_prompt_of(spec) {
            let prompt = event.get("prompt").and_then(Value::as_str).unwrap_or("");
            return self.re.as_ref().is_none_or(|re| re.is_match(prompt));
        }
        spec.match_on == MatchOn::Nothing || self.hits(spec, value)
    }

    /// The prompt is not the matcher value: that answer needs the whole event.
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        (!self.on_prompt_of(spec)).then(|| self.matches(spec, value, &Value::Null))
    }

    fn can_match_any(&self, values: &[&str]) -> bool {
        match &self.re {
            Some(re) if !values.is_empty() => values.iter().any(|v| re.is_match(v)),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: ToolNames = &[("Bash", &["Execute"])];

    fn spec(name: &str) -> &'static EventSpec {
        crate::catalog::spec(crate::catalog::lookup(name).unwrap())
    }

    #[test]
    fn a_matcher_is_searched_anywhere_case_sensitively_and_through_the_agents_names() {
        let pre = spec("PreToolUse");
        let m = |raw: &str, tool: &str| SearchMatcher::compile(Some(raw), NAMES).unwrap().hits(pre, tool);
        assert!(m("Exec", "Execute"));
        assert!(m("^Execute$", "Bash"), "a host's Bash is the agent's Execute");
        assert!(!m("Bash", "Execute"), "the map goes from the host's name to the agent's only");
        assert!(!m("EXECUTE", "Execute"));
        assert!(m("Read|Execute", "Execute"));
        assert!(m("*", "anything"));
        assert!(SearchMatcher::compile(Some("Bash["), NAMES).is_err());
    }

    #[test]
    fn events_without_a_matcher_field_ignore_the_matcher() {
        let m = SearchMatcher::compile(Some("zzz"), NAMES).unwrap();
        assert_eq!(m.matches_value(spec("Stop"), ""), Some(true));
        assert_eq!(m.matches_value(spec("SessionStart"), "startup"), Some(false));
    }
}
