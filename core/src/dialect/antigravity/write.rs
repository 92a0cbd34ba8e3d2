//! A port's model as Antigravity's `hooks.json`: one named hook, `{"ported": {event: …}}`,
//! whose `PreToolUse` and `PostToolUse` take matcher groups (Claude Code's matcher on
//! Antigravity's tool names) and whose other events take flat lists of handlers without a
//! matcher; handlers `{type: command|prompt, command|prompt, model, timeout}` with `timeout` a
//! whole number of seconds, commands run by bash. A source hook's name is not a key of
//! Antigravity's handlers (its named hooks group them): reported.

use super::PROFILE;
use super::tools::TOOL_NAMES;
use crate::catalog::{HandlerType, Rules, Shell};
use crate::dialect::family::{Anchoring, FamilyMatcher};
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};

/// The events that take matcher groups; the others take flat lists of handlers.
const GROUPED: &[&str] = &["PreToolUse", "PostToolUse"];

/// The named hook a port writes.
const NAME: &str = "ported";

/// What Antigravity reads of a hook, for the writer (its reader is its own, `config.rs`):
/// Claude Code's matcher on its tool events, none elsewhere; commands run by bash.
const SHAPE: write::Reads = write::Reads {
    agent: "Antigravity",
    matcher: |raw, spec| {
        if !GROUPED.contains(&spec.name) && raw.is_some() {
            return Err(format!("Antigravity's {} takes no matcher", spec.name));
        }
        let m = FamilyMatcher::compile(raw, spec, Rules::Current, Anchoring::ClaudeCode, TOOL_NAMES)?;
        Ok((GroupMatcher::new(m), None))
    },
    keys: HandlerKeys { shell: Shell::Bash, ..HandlerKeys::COMMAND_ONLY },
    types: &[HandlerType::Command, HandlerType::Prompt],
};

/// Keys of an Antigravity handler.
const KEYS: &[&str] = &["type", "command", "prompt", "model", "timeout"];

fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    let ev = Some(h.event.name);
    port::without_fail_closed("antigravity", h, o, r);
    port::whole_seconds("Antigravity", 1.0..=86_400.0, h, o, r);
    let other: Vec<String> = o.keys().filter(|k| !KEYS.contains(&k.as_str())).cloned().collect();
    for key in other {
        o.remove(&key);
        let why = format!("`{key}` is not a key of Antigravity's handlers: not written");
        r.add(LossKind::FieldDropped, &h.at, ev, why);
    }
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target { entry: &entry, ..write::Target::new(&SHAPE, &PROFILE) };
    let Value::Object(events) = write::hooks(&target, m, r) else { return json!({}) };
    let mut named = Map::new();
    for (event, groups) in events {
        let value = match GROUPED.contains(&event.as_str()) {
            true => groups,
            false => {
                let handlers = groups.as_array().into_iter().flatten().filter_map(|g| g.get("hooks"));
                Value::Array(handlers.filter_map(Value::as_array).flatten().cloned().collect())
            }
        };
        named.insert(event, value);
    }
    if named.is_empty() {
        return json!({});
    }
    json!({ NAME: named })
}
