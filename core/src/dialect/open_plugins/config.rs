//! An Open Plugins `hooks/hooks.json`: Claude Code's settings shape with the specification's
//! event names, command handlers only (Goose ignores the other types), an unanchored regex
//! matcher, `on_failure` (Claude Code's `onFailure`) and `${PLUGIN_ROOT}` replaced as text in
//! a command by the plugin's root, as Goose does before it runs `sh -c`.

use crate::config::{Action, CommandSpec, ConfigWarnings, DocContext, Group, Handler, Knobs, Parse};
use crate::dialect::family::Family;
use crate::error::ConfigError;
use serde_json::{Map, Value};

/// The plugin root a handler's commands were expanded with, for `PLUGIN_ROOT`.
#[derive(Debug)]
struct PluginRoot(String);

/// Reads one document with the family's `shape` (its events, matcher and handler types).
pub fn read(
    shape: &Family,
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let Some(hooks) = doc.get("hooks") else { return Ok(()) };
    let mut own = Map::new();
    own.insert("hooks".into(), with_claude_code_keys(hooks));
    crate::dialect::settings::read_document(shape, &Value::Object(own), cx, p, events, warnings)?;
    let Some(root) = cx.info.plugin_root.as_deref() else { return Ok(()) };
    for h in events.iter_mut().flatten().flat_map(|g| g.handlers.iter_mut()) {
        expand_root(&mut h.action, root);
        h.knobs = Knobs::new(PluginRoot(root.to_string()));
    }
    Ok(())
}

/// The plugin root of a handler's source, when it has one.
pub fn plugin_root(h: &Handler) -> Option<&str> {
    h.knobs.get::<PluginRoot>().map(|r| r.0.as_str())
}

/// A copy of `hooks` whose handlers spell `on_failure` as Claude Code's `onFailure` (which the
/// shared reader knows: `block` fails closed, an unknown value takes the safe side).
fn with_claude_code_keys(hooks: &Value) -> Value {
    let mut copy = hooks.clone();
    let handlers = copy
        .as_object_mut()
        .into_iter()
        .flat_map(|m| m.values_mut())
        .filter_map(Value::as_array_mut)
        .flatten()
        .filter_map(|g| g.get_mut("hooks").and_then(Value::as_array_mut))
        .flatten()
        .filter_map(Value::as_object_mut);
    for h in handlers {
        if !h.contains_key("onFailure")
            && let Some(v) = h.remove("on_failure")
        {
            h.insert("onFailure".into(), v);
        }
    }
    copy
}

/// `${PLUGIN_ROOT}` replaced by the root in the command (Goose's `expand_plugin_root`).
fn expand_root(action: &mut Action, root: &str) {
    const TOKEN: &str = "${PLUGIN_ROOT}";
    let fix = |s: &mut String| {
        if s.contains(TOKEN) {
            *s = s.replace(TOKEN, root);
        }
    };
    match action {
        Action::Command(CommandSpec::Shell { script, .. }) => fix(script),
        Action::Command(CommandSpec::Exec { program, args }) => {
            fix(program);
            args.iter_mut().for_each(fix);
        }
        _ => {}
    }
}
