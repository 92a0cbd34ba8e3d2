//! Copilot's hooks documents (agents-2.md §2.1, observed): `{"version": 1, "hooks": {event:
//! [entry, ...]}}` in a hooks file, or the same `hooks` map inline in a settings file. An
//! entry is flat: `type` (`command`, `http`, `prompt`), the command as `bash`, `command`,
//! `powershell` or `exec` + `args`, `cwd`, `env`, `timeoutSec` (or its alias `timeout`, in
//! seconds), `matcher`; `url`, `headers`, `allowedEnvVars` for `http`; `prompt` for `prompt`.
//! A bad entry is skipped with a warning, its neighbours kept (Copilot rejects a whole inline
//! block for one bad entry; hookwire keeps the user's other guards running and says which entry
//! it dropped). Hook ids `<scope>:<event>[i]`.

use super::matcher::CopilotMatcher;
use super::{CopilotKnobs, Style};
use crate::catalog::{Dialect, HandlerType, Scope, Shell};
use crate::config::{
    Action, CommandSpec, ConfigWarnings, DocContext, Group, Handler, HttpSpec, Knobs, Parse,
};
use crate::dialect::flat::{self, Entry, Read, take};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::Value;

/// The events on which an `http` hook must use `https` (documented).
const HTTPS_ONLY: &[&str] = &["preToolUse", "permissionRequest", "PreToolUse", "PermissionRequest"];

/// The variable that lets an `http` hook reach this machine (documented).
const ALLOW_LOCALHOST: &str = "COPILOT_HOOK_ALLOW_LOCALHOST";

pub(crate) fn read(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let vptr = format!("{}/version", cx.base);
    match doc.get("version") {
        None => {}
        Some(v) if v.as_u64() == Some(1) || v.as_f64() == Some(1.0) => {}
        Some(v) => {
            let why = format!("`version` must be 1, not {v}; the file's hooks are skipped");
            return p.fail::<()>(warnings, &vptr, why).map(|_| ());
        }
    }
    // `disableAllHooks` turns off the hooks of its own file (observed); a policy file's hooks
    // cannot be turned off (documented).
    let off = doc.get("disableAllHooks") == Some(&Value::Bool(true));
    if off && cx.info.scope != Scope::Managed {
        let why = format!("{}: `disableAllHooks` is true; this file's hooks are off", cx.info.label);
        warnings.note(None, &format!("{}/disableAllHooks", cx.base), why);
        return Ok(());
    }
    let Some(hooks) = doc.get("hooks") else { return Ok(()) };
    let ptr = format!("{}/hooks", cx.base);
    let Some(map) = hooks.as_object() else {
        return p.fail::<()>(warnings, &ptr, "`hooks` must be an object of event names").map(|_| ());
    };
    let hook_dir = hook_dir(cx);
    // A file's camelCase entries run before its PascalCase ones (observed), whatever their
    // order in the file.
    for style in [Style::Camel, Style::Pascal] {
        let other: Vec<&str> = map.keys().map(String::as_str).filter(|k| Style::of(k) != style).collect();
        flat::walk(map, &ptr, Dialect::CopilotCli, "event", &other, cx, p, events, warnings, |e, w| {
            entry(e, style, hook_dir.as_deref(), cx, p, w)
        })?;
    }
    Ok(())
}

/// One entry of the map.
fn entry(
    e: Entry<'_>,
    style: Style,
    hook_dir: Option<&str>,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Read, ConfigError> {
    let f = &e.fields;
    let ty = take!(p, warnings, f.string("type"));
    let raw_matcher = take!(p, warnings, f.string("matcher"));
    let timeout = match take!(p, warnings, f.number("timeoutSec")) {
        Some(t) => Some(t),
        None => take!(p, warnings, f.number("timeout")),
    };
    let cwd = take!(p, warnings, f.string("cwd"));
    let env = take!(p, warnings, crate::dialect::settings::handler_env(f));
    if let Some(t) = timeout
        && !crate::config::timeout_ok(t)
    {
        p.fail::<()>(warnings, &format!("{}/timeoutSec", e.ptr), "`timeoutSec` must be seconds ≥ 0.001")?;
        return Ok(None);
    }
    let (ty, action) = match ty.as_deref() {
        None | Some("command") => match command(&e, p, warnings)? {
            Some(c) => (HandlerType::Command, Action::Command(c)),
            None => return Ok(None),
        },
        Some("http") => match http(&e, p, warnings)? {
            Some(h) => (HandlerType::Http, Action::Http(h)),
            None => return Ok(None),
        },
        Some("prompt") if e.name == "sessionStart" || e.name == "SessionStart" => {
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
        Some("prompt") => {
            let why = format!("{}: a prompt hook runs on sessionStart only; skipped", e.id);
            never_runs(warnings, &e, &format!("{}/type", e.ptr), why);
            return Ok(None);
        }
        Some(other) => {
            let why = format!("`type` must be command, http or prompt, not {other:?}");
            p.fail::<()>(warnings, &format!("{}/type", e.ptr), why)?;
            return Ok(None);
        }
    };
    let matcher = match CopilotMatcher::compile(style, raw_matcher.as_deref()) {
        Ok(m) => GroupMatcher::new(m),
        Err(why) => {
            let why = format!("{}: {why}; this hook never runs", e.id);
            never_runs(warnings, &e, &format!("{}/matcher", e.ptr), why);
            return Ok(None);
        }
    };
    let placeholder = CommandSpec::Shell { script: String::new(), shell: Shell::Sh };
    let mut h = Handler::command(e.id, cx.source, placeholder, Dialect::CopilotCli, e.name);
    h.ty = ty;
    h.action = action;
    h.timeout_s = timeout;
    h.cwd = cwd.map(Into::into);
    h.knobs = Knobs::new(CopilotKnobs { style, hook_dir: hook_dir.map(str::to_string), env });
    Ok(Some((h, matcher)))
}

/// The process of a command entry on this platform: `bash` (run by bash), else `command`
/// (Copilot's cross-platform form, run by `sh -c`: unverified), else `exec` + `args` (no
/// shell), else `powershell` (run by `pwsh`, whose absence is the hook's failure).
fn command(
    e: &Entry<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<CommandSpec>, ConfigError> {
    let f = &e.fields;
    let text = |key: &str, warnings: &mut ConfigWarnings| -> Result<Option<String>, ConfigError> {
        match f.string(key) {
            Ok(v) => Ok(v.filter(|s| !s.trim().is_empty())),
            Err((at, msg)) => p.fail::<()>(warnings, &at, msg).map(|_| None),
        }
    };
    if let Some(script) = text("bash", warnings)? {
        return Ok(Some(CommandSpec::Shell { script, shell: Shell::Bash }));
    }
    if let Some(script) = text("command", warnings)? {
        return Ok(Some(CommandSpec::Shell { script, shell: Shell::Sh }));
    }
    if let Some(program) = text("exec", warnings)? {
        let args = take!(p, warnings, f.string_array("args")).unwrap_or_default();
        return Ok(Some(CommandSpec::Exec { program, args }));
    }
    if let Some(script) = text("powershell", warnings)? {
        return Ok(Some(CommandSpec::Shell { script, shell: Shell::Pwsh }));
    }
    let why = "a command hook needs `bash`, `command`, `exec` or `powershell`";
    p.fail::<()>(warnings, &format!("{}/bash", e.ptr), why)?;
    Ok(None)
}

/// An `http` entry: `https` on preToolUse and permissionRequest, and this machine only with
/// `COPILOT_HOOK_ALLOW_LOCALHOST=1` in the host's environment (documented).
fn http(e: &Entry<'_>, p: &Parse, warnings: &mut ConfigWarnings) -> Result<Option<HttpSpec>, ConfigError> {
    let f = &e.fields;
    let field = |r: crate::config::FieldResult<_>, warnings: &mut ConfigWarnings| match r {
        Ok(v) => Ok(v),
        Err((at, msg)) => p.fail::<()>(warnings, &at, msg).map(|_| None),
    };
    let Some(url) = field(f.string("url"), warnings)? else {
        p.fail::<()>(warnings, &format!("{}/url", e.ptr), "an http hook needs a `url` string")?;
        return Ok(None);
    };
    let headers = take!(p, warnings, f.string_pairs("headers")).unwrap_or_default();
    let allowed_env_vars = take!(p, warnings, f.string_array("allowedEnvVars")).unwrap_or_default();
    let lower = url.to_ascii_lowercase();
    let host = lower.split("://").nth(1).unwrap_or("").split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or(host);
    let local = ["localhost", "127.", "[::1]"].iter().any(|l| host.starts_with(l));
    let at = format!("{}/url", e.ptr);
    if local && std::env::var(ALLOW_LOCALHOST).as_deref() != Ok("1") {
        let why = format!(
            "{}: {url} is this machine, which Copilot allows only with {ALLOW_LOCALHOST}=1; this hook never runs",
            e.id
        );
        never_runs(warnings, e, &at, why);
        return Ok(None);
    }
    if HTTPS_ONLY.contains(&e.name) && !lower.starts_with("https://") && !local {
        let why = format!("{}: an http hook on {} must use https; this hook never runs", e.id, e.name);
        never_runs(warnings, e, &at, why);
        return Ok(None);
    }
    Ok(Some(HttpSpec { url, headers, allowed_env_vars }))
}

fn never_runs(warnings: &mut ConfigWarnings, e: &Entry<'_>, at: &str, why: String) {
    for &eid in &e.ids {
        warnings.never_runs(Some(eid), at, why.clone());
    }
}

/// `COPILOT_HOOK_DIR`: the directory of a hooks file; `None` for inline settings and for a
/// settings file's `hooks` (observed absent there).
fn hook_dir(cx: &DocContext<'_>) -> Option<String> {
    let file = cx.file?;
    let name = file.file_name()?.to_string_lossy();
    if name.starts_with("settings") {
        return None;
    }
    Some(file.parent()?.to_string_lossy().into_owned())
}
