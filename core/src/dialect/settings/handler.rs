//! One handler of the settings shape: its `type` and the keys of that type, the fail-closed
//! keys (§2.4), its `timeout` in the dialect's unit, its run mode and its `if` rule, with the
//! checks and error texts every settings-shaped dialect shares. The keys a dialect does not
//! read ([`super::HandlerKeys`]) are ignored as its agent ignores them.

use super::{Compiled, Event, SettingsShape, never_runs_all, note_all, timeout};
use crate::catalog::{HandlerType, Shell};
use crate::config::{
    Action, CommandSpec, ConfigWarnings, DocContext, Fields, Handler, HttpSpec, Parse, RunMode,
};
use crate::error::ConfigError;
use crate::if_rule::IfRule;
use serde_json::Value;
use std::sync::Arc;

/// Where a handler is: its hook id and its JSON pointer.
pub(super) struct At {
    pub id: String,
    pub ptr: String,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn read<'d>(
    shape: &dyn SettingsShape,
    h: &'d Value,
    group: &Fields<'_>,
    event: &Event<'_>,
    at: At,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
    compiled: &mut Compiled<'d>,
) -> Result<Option<Handler>, ConfigError> {
    let (id, hptr) = (at.id, at.ptr.as_str());
    let ids = event.ids;
    let spec = event.spec();
    let keys = shape.handler_keys();
    let Some(obj) = h.as_object() else {
        return p.fail(warnings, hptr, "a handler must be an object with a `type`");
    };
    let f = Fields { obj, hptr };
    let ty = match obj.get("type") {
        None => return p.fail(warnings, &format!("{hptr}/type"), "a handler needs a `type`"),
        Some(Value::String(t)) => match HandlerType::parse(t).filter(|t| *t != HandlerType::Function) {
            Some(t) => t,
            // Functions are registered by the host, never configured.
            None => {
                let why = format!("{id}: unknown handler type \"{t}\"; skipped");
                never_runs_all(warnings, ids, &format!("{hptr}/type"), why);
                return Ok(None);
            }
        },
        Some(_) => return p.fail(warnings, &format!("{hptr}/type"), "`type` must be a string"),
    };
    // Before its keys are checked: a type the agent does not run is skipped whole.
    if let Some(why) = shape.refuses(ty) {
        let why = format!("{id}: {why}; {} skipped", ty.as_str());
        never_runs_all(warnings, ids, &format!("{hptr}/type"), why);
        return Ok(None);
    }
    macro_rules! field {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err((ptr, msg)) => return p.fail(warnings, &ptr, msg),
            }
        };
    }
    let timeout = match field!(f.number("timeout")) {
        None => None,
        Some(t) => match timeout::read(t, shape.timeout_unit(), &id) {
            Ok(read) => {
                if let Some(w) = read.warning {
                    note_all(warnings, ids, &format!("{hptr}/timeout"), w);
                }
                Some(read.seconds)
            }
            Err(why) => return p.fail(warnings, &format!("{hptr}/timeout"), why),
        },
    };
    let (mut is_async, mut async_rewake, mut once) = (false, false, false);
    let mut rewake_texts = [None, None];
    if keys.run_modes {
        is_async = field!(f.boolean("async")).unwrap_or(false);
        async_rewake = field!(f.boolean("asyncRewake")).unwrap_or(false);
        once = field!(f.boolean("once")).unwrap_or(false);
        // Read by Claude Code 2.1.332 with `asyncRewake` (the official security-guidance plugin
        // sets both); without it they mean nothing, which is said rather than kept silent.
        for (slot, key) in rewake_texts.iter_mut().zip(["rewakeMessage", "rewakeSummary"]) {
            let Some(text) = field!(f.string(key)) else { continue };
            if !async_rewake {
                let why = format!("{id}: `{key}` is read only with `asyncRewake: true`; ignored");
                note_all(warnings, ids, &format!("{hptr}/{key}"), why);
            } else if text.trim().is_empty() {
                let why = format!("{id}: `{key}` is empty; the default applies");
                note_all(warnings, ids, &format!("{hptr}/{key}"), why);
            } else {
                *slot = Some(text.to_string());
            }
        }
    }
    let [rewake_message, rewake_summary] = rewake_texts;
    if keys.exec_form {
        // `commandWindows` replaces `command` on Windows only; here `command` runs.
        field!(f.string("commandWindows"));
    }
    let if_raw = if keys.if_rule {
        field!(f.string("if"));
        // Borrowed from the document (its type was just checked): the key of `compiled.ifs`.
        obj.get("if").and_then(Value::as_str)
    } else {
        None
    };
    let fail_closed = field!(fail_closed(&f, &id, ids, warnings)).unwrap_or(false);
    let status_message = if keys.status_message { field!(f.string("statusMessage")) } else { None };
    let sandbox = crate::config::sandbox_key::read(&f, ty, &id, ids, warnings);

    let action = match ty {
        HandlerType::Command => {
            let command = match field!(f.string("command")) {
                Some(c) if !c.trim().is_empty() => c,
                _ => {
                    return p.fail(
                        warnings,
                        &format!("{hptr}/command"),
                        "a command handler needs a non-empty `command` string",
                    );
                }
            };
            let (args, shell) = if keys.exec_form {
                (field!(f.string_array("args")), field!(shell_of(&f)))
            } else {
                (None, None)
            };
            Action::Command(match args {
                Some(args) => {
                    if shell.is_some() {
                        let why = format!("{id}: `shell` is ignored in exec form (with `args`)");
                        note_all(warnings, ids, &format!("{hptr}/shell"), why);
                    }
                    if command.trim().contains(char::is_whitespace) {
                        note_all(
                            warnings,
                            ids,
                            &format!("{hptr}/command"),
                            format!(
                                "{id}: with `args`, `command` names one program; {command:?} contains whitespace"
                            ),
                        );
                    }
                    CommandSpec::Exec { program: command, args }
                }
                None => CommandSpec::Shell { script: command, shell: shell.unwrap_or(keys.shell) },
            })
        }
        HandlerType::Http => {
            let Some(url) = field!(f.string("url")) else {
                return p.fail(warnings, &format!("{hptr}/url"), "an http handler needs a `url` string");
            };
            let headers = field!(f.string_pairs("headers")).unwrap_or_default();
            let allowed_env_vars = field!(f.string_array("allowedEnvVars")).unwrap_or_default();
            Action::Http(HttpSpec { url, headers, allowed_env_vars })
        }
        HandlerType::Prompt | HandlerType::Agent => {
            field!(f.string("prompt"));
            field!(f.string("model"));
            field!(f.boolean("continueOnBlock"));
            Action::Delegated(h.clone())
        }
        HandlerType::McpTool => {
            field!(f.string("server"));
            field!(f.string("tool"));
            Action::Delegated(h.clone())
        }
        HandlerType::Function => unreachable!("refused with the unknown types above"),
    };
    let mode = match (ty, async_rewake, is_async) {
        (HandlerType::Command, true, _) => RunMode::AsyncRewake,
        (HandlerType::Command, false, true) => RunMode::Async,
        _ => RunMode::Sync,
    };
    if ty != HandlerType::Command && (is_async || async_rewake) {
        let why = format!("{id}: `async` applies to command handlers only; runs synchronously");
        note_all(warnings, ids, &format!("{hptr}/async"), why);
    }
    if !spec.accepts(ty) {
        let why = format!("{id}: {} handlers are not accepted on {}; dropped", ty.as_str(), spec.name);
        never_runs_all(warnings, ids, &format!("{hptr}/type"), why);
        return Ok(None);
    }
    let if_rule = match if_raw {
        None => None,
        Some(raw) => match compiled
            .ifs
            .entry(raw)
            .or_insert_with(|| IfRule::parse(raw, cx.project_dir, cx.home).map(|(r, w)| (Arc::new(r), w)))
            .clone()
        {
            Ok((rule, warn)) => {
                if let Some(w) = warn {
                    note_all(warnings, ids, &format!("{hptr}/if"), format!("{id}: {w}"));
                }
                Some(rule)
            }
            Err(why) => return p.fail(warnings, &format!("{hptr}/if"), why),
        },
    };
    if if_rule.is_some() && !spec.tool_event {
        let why = format!(
            "{id}: `if` applies to tool events only; on {} this handler never runs (§4.3)",
            spec.name
        );
        never_runs_all(warnings, ids, &format!("{hptr}/if"), why);
    }
    let (mode, timeout) = shape
        .timing(spec, cx.rules, mode, timeout, &mut |w| note_all(warnings, ids, hptr, format!("{id}: {w}")));
    let placeholder = CommandSpec::Shell { script: String::new(), shell: Shell::Sh };
    let mut handler = Handler::command(id, cx.source, placeholder, cx.dialect, event.name);
    handler.action = action;
    handler.ty = ty;
    handler.mode = mode;
    handler.timeout_s = timeout;
    handler.once = once;
    handler.has_if = if_rule.is_some();
    handler.if_rule = if_rule;
    handler.fail_closed = fail_closed;
    handler.status_message = status_message;
    handler.sandbox = sandbox;
    if mode == RunMode::AsyncRewake {
        handler.rewake = Some(crate::config::Rewake {
            message: rewake_message,
            summary: rewake_summary.unwrap_or_else(|| crate::config::REWAKE_SUMMARY.to_string()),
        });
    }
    field!(shape.own_keys(group, &f, &mut handler));
    Ok(Some(handler))
}

/// hookwire's fail-closed keys (§2.4), read in every dialect: `failClosed`, `fail_closed`
/// and `onFailure` (`block`; an unknown value takes the safe side, with a warning).
fn fail_closed(
    f: &Fields<'_>,
    id: &str,
    ids: &[crate::catalog::EventId],
    warnings: &mut ConfigWarnings,
) -> crate::config::FieldResult<bool> {
    let on_failure = f.string("onFailure")?;
    let mut closed = f.boolean("failClosed")?.unwrap_or(false) || f.boolean("fail_closed")?.unwrap_or(false);
    match on_failure.as_deref() {
        None | Some("allow" | "continue" | "ignore") => {}
        Some("block") => closed = true,
        Some(other) => {
            let why = format!("{id}: unknown onFailure value \"{other}\"; read as \"block\" (the safe side)");
            note_all(warnings, ids, &format!("{}/onFailure", f.hptr), why);
            closed = true;
        }
    }
    Ok(Some(closed))
}

/// `shell`: `sh`, `bash` or `powershell`.
fn shell_of(f: &Fields<'_>) -> Result<Option<Shell>, (String, String)> {
    Ok(match f.string("shell")?.as_deref() {
        None => None,
        Some("sh") => Some(Shell::Sh),
        Some("bash") => Some(Shell::Bash),
        Some("powershell") => Some(Shell::Pwsh),
        Some(other) => {
            let msg = format!("`shell` must be \"sh\", \"bash\" or \"powershell\", not \"{other}\"");
            return Err((format!("{}/shell", f.hptr), msg));
        }
    })
}
