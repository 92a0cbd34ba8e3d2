//! One Gemini settings document (agents.md §3.1): `{"hooks": {Event: [group, ...]},
//! "hooksConfig"?: {...}}`. Groups are `{matcher, sequential, hooks}`, handlers
//! `{type: "command", command, name, description, timeout (ms), env}`. Every other settings
//! key is Gemini's business and ignored silently. The switches (`hooksConfig.enabled`,
//! `hooksConfig.disabled`, and the older spelling of both inside `hooks`) are read here too.

use super::GeminiKnobs;
use super::matcher::GeminiMatcher;
use crate::catalog::{Dialect, EventId, Shell};
use crate::config::{CommandSpec, ConfigWarnings, DocContext, Fields, Group, Handler, Knobs, Parse, escape};
use crate::dialect::Switches;
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value};

/// Below this many milliseconds a `timeout` is almost surely meant as seconds (a warning).
const TIMEOUT_WARN_MS: f64 = 1_000.0;
/// Longest timeout kept (one day), as for every dialect.
const TIMEOUT_MAX_MS: f64 = 86_400_000.0;
/// The switch keys; inside `hooks` they are the older spelling, never event names.
const SWITCH_KEYS: &[&str] = &["enabled", "disabled", "notifications"];

/// Reads the `hooks` object of one document into groups per event id.
pub(super) fn read(
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
    for (name, groups) in map {
        if SWITCH_KEYS.contains(&name.as_str()) {
            continue;
        }
        let eptr = format!("{ptr}/{}", escape(name));
        let ids = super::PROFILE.event_ids(name);
        if ids.is_empty() {
            let hint = crate::catalog::lookup(name)
                .and_then(|id| super::PROFILE.native_name(crate::catalog::spec(id)))
                .map(|g| format!(" (Gemini calls it {g})"))
                .unwrap_or_default();
            warnings.never_runs(
                None,
                &eptr,
                format!("{}: invalid hook event name \"{name}\"{hint}; its hooks are skipped", cx.info.label),
            );
            continue;
        }
        let Some(list) = groups.as_array() else {
            let why = format!("the value of \"{name}\" must be an array of matcher groups");
            p.fail::<()>(warnings, &eptr, why)?;
            continue;
        };
        for (gi, g) in list.iter().enumerate() {
            let gptr = format!("{eptr}/{gi}");
            let group_id = format!("{}:{name}[{gi}]", cx.info.id_label);
            if let Some((matcher, handlers)) = read_group(g, name, &ids, &group_id, &gptr, cx, p, warnings)? {
                for &eid in &ids {
                    events[eid].push(Group { matcher: matcher.clone(), handlers: handlers.clone() });
                }
            }
        }
    }
    Ok(())
}

/// Notes a warning under every event id of the entry.
fn note_all(warnings: &mut ConfigWarnings, ids: &[EventId], at: &str, why: &str) {
    for &eid in ids {
        warnings.note(Some(eid), at, why.to_string());
    }
}

#[allow(clippy::too_many_arguments)]
fn read_group(
    g: &Value,
    name: &str,
    ids: &[EventId],
    group_id: &str,
    gptr: &str,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<(GroupMatcher, Vec<Handler>)>, ConfigError> {
    let Some(obj) = crate::dialect::claude_code::config::group_object(g, gptr, p, warnings)? else {
        return Ok(None);
    };
    let f = Fields { obj, hptr: gptr };
    let matcher_raw = match f.string("matcher") {
        Ok(m) => m,
        Err((at, msg)) => return p.fail(warnings, &at, msg),
    };
    let sequential = match f.boolean("sequential") {
        Ok(s) => s.unwrap_or(false),
        Err((at, msg)) => return p.fail(warnings, &at, msg),
    };
    let Some(hooks) = obj.get("hooks") else {
        return p.fail(warnings, &format!("{gptr}/hooks"), "a matcher group needs a `hooks` array");
    };
    let Some(hooks) = hooks.as_array() else {
        return p.fail(warnings, &format!("{gptr}/hooks"), "`hooks` must be an array of handlers");
    };
    for key in obj.keys().filter(|k| !["matcher", "sequential", "hooks"].contains(&k.as_str())) {
        let why = format!("{group_id}: unknown group key \"{key}\" ignored");
        note_all(warnings, ids, &format!("{gptr}/{}", escape(key)), &why);
    }
    let tool = ids.iter().any(|&id| crate::catalog::spec(id).tool_event);
    let (matcher, warning) = GeminiMatcher::compile(matcher_raw.as_deref(), tool);
    if let Some(w) = warning {
        note_all(warnings, ids, &format!("{gptr}/matcher"), &format!("{group_id}: {w}"));
    }
    let mut handlers = Vec::new();
    for (hi, h) in hooks.iter().enumerate() {
        let id = format!("{group_id}.hooks[{hi}]");
        let hptr = format!("{gptr}/hooks/{hi}");
        if let Some(h) = read_handler(h, name, ids, id, &hptr, sequential, cx, p, warnings)? {
            handlers.push(h);
        }
    }
    Ok(Some((GroupMatcher::new(matcher), handlers)))
}

#[allow(clippy::too_many_arguments)]
fn read_handler(
    h: &Value,
    name: &str,
    ids: &[EventId],
    id: String,
    hptr: &str,
    sequential: bool,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<Handler>, ConfigError> {
    let Some(obj) = h.as_object() else {
        return p.fail(warnings, hptr, "a handler must be an object with a `type`");
    };
    let f = Fields { obj, hptr };
    macro_rules! field {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err((ptr, msg)) => return p.fail(warnings, &ptr, msg),
            }
        };
    }
    match field!(f.string("type")) {
        None => return p.fail(warnings, &format!("{hptr}/type"), "a handler needs a `type`"),
        Some(t) if t == "command" => {}
        Some(t) => {
            for &eid in ids {
                let why =
                    format!("{id}: handler type \"{t}\" is not run by Gemini (only \"command\"); skipped");
                warnings.never_runs(Some(eid), &format!("{hptr}/type"), why);
            }
            return Ok(None);
        }
    }
    let command = match field!(f.string("command")) {
        Some(c) if !c.trim().is_empty() => c,
        _ => {
            let why = "a command handler needs a non-empty `command` string";
            return p.fail(warnings, &format!("{hptr}/command"), why);
        }
    };
    let hook_name = field!(f.string("name"));
    // `description` is tolerated whatever its type (Gemini only shows it).
    let timeout_ms = field!(f.number("timeout"));
    let env = field!(f.string_pairs("env")).unwrap_or_default();
    if let Some((k, _)) =
        env.iter().find(|(k, v)| k.is_empty() || k.contains(['=', '\0']) || v.contains('\0'))
    {
        let why = "not a valid environment variable (empty name, `=` or NUL)";
        return p.fail(warnings, &format!("{hptr}/env/{}", escape(k)), why);
    }
    // hookwire's fail-closed keys (agents.md §1), which Gemini ignores; an unknown `onFailure`
    // value takes the safe side, as in every dialect (§2.4).
    let on_failure = field!(f.string("onFailure"));
    if let Some(other) =
        on_failure.as_deref().filter(|o| !matches!(*o, "block" | "allow" | "continue" | "ignore"))
    {
        let why = format!("{id}: unknown onFailure value \"{other}\"; read as \"block\" (the safe side)");
        note_all(warnings, ids, &format!("{hptr}/onFailure"), &why);
    }
    let fail_closed = field!(f.boolean("failClosed")).unwrap_or(false)
        || field!(f.boolean("fail_closed")).unwrap_or(false)
        || on_failure.as_deref().is_some_and(|o| !matches!(o, "allow" | "continue" | "ignore"));
    let timeout_s = match timeout_ms {
        None => None,
        Some(t) if !(t.is_finite() && t >= 1.0) => {
            let why = "`timeout` must be a number of milliseconds ≥ 1";
            return p.fail(warnings, &format!("{hptr}/timeout"), why);
        }
        Some(t) => {
            let at = format!("{hptr}/timeout");
            if t < TIMEOUT_WARN_MS {
                let why = format!("{id}: timeout {t} is in milliseconds (Gemini's unit), not seconds; kept");
                note_all(warnings, ids, &at, &why);
            }
            if t > TIMEOUT_MAX_MS {
                let why = format!("{id}: timeout {t} ms is over one day; clamped");
                note_all(warnings, ids, &at, &why);
            }
            Some(t.min(TIMEOUT_MAX_MS) / 1000.0)
        }
    };
    let script = CommandSpec::Shell { script: command, shell: Shell::Bash };
    let mut handler = Handler::command(id, cx.source, script, Dialect::Gemini, name);
    handler.timeout_s = timeout_s;
    handler.fail_closed = fail_closed;
    handler.knobs = Knobs::new(GeminiKnobs { name: hook_name, sequential, env });
    Ok(Some(handler))
}

/// The document's switches: `hooksConfig.enabled` (`false` = disableAllHooks at this scope)
/// and `hooksConfig.disabled` (hook names); the same keys directly inside `hooks` are the older
/// spelling, read the same way with a warning. `hooksConfig.notifications` is display only.
pub(super) fn switches(
    doc: &Value,
    base: &str,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Switches, ConfigError> {
    let mut out = Switches::default();
    let places = [
        (doc.get("hooksConfig"), format!("{base}/hooksConfig"), false),
        (doc.get("hooks").filter(|h| h.is_object()), format!("{base}/hooks"), true),
    ];
    for (value, ptr, older) in places {
        let Some(value) = value else { continue };
        let Some(obj) = value.as_object() else {
            p.fail::<()>(warnings, &ptr, "`hooksConfig` must be an object")?;
            continue;
        };
        if older && !SWITCH_KEYS.iter().any(|k| obj.contains_key(*k)) {
            continue;
        }
        read_switch_object(obj, &ptr, older, p, warnings, &mut out)?;
    }
    Ok(out)
}

fn read_switch_object(
    obj: &Map<String, Value>,
    ptr: &str,
    older: bool,
    p: &Parse,
    warnings: &mut ConfigWarnings,
    out: &mut Switches,
) -> Result<(), ConfigError> {
    let f = Fields { obj, hptr: ptr };
    if older {
        let keys: Vec<&str> = SWITCH_KEYS.iter().copied().filter(|k| obj.contains_key(*k)).collect();
        let why = format!(
            "{}: `{}` inside `hooks` is the older spelling of `hooksConfig`; read as switches, not events",
            p.label,
            keys.join("`, `")
        );
        warnings.note(None, ptr, why);
    }
    match f.boolean("enabled") {
        // `hooksConfig` wins over the older spelling when both set it.
        Ok(Some(on)) => {
            if out.disable_all.is_none() {
                out.disable_all = Some(!on);
                out.spelling = "hooksConfig.enabled: false";
            }
        }
        Ok(None) => {}
        Err((at, msg)) => {
            p.fail::<()>(warnings, &at, msg)?;
        }
    }
    match f.string_array("disabled") {
        Ok(names) => {
            for n in names.unwrap_or_default() {
                if !out.disabled_names.contains(&n) {
                    out.disabled_names.push(n);
                }
            }
        }
        Err((at, msg)) => {
            p.fail::<()>(warnings, &at, msg)?;
        }
    }
    Ok(())
}
