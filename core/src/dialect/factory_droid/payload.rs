//! What a Droid hook is given besides Claude Code's payload (the host's bytes): the variables
//! observed, `FACTORY_PROJECT_DIR` and `DROID_PROJECT_DIR` (the project directory, like
//! `CLAUDE_PROJECT_DIR`), and every top-level scalar of its payload as a variable named like the
//! key (`session_id`, `cwd`, `tool_name`, `hook_event_name`, …).
//!
//! Bounded, and chosen where Droid was not observed: only keys that are lower-case identifiers
//! (`[a-z_][a-z0-9_]*`, so a payload can never replace `PATH` or `HOME`), numbers and booleans
//! as their JSON text, a value with a NUL or over [`MAX_VALUE`] bytes skipped (an environment
//! string over 128 KiB makes the spawn fail on Linux), at most [`MAX_VARS`] variables, and
//! never a `*_proxy` name: those are lower-case by convention (`http_proxy`, `no_proxy`) and
//! would let an event redirect every request the hook makes.

use super::super::FireEvent;
use serde_json::Value;

/// The longest value exported.
const MAX_VALUE: usize = 32 * 1024;
/// The most payload variables exported.
const MAX_VARS: usize = 64;

pub(super) fn vars(ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let mut vars = vec![
        ("FACTORY_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
        ("DROID_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
    ];
    let Some(obj) = ev.current.as_object() else { return vars };
    let exported = |k: &str| is_lower_identifier(k) && !k.ends_with("_proxy");
    let scalars = obj.iter().filter(|(k, _)| exported(k)).filter_map(|(k, v)| {
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return None,
        };
        (text.len() <= MAX_VALUE && !text.contains('\0')).then(|| (k.clone(), text))
    });
    vars.extend(scalars.take(MAX_VARS));
    vars
}

fn is_lower_identifier(k: &str) -> bool {
    let mut chars = k.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_payload_never_sets_the_lower_case_proxy_variables_that_redirect_a_hooks_traffic() {
        let spec = crate::catalog::spec(crate::catalog::lookup("PreToolUse").unwrap());
        let event = json!({"session_id": "s", "http_proxy": "http://evil:1", "https_proxy": "x",
            "all_proxy": "x", "no_proxy": "*", "proxy": "kept"});
        let got = vars(&FireEvent::plain(spec, &event));
        let names: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "session_id", "proxy"]);
    }

    #[test]
    fn top_level_scalars_become_variables_but_never_upper_case_or_huge_ones() {
        let spec = crate::catalog::spec(crate::catalog::lookup("PreToolUse").unwrap());
        let event = json!({"session_id": "s", "tool_name": "Execute", "n": 3, "ok": true,
            "tool_input": {"command": "ls"}, "PATH": "/evil", "big": "x".repeat(MAX_VALUE + 1), "nul": "a\u{0}b"});
        let got = vars(&FireEvent::plain(spec, &event));
        let names: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "session_id", "tool_name", "n", "ok"]);
        assert_eq!(got[4].1, "3");
        assert_eq!(got[5].1, "true");
    }
}
