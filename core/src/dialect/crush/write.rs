//! A port's model as the `hooks` of Crush's `crush.json`: `{"hooks": {"PreToolUse": [{matcher,
//! command, timeout, name}]}}`, the only event Crush fires, a flat list of command hooks run
//! by its POSIX shell, each with its own `matcher` (a regex searched anywhere in Crush's tool
//! names: `bash` for Claude Code's `Bash`), timeouts in seconds. Merge it into `crush.json`.

use super::{PROFILE, tools};
use crate::catalog::HandlerType;
use crate::dialect::porting::{self as port, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use serde_json::{Value, json};

/// What Crush reads of a hook, for the writer (its reader is its own, `config.rs`).
const SHAPE: write::Reads = write::Reads {
    agent: "Crush",
    matcher: |raw, _| super::config::compile(raw).map(|m| (m, None)),
    keys: HandlerKeys::COMMAND_ONLY,
    types: &[HandlerType::Command],
};

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        tool_name: |n| tools::to_crush(n).to_string(),
        flat: true,
        keeps: write::Keeps { name: Some("name"), ..write::Keeps::default() },
        entry: &|h, o, r| port::typeless("crush", h, o, r),
        ..write::Target::new(&SHAPE, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
