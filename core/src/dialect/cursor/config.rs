//! Cursor's `hooks.json` (agents.md §4.1): `{"version": 1, "hooks": {event: [entry, ...]}}`,
//! one flat list per event. `version` must be the number 1 (a file without it is skipped with a
//! warning, a source's inline `settings` are refused; the envelope's own `hooks` may leave it
//! out, since the envelope is hookwire's shape, not Cursor's file); entries are `{command, type, prompt, timeout,
//! matcher, failClosed, loop_limit}`, other keys ignored. Hook ids `<scope>:<event>[i]`.

use super::kind::Kind;
use super::matcher::CursorMatcher;
use super::{CursorKnobs, DEFAULT_LOOP_LIMIT};
use crate::catalog::{Dialect, HandlerType, Scope, Shell};
use crate::config::{Action, CommandSpec, ConfigWarnings, DocContext, Group, Handler, Knobs, Parse};
use crate::dialect::flat::{self, Read, take};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub(crate) fn read(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let vptr = format!("{}/version", cx.base);
    match doc.get("version") {
        Some(v) if v.as_u64() == Some(1) || v.as_f64() == Some(1.0) => {}
        Some(v) => {
            let why = format!("`version` must be 1, not {v}; the file's hooks are skipped");
            return p.fail::<()>(warnings, &vptr, why).map(|_| ());
        }
        // The envelope's own `hooks` are hookwire's shape, which has no version of its own.
        None if cx.file.is_none() && cx.base.is_empty() => {}
        None => {
            let why = "`version` is missing (Cursor's hooks.json needs \"version\": 1); the file's hooks are skipped";
            return p.fail::<()>(warnings, &vptr, why).map(|_| ());
        }
    }
    let Some(hooks) = doc.get("hooks") else { return Ok(()) };
    let ptr = format!("{}/hooks", cx.base);
    let Some(map) = hooks.as_object() else {
        return p.fail::<()>(warnings, &ptr, "`hooks` must be an object of event names").map(|_| ());
    };
    let cwd = hook_dir(cx);
    let plugin_root = (cx.info.scope == Scope::Plugin).then(|| cx.info.plugin_root.clone()).flatten();
    flat::walk(
        map,
        &ptr,
        Dialect::Cursor,
        "event",
        &[],
        cx,
        p,
        events,
        warnings,
        |e, warnings| -> Result<Read, _> {
            let Some(kind) = Kind::of(e.name) else { return Ok(None) };
            let f = &e.fields;
            let ty = take!(p, warnings, f.string("type"));
            let command = take!(p, warnings, f.string("command"));
            let raw_matcher = take!(p, warnings, f.string("matcher"));
            let timeout = take!(p, warnings, f.number("timeout"));
            let fail_closed = take!(p, warnings, f.boolean("failClosed")).unwrap_or(false);
            let action = match ty.as_deref() {
                None | Some("command") => match command {
                    Some(c) if !c.trim().is_empty() => (
                        HandlerType::Command,
                        Action::Command(CommandSpec::Shell { script: c, shell: Shell::Sh }),
                    ),
                    _ => {
                        p.fail::<()>(
                            warnings,
                            &format!("{}/command", e.ptr),
                            "`command` must be a non-empty string",
                        )?;
                        return Ok(None);
                    }
                },
                Some("prompt") => {
                    if take!(p, warnings, f.string("prompt")).is_none() {
                        p.fail::<()>(
                            warnings,
                            &format!("{}/prompt", e.ptr),
                            "a prompt hook needs a `prompt` string",
                        )?;
                        return Ok(None);
                    }
                    (HandlerType::Prompt, Action::Delegated(Value::Object(f.obj.clone())))
                }
                Some(other) => {
                    let why = format!("`type` must be command or prompt, not {other:?}");
                    p.fail::<()>(warnings, &format!("{}/type", e.ptr), why)?;
                    return Ok(None);
                }
            };
            if let Some(t) = timeout
                && !crate::config::timeout_ok(t)
            {
                p.fail::<()>(warnings, &format!("{}/timeout", e.ptr), "`timeout` must be seconds ≥ 0.001")?;
                return Ok(None);
            }
            let loop_limit = match (f.obj.get("loop_limit"), kind.loops()) {
                (None, _) => Some(DEFAULT_LOOP_LIMIT),
                (Some(_), false) => {
                    for &eid in &e.ids {
                        let why =
                            format!("{}: `loop_limit` applies to stop and subagentStop only; ignored", e.id);
                        warnings.note(Some(eid), &format!("{}/loop_limit", e.ptr), why);
                    }
                    Some(DEFAULT_LOOP_LIMIT)
                }
                (Some(Value::Null), true) => None,
                (Some(v), true) => match v.as_u64() {
                    Some(n) => Some(u32::try_from(n).unwrap_or(u32::MAX)),
                    None => {
                        let why = "`loop_limit` must be an integer ≥ 0 or null";
                        p.fail::<()>(warnings, &format!("{}/loop_limit", e.ptr), why)?;
                        return Ok(None);
                    }
                },
            };
            let matcher = match CursorMatcher::compile(kind, raw_matcher.as_deref()) {
                Ok(m) => GroupMatcher::new(m),
                Err(why) => {
                    for &eid in &e.ids {
                        let at = format!("{}/matcher", e.ptr);
                        warnings.never_runs(Some(eid), &at, format!("{}: {why}; this hook never runs", e.id));
                    }
                    return Ok(None);
                }
            };
            let (ty, action) = action;
            let placeholder = CommandSpec::Shell { script: String::new(), shell: Shell::Sh };
            let mut h = Handler::command(e.id, cx.source, placeholder, Dialect::Cursor, e.name);
            h.ty = ty;
            h.action = action;
            h.timeout_s = timeout;
            h.fail_closed = fail_closed;
            h.cwd = cwd.clone();
            h.knobs = Knobs::new(CursorKnobs { kind, plugin_root: plugin_root.clone(), loop_limit });
            Ok(Some((h, matcher)))
        },
    )
}

/// Where a source's hooks run: a project file's project root (the directory holding
/// `.cursor/`), any other file's own directory; `None` for inline settings (the event's cwd).
fn hook_dir(cx: &DocContext<'_>) -> Option<PathBuf> {
    let file = cx.file?;
    let dir = file.parent()?;
    if cx.info.scope == Scope::Project {
        return Some(project_root(dir).unwrap_or(cx.project_dir).to_path_buf());
    }
    Some(dir.to_path_buf())
}

/// The directory holding `.cursor/` when `dir` is a `.cursor` directory.
fn project_root(dir: &Path) -> Option<&Path> {
    (dir.file_name()? == ".cursor").then(|| dir.parent()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_file_runs_in_the_directory_holding_dot_cursor() {
        assert_eq!(project_root(Path::new("/p/.cursor")), Some(Path::new("/p")));
        assert_eq!(project_root(Path::new("/p/conf")), None);
    }
}
