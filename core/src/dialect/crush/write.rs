//! A port's model as the `hooks` of Crush's `crush.json`: `{"hooks": {"PreToolUse": [{matcher,
//! command, timeout, name}]}}`, the only event Crush fires, a flat list of command hooks run
//! by its POSIX shell, each with its own `matcher` (a regex searched anywhere in Crush's tool
//! names: `bash` for Claude Code's `Bash`), timeouts in seconds. Merge it into `crush.json`.

use super::{PROFILE, tools};
use crate::catalog::{EventSpec, HandlerType, Rules};
use crate::dialect::porting::{self as port, Hook, Model, Report};
use crate::dialect::settings::{HandlerKeys, ReadMatcher, SettingsShape, write};
use serde_json::{Map, Value, json};

/// What Crush reads of a hook, for the writer (its reader is its own, `config.rs`).
struct CrushShape;

impl SettingsShape for CrushShape {
    fn group_matcher(&self, raw: Option<&str>, _spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        super::config::compile(raw).map(|m| (m, None))
    }

    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys::COMMAND_ONLY
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (ty != HandlerType::Command).then(|| format!("Crush runs command hooks only, not {}", ty.as_str()))
    }
}

/// A Crush hook has no `type` (every hook is a command).
fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    o.remove("type");
    port::without_fail_closed("crush", h, o, r);
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        tool_name: |n| tools::to_crush(n).to_string(),
        flat: true,
        keeps: write::Keeps { name: Some("name"), ..write::Keeps::default() },
        entry: &entry,
        ..write::Target::new(&CrushShape, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
