//! Kiro's matcher (agents-2.md §2.6): a regex searched anywhere (`fs_write|str_replace`,
//! `\.ts$`), tested against the host's tool name and Kiro's name for it, MCP tools included
//! (`@git` matches Claude Code's `mcp__git__status`, Kiro's `@git/status`); on file triggers
//! against the file's path; ignored on the other triggers.

use super::tools::{TOOL_NAMES, kiro_name};
use crate::catalog::EventSpec;
use crate::dialect::family::FamilyMatcher;
use crate::matcher::GroupMatch;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct KiroMatcher {
    inner: FamilyMatcher,
}

impl KiroMatcher {
    /// Absent, `""` or `*` match all; an invalid regex gives `Err(reason)`.
    pub fn compile(raw: Option<&str>) -> Result<KiroMatcher, String> {
        FamilyMatcher::unanchored(raw, TOOL_NAMES).map(|inner| KiroMatcher { inner })
    }

    /// Whether the MCP tool `value` matches under Kiro's name for it.
    fn mcp_hit(&self, spec: &EventSpec, value: &str) -> bool {
        spec.tool_event
            && value.starts_with("mcp__")
            && self.inner.matches(spec, &kiro_name(value), &Value::Null)
    }
}

impl GroupMatch for KiroMatcher {
    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn matches(&self, spec: &EventSpec, value: &str, event: &Value) -> bool {
        self.inner.matches(spec, value, event) || self.mcp_hit(spec, value)
    }

    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        self.inner.matches_value(spec, value).map(|hit| hit || self.mcp_hit(spec, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{lookup, spec};

    #[test]
    fn a_server_matcher_reaches_claude_codes_mcp_names() {
        let pre = spec(lookup("PreToolUse").unwrap());
        let m = KiroMatcher::compile(Some("@git")).unwrap();
        assert_eq!(m.matches_value(pre, "mcp__git__status"), Some(true));
        assert_eq!(m.matches_value(pre, "mcp__gitlab2__x"), Some(true)); // searched anywhere, as Kiro's regex
        assert_eq!(m.matches_value(pre, "Bash"), Some(false));
        let m = KiroMatcher::compile(Some("execute_bash")).unwrap();
        assert_eq!(m.matches_value(pre, "Bash"), Some(true));
    }
}

/// Kiro CLI's agent-config matcher (its docs/hooks.md): a glob on Kiro's tool names, whole
/// name (`fs_write`, `fs_*`), `@server` for every tool of an MCP server, `@server/tool` for one,
/// `@builtin` for every built-in tool, `*` or none for all. Applied on tool triggers only (Kiro:
/// "used for matching tool name of PreToolUse and PostToolUse").
#[derive(Debug, Clone)]
pub enum KiroGlob {
    All,
    Builtin,
    Server(String),
    Glob(String),
}

/// A glob longer than this is refused: the match below is quadratic in the worst case.
const MAX_GLOB: usize = 1024;

impl KiroGlob {
    pub fn compile(raw: Option<&str>) -> Result<KiroGlob, String> {
        let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty() && *r != "*") else {
            return Ok(KiroGlob::All);
        };
        if raw.len() > MAX_GLOB {
            return Err(format!("the matcher is {} bytes, over the {MAX_GLOB}-byte limit", raw.len()));
        }
        Ok(match raw {
            "@builtin" => KiroGlob::Builtin,
            s if s.starts_with('@') && !s.contains('/') => KiroGlob::Server(format!("{s}/")),
            s => KiroGlob::Glob(s.to_string()),
        })
    }

    /// Whether Kiro's name `kiro` of a tool matches.
    fn hit(&self, kiro: &str) -> bool {
        match self {
            KiroGlob::All => true,
            KiroGlob::Builtin => !kiro.starts_with('@'),
            KiroGlob::Server(prefix) => kiro.starts_with(prefix.as_str()),
            KiroGlob::Glob(g) => glob(g.as_bytes(), kiro.as_bytes()),
        }
    }
}

/// `*` (any run) and `?` (one byte) over the whole name; iterative, no recursion.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

impl GroupMatch for KiroGlob {
    fn describe(&self) -> String {
        match self {
            KiroGlob::All => "*".into(),
            KiroGlob::Builtin => "@builtin".into(),
            KiroGlob::Server(s) => format!("@{}*", s.trim_start_matches('@')),
            KiroGlob::Glob(g) => format!("glob {g}"),
        }
    }

    fn matches(&self, spec: &EventSpec, value: &str, _event: &Value) -> bool {
        self.matches_value(spec, value).unwrap_or(true)
    }

    /// Kiro's names for the tool the host names `value` (`Edit` is `str_replace` or `fs_write`).
    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        if !spec.tool_event {
            return Some(true);
        }
        let names: Vec<&str> = match TOOL_NAMES.iter().find(|(cc, _)| *cc == value) {
            Some((_, kiro)) => kiro.to_vec(),
            None => Vec::new(),
        };
        let own = kiro_name(value);
        Some(names.iter().any(|n| self.hit(n)) || self.hit(&own))
    }
}

#[cfg(test)]
mod glob_tests {
    use super::*;
    use crate::catalog::{lookup, spec};

    fn hit(raw: &str, tool: &str) -> bool {
        KiroGlob::compile(Some(raw))
            .unwrap()
            .matches_value(spec(lookup("PreToolUse").unwrap()), tool)
            .unwrap()
    }

    #[test]
    fn agent_matchers_are_globs_on_kiros_names_with_mcp_servers_and_builtins() {
        assert!(hit("fs_write", "Write"));
        assert!(hit("fs_*", "Read"));
        assert!(!hit("fs_*", "Bash"));
        assert!(hit("execute_bash", "Bash"));
        assert!(!hit("execute", "Bash"));
        assert!(hit("@git", "mcp__git__status"));
        assert!(!hit("@git", "mcp__gitlab__x"));
        assert!(hit("@git/status", "mcp__git__status"));
        assert!(hit("@builtin", "Bash"));
        assert!(!hit("@builtin", "mcp__git__status"));
        assert!(hit("*", "mcp__git__status"));
        assert!(hit("f?_read", "Read"));
    }

    #[test]
    fn a_long_run_of_stars_matches_in_linear_steps() {
        let pattern = format!("{}b", "*".repeat(1000));
        assert!(!hit(&pattern, &"a".repeat(5000)));
    }
}
