//! The `ok` dialect's settings (protocol.md §9.3): `{"hooks": {Event: [{match, command,
//! description, timeout, cwd}]}}`, flat lists without groups, timeouts in milliseconds.

use super::OkKnobs;
use super::matcher::AnchoredMatcher;
use crate::catalog::{Dialect, Scope, Shell};
use crate::config::DocContext;
use crate::config::{CommandSpec, ConfigWarnings, Group, Handler, Knobs, Parse};
use crate::dialect::flat::{self, Read, take};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
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
    flat::walk(
        map,
        &ptr,
        Dialect::Ok,
        "event",
        &[],
        cx,
        p,
        events,
        warnings,
        |e, warnings| -> Result<Read, _> {
            let f = &e.fields;
            let command = take!(p, warnings, f.string("command")).unwrap_or_default();
            let pattern = take!(p, warnings, f.string("match"));
            let timeout_ms = take!(p, warnings, f.number("timeout"));
            let cwd = take!(p, warnings, f.string("cwd"));
            take!(p, warnings, f.string("description"));
            if command.trim().is_empty() {
                return Ok(None); // a blank command is skipped (§9.3)
            }
            let matcher = match AnchoredMatcher::compile(pattern.as_deref()) {
                Ok(m) => GroupMatcher::new(m),
                Err(why) => {
                    for &eid in &e.ids {
                        let at = format!("{}/match", e.ptr);
                        warnings.never_runs(Some(eid), &at, format!("{}: {why}; this hook never runs", e.id));
                    }
                    return Ok(None);
                }
            };
            let (default_ms, max_ms) =
                if e.native.can_block { (5_000.0, 60_000.0) } else { (30_000.0, 300_000.0) };
            let ms = match timeout_ms {
                Some(t) if crate::config::timeout_ok(t / 1000.0) => t.min(max_ms),
                Some(_) => {
                    p.fail::<()>(
                        warnings,
                        &format!("{}/timeout", e.ptr),
                        "`timeout` must be milliseconds > 0",
                    )?;
                    return Ok(None);
                }
                None => default_ms,
            };
            let script = CommandSpec::Shell { script: command, shell: Shell::Sh };
            let mut h = Handler::command(e.id, cx.source, script, Dialect::Ok, e.name);
            h.timeout_s = Some(ms / 1000.0);
            h.cwd = cwd.map(std::path::PathBuf::from);
            h.knobs = Knobs::new(OkKnobs { layer });
            Ok(Some((h, matcher)))
        },
    )
}
