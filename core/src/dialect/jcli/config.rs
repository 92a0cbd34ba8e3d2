//! The `j-cli` dialect's settings (protocol.md §9.4): a YAML map of event → list of
//! `{command, timeout, on_error, filter}`. A top-level `hooks` object is read as that map too,
//! so the envelope's inline `hooks` works unchanged.

use super::Abort;
use super::matcher::JFilter;
use crate::catalog::{Dialect, Shell};
use crate::config::{CommandSpec, ConfigWarnings, Group, Handler, Knobs, Parse};
use crate::config::{DocContext, Fields};
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
    let (map, base) = match doc.get("hooks").and_then(Value::as_object) {
        Some(m) => (m, format!("{}/hooks", cx.base)),
        None => match doc.as_object() {
            Some(m) => (m, cx.base.clone()),
            None => return Ok(()),
        },
    };
    let skip = ["disableAllHooks", "allowManagedHooksOnly", "env", "hooks"];
    flat::walk(
        map,
        &base,
        Dialect::JCli,
        "event",
        &skip,
        cx,
        p,
        events,
        warnings,
        |e, warnings| -> Result<Read, _> {
            let f = &e.fields;
            let command = match take!(p, warnings, f.string("command")) {
                Some(c) if !c.trim().is_empty() => c,
                _ => {
                    p.fail::<()>(
                        warnings,
                        &format!("{}/command", e.ptr),
                        "a hook needs a non-empty `command`",
                    )?;
                    return Ok(None);
                }
            };
            let timeout = match take!(p, warnings, f.number("timeout")) {
                None => 10.0,
                Some(t) if crate::config::timeout_ok(t) => t.min(86_400.0),
                Some(_) => {
                    p.fail::<()>(
                        warnings,
                        &format!("{}/timeout", e.ptr),
                        "`timeout` must be seconds ≥ 0.001",
                    )?;
                    return Ok(None);
                }
            };
            let abort = match take!(p, warnings, f.string("on_error")).as_deref() {
                None | Some("skip") => false,
                Some("abort") | Some("stop") => true,
                Some(other) => {
                    let why = format!("`on_error` must be skip or abort, not {other:?}");
                    p.fail::<()>(warnings, &format!("{}/on_error", e.ptr), why)?;
                    return Ok(None);
                }
            };
            let filter = match f.obj.get("filter") {
                None | Some(Value::Null) => JFilter::default(),
                Some(Value::Object(fo)) => {
                    let fptr = format!("{}/filter", e.ptr);
                    let ff = Fields { obj: fo, hptr: &fptr };
                    JFilter {
                        tool_name: take!(p, warnings, ff.string("tool_name")),
                        tool_matcher: take!(p, warnings, ff.string("tool_matcher")).map(|m| {
                            m.split('|').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
                        }),
                        model_prefix: take!(p, warnings, ff.string("model_prefix")),
                    }
                }
                Some(_) => {
                    p.fail::<()>(warnings, &format!("{}/filter", e.ptr), "`filter` must be an object")?;
                    return Ok(None);
                }
            };
            let script = CommandSpec::Shell { script: command, shell: Shell::Sh };
            let mut h = Handler::command(e.id, cx.source, script, Dialect::JCli, e.name);
            h.timeout_s = Some(timeout);
            h.knobs = Knobs::new(Abort(abort));
            Ok(Some((h, GroupMatcher::new(filter))))
        },
    )
}
