//! A port's model as Kimi CLI's `[[hooks]]` tables (`~/.kimi/config.toml`): one flat list of
//! `{event, matcher, command, timeout}`, Claude Code's event names, the matcher an unanchored
//! regex, the timeout a whole number of seconds from 1 to 600. The document is JSON here; the
//! port prints it as TOML (the dialect's syntax).

use super::PROFILE;
use crate::catalog::{EventSpec, HandlerType, Rules};
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, ReadMatcher, SettingsShape, write};
use serde_json::{Map, Value, json};

/// What Kimi reads of a hook, for the writer (its reader is its own, `config.rs`).
struct KimiShape;

impl SettingsShape for KimiShape {
    fn group_matcher(&self, raw: Option<&str>, _spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        super::config::compile(raw).map(|m| (m, None))
    }

    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys::COMMAND_ONLY
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (ty != HandlerType::Command).then(|| format!("Kimi runs command hooks only, not {}", ty.as_str()))
    }
}

/// Kimi's events whose hooks it runs in the background, never waiting for them.
const BACKGROUND: &[&str] = &["PostToolUse", "PostToolUseFailure"];

fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    let ev = Some(h.event.name);
    o.remove("type");
    port::without_fail_closed("kimi-cli", h, o, r);
    if let Some(t) = o.get("timeout").and_then(Value::as_f64) {
        let whole = t.ceil().clamp(1.0, 600.0);
        if whole != t {
            let why = format!("timeout {t} s written as {whole} s: Kimi takes whole seconds from 1 to 600");
            r.add(LossKind::FieldDropped, &h.at, ev, why);
            o.insert("timeout".into(), json!(whole as i64));
        }
    }
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
    let target = write::Target { flat: true, entry: &entry, ..write::Target::new(&KimiShape, &PROFILE) };
    json!({"hooks": port::listed(write::hooks(&target, m, r), "event")})
}
