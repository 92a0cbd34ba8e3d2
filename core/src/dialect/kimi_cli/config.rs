//! Kimi's configuration (its `HookDef`): `[[hooks]]` tables in `config.toml`, read as a JSON
//! array under `hooks` (inline settings write the same array), each
//! `{event, command, matcher = "", timeout = 30}`. No groups: each entry is a group of one,
//! with hook id `<scope>:<Event>[i]`, `i` its place in the whole list.
//!
//! Kimi refuses to start on an unknown event name or a timeout that is not an integer from 1
//! to 600; hookwire skips that one hook with a warning instead (a file or an inline config
//! alike), so one bad line does not cost the other hooks. Other keys are Kimi's business
//! (ignored). PostToolUse and PostToolUseFailure hooks run in the background: Kimi never waits
//! for them nor reads them. An entry with the documented `inject_prompt` instead of a `command`
//! is the TypeScript Kimi Code CLI's, absent from Kimi CLI 1.52 (observed): skipped with a
//! warning.

use super::super::family::FamilyMatcher;
use crate::catalog::{Dialect, Shell};
use crate::config::{CommandSpec, ConfigWarnings, DocContext, Fields, Group, Handler, Parse, RunMode};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::Value;

/// Kimi's timeout bounds, in seconds.
const TIMEOUT_S: std::ops::RangeInclusive<f64> = 1.0..=600.0;

pub(super) fn read(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let Some(hooks) = doc.get("hooks") else { return Ok(()) };
    let ptr = format!("{}/hooks", cx.base);
    let Some(list) = hooks.as_array() else {
        return p.fail::<()>(warnings, &ptr, "`hooks` must be a list of `[[hooks]]` tables").map(|_| ());
    };
    for (i, entry) in list.iter().enumerate() {
        let hptr = format!("{ptr}/{i}");
        if let Some((ids, group)) = read_entry(entry, i, &hptr, cx, p, warnings)? {
            for &eid in &ids[1..] {
                events[eid].push(Group { matcher: group.matcher.clone(), handlers: group.handlers.clone() });
            }
            events[ids[0]].push(group);
        }
    }
    Ok(())
}

macro_rules! field {
    ($p:expr, $w:expr, $e:expr) => {
        match $e {
            Ok(v) => v,
            Err((at, msg)) => return $p.fail($w, &at, msg),
        }
    };
}

fn read_entry(
    entry: &Value,
    i: usize,
    hptr: &str,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<(Vec<crate::catalog::EventId>, Group)>, ConfigError> {
    let Some(obj) = entry.as_object() else {
        return p.fail(warnings, hptr, "a `[[hooks]]` entry must be a table");
    };
    let f = Fields { obj, hptr };
    let Some(event) = field!(p, warnings, f.string("event")) else {
        return p.fail(warnings, &format!("{hptr}/event"), "a hook needs an `event`");
    };
    if obj.contains_key("inject_prompt") && !obj.contains_key("command") {
        let why = format!(
            "{}: `inject_prompt` is Kimi Code's (the TypeScript CLI), not Kimi CLI's; this hook is skipped",
            cx.info.label
        );
        warnings.never_runs(None, &format!("{hptr}/inject_prompt"), why);
        return Ok(None);
    }
    let command = match field!(p, warnings, f.string("command")) {
        Some(c) if !c.trim().is_empty() => c,
        _ => return p.fail(warnings, &format!("{hptr}/command"), "a hook needs a non-empty `command`"),
    };
    let matcher = field!(p, warnings, f.string("matcher"));
    let timeout = field!(p, warnings, f.number("timeout"));
    let id = format!("{}:{event}[{i}]", cx.info.id_label);
    let ids = super::PROFILE.event_ids(&event);
    if ids.is_empty() {
        let why = format!("{id}: unknown event \"{event}\" (Kimi refuses to start); this hook is skipped");
        warnings.never_runs(None, &format!("{hptr}/event"), why);
        return Ok(None);
    }
    if let Some(t) = timeout.filter(|t| t.fract() != 0.0 || !TIMEOUT_S.contains(t)) {
        let why = format!(
            "{id}: timeout {t} is not an integer of seconds from 1 to 600 (Kimi refuses to start); this hook is skipped"
        );
        for &eid in &ids {
            warnings.never_runs(Some(eid), &format!("{hptr}/timeout"), why.clone());
        }
        return Ok(None);
    }
    let matcher = match compile(matcher.as_deref()) {
        Ok(m) => m,
        Err(why) => {
            for &eid in &ids {
                let why = format!("{id}: {why}; this hook never runs");
                warnings.never_runs(Some(eid), &format!("{hptr}/matcher"), why);
            }
            GroupMatcher::new(crate::matcher::Matcher::Never)
        }
    };
    let script = CommandSpec::Shell { script: command, shell: Shell::Sh };
    let mut h = Handler::command(id, cx.source, script, Dialect::KimiCli, &event);
    h.timeout_s = timeout;
    if matches!(event.as_str(), "PostToolUse" | "PostToolUseFailure") {
        h.mode = RunMode::Async;
    }
    Ok(Some((ids, Group { matcher, handlers: vec![h] })))
}

/// `""` or absent: every value; `*` is not a regex in Python's `re` (nor here): the hook
/// never matches, as in Kimi.
pub(super) fn compile(raw: Option<&str>) -> Result<GroupMatcher, String> {
    if raw.is_some_and(|r| r.trim() == "*") {
        return Err("matcher \"*\" is not a valid regex (Kimi: the hook never matches)".into());
    }
    FamilyMatcher::unanchored(raw, &[]).map(|m| GroupMatcher::new(m.on_prompt()))
}
