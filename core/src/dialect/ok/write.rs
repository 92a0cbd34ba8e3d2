//! A port's model as ok's `settings.json` (protocol.md §9.3): `{"hooks": {Event: [{match,
//! command, timeout, cwd}]}}`, flat lists, its four events, `match` an anchored regex on tool
//! events, timeouts in milliseconds (clamped by ok to 60 s on the gating events, 300 s on the
//! others: reported), command hooks run by `sh -c`.

use super::PROFILE;
use super::matcher::AnchoredMatcher;
use crate::catalog::{HandlerType, Rules};
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};

/// What ok reads of a hook, for the writer (its reader is its own, `config.rs`).
const SHAPE: write::Reads = write::Reads {
    agent: "ok",
    matcher: |raw, _| AnchoredMatcher::compile(raw).map(|m| (GroupMatcher::new(m), None)),
    keys: HandlerKeys::COMMAND_ONLY,
    types: &[HandlerType::Command],
};

/// ok's keys, and its ceiling on a timeout.
fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    port::typeless("ok", h, o, r);
    port::rename(o, "matcher", "match");
    let max_ms = if PROFILE.can_block(h.event, Rules::Current) { 60_000.0 } else { 300_000.0 };
    if let Some(ms) = o.get("timeout").and_then(Value::as_f64)
        && ms > max_ms
    {
        let why = format!(
            "ok clamps a timeout on {} to {} s: {} s becomes {} s",
            h.event.name,
            max_ms / 1000.0,
            ms / 1000.0,
            max_ms / 1000.0
        );
        r.add(LossKind::TimeoutChanged, &h.at, Some(h.event.name), why);
        o.insert("timeout".into(), json!(max_ms as i64));
    }
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        flat: true,
        keeps: write::Keeps { cwd: Some("cwd"), ..write::Keeps::default() },
        entry: &entry,
        ..write::Target::new(&SHAPE, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
