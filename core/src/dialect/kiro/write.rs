//! A port's model as a Kiro IDE hook file (`.kiro/hooks/<name>.json`): `{"version": "v1",
//! "hooks": [{name, trigger, matcher, action: {type: "command", command} | {type: "agent",
//! prompt}, timeout}]}`, one flat list, Kiro's PascalCase triggers, the matcher a regex
//! searched in Kiro's tool names, timeouts in seconds. Kiro reads every file of the directory,
//! so the same document split one hook per file is as good (`hookwire port -o .kiro/hooks/`).
//! Kiro CLI's agent configurations (`timeout_ms`, `cache_ttl_seconds`) are not written: a
//! source's result cache is reported.

use super::PROFILE;
use super::matcher::KiroMatcher;
use super::tools::kiro_name;
use crate::catalog::HandlerType;
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};

/// What Kiro reads of a hook file's entry, for the writer (its reader is its own, `config.rs`).
const SHAPE: write::Reads = write::Reads {
    agent: "Kiro",
    matcher: |raw, _| KiroMatcher::compile(raw).map(|m| (GroupMatcher::new(m), None)),
    keys: HandlerKeys::COMMAND_ONLY,
    types: &[HandlerType::Command, HandlerType::Prompt],
};

/// The handler's command or prompt as Kiro's `action`.
fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    port::without_fail_closed("kiro", h, o, r);
    let action = match o.remove("type").as_ref().and_then(Value::as_str) {
        Some("prompt") => json!({"type": "agent", "prompt": o.remove("prompt").unwrap_or_default()}),
        _ => json!({"type": "command", "command": o.remove("command").unwrap_or_default()}),
    };
    o.insert("action".into(), action);
    let other: Vec<String> = o
        .keys()
        .filter(|k| !["name", "matcher", "timeout", "action"].contains(&k.as_str()))
        .cloned()
        .collect();
    for key in other {
        o.remove(&key);
        let why = format!("`{key}` is not a key of Kiro's hooks: not written");
        r.add(LossKind::FieldDropped, &h.at, Some(h.event.name), why);
    }
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        tool_name: |n| kiro_name(n).into_owned(),
        flat: true,
        keeps: write::Keeps { name: Some("name"), ..write::Keeps::default() },
        entry: &entry,
        ..write::Target::new(&SHAPE, &PROFILE)
    };
    json!({"version": "v1", "hooks": port::listed(write::hooks(&target, m, r), "trigger")})
}
