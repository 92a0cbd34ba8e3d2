//! VS Code's hooks documents (agents-2.md §2.2): Claude Code's settings shape, where an entry
//! may also sit flat under its event, and Copilot CLI's hooks files, which VS Code converts.
//! Each entry's command for this OS (`linux`, `osx`, `windows`) wins over `command`; a Copilot
//! entry's `bash` is the Unix command and its `timeoutSec` the timeout. Matchers are parsed and
//! ignored, as VS Code ignores them: the hook runs for every tool, which is said once per group.

use super::PROFILE;
use crate::catalog::{EventId, EventSpec, HandlerType, Rules};
use crate::config::{ConfigWarnings, DocContext, Fields, Group, Handler, Knobs, Parse};
use crate::dialect::settings::{self, HandlerKeys, ReadMatcher, SettingsShape};
use crate::error::ConfigError;
use crate::matcher::{GroupMatcher, Matcher};
use serde_json::{Map, Value};

/// Copilot CLI's camelCase events that VS Code reads from its files, and VS Code's names.
const COPILOT_NAMES: &[(&str, &str)] = &[
    ("sessionStart", "SessionStart"),
    ("userPromptSubmitted", "UserPromptSubmit"),
    ("preToolUse", "PreToolUse"),
    ("postToolUse", "PostToolUse"),
    ("preCompact", "PreCompact"),
    ("subagentStart", "SubagentStart"),
    ("subagentStop", "SubagentStop"),
    ("agentStop", "Stop"),
];

/// The key of this OS's command in an entry.
const OS_KEY: &str = if cfg!(target_os = "macos") {
    "osx"
} else if cfg!(windows) {
    "windows"
} else {
    "linux"
};

pub(crate) fn read(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    // The same document with each entry's command for this OS in `command`: pointers into it
    // are pointers into the file.
    let mut doc = doc.clone();
    if let Some(hooks) = doc.get_mut("hooks").and_then(Value::as_object_mut) {
        for item in hooks.values_mut().filter_map(Value::as_array_mut).flatten() {
            match item.get_mut("hooks").and_then(Value::as_array_mut) {
                Some(handlers) => handlers.iter_mut().filter_map(Value::as_object_mut).for_each(this_os),
                None => item.as_object_mut().into_iter().for_each(this_os),
            }
        }
    }
    settings::read_document(&VsCodeShape, &doc, cx, p, events, warnings)
}

/// Puts the entry's command for this OS in `command`, as VS Code picks it.
fn this_os(entry: &mut Map<String, Value>) {
    let own = entry.get(OS_KEY).filter(|c| c.is_string()).cloned();
    let bash = entry.get("bash").filter(|c| c.is_string() && !cfg!(windows)).cloned();
    match (own, entry.contains_key("command"), bash) {
        (Some(c), _, _) => drop(entry.insert("command".into(), c)),
        (None, false, Some(b)) => drop(entry.insert("command".into(), b)),
        _ => {}
    }
    if !entry.contains_key("type") && entry.contains_key("command") {
        entry.insert("type".into(), Value::String("command".into()));
    }
    if !entry.contains_key("timeout")
        && let Some(t) = entry.get("timeoutSec").cloned()
    {
        entry.insert("timeout".into(), t);
    }
}

/// VS Code's reading of the settings shape.
pub(super) struct VsCodeShape;

impl SettingsShape for VsCodeShape {
    fn event_ids_of(&self, name: &str) -> Vec<EventId> {
        let name = COPILOT_NAMES.iter().find(|(c, _)| *c == name).map_or(name, |(_, v)| v);
        PROFILE.event_ids(name)
    }

    fn unknown_event(&self, name: &str) -> String {
        format!("VS Code has no event \"{name}\"")
    }

    fn flat_handlers(&self) -> bool {
        true
    }

    /// Ignored, as VS Code ignores it: the hook runs for every tool.
    fn group_matcher(&self, raw: Option<&str>, _spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        let warning = raw.map(str::trim).filter(|m| !m.is_empty() && *m != "*").map(|m| {
            format!("VS Code ignores matchers; matcher {m:?} is not applied and this hook runs on every tool")
        });
        Ok((GroupMatcher::new(Matcher::All), warning))
    }

    /// `command` and `timeout`; no `if`, run modes or exec form (not in VS Code's hooks).
    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys::COMMAND_ONLY
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (ty != HandlerType::Command).then(|| "VS Code runs command hooks only".to_string())
    }

    fn own_keys(&self, _group: &Fields<'_>, f: &Fields<'_>, h: &mut Handler) -> Result<(), (String, String)> {
        let env = settings::handler_env(f)?;
        h.cwd = f.string("cwd")?.map(Into::into);
        // Gemini's knob without its `sequential` (VS Code has no such key): one `env` reader.
        h.knobs = Knobs::new(settings::SequentialEnv { sequential: false, env });
        Ok(())
    }
}
