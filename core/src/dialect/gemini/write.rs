//! A port's model as the `hooks` block of Gemini CLI's `settings.json`: Gemini's event names,
//! timeouts in milliseconds, command handlers only, its regex matcher on Gemini's tool names
//! (a Claude Code `Bash` guard is written as `^(run_shell_command)$`).

use super::{GeminiRules, PROFILE, tools};
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::write;
use serde_json::{Value, json};

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        tool_name: |n| tools::gemini_name(n).to_string(),
        keeps: write::Keeps { env: true, sequential: true, ..write::Keeps::default() },
        ..write::Target::new(&GeminiRules, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
