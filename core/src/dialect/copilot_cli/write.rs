//! A port's model as a Copilot CLI hooks file (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`):
//! `{"version": 1, "hooks": {event: [entry, …]}}` with Copilot's camelCase event names, one flat
//! entry per hook with its own `matcher` (a regex anchored on Copilot's tool names: `bash` for
//! Claude Code's `Bash`), the command as `command` (run by `sh -c`), `bash` or `powershell`
//! (by the shell it needs), or `exec` + `args`; `timeoutSec`, `cwd` and `env` carried;
//! `http` hooks as they are, prompt hooks on `sessionStart` only.

use super::matcher::CopilotMatcher;
use super::{PROFILE, Style, tools};
use crate::catalog::HandlerType;
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};

/// What Copilot reads of an entry, for the writer (its reader is its own, `config.rs`):
/// `exec` + `args` and a shell by key (`bash`, `powershell`); no `if`, run modes or
/// `statusMessage`.
const SHAPE: write::Reads = write::Reads {
    agent: "Copilot",
    matcher: |raw, _| CopilotMatcher::compile(Style::Camel, raw).map(|m| (GroupMatcher::new(m), None)),
    keys: HandlerKeys { exec_form: true, ..HandlerKeys::COMMAND_ONLY },
    types: &[HandlerType::Command, HandlerType::Http, HandlerType::Prompt],
};

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
        ..write::Target::new(&SHAPE, &PROFILE)
    };
    json!({"version": 1, "hooks": write::hooks(&target, m, r)})
}
