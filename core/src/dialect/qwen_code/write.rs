//! A port's model as the `hooks` block of Qwen Code's `settings.json`: Claude Code's names, a
//! timeout below 1000 in seconds and from 1000 in milliseconds, its unanchored matcher.

use super::{PROFILE, QwenCodeRules};
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::write;
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        keeps: write::Keeps { env: true, sequential: true, ..write::Keeps::default() },
        ..write::Target::new(&QwenCodeRules, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
