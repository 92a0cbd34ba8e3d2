//! A port's model as Kimi CLI's `[[hooks]]` tables (`~/.kimi/config.toml`): one flat list of
//! `{event, matcher, command, timeout}`, Claude Code's event names, the matcher an unanchored
//! regex, the timeout a whole number of seconds from 1 to 600. The document is JSON here; the
//! port prints it as TOML (the dialect's syntax).

use super::PROFILE;
use crate::catalog::HandlerType;
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use serde_json::{Map, Value, json};

/// What Kimi reads of a hook, for the writer (its reader is its own, `config.rs`).
const SHAPE: write::Reads = write::Reads {
    agent: "Kimi",
    matcher: |raw, _| super::config::compile(raw).map(|m| (m, None)),
    keys: HandlerKeys::COMMAND_ONLY,
    types: &[HandlerType::Command],
};

/// Kimi's events whose hooks it runs in the background, never waiting for them.
const BACKGROUND: &[&str] = &["PostToolUse", "PostToolUseFailure"];

fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    let ev = Some(h.event.name);
    port::typeless("kimi-cli", h, o, r);
    port::whole_seconds("Kimi", 1.0..=600.0, h, o, r);
    if BACKGROUND.contains(&h.event.name) && h.handler.mode == crate::config::RunMode::Sync {
        let why = format!(
            "Kimi runs {} hooks in the background: it neither waits for nor reads them",
            h.event.name
        );
        r.add(LossKind::RunModeLost, &h.at, ev, why);
    }
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target { flat: true, entry: &entry, ..write::Target::new(&SHAPE, &PROFILE) };
    json!({"hooks": port::listed(write::hooks(&target, m, r), "event")})
}
