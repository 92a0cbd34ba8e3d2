//! A port's model as Codex's `hooks.json`: `{"hooks": …}` in the settings shape with Codex's
//! event names, its matcher (aliases, no comma lists) and the handler types it runs.

use super::{CodexRules, PROFILE};
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::write;
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    json!({"hooks": write::hooks(&write::Target::new(&CodexRules, &PROFILE), m, r)})
}
