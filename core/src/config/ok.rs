//! The `ok` dialect's settings (protocol.md §9.3): `{"hooks": {Event: [{match, command,
//! description, timeout, cwd}]}}`, flat lists without groups, timeouts in milliseconds.

use super::handler::{DocContext, Fields, escape};
use super::{CommandSpec, ConfigWarnings, Dialect, Group, Handler, Knobs, Parse, Scope, Shell};
use crate::error::ConfigError;
use crate::matcher::{GroupMatcher, compile_anchored};
use serde_json::Value;

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
    let layer = if cx.info.scope == Scope::Project { "project" } else { "global" };
    for (name, list) in map {
        let Some(native) = Dialect::Ok.native_event(name) else {
            warnings
                .global
                .push(format!("{}: unknown event \"{name}\"; its hooks are skipped", cx.info.label));
            continue;
        };
        let eptr = format!("{ptr}/{}", escape(name));
        let Some(list) = list.as_array() else {
            p.fail::<()>(warnings, &eptr, format!("the value of \"{name}\" must be an array of hooks"))?;
            continue;
        };
        let ids = Dialect::Ok.event_ids(name);
        for (i, entry) in list.iter().enumerate() {
            let hptr = format!("{eptr}/{i}");
            let Some(obj) = entry.as_object() else {
                p.fail::<()>(warnings, &hptr, "a hook must be an object with a `command`")?;
                continue;
            };
            let f = Fields { obj, hptr: &hptr };
            macro_rules! field {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err((at, msg)) => {
                            p.fail::<()>(warnings, &at, msg)?;
                            continue;
                        }
                    }
                };
            }
            let command = field!(f.string("command")).unwrap_or_default();
            let pattern = field!(f.string("match"));
            let timeout_ms = field!(f.number("timeout"));
            let cwd = field!(f.string("cwd"));
            field!(f.string("description"));
            if command.trim().is_empty() {
                continue; // a blank command is skipped (§9.3)
            }
            let id = format!("{}:{name}[{i}]", cx.info.id_label);
            let matcher = match pattern.as_deref().map(str::trim) {
                None | Some("") | Some("*") => GroupMatcher::Anchored(None),
                Some(pat) => match compile_anchored(pat) {
                    Ok(re) => GroupMatcher::Anchored(Some(re)),
                    Err(why) => {
                        for &eid in &ids {
                            warnings.event(eid).push(format!("{id}: {why}; this hook never runs"));
                        }
                        continue;
                    }
                },
            };
            let gating = native.can_block;
            let (default_ms, max_ms) = if gating { (5_000.0, 60_000.0) } else { (30_000.0, 300_000.0) };
            let ms = match timeout_ms {
                Some(t) if t > 0.0 && t.is_finite() => t.min(max_ms),
                Some(_) => {
                    p.fail::<()>(warnings, &format!("{hptr}/timeout"), "`timeout` must be milliseconds > 0")?;
                    continue;
                }
                None => default_ms,
            };
            for &eid in &ids {
                let mut h = Handler::command(
                    id.clone(),
                    cx.source,
                    CommandSpec::Shell { script: command.clone(), shell: Shell::Sh },
                    Dialect::Ok,
                    name,
                );
                h.timeout_s = Some(ms / 1000.0);
                h.knobs = Knobs::Ok { cwd: cwd.clone(), layer };
                events[eid].push(Group { matcher: matcher.clone(), handlers: vec![h] });
            }
        }
    }
    Ok(())
}
