//! The group matcher of the Claude Code family: Claude Code's own (exact names for plain
//! names, an unanchored regex otherwise) or an unanchored regex for every matcher (CodeBuddy,
//! where `Write` also matches `NotebookWrite`; Auggie, where `launch` matches
//! `launch-process`; Factory Droid, Qwen Code and Kimi CLI, observed), tested against the event's matcher value and, on tool events, against the
//! agent's names for a Claude Code tool: a host firing Claude Code's `Bash` reaches a hook whose
//! matcher says Devin's `exec`. The translation goes one way only: a host firing the agent's own
//! name is matched as the agent matches it (Auggie's `Bash` never matches `launch-process`).

use crate::catalog::{EventSpec, MatchOn, Rules};
use crate::matcher::{GroupMatch, Matcher, Pattern, compile_lazy_regex, is_tool_event};
use serde_json::Value;

/// How a family member reads a matcher string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchoring {
    /// Claude Code's rule (§4.1): a list of plain names is exact, anything else a regex.
    ClaudeCode,
    /// Every matcher is a regex searched anywhere in the name, case-sensitive.
    Unanchored,
}

/// Claude Code's tool names and the agent's names for the same tools.
pub type ToolNames = &'static [(&'static str, &'static [&'static str])];

/// One group's matcher.
#[derive(Debug, Clone)]
pub struct FamilyMatcher {
    inner: Matcher,
    tools: ToolNames,
    /// On `UserPromptSubmit` the matcher is tested against the prompt's text (Kimi, observed).
    prompt: bool,
    /// It applies on events without a matcher field too, tested against nothing (Muse Code);
    /// otherwise it is ignored there, as in Claude Code.
    every_event: bool,
}

impl FamilyMatcher {
    /// `""`, `"*"`, blank or absent match all; an invalid regex gives `Err(reason)`.
    pub fn compile(
        raw: Option<&str>,
        spec: &EventSpec,
        rules: Rules,
        anchoring: Anchoring,
        tools: ToolNames,
    ) -> Result<FamilyMatcher, String> {
        let inner = match (anchoring, raw.map(str::trim)) {
            (Anchoring::Unanchored, Some(r)) if !r.is_empty() && r != "*" => {
                Matcher::Regex(compile_lazy_regex(raw.unwrap_or(""))?)
            }
            _ => Matcher::compile(raw, rules, spec.narrow_matcher)?,
        };
        Ok(FamilyMatcher { inner, tools, prompt: false, every_event: false })
    }

    /// A matcher searched anywhere in the value, whatever the event (the observed clones):
    /// `""`, `"*"`, blank or absent match all; an invalid regex gives `Err(reason)`.
    pub fn unanchored(raw: Option<&str>, tools: ToolNames) -> Result<FamilyMatcher, String> {
        let inner = match raw.map(str::trim) {
            Some(r) if !r.is_empty() && r != "*" => Matcher::Regex(compile_lazy_regex(raw.unwrap_or(""))?),
            _ => Matcher::All,
        };
        Ok(FamilyMatcher { inner, tools, prompt: false, every_event: false })
    }

    /// The same matcher, tested against the prompt on `UserPromptSubmit`.
    pub fn on_prompt(self) -> FamilyMatcher {
        FamilyMatcher { prompt: true, ..self }
    }

    /// The same matcher, applied on every event.
    pub fn on_every_event(self) -> FamilyMatcher {
        FamilyMatcher { every_event: true, ..self }
    }

    fn on_prompt_of(&self, spec: &EventSpec) -> bool {
        self.prompt && spec.name == "UserPromptSubmit"
    }

    /// Whether the matcher accepts `value` or, on a tool event, one of the agent's names for it.
    fn hits(&self, spec: &EventSpec, value: &str) -> bool {
        if self.inner.matches(value) {
            return true;
        }
        is_tool_event(spec)
            && self
                .tools
                .iter()
                .filter(|(cc, _)| *cc == value)
                .flat_map(|(_, names)| names.iter())
                .any(|n| self.inner.matches(n))
    }
}

impl GroupMatch for FamilyMatcher {
    fn describe(&self) -> String {
        let own = GroupMatch::describe(&self.inner);
        if self.tools.is_empty() { own } else { format!("{own} (and the agent's tool names)") }
    }

    fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        if self.on_prompt_of(spec) {
            return self.inner.matches(event.get("prompt").and_then(Value::as_str).unwrap_or(""));
        }
        (spec.match_on == MatchOn::Nothing && !self.every_event) || self.hits(spec, value)
    }

    /// The prompt is not the matcher value: that answer needs the whole event.
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        (!self.on_prompt_of(spec)).then(|| self.matches(spec, value, &Value::Null))
    }

    fn can_match_any(&self, values: &[&str]) -> bool {
        self.inner.can_match(values)
    }

    /// Exact names only when no tool name is translated (a translated name is not the value).
    fn exact_names(&self) -> Option<&[String]> {
        if self.tools.is_empty() { GroupMatch::exact_names(&self.inner) } else { None }
    }

    fn pattern(&self) -> Option<Pattern> {
        GroupMatch::pattern(&self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> &'static EventSpec {
        crate::catalog::spec(crate::catalog::lookup(name).unwrap())
    }

    fn hits(raw: &str, anchoring: Anchoring, tools: ToolNames, value: &str) -> bool {
        let m =
            FamilyMatcher::compile(Some(raw), spec("PreToolUse"), Rules::Current, anchoring, tools).unwrap();
        m.matches_value(spec("PreToolUse"), value).unwrap()
    }

    #[test]
    fn an_unanchored_matcher_finds_a_plain_name_inside_a_longer_one() {
        assert!(hits("Write", Anchoring::Unanchored, &[], "NotebookWrite"));
        assert!(!hits("Write", Anchoring::ClaudeCode, &[], "NotebookWrite"));
        assert!(!hits("write", Anchoring::Unanchored, &[], "Write"));
        assert!(hits("*", Anchoring::Unanchored, &[], "Anything"));
    }

    #[test]
    fn a_claude_code_tool_name_reaches_the_agents_name_but_not_the_other_way() {
        const TOOLS: ToolNames = &[("Bash", &["exec"])];
        assert!(hits("exec", Anchoring::ClaudeCode, TOOLS, "Bash"));
        assert!(hits("exec", Anchoring::ClaudeCode, TOOLS, "exec"));
        assert!(!hits("Bash", Anchoring::ClaudeCode, TOOLS, "exec"));
        // Not on events that are not about a tool.
        let m = FamilyMatcher::compile(
            Some("exec"),
            spec("SessionStart"),
            Rules::Current,
            Anchoring::ClaudeCode,
            TOOLS,
        )
        .unwrap();
        assert_eq!(m.matches_value(spec("SessionStart"), "Bash"), Some(false));
    }

    #[test]
    fn an_observed_clones_matcher_is_searched_anywhere_case_sensitively_through_the_agents_names() {
        const NAMES: ToolNames = &[("Bash", &["Execute"])];
        let pre = spec("PreToolUse");
        let m = |raw: &str, tool: &str| {
            FamilyMatcher::unanchored(Some(raw), NAMES).unwrap().matches_value(pre, tool).unwrap()
        };
        assert!(m("Exec", "Execute"));
        assert!(m("^Execute$", "Bash"), "a host's Bash is the agent's Execute");
        assert!(!m("Bash", "Execute"), "the map goes from the host's name to the agent's only");
        assert!(!m("EXECUTE", "Execute"));
        assert!(m("Read|Execute", "Execute"));
        assert!(m("*", "anything"));
        assert!(FamilyMatcher::unanchored(Some("Bash["), NAMES).is_err());
    }

    #[test]
    fn events_without_a_matcher_field_ignore_the_matcher_unless_it_applies_on_every_event() {
        let m = FamilyMatcher::unanchored(Some("zzz"), &[]).unwrap();
        assert_eq!(m.matches_value(spec("Stop"), ""), Some(true));
        assert_eq!(m.matches_value(spec("SessionStart"), "startup"), Some(false));
        assert_eq!(m.clone().on_every_event().matches_value(spec("Stop"), ""), Some(false));
    }

    #[test]
    fn a_prompt_matcher_is_tested_against_the_prompt_text() {
        let m = FamilyMatcher::unanchored(Some("^deploy"), &[]).unwrap().on_prompt();
        let ups = spec("UserPromptSubmit");
        assert_eq!(m.matches_value(ups, ""), None, "the prompt is not the matcher value");
        assert!(m.matches(ups, "", &serde_json::json!({"prompt": "deploy now"})));
        assert!(!m.matches(ups, "", &serde_json::json!({"prompt": "please deploy"})));
    }
}
