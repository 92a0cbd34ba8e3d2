//! A port's model as a VS Code hooks file (`.github/hooks/*.json`, `version: 1`): the settings
//! shape with VS Code's event names; VS Code ignores matchers, which the port reports.

use super::PROFILE;
use super::config::VsCodeShape;
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::write;
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    json!({"version": 1, "hooks": write::hooks(&write::Target::new(&VsCodeShape, &PROFILE), m, r)})
}
