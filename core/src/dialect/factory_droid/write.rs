//! A port's model as the `hooks` block of Droid's `settings.json`: the settings shape with
//! Droid's event list and its unanchored matcher (a Claude Code tool name also reaches Droid's
//! own name for it, so names are written as Claude Code's).

use super::{FactoryDroidRules, PROFILE};
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::write;
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    json!({"hooks": write::hooks(&write::Target::new(&FactoryDroidRules, &PROFILE), m, r)})
}
