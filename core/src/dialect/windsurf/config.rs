//! Windsurf's `hooks.json` (agents-2.md §2.4): `{"hooks": {event: [hook, ...]}}`, one flat list
//! per event, no matchers, no groups, no timeouts. A hook is `{command, powershell, show_output,
//! working_directory}`: `command` runs with `bash -c` (`powershell` instead on Windows, when
//! given), `show_output` shows its output in Cascade's UI, `working_directory` is where it runs.
//! Any other key (a `timeout`, a `matcher` copied from Claude Code) does nothing in Windsurf:
//! read with a warning, so that nobody believes it filters or bounds anything. Hook ids
//! `<scope>:<event>[i]`. At most [`MAX_HOOKS_PER_EVENT`] hooks of one event are read per
//! document; the rest are dropped with a warning.

use super::WindsurfKnobs;
use super::kind::Kind;
use super::matcher::WindsurfMatcher;
use crate::catalog::{Dialect, Shell};
use crate::config::{CommandSpec, ConfigWarnings, DocContext, Group, Handler, Knobs, Parse, escape};
use crate::dialect::flat::{self, Read, take};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value};
use std::path::PathBuf;

/// The hooks of one event read from one document; a bound on what a hostile file can make the
/// engine hold (a 4 MiB file could otherwise list a quarter of a million hooks).
pub const MAX_HOOKS_PER_EVENT: usize = 256;

/// The keys of a Windsurf hook.
const KEYS: &[&str] = &["command", "powershell", "show_output", "working_directory", "sandbox"];

pub(crate) fn read(
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
    let capped = capped(map, &ptr, cx, warnings);
    flat::walk(
        capped.as_ref().unwrap_or(map),
        &ptr,
        Dialect::Windsurf,
        "event",
        &[],
        cx,
        p,
        events,
        warnings,
        |e, warnings| -> Result<Read, _> {
            let Some(kind) = Kind::of(e.name) else { return Ok(None) };
            let f = &e.fields;
            let command = take!(p, warnings, f.string("command"));
            let powershell = take!(p, warnings, f.string("powershell"));
            let show_output = take!(p, warnings, f.boolean("show_output")).unwrap_or(false);
            let working_directory = take!(p, warnings, f.string("working_directory"));
            for key in f.obj.keys().filter(|k| !KEYS.contains(&k.as_str())) {
                let why = format!("{}: Windsurf hooks have no `{key}`; ignored", e.id);
                for &eid in &e.ids {
                    warnings.note(Some(eid), &format!("{}/{}", e.ptr, escape(key)), why.clone());
                }
            }
            let Some((script, shell)) = script(command, powershell) else {
                let why = "`command` must be a non-empty string";
                p.fail::<()>(warnings, &format!("{}/command", e.ptr), why)?;
                return Ok(None);
            };
            let spec = CommandSpec::Shell { script, shell };
            let mut h = Handler::command(e.id, cx.source, spec, Dialect::Windsurf, e.name);
            h.cwd = working_directory.filter(|d| !d.trim().is_empty()).map(PathBuf::from);
            h.knobs = Knobs::new(WindsurfKnobs { kind, show_output });
            Ok(Some((h, GroupMatcher::new(WindsurfMatcher { kind }))))
        },
    )
}

/// The script a hook runs on this OS and its shell: `command` with `bash -c`; on Windows its
/// `powershell` when it has one. `None` when there is nothing to run here.
fn script(command: Option<String>, powershell: Option<String>) -> Option<(String, Shell)> {
    let given = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
    if cfg!(windows)
        && let Some(ps) = given(powershell)
    {
        return Some((ps, Shell::Pwsh));
    }
    given(command).map(|c| (c, Shell::Bash))
}

/// A copy of `map` with each event's list cut at [`MAX_HOOKS_PER_EVENT`], with a warning per
/// cut list; `None` when no list is that long.
fn capped(
    map: &Map<String, Value>,
    ptr: &str,
    cx: &DocContext<'_>,
    warnings: &mut ConfigWarnings,
) -> Option<Map<String, Value>> {
    let long = |v: &Value| v.as_array().is_some_and(|l| l.len() > MAX_HOOKS_PER_EVENT);
    if !map.values().any(long) {
        return None;
    }
    let mut out = map.clone();
    for (name, list) in out.iter_mut() {
        if let Value::Array(l) = list
            && l.len() > MAX_HOOKS_PER_EVENT
        {
            let why = format!(
                "{}: \"{name}\" lists {} hooks; only the first {MAX_HOOKS_PER_EVENT} are read",
                cx.info.label,
                l.len()
            );
            warnings.note(None, &format!("{ptr}/{}", escape(name)), why);
            l.truncate(MAX_HOOKS_PER_EVENT);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_runs_with_bash_and_a_blank_or_missing_one_is_nothing_to_run() {
        let s = |c: Option<&str>, ps: Option<&str>| script(c.map(Into::into), ps.map(Into::into));
        if !cfg!(windows) {
            assert_eq!(s(Some("ls"), Some("dir")), Some(("ls".into(), Shell::Bash)));
            assert_eq!(s(None, Some("dir")), None);
        }
        assert_eq!(s(Some("  "), None), None);
        assert_eq!(s(None, None), None);
    }
}
