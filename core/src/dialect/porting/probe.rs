//! Whether two matchers accept the same values on one event, each tested by its own dialect's
//! rules: the values are the event's closed set, Claude Code's tool names, and variants of the
//! names the source matcher mentions (another case, a longer name, a prefix), so that anchoring,
//! case and regex-vs-name differences show. A difference is reported with the values that
//! show it.

use crate::catalog::{EventSpec, MatchOn};
use crate::matcher::{GroupMatcher, Pattern};
use serde_json::{Map, Value};

/// MCP tool names every agent's matcher is tested on, beside Claude Code's own
/// ([`crate::catalog::CLAUDE_CODE_TOOLS`]).
const MCP_TOOLS: &[&str] = &["mcp__github__create_issue", "mcp__memory__read"];

/// Tool names every agent's matcher is tested on (Claude Code's, as the engine fires them).
pub(crate) fn tools() -> impl Iterator<Item = &'static str> {
    crate::catalog::CLAUDE_CODE_TOOLS.iter().chain(MCP_TOOLS).copied()
}

/// The values on which `a` and `b` disagree on `spec` (at most 3), each with whether `a`
/// accepts it, and how many of all the differences are on the event's own values (its closed
/// set, Claude Code's tool names) rather than on variants of the names in `pattern`.
pub fn differences(
    spec: &EventSpec,
    a: &GroupMatcher,
    pattern: Option<&Pattern>,
    b: &GroupMatcher,
) -> (Vec<(String, bool)>, usize) {
    let mut out = Vec::new();
    let mut major = 0;
    for v in values(spec, pattern) {
        let event = event_of(spec, &v);
        let (x, y) = (a.matches(spec, &v, &event), b.matches(spec, &v, &event));
        if x != y {
            if spec.matcher_values.contains(&v.as_str())
                || (spec.tool_event && tools().any(|t| t == v.as_str()))
            {
                major += 1;
            }
            if out.len() < 3 {
                out.push((v, x));
            }
        }
    }
    (out, major)
}

/// The values to test on `spec`.
fn values(spec: &EventSpec, pattern: Option<&Pattern>) -> Vec<String> {
    let mut v: Vec<String> = spec.matcher_values.iter().map(|s| s.to_string()).collect();
    if spec.tool_event {
        v.extend(tools().map(str::to_string));
    }
    let named: Vec<String> = match pattern {
        Some(Pattern::Names(n)) => n.clone(),
        Some(Pattern::Exact(s)) => vec![s.clone()],
        Some(Pattern::Regex(r)) => r
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    };
    for n in named.iter().take(16) {
        v.extend([n.clone(), n.to_lowercase(), n.to_uppercase(), format!("{n}X"), format!("x{n}")]);
    }
    v.push(String::new());
    v.push("unrelated_value".to_string());
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.clone()));
    v
}

/// An event of `spec` whose matcher field holds `value` (matchers that read the event itself,
/// such as Codex's, see it there).
fn event_of(spec: &EventSpec, value: &str) -> Value {
    let mut m = Map::new();
    m.insert("hook_event_name".into(), Value::String(spec.name.into()));
    match spec.match_on {
        MatchOn::Field(f) => {
            m.insert(f.into(), Value::String(value.into()));
        }
        MatchOn::Basename(f) => {
            m.insert(f.into(), Value::String(format!("/p/{value}")));
        }
        MatchOn::Nothing => {}
    }
    if spec.tool_event {
        m.entry("tool_input").or_insert_with(|| Value::Object(Map::new()));
    }
    Value::Object(m)
}

/// Texts a target's matcher may be written as, in order of preference: the pattern's own
/// text; a regex anchored to the same names in the target's tool names (`tool_name`: Claude
/// Code's name → the target's); on a tool event, the tools of the probe set the source accepts,
/// as exact names; and last no `matcher` key at all (`None`).
pub fn candidates(
    spec: &EventSpec,
    source: &GroupMatcher,
    pattern: &Pattern,
    tool_name: fn(&str) -> String,
) -> Vec<Option<String>> {
    let anchored = |names: &[String]| {
        let alts: Vec<String> = names.iter().map(|n| regex::escape(&tool_name(n))).collect();
        format!("^({})$", alts.join("|"))
    };
    let mut out = match pattern {
        Pattern::All => vec![],
        Pattern::Names(n) => vec![Some(n.join("|")), Some(anchored(n))],
        Pattern::Regex(r) => vec![Some(r.clone())],
        Pattern::Exact(s) => vec![Some(s.clone()), Some(anchored(std::slice::from_ref(s)))],
    };
    if spec.tool_event && !matches!(pattern, Pattern::All) {
        let accepted: Vec<String> =
            tools().filter(|t| source.matches(spec, t, &event_of(spec, t))).map(|t| t.to_string()).collect();
        if !accepted.is_empty() {
            out.push(Some(accepted.join("|")));
            out.push(Some(anchored(&accepted)));
        }
    }
    out.push(None);
    out
}

/// Claude Code's names, for a target that names tools as Claude Code does.
pub fn same_name(name: &str) -> String {
    name.to_string()
}

/// How a person reads a difference: `` `BashOutput` matched by the source, not by the target``.
pub fn say(diffs: &[(String, bool)]) -> String {
    let one = |(v, by_source): &(String, bool)| {
        let v = if v.is_empty() { "(empty)".to_string() } else { format!("`{v}`") };
        match by_source {
            true => format!("{v} matched by the source, not by the target"),
            false => format!("{v} matched by the target, not by the source"),
        }
    };
    diffs.iter().map(one).collect::<Vec<_>>().join("; ")
}
