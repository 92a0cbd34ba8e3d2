//! Crush's `hooks` in `crush.json` (observed): `{"PreToolUse": [{"matcher", "command",
//! "timeout", "name"}]}`, a flat list per event, no groups. Every other key of `crush.json` is
//! Crush's own business (providers, LSPs, …) and is not looked at.
//!
//! The event key is normalised as Crush does, case-insensitively with `_` removed
//! (`pre_tool_use` is PreToolUse). Crush accepts other names and never fires them: hookwire
//! skips them with a warning. An entry needs a non-empty `command` (run with `sh -c`; Crush runs
//! it in its own POSIX shell interpreter); `timeout` is seconds (default 30); a matcher that is
//! not a Go regexp (`*`) never matches, with a warning (unverified: what Crush does with it was
//! not recorded). Hook ids `<scope>:PreToolUse[i]`.

use super::tools::TOOL_NAMES;
use crate::catalog::{Dialect, Shell};
use crate::config::{CommandSpec, ConfigWarnings, DocContext, Fields, Group, Handler, Parse, escape};
use crate::dialect::family::FamilyMatcher;
use crate::dialect::flat::take;
use crate::error::ConfigError;
use crate::matcher::{GroupMatcher, Matcher};
use serde_json::Value;

/// Claude Code's event names Crush accepts in its configuration but the recorded build never
/// fires (normalised: lower case, no `_`).
const NEVER_FIRED: &[&str] = &[
    "posttooluse",
    "userpromptsubmit",
    "stop",
    "subagentstop",
    "sessionstart",
    "sessionend",
    "notification",
    "precompact",
];

pub(super) fn read(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let Some(hooks) = doc.get("hooks") else { return Ok(()) };
    let ptr = format!("{}/hooks", cx.base);
    let Some(map) = hooks.as_object() else {
        return p.fail::<()>(warnings, &ptr, "`hooks` must be an object of event names").map(|_| ());
    };
    let ids = super::PROFILE.event_ids("PreToolUse");
    for (key, list) in map {
        let eptr = format!("{ptr}/{}", escape(key));
        let normal = key.to_ascii_lowercase().replace('_', "");
        if normal != "pretooluse" {
            let why = if NEVER_FIRED.contains(&normal.as_str()) {
                format!(
                    "{}: Crush never fires \"{key}\" (only PreToolUse); its hooks are skipped",
                    cx.info.label
                )
            } else {
                format!("{}: unknown event \"{key}\"; its hooks are skipped", cx.info.label)
            };
            warnings.never_runs(None, &eptr, why);
            continue;
        }
        let Some(list) = list.as_array() else {
            p.fail::<()>(warnings, &eptr, format!("the value of \"{key}\" must be a list of hooks"))?;
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let hptr = format!("{eptr}/{i}");
            if let Some(group) = read_entry(entry, i, &hptr, cx, p, warnings)? {
                for &eid in &ids {
                    events[eid]
                        .push(Group { matcher: group.matcher.clone(), handlers: group.handlers.clone() });
                }
            }
        }
    }
    Ok(())
}

fn read_entry(
    entry: &Value,
    i: usize,
    hptr: &str,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<Group>, ConfigError> {
    let Some(obj) = entry.as_object() else {
        return p.fail(warnings, hptr, "a hook must be an object");
    };
    let f = Fields { obj, hptr };
    let command = match take!(p, warnings, f.string("command")) {
        Some(c) if !c.trim().is_empty() => c,
        _ => return p.fail(warnings, &format!("{hptr}/command"), "a hook needs a non-empty `command`"),
    };
    let matcher = take!(p, warnings, f.string("matcher"));
    let timeout = take!(p, warnings, f.number("timeout"));
    let name = take!(p, warnings, f.string("name"));
    let id = format!("{}:PreToolUse[{i}]", cx.info.id_label);
    if let Some(t) = timeout
        && !crate::config::timeout_ok(t)
    {
        return p.fail(warnings, &format!("{hptr}/timeout"), "`timeout` must be seconds ≥ 0.001");
    }
    let matcher = match compile(matcher.as_deref()) {
        Ok(m) => m,
        Err(why) => {
            let why = format!("{id}: {why}; this hook never runs");
            warnings.never_runs(None, &format!("{hptr}/matcher"), why);
            GroupMatcher::new(Matcher::Never)
        }
    };
    let script = CommandSpec::Shell { script: command, shell: Shell::Sh };
    let mut h = Handler::command(id, cx.source, script, Dialect::Crush, "PreToolUse");
    h.timeout_s = timeout;
    h.name = name;
    let ids = super::PROFILE.event_ids("PreToolUse");
    h.sandbox = crate::config::sandbox_key::read(&f, h.ty, &h.id, &ids, warnings);
    Ok(Some(Group { matcher, handlers: vec![h] }))
}

/// A Go regexp searched anywhere in the tool name, case-sensitive; empty or absent matches
/// every tool. `*` alone is no Go regexp.
pub(super) fn compile(raw: Option<&str>) -> Result<GroupMatcher, String> {
    if raw.is_some_and(|r| r.trim() == "*") {
        return Err("matcher \"*\" is not a valid Go regexp".into());
    }
    FamilyMatcher::unanchored(raw, TOOL_NAMES).map(GroupMatcher::new)
}
