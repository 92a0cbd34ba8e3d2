//! One Qwen settings document: Claude Code's shape, read by the shared reader, with what Qwen
//! adds taken out first (so the shared reader neither warns about it nor misreads it):
//!
//! - a group's `sequential` (a boolean) and a handler's `env` (strings) become the handler's
//!   [`QwenKnobs`];
//! - a command handler's `timeout` of 1000 or more is milliseconds, below 1000 seconds
//!   (observed, and Qwen's `readCommandHookTimeout`: the legacy reading kept for
//!   compatibility; the documentation says milliseconds, default 60000). Other handler types'
//!   timeouts are seconds, as documented.

use super::{QwenCodeRules, QwenKnobs};
use crate::config::{ConfigWarnings, DocContext, Fields, Group, Knobs, Parse, escape};
use crate::error::ConfigError;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// From this many a command hook's `timeout` is milliseconds.
const MS_FROM: f64 = 1000.0;

pub(super) fn read(
    rules: &QwenCodeRules,
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let mut doc = doc.clone();
    let knobs = match doc.get_mut("hooks").and_then(Value::as_object_mut) {
        Some(hooks) => take_extras(hooks, cx, p, warnings)?,
        None => HashMap::new(),
    };
    let before: Vec<usize> = events.iter().map(Vec::len).collect();
    super::super::claude_code::config::read_document(rules, &doc, cx, p, events, warnings)?;
    if knobs.is_empty() {
        return Ok(());
    }
    for (groups, from) in events.iter_mut().zip(before) {
        for h in groups[from..].iter_mut().flat_map(|g| g.handlers.iter_mut()) {
            if let Some(k) = knobs.get(&h.id) {
                h.knobs = Knobs::new(QwenKnobs { sequential: k.sequential, env: k.env.clone() });
            }
        }
    }
    Ok(())
}

/// Removes `sequential` from every group and `env` from every handler, and converts command
/// timeouts to seconds, in place; returns the knobs by the hook id the shared reader gives
/// the handler (`<scope>:<Event>[group].hooks[i]`).
fn take_extras(
    hooks: &mut Map<String, Value>,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<HashMap<String, QwenKnobs>, ConfigError> {
    let mut out = HashMap::new();
    for (name, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else { continue };
        for (gi, g) in groups.iter_mut().enumerate() {
            let Some(g) = g.as_object_mut() else { continue };
            let gptr = format!("{}/hooks/{}/{gi}", cx.base, escape(name));
            let sequential = match g.remove("sequential") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => b,
                Some(_) => {
                    p.fail::<()>(
                        warnings,
                        &format!("{gptr}/sequential"),
                        "`sequential` must be true or false",
                    )?;
                    false
                }
            };
            let Some(handlers) = g.get_mut("hooks").and_then(Value::as_array_mut) else { continue };
            for (hi, h) in handlers.iter_mut().enumerate() {
                let Some(h) = h.as_object_mut() else { continue };
                let hptr = format!("{gptr}/hooks/{hi}");
                let env = handler_env(h, &hptr, p, warnings)?;
                command_timeout_in_seconds(h);
                if sequential || !env.is_empty() {
                    let id = format!("{}:{name}[{gi}].hooks[{hi}]", cx.info.id_label);
                    out.insert(id, QwenKnobs { sequential, env });
                }
            }
        }
    }
    Ok(out)
}

/// The handler's `env`, taken out of it: names and values that a process environment can hold.
fn handler_env(
    h: &mut Map<String, Value>,
    hptr: &str,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Vec<(String, String)>, ConfigError> {
    let Some(env) = h.remove("env") else { return Ok(Vec::new()) };
    let holder: Map<String, Value> = [("env".to_string(), env)].into_iter().collect();
    let pairs = match (Fields { obj: &holder, hptr }).string_pairs("env") {
        Ok(pairs) => pairs.unwrap_or_default(),
        Err((at, msg)) => {
            p.fail::<()>(warnings, &at, msg)?;
            return Ok(Vec::new());
        }
    };
    if let Some((k, _)) =
        pairs.iter().find(|(k, v)| k.is_empty() || k.contains(['=', '\0']) || v.contains('\0'))
    {
        let at = format!("{hptr}/env/{}", escape(k));
        p.fail::<()>(warnings, &at, "not a valid environment variable (empty name, `=` or NUL)")?;
        return Ok(Vec::new());
    }
    Ok(pairs)
}

/// A command handler's `timeout` of 1000 or more, in milliseconds, rewritten in seconds.
fn command_timeout_in_seconds(h: &mut Map<String, Value>) {
    let command = h.get("type").and_then(Value::as_str) == Some("command");
    let Some(t) = h.get("timeout").and_then(Value::as_f64) else { return };
    if command
        && t >= MS_FROM
        && let Some(secs) = serde_json::Number::from_f64(t / 1000.0)
    {
        h.insert("timeout".into(), Value::Number(secs));
    }
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::json;

    fn timeouts(config: serde_json::Value) -> Vec<Option<f64>> {
        let d = Dispatcher::new(&config.to_string()).unwrap();
        let pre = &d.config().events[crate::catalog::lookup("PreToolUse").unwrap()];
        pre.iter().flat_map(|g| &g.handlers).map(|h| h.timeout_s).collect()
    }

    #[test]
    fn a_command_timeout_below_1000_is_seconds_and_from_1000_milliseconds() {
        let h = |t: f64| json!({"type": "command", "command": "true", "timeout": t});
        let config = json!({"dialect": "qwen-code", "hooks": {"PreToolUse": [
            {"hooks": [h(5.0), h(999.0), h(1000.0), h(60000.0), h(2500.0)]}]}});
        assert_eq!(timeouts(config), [Some(5.0), Some(999.0), Some(1.0), Some(60.0), Some(2.5)]);
    }

    #[test]
    fn sequential_and_env_are_qwens_and_raise_no_unknown_key_warning() {
        let config = json!({"dialect": "qwen-code", "hooks": {"PreToolUse": [
            {"sequential": true, "hooks": [{"type": "command", "command": "true", "env": {"A": "1"}}]}]}});
        let d = Dispatcher::new(&config.to_string()).unwrap();
        assert!(d.load_warnings().is_empty(), "{:?}", d.load_warnings());
        let pre = &d.config().events[crate::catalog::lookup("PreToolUse").unwrap()];
        let k = pre[0].handlers[0].knobs.get::<super::QwenKnobs>().unwrap();
        assert!(k.sequential);
        assert_eq!(k.env, [("A".to_string(), "1".to_string())]);
    }
}
