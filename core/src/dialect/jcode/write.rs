//! A port's model as a jcode `.jcode/` settings file: `{"hooks": …}` in the settings shape with
//! jcode's event names, its matcher and command handlers only. jcode runs a hook
//! asynchronously only where nothing can be blocked: elsewhere `async` is not written.

use super::{JcodeRules, PROFILE};
use crate::catalog::Rules;
use crate::dialect::porting::{Hook, LossKind, Model, Report};
use crate::dialect::settings::write;
use serde_json::{Map, Value, json};

/// `async` and `asyncRewake` taken out on an event where a jcode hook can block.
fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    if !PROFILE.can_block(h.event, Rules::Current) {
        return true;
    }
    for key in ["async", "asyncRewake", "rewakeMessage", "rewakeSummary"] {
        if o.remove(key).is_some() && key.starts_with("async") {
            let why = format!("jcode runs no `{key}` hook on {}: it runs synchronously", h.event.name);
            r.add(LossKind::RunModeLost, &h.at, Some(h.event.name), why);
        }
    }
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target { entry: &entry, ..write::Target::new(&JcodeRules, &PROFILE) };
    json!({"hooks": write::hooks(&target, m, r)})
}
