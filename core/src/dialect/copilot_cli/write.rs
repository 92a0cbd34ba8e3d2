//! A port's model as a Copilot CLI hooks file (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`):
//! `{"version": 1, "hooks": {event: [entry, …]}}` with Copilot's camelCase event names, one flat
//! entry per hook with its own `matcher` (a regex anchored on Copilot's tool names: `bash` for
//! Claude Code's `Bash`), the command as `command` (run by `sh -c`), `bash` or `powershell`
//! (by the shell it needs), or `exec` + `args`; `timeoutSec`, `cwd` and `env` carried;
//! `http` hooks as they are, prompt hooks on `sessionStart` only.

use super::matcher::CopilotMatcher;
use super::{PROFILE, Style, tools};
use crate::catalog::{EventSpec, HandlerType, Rules};
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, ReadMatcher, SettingsShape, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};

/// What Copilot reads of an entry, for the writer (its reader is its own, `config.rs`).
struct CopilotShape;

impl SettingsShape for CopilotShape {
    fn group_matcher(&self, raw: Option<&str>, _spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        CopilotMatcher::compile(Style::Camel, raw).map(|m| (GroupMatcher::new(m), None))
    }

    /// `exec` + `args` and a shell by key (`bash`, `powershell`); no `if`, run modes or
    /// `statusMessage`.
    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys { exec_form: true, ..HandlerKeys::COMMAND_ONLY }
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (!matches!(ty, HandlerType::Command | HandlerType::Http | HandlerType::Prompt))
            .then(|| format!("Copilot runs command, http and prompt hooks only, not {}", ty.as_str()))
    }
}

/// The events on which Copilot takes an `http` hook only over `https` (its reader's rule).
const HTTPS_ONLY: &[&str] = &["PreToolUse", "PermissionRequest"];

/// One written entry in Copilot's keys; `false` when Copilot would not run it here.
fn entry(h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    let ev = Some(h.event.name);
    if h.handler.ty == HandlerType::Prompt && h.event.name != "SessionStart" {
        let why = format!(
            "Copilot runs prompt hooks on sessionStart only, not {}: the hook is dropped",
            h.event.name
        );
        r.add(LossKind::HandlerTypeMissing, &h.at, ev, why);
        return false;
    }
    let url = o.get("url").and_then(Value::as_str).unwrap_or("https://");
    if h.handler.ty == HandlerType::Http
        && HTTPS_ONLY.contains(&h.event.name)
        && !url.to_ascii_lowercase().starts_with("https://")
    {
        let why =
            format!("Copilot takes http hooks on {} over https only: the hook is dropped", h.event.name);
        r.add(LossKind::HandlerTypeMissing, &h.at, ev, why);
        return false;
    }
    match o.remove("shell").as_ref().and_then(Value::as_str) {
        Some("bash") => port::rename(o, "command", "bash"),
        Some("powershell") => port::rename(o, "command", "powershell"),
        _ if o.contains_key("args") => port::rename(o, "command", "exec"),
        _ => {}
    }
    port::rename(o, "timeout", "timeoutSec");
    port::without_fail_closed("Copilot", h, o, r);
    true
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        tool_name: |n| tools::copilot_name(n).to_string(),
        flat: true,
        keeps: write::Keeps { cwd: Some("cwd"), env: true, ..write::Keeps::default() },
        entry: &entry,
        ..write::Target::new(&CopilotShape, &PROFILE)
    };
    json!({"version": 1, "hooks": write::hooks(&target, m, r)})
}
