//! A port's model as a Claude Code settings file (`.claude/settings.json`): `{"hooks": …}` in
//! the settings shape with Claude Code's own reading of it.

use super::PROFILE;
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::{ClaudeCodeShape, write};
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    json!({"hooks": write::hooks(&write::Target::new(&ClaudeCodeShape, &PROFILE), m, r)})
}
