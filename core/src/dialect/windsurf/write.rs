//! A port's model as Windsurf's `hooks.json`: `{"hooks": {event: [{command, working_directory},
//! …]}}`. Windsurf has no matchers, no timeouts and command hooks only (run with `bash -c`):
//! its events are its matchers, so a tool hook is written under each of Windsurf's events
//! whose kind of tool the source's matcher accepts (a `Bash` guard under `pre_run_command`, a
//! `*` guard under all four `pre_*` tool events), and what that union accepts differently from
//! the source's matcher (tools Windsurf has no hook for, such as `Grep`) is reported.

use super::kind::Kind;
use super::{EVENTS, PROFILE};
use crate::catalog::{EventSpec, HandlerType, Shell};
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use crate::matcher::{GroupMatch, GroupMatcher, Matcher, tool_name};
use serde_json::{Value, json};

/// What Windsurf reads of a hook, for the writer (its reader is its own, `config.rs`): no
/// matcher key (only "every value" reads), commands run by bash.
const SHAPE: write::Reads = write::Reads {
    agent: "Windsurf",
    matcher: |raw, _| match raw {
        None => Ok((GroupMatcher::new(Matcher::All), None)),
        Some(_) => Err("Windsurf hooks have no matcher".into()),
    },
    keys: HandlerKeys { shell: Shell::Bash, ..HandlerKeys::COMMAND_ONLY },
    types: &[HandlerType::Command],
};

/// The tools the hooks of some Windsurf events see together: what a hook written under each
/// of them runs for.
#[derive(Debug)]
struct Kinds(Vec<Kind>);

impl GroupMatch for Kinds {
    fn describe(&self) -> String {
        let names: Vec<&str> = self.0.iter().map(|k| k.name()).collect();
        names.join(" + ")
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        !spec.tool_event || self.0.iter().any(|k| k.takes_tool(tool_name(event)))
    }

    fn matches_value(&self, spec: &EventSpec, value: &str) -> Option<bool> {
        Some(!spec.tool_event || self.0.iter().any(|k| k.takes_tool(value)))
    }
}

/// Windsurf's events for hook `h`: those standing for its event whose tools its matcher
/// accepts; the difference from the source's matcher reported.
fn split(h: &Hook, r: &mut Report) -> Vec<&'static str> {
    let ev = Some(h.event.name);
    let of_event: Vec<(&'static str, Kind)> = EVENTS
        .iter()
        .filter(|e| e.canonical.contains(&h.event.name))
        .filter_map(|e| Kind::of(e.name).map(|k| (e.name, k)))
        .collect();
    if of_event.is_empty() {
        let why = format!("windsurf has no {} event: the hook is dropped", h.event.name);
        r.add(LossKind::EventDropped, &h.at, ev, why);
        return Vec::new();
    }
    let accepts = |t: &str| h.matcher.matches(h.event, t, &json!({"tool_name": t, "tool_input": {}}));
    let chosen: Vec<(&'static str, Kind)> = match h.event.tool_event {
        true => of_event
            .into_iter()
            .filter(|(_, k)| port::tools().any(|t| k.takes_tool(t) && accepts(t)))
            .collect(),
        false => of_event,
    };
    if chosen.is_empty() {
        let why = format!(
            "matcher {}: Windsurf has a hook for none of the tools it matches: the hook is dropped",
            h.matcher.describe()
        );
        r.add(LossKind::MatcherDiffers, &h.at, ev, why);
        return Vec::new();
    }
    let union = GroupMatcher::new(Kinds(chosen.iter().map(|(_, k)| *k).collect()));
    let (diffs, _) = port::differences(h.event, &h.matcher, h.matcher.pattern().as_ref(), &union);
    if !diffs.is_empty() {
        let why = format!(
            "matcher {}: written under {} (Windsurf's events are its matchers): {}",
            h.matcher.describe(),
            union.describe(),
            port::say(&diffs)
        );
        r.add(LossKind::MatcherDiffers, &h.at, ev, why);
    }
    chosen.into_iter().map(|(n, _)| n).collect()
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let target = write::Target {
        flat: true,
        timeouts: false,
        keeps: write::Keeps { cwd: Some("working_directory"), ..write::Keeps::default() },
        entry: &|h, o, r| port::typeless("windsurf", h, o, r),
        split: Some(&split),
        ..write::Target::new(&SHAPE, &PROFILE)
    };
    json!({"hooks": write::hooks(&target, m, r)})
}
