//! A port's model as a VS Code hooks file (`.github/hooks/*.json`, `version: 1`): the settings
//! shape with VS Code's event names; VS Code ignores matchers, which the port reports.

use super::PROFILE;
use super::config::VsCodeShape;
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::write;
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        keeps: write::Keeps { env: true, ..write::Keeps::default() },
        ..write::Target::new(&VsCodeShape, &PROFILE)
    };
    json!({"version": 1, "hooks": write::hooks(&target, m, r)})
}
