//! The `j-cli` dialect's settings (protocol.md §9.4): a YAML map of event → list of
//! `{command, timeout, on_error, filter}`. A top-level `hooks` object is read as that map too,
//! so the envelope's inline `hooks` works unchanged.

use super::handler::{DocContext, Fields, escape};
use super::{CommandSpec, ConfigWarnings, Dialect, Group, Handler, Knobs, Parse, Shell};
use crate::error::ConfigError;
use crate::matcher::{GroupMatcher, JFilter};
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
    for (name, list) in map {
        if matches!(name.as_str(), "disableAllHooks" | "allowManagedHooksOnly" | "env" | "hooks") {
            continue;
        }
        if Dialect::JCli.native_event(name).is_none() {
            warnings
                .global
                .push(format!("{}: unknown event \"{name}\"; its hooks are skipped", cx.info.label));
            continue;
        }
        let eptr = format!("{base}/{}", escape(name));
        let Some(list) = list.as_array() else {
            p.fail::<()>(warnings, &eptr, format!("the value of \"{name}\" must be a list of hooks"))?;
            continue;
        };
        let ids = Dialect::JCli.event_ids(name);
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
            let command = match field!(f.string("command")) {
                Some(c) if !c.trim().is_empty() => c,
                _ => {
                    p.fail::<()>(warnings, &format!("{hptr}/command"), "a hook needs a non-empty `command`")?;
                    continue;
                }
            };
            let timeout = field!(f.number("timeout"));
            let timeout = match timeout {
                None => 10.0,
                Some(t) if t > 0.0 && t.is_finite() => t.min(86_400.0),
                Some(_) => {
                    p.fail::<()>(warnings, &format!("{hptr}/timeout"), "`timeout` must be seconds > 0")?;
                    continue;
                }
            };
            let abort = match field!(f.string("on_error")).as_deref() {
                None | Some("skip") => false,
                Some("abort") | Some("stop") => true,
                Some(other) => {
                    p.fail::<()>(
                        warnings,
                        &format!("{hptr}/on_error"),
                        format!("`on_error` must be skip or abort, not {other:?}"),
                    )?;
                    continue;
                }
            };
            let filter = match obj.get("filter") {
                None | Some(Value::Null) => JFilter::default(),
                Some(Value::Object(fo)) => {
                    let fptr = format!("{hptr}/filter");
                    let ff = Fields { obj: fo, hptr: &fptr };
                    JFilter {
                        tool_name: field!(ff.string("tool_name")),
                        tool_matcher: field!(ff.string("tool_matcher")).map(|m| {
                            m.split('|').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
                        }),
                        model_prefix: field!(ff.string("model_prefix")),
                    }
                }
                Some(_) => {
                    p.fail::<()>(warnings, &format!("{hptr}/filter"), "`filter` must be an object")?;
                    continue;
                }
            };
            let id = format!("{}:{name}[{i}]", cx.info.id_label);
            for &eid in &ids {
                let mut h = Handler::command(
                    id.clone(),
                    cx.source,
                    CommandSpec::Shell { script: command.clone(), shell: Shell::Sh },
                    Dialect::JCli,
                    name,
                );
                h.timeout_s = Some(timeout);
                h.knobs = Knobs::JCli { abort };
                events[eid].push(Group { matcher: GroupMatcher::JCli(filter.clone()), handlers: vec![h] });
            }
        }
    }
    Ok(())
}
