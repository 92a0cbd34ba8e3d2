//! Vibe's `hooks.toml` (its `HookConfig`, observed): `[[hooks]]` tables, read as a JSON array
//! under `hooks` (inline settings write the same array), each `{name, type, command, match,
//! timeout, strict, description}`. No groups: each entry is a group of one, with hook id
//! `<scope>:<type>[i]`, `i` its place in the whole list.
//!
//! `name`, `type` and `command` are required; `type` is `pre_tool`, `post_tool` or
//! `post_agent`, and an entry of another type (a Claude Code name, observed) is skipped with a
//! warning while the other entries load; `timeout` is float seconds (default 60); `strict` is
//! for tool hooks only (Vibe refuses it on `post_agent`: that entry is skipped with a warning).
//! A second entry of the same `name` in one file is skipped with a warning; across files the
//! project's wins (`Dedup::Name`, the project's sources sorting first).

use super::PROFILE;
use super::matcher::VibeMatcher;
use crate::catalog::{Dialect, Shell};
use crate::config::{CommandSpec, ConfigWarnings, DocContext, Fields, Group, Handler, Parse};
use crate::dialect::flat::take;
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::Value;

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
    // A set: a hostile file of 100 000 entries must not cost a quadratic scan.
    let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (i, entry) in list.iter().enumerate() {
        let hptr = format!("{ptr}/{i}");
        if let Some((ids, group)) = read_entry(entry, i, &hptr, cx, p, warnings)? {
            let name = group.handlers[0].name.clone().unwrap_or_default();
            if !names.insert(name.clone()) {
                let why = format!("{}: Duplicate hook name: '{name}'; this hook is skipped", cx.info.label);
                warnings.never_runs(None, &format!("{hptr}/name"), why);
                continue;
            }
            for &eid in &ids {
                events[eid].push(Group { matcher: group.matcher.clone(), handlers: group.handlers.clone() });
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
) -> Result<Option<(Vec<crate::catalog::EventId>, Group)>, ConfigError> {
    let Some(obj) = entry.as_object() else {
        return p.fail(warnings, hptr, "a `[[hooks]]` entry must be a table");
    };
    let f = Fields { obj, hptr };
    let Some(ty) = take!(p, warnings, f.string("type")) else {
        return p.fail(
            warnings,
            &format!("{hptr}/type"),
            "a hook needs a `type` (pre_tool, post_tool or post_agent)",
        );
    };
    let id = format!("{}:{ty}[{i}]", cx.info.id_label);
    let ids = PROFILE.event_ids(&ty);
    if ids.is_empty() {
        let why = format!(
            "{id}: unknown type \"{ty}\" (Vibe's are pre_tool, post_tool and post_agent); this hook is skipped"
        );
        warnings.never_runs(None, &format!("{hptr}/type"), why);
        return Ok(None);
    }
    let Some(name) = take!(p, warnings, f.string("name")).filter(|n| !n.trim().is_empty()) else {
        return p.fail(warnings, &format!("{hptr}/name"), "a Vibe hook needs a `name`");
    };
    let command = match take!(p, warnings, f.string("command")) {
        Some(c) if !c.trim().is_empty() => c,
        _ => return p.fail(warnings, &format!("{hptr}/command"), "a hook needs a non-empty `command`"),
    };
    let raw_match = take!(p, warnings, f.string("match"));
    let timeout = take!(p, warnings, f.number("timeout"));
    let strict = take!(p, warnings, f.boolean("strict")).unwrap_or(false);
    if let Some(t) = timeout
        && !crate::config::timeout_ok(t)
    {
        return p.fail(warnings, &format!("{hptr}/timeout"), "`timeout` must be seconds ≥ 0.001");
    }
    if strict && ty == "post_agent" {
        let why =
            format!("{id}: strict is only valid for tool hooks (Vibe refuses it); this hook is skipped");
        warnings.never_runs(None, &format!("{hptr}/strict"), why);
        return Ok(None);
    }
    let matcher = match VibeMatcher::compile(raw_match.as_deref()) {
        Ok(m) => GroupMatcher::new(m),
        Err(why) => {
            let why = format!("{id}: {why}; this hook never runs");
            warnings.never_runs(None, &format!("{hptr}/match"), why);
            GroupMatcher::new(crate::matcher::Matcher::Never)
        }
    };
    let script = CommandSpec::Shell { script: command, shell: Shell::Sh };
    let mut h = Handler::command(id, cx.source, script, Dialect::MistralVibe, &ty);
    h.timeout_s = timeout;
    h.name = Some(name);
    // `strict`: a failure of this tool hook fails closed (`reading.rs`).
    h.fail_closed = strict;
    h.sandbox = crate::config::sandbox_key::read(&f, h.ty, &h.id, &ids, warnings);
    Ok(Some((ids, Group { matcher, handlers: vec![h] })))
}
