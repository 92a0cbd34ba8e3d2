//! The allocation-light answer to a fire that runs nothing (style.md "the hot path stays
//! light"): the event text is scanned once into borrowed fields, the claude-code matchers are
//! tested against the borrowed matcher value, and when no group matches and the session has
//! no state to update, a result prepared at load is returned as is.
//!
//! Anything this path cannot decide cheaply (a wrong field type, another dialect's matcher,
//! pending async output, Stop-guard state) falls back to the full fire, which gives the same
//! answer; this module only ever declines, it never decides differently.

use crate::catalog::{self, EventId, MatchOn};
use crate::config::Config;
use crate::matcher::GroupMatcher;
use crate::result::FireResult;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The fields a fire needs before it knows whether anything runs, borrowed from the text.
/// The typed fields of §3.1 are declared with their types so a wrong type fails here (and the
/// full path reports it with a pointer).
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(borrow)]
    hook_event_name: Cow<'a, str>,
    #[serde(borrow, default)]
    session_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    transcript_path: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    cwd: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    permission_mode: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    prompt_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    agent_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    agent_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_use_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    source: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    reason: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    trigger: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    notification_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    prompt: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_input: Option<&'a RawValue>,
    #[serde(default)]
    stop_hook_active: Option<bool>,
    // Free matcher fields (any type; a non-string matches as "").
    #[serde(borrow, default)]
    command_name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    load_reason: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
    #[serde(borrow, default)]
    mcp_server_name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    file_path: Option<&'a RawValue>,
}

/// Prepared empty results, one per event id, with that event's load warnings.
pub struct Prepared {
    empty: Vec<String>,
}

impl Prepared {
    pub fn new(config: &Config) -> Prepared {
        let empty = (0..catalog::count())
            .map(|eid| {
                let mut r = FireResult::empty(catalog::spec(eid).name);
                r.warnings.extend(config.warnings.global.iter().cloned());
                r.warnings.extend(config.warnings.per_event[eid].iter().cloned());
                r.to_json()
            })
            .collect();
        Prepared { empty }
    }
}

/// What the session state says about this fire.
pub trait SessionProbe {
    /// The session has async output waiting, Stop-guard counts that this event may touch, or
    /// the host registered functions on this event.
    fn has_state(&self, session: &str, eid: EventId) -> bool;
}

fn raw_str(v: Option<&RawValue>) -> Cow<'_, str> {
    match v {
        Some(raw) if raw.get().starts_with('"') => {
            crate::json::from_str::<Cow<'_, str>>(raw.get()).unwrap_or(Cow::Borrowed(""))
        }
        _ => Cow::Borrowed(""),
    }
}

fn field_of<'h>(head: &'h Head<'_>, name: &str) -> Cow<'h, str> {
    let s = |v: &'h Option<Cow<'_, str>>| Cow::Borrowed(v.as_deref().unwrap_or(""));
    match name {
        "tool_name" => s(&head.tool_name),
        "agent_type" => s(&head.agent_type),
        "source" => s(&head.source),
        "reason" => s(&head.reason),
        "trigger" => s(&head.trigger),
        "notification_type" => s(&head.notification_type),
        "command_name" => raw_str(head.command_name),
        "load_reason" => raw_str(head.load_reason),
        "error" => raw_str(head.error),
        "mcp_server_name" => raw_str(head.mcp_server_name),
        "file_path" => raw_str(head.file_path),
        _ => Cow::Borrowed(""),
    }
}

/// `Some(result JSON)` when nothing runs and nothing changes; `None` to take the full path.
pub fn try_answer(
    config: &Config,
    prepared: &Prepared,
    text: &str,
    sessions: &dyn SessionProbe,
) -> Option<String> {
    // serde reads a struct from an array too; an event must be an object.
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let head: Head<'_> = serde_json::from_str(text).ok()?;
    if head.tool_input.is_some_and(|t| !(t.get().starts_with('{') || t.get() == "null")) {
        return None;
    }
    let _ = (&head.transcript_path, &head.permission_mode, &head.prompt_id, &head.tool_use_id);
    let _ = (&head.prompt, &head.stop_hook_active, &head.cwd, &head.agent_id);
    // Only canonical names: the result's `event` is the name as fired, which the prepared
    // result spells the canonical way.
    let eid = catalog::lookup(&head.hook_event_name)?;
    let spec = catalog::spec(eid);
    if spec.name == "SessionEnd" {
        return None;
    }
    let field = |name: &str| field_of(&head, name);
    let value: Cow<'_, str> = match spec.match_on {
        MatchOn::Nothing => Cow::Borrowed(""),
        MatchOn::Field(f) => field(f),
        MatchOn::Basename(f) => {
            let full = field(f);
            Cow::Owned(full.trim_end_matches('/').rsplit('/').next().unwrap_or("").to_string())
        }
    };
    for g in &config.events[eid] {
        match &g.matcher {
            GroupMatcher::Cc(m) if spec.match_on != MatchOn::Nothing => {
                if m.matches(&value) && !g.handlers.is_empty() {
                    return None;
                }
            }
            _ => {
                if !g.handlers.is_empty() {
                    return None;
                }
            }
        }
    }
    let session = head.session_id.as_deref().unwrap_or("");
    if sessions.has_state(session, eid) {
        return None;
    }
    prepared.empty.get(eid).cloned()
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;

    fn d() -> Dispatcher {
        Dispatcher::new(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                "Stop":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}"#,
        )
        .unwrap()
    }

    fn same_as_full_path(event: &str) {
        let d = d();
        let fast = d.fire_json(event).unwrap();
        let full = d.fire(&serde_json::from_str(event).unwrap()).unwrap().to_json();
        assert_eq!(fast, full, "{event}");
    }

    #[test]
    fn a_fire_that_matches_nothing_answers_like_the_full_path() {
        same_as_full_path(
            r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"a":1},"x":[1,2]}"#,
        );
        same_as_full_path(r#"{"hook_event_name":"SessionStart","source":"startup"}"#);
        same_as_full_path(r#"{"hook_event_name":"Elicitation","mcp_server_name":7}"#);
    }

    #[test]
    fn wrong_types_and_non_objects_still_get_their_precise_errors() {
        let d = d();
        for (event, kind) in [
            (r#"["PreToolUse"]"#, "invalid_event"),
            (r#"{"hook_event_name":"PreToolUse","tool_name":5}"#, "invalid_event"),
            (r#"{"hook_event_name":"PreToolUse","tool_input":"x"}"#, "invalid_event"),
            (r#"{"hook_event_name":"PreToolUse""#, "invalid_json"),
        ] {
            assert_eq!(d.fire_json(event).unwrap_err().kind().as_str(), kind, "{event}");
        }
    }
}
