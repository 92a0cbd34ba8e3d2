//! Antigravity's `hooks.json` (agents-2.md §2.3): the top level holds **named hooks**,
//! `{"<name>": {"enabled": bool, "PreToolUse": [{matcher, hooks: [handler]}], "Stop": [handler],
//! ...}}`. PreToolUse and PostToolUse take matcher groups, the other events flat handlers; a
//! handler is `{type: "command"|"prompt", command|prompt, model, timeout}` with `timeout` an
//! integer of seconds. A named hook with `enabled: false` is off.
//!
//! Antigravity drops a whole file for one load error, silently, and discards unknown keys. Here
//! a bad entry is dropped with a warning (an error for inline settings, as in every dialect) and
//! the rest of the file loads; an unknown key is ignored with a warning. Hook ids
//! `<scope>:<name>.<Event>[i]` and, in groups, `…[i].hooks[j]`.

use super::tools::TOOL_NAMES;
use crate::catalog::{self, Dialect, HandlerType, Shell};
use crate::config::{Action, CommandSpec, ConfigWarnings, DocContext, Fields, Group, Handler, Parse, escape};
use crate::dialect::family::{Anchoring, FamilyMatcher};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::Value;

/// The events that take matcher groups; the others take flat lists of handlers.
const GROUPED: &[&str] = &["PreToolUse", "PostToolUse"];

pub(crate) fn read(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let Some(named) = doc.as_object() else {
        return p.fail::<()>(warnings, &cx.base, "the document must be an object of named hooks").map(|_| ());
    };
    for (name, hook) in named {
        let ptr = format!("{}/{}", cx.base, escape(name));
        let Some(hook) = hook.as_object() else {
            p.fail::<()>(warnings, &ptr, format!("the named hook \"{name}\" must be an object"))?;
            continue;
        };
        match hook.get("enabled") {
            None | Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => continue,
            Some(_) => {
                let why = format!("`enabled` of \"{name}\" must be true or false");
                p.fail::<()>(warnings, &format!("{ptr}/enabled"), why)?;
                continue;
            }
        }
        for (event, list) in hook.iter().filter(|(k, _)| *k != "enabled") {
            let eptr = format!("{ptr}/{}", escape(event));
            let ids = super::PROFILE.event_ids(event);
            if ids.is_empty() {
                let why = format!("{}: \"{name}\": unknown key \"{event}\"; ignored", cx.info.label);
                warnings.never_runs(None, &eptr, why);
                continue;
            }
            let Some(list) = list.as_array() else {
                p.fail::<()>(warnings, &eptr, format!("the value of \"{event}\" must be a list"))?;
                continue;
            };
            let at = Place { name, event, ids: &ids, cx };
            for (i, entry) in list.iter().enumerate() {
                let iptr = format!("{eptr}/{i}");
                let id = format!("{}:{name}.{event}[{i}]", cx.info.id_label);
                if GROUPED.contains(&event.as_str()) {
                    group(&at, entry, &iptr, &id, p, events, warnings)?;
                } else if let Some(h) = handler(&at, entry, &iptr, id, p, warnings)? {
                    let all = FamilyMatcher::compile(
                        None,
                        catalog::spec(ids[0]),
                        cx.rules,
                        Anchoring::ClaudeCode,
                        &[],
                    );
                    let Ok(all) = all else { continue };
                    for &eid in &ids {
                        events[eid].push(Group {
                            matcher: GroupMatcher::new(all.clone()),
                            handlers: vec![h.clone()],
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// Where an entry sits: its named hook, its event and the event ids it registers under.
struct Place<'a> {
    name: &'a str,
    event: &'a str,
    ids: &'a [usize],
    cx: &'a DocContext<'a>,
}

/// A matcher group `{matcher, hooks: [handler]}` of PreToolUse or PostToolUse.
fn group(
    at: &Place<'_>,
    entry: &Value,
    ptr: &str,
    id: &str,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let Some(obj) = entry.as_object() else {
        return p.fail::<()>(warnings, ptr, "a matcher group must be an object").map(|_| ());
    };
    let f = Fields { obj, hptr: ptr };
    let raw = match f.string("matcher") {
        Ok(m) => m,
        Err((at, msg)) => return p.fail::<()>(warnings, &at, msg).map(|_| ()),
    };
    let Some(list) = obj.get("hooks").and_then(Value::as_array) else {
        return p
            .fail::<()>(warnings, &format!("{ptr}/hooks"), "`hooks` must be a list of handlers")
            .map(|_| ());
    };
    let spec = catalog::spec(at.ids[0]);
    let matcher =
        match FamilyMatcher::compile(raw.as_deref(), spec, at.cx.rules, Anchoring::ClaudeCode, TOOL_NAMES) {
            Ok(m) => GroupMatcher::new(m),
            Err(why) => {
                let where_ = format!("{ptr}/matcher");
                warnings.never_runs(Some(at.ids[0]), &where_, format!("{id}: {why}; its hooks never run"));
                return Ok(());
            }
        };
    let mut handlers = Vec::new();
    for (j, h) in list.iter().enumerate() {
        if let Some(h) = handler(at, h, &format!("{ptr}/hooks/{j}"), format!("{id}.hooks[{j}]"), p, warnings)?
        {
            handlers.push(h);
        }
    }
    if !handlers.is_empty() {
        for &eid in at.ids {
            events[eid].push(Group { matcher: matcher.clone(), handlers: handlers.clone() });
        }
    }
    Ok(())
}

/// One handler; `None` (after a warning, or an error inline) when it cannot run.
fn handler(
    at: &Place<'_>,
    entry: &Value,
    ptr: &str,
    id: String,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<Handler>, ConfigError> {
    let Some(obj) = entry.as_object() else {
        return p.fail(warnings, ptr, "a handler must be an object");
    };
    let f = Fields { obj, hptr: ptr };
    for key in obj.keys().filter(|k| !["type", "command", "prompt", "model", "timeout"].contains(&k.as_str()))
    {
        let why = format!("{id}: unknown key `{key}`; ignored");
        warnings.note(Some(at.ids[0]), &format!("{ptr}/{}", escape(key)), why);
    }
    let (ty, command, prompt) = match (f.string("type"), f.string("command"), f.string("prompt")) {
        (Ok(t), Ok(c), Ok(pr)) => (t, c, pr),
        (Err((a, m)), _, _) | (_, Err((a, m)), _) | (_, _, Err((a, m))) => return p.fail(warnings, &a, m),
    };
    let timeout = match obj.get("timeout") {
        None => None,
        Some(Value::Number(n)) if n.as_u64().is_some_and(|s| (1..=86_400).contains(&s)) => n.as_f64(),
        Some(v) => {
            let why = format!("`timeout` must be an integer of seconds (1 to 86400), not {v}");
            return p.fail(warnings, &format!("{ptr}/timeout"), why);
        }
    };
    let (hty, action) = match (ty.as_deref(), command, prompt) {
        (None | Some("command"), Some(c), _) if !c.trim().is_empty() => {
            (HandlerType::Command, Action::Command(CommandSpec::Shell { script: c, shell: Shell::Bash }))
        }
        (Some("prompt"), _, Some(pr)) if !pr.trim().is_empty() => {
            (HandlerType::Prompt, Action::Delegated(Value::Object(obj.clone())))
        }
        (t @ (None | Some("command" | "prompt")), _, _) => {
            let key = t.unwrap_or("command");
            return p.fail(
                warnings,
                &format!("{ptr}/{key}"),
                format!("a {key} handler needs a non-empty `{key}`"),
            );
        }
        (Some(other), _, _) => {
            return p.fail(
                warnings,
                &format!("{ptr}/type"),
                format!("`type` must be command or prompt, not {other:?}"),
            );
        }
    };
    let placeholder = CommandSpec::Shell { script: String::new(), shell: Shell::Bash };
    let mut h = Handler::command(id, at.cx.source, placeholder, Dialect::Antigravity, at.event);
    h.ty = hty;
    h.action = action;
    h.timeout_s = timeout;
    h.name = Some(at.name.to_string());
    Ok(Some(h))
}
