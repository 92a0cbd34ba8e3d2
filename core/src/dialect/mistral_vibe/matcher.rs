//! Vibe's `match` (observed): an fnmatch glob (`ba*`, `*`), or a regex after `re:`, always
//! matched against the **whole** name and case-insensitively (`bas` and `re:ba` do not match
//! `bash`; `BASH` and `re:BA.*` do). On tool events it is tried on the bare and the namespaced
//! tool name (`tools.rs`); on `post_agent` on the agent's name (`agent_name`). `|` is a literal
//! character in a glob (`read_file|bash` matches nothing). Absent: every value.

use super::tools;
use crate::catalog::{EventSpec, MatchOn};
use crate::lazy_regex::LazyRegex;
use crate::matcher::{GroupMatch, compile_lazy_regex};
use serde_json::Value;

#[derive(Debug)]
pub(super) struct VibeMatcher {
    raw: Option<String>,
    /// The whole-name, case-insensitive regex; `None` matches everything.
    re: Option<LazyRegex>,
}

impl VibeMatcher {
    pub(super) fn compile(raw: Option<&str>) -> Result<VibeMatcher, String> {
        let Some(raw) = raw else { return Ok(VibeMatcher { raw: None, re: None }) };
        let body = match raw.strip_prefix("re:") {
            Some(re) => re.to_string(),
            None => glob_to_regex(raw),
        };
        let re = compile_lazy_regex(&format!("(?is)^(?:{body})$"))?;
        Ok(VibeMatcher { raw: Some(raw.to_string()), re: Some(re) })
    }

    fn hit(&self, names: &[String]) -> bool {
        self.re.as_ref().is_none_or(|re| names.iter().any(|n| re.is_match(n)))
    }
}

/// Python's `fnmatch.translate`, in the regex crate's syntax: `*`, `?`, `[…]` (`[!…]` negated).
fn glob_to_regex(glob: &str) -> String {
    let chars: Vec<char> = glob.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '[' => match chars[i + 1..].iter().position(|&c| c == ']').map(|p| p + i + 1) {
                Some(end) if end > i + 1 => {
                    let mut set: String = chars[i + 1..end].iter().collect();
                    if let Some(rest) = set.strip_prefix('!') {
                        set = format!("^{rest}");
                    }
                    out.push('[');
                    out.push_str(&set.replace('\\', "\\\\").replace('[', "\\["));
                    out.push(']');
                    i = end;
                }
                _ => out.push_str("\\["),
            },
            c => out.push_str(&regex_syntax::escape(&c.to_string())),
        }
        i += 1;
    }
    out
}

impl GroupMatch for VibeMatcher {
    fn describe(&self) -> String {
        match &self.raw {
            None => "every tool".into(),
            Some(r) => format!("{r:?} (Vibe: whole name, case-insensitive)"),
        }
    }

    fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        if spec.match_on == MatchOn::Nothing {
            let agent = event.get("agent_name").and_then(Value::as_str).unwrap_or("");
            return self.hit(&[agent.to_string()]);
        }
        self.hit(&tools::candidates(value))
    }

    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        (spec.match_on != MatchOn::Nothing).then(|| self.hit(&tools::candidates(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(raw: &str, name: &str) -> bool {
        VibeMatcher::compile(Some(raw)).unwrap().hit(&tools::candidates(name))
    }

    #[test]
    fn globs_and_regexes_match_the_whole_name_case_insensitively_as_observed() {
        for (raw, want) in [
            ("BASH", true),
            ("Bash", true),
            ("ba*", true),
            ("bas", false),
            ("re:ba", false),
            ("re:BA.*", true),
            ("file_system.bash", true),
            ("read_file|bash", false),
            ("*", true),
            ("b[a-c]sh", true),
            ("b[!a]sh", false),
        ] {
            assert_eq!(hits(raw, "file_system.bash"), want, "{raw}");
        }
        assert!(hits("bash", "Bash"), "a host's Claude Code name reaches Vibe's");
    }
}
