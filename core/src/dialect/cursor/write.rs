//! A port's model as Cursor's `hooks.json` (`version: 1`): a flat list of hooks per camelCase
//! event, each with its own `matcher` (an unanchored regex on Cursor's tool names: `Shell` for
//! Claude Code's `Bash`), timeouts in seconds, command and prompt hooks only, no `if` and no
//! run modes. Claude Code's `PreToolUse` is written as Cursor's generic `preToolUse`.

use super::PROFILE;
use super::kind::Kind;
use super::matcher::CursorMatcher;
use super::tools;
use crate::catalog::{EventSpec, HandlerType, Rules};
use crate::dialect::porting::{Model, Report};
use crate::dialect::settings::{HandlerKeys, ReadMatcher, SettingsShape, write};
use crate::matcher::GroupMatcher;
use serde_json::{Value, json};

/// What Cursor reads of a hook, for the writer (Cursor's reader is its own, `config.rs`).
struct CursorShape;

impl SettingsShape for CursorShape {
    fn group_matcher(&self, raw: Option<&str>, spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        let kind = PROFILE
            .native_name(spec)
            .and_then(Kind::of)
            .ok_or_else(|| format!("Cursor has no {} event", spec.name))?;
        CursorMatcher::compile(kind, raw).map(|m| (GroupMatcher::new(m), None))
    }

    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys::COMMAND_ONLY
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (!matches!(ty, HandlerType::Command | HandlerType::Prompt))
            .then(|| format!("Cursor runs command and prompt hooks only, not {}", ty.as_str()))
    }
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        tool_name: |n| tools::cursor_name(n).into_owned(),
        flat: true,
        ..write::Target::new(&CursorShape, &PROFILE)
    };
    json!({"version": 1, "hooks": write::hooks(&target, m, r)})
}
