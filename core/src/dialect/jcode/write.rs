//! A port's model as a jcode `.jcode/` settings file: `{"hooks": …}` in the settings shape with
//! jcode's event names, its matcher and command handlers only. jcode runs a hook
//! asynchronously only where nothing can be blocked: elsewhere `async` is not written (the
//! settings writer reports the change in jcode's words).

use super::{JcodeRules, PROFILE};
use crate::catalog::Rules;
use crate::dialect::porting::{Hook, Model, Report};
use crate::dialect::settings::write;
use serde_json::{Map, Value, json};

/// `async` and `asyncRewake` taken out on an event where a jcode hook can block.
fn entry(h: &Hook, o: &mut Map<String, Value>, _: &mut Report) -> bool {
    if PROFILE.can_block(h.event, Rules::Current) {
        for key in ["async", "asyncRewake", "rewakeMessage", "rewakeSummary"] {
            o.remove(key);
        }
    }
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target { entry: &entry, ..write::Target::new(&JcodeRules, &PROFILE) };
    json!({"hooks": write::hooks(&target, m, r)})
}
