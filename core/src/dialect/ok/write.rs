//! A port's model as ok's `settings.json` (protocol.md §9.3): `{"hooks": {Event: [{match,
//! command, timeout, cwd}]}}`, flat lists, its four events, `match` an anchored regex on tool
//! events, timeouts in milliseconds (clamped by ok to 60 s on the gating events, 300 s on the
//! others: reported), command hooks run by `sh -c`.

use super::PROFILE;
use super::matcher::AnchoredMatcher;
use crate::catalog::{EventSpec, HandlerType, Rules};
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, ReadMatcher, SettingsShape, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};

/// What ok reads of a hook, for the writer (its reader is its own, `config.rs`).
struct OkShape;

impl SettingsShape for OkShape {
    fn group_matcher(&self, raw: Option<&str>, _spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        AnchoredMatcher::compile(raw).map(|m| (GroupMatcher::new(m), None))
    }

    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys::COMMAND_ONLY
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (ty != HandlerType::Command).then(|| format!("ok runs command hooks only, not {}", ty.as_str()))
    }
}

/// ok's keys, and its ceiling on a timeout.
fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    o.remove("type");
    port::rename(o, "matcher", "match");
    port::without_fail_closed("ok", h, o, r);
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
        ..write::Target::new(&OkShape, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
