//! A port's model as Mistral Vibe's `hooks.toml`: one flat list of `[[hooks]]` tables `{name,
//! type, command, match, timeout, strict}` with Vibe's three types (`pre_tool`, `post_tool`,
//! `post_agent`). A `match` is a glob on the whole name, case-insensitive, or a regex after
//! `re:`: a matcher that is not a plain name is written `re:…`. Every hook needs a `name`,
//! unique in the file: the source's when it has one, else `hook-N`. `failClosed` is Vibe's
//! `strict` on tool hooks. The document is JSON here; the port prints it as TOML.

use super::PROFILE;
use super::matcher::VibeMatcher;
use crate::catalog::HandlerType;
use crate::dialect::porting::{self as port, Hook, LossKind, Model, Report};
use crate::dialect::settings::{HandlerKeys, write};
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value, json};
use std::cell::RefCell;
use std::collections::HashSet;

/// What Vibe reads of a hook, for the writer (its reader is its own, `config.rs`).
const SHAPE: write::Reads = write::Reads {
    agent: "Vibe",
    matcher: |raw, _| {
        let text = raw.map(vibe_text);
        VibeMatcher::compile(text.as_deref()).map(|m| (GroupMatcher::new(m), None))
    },
    keys: HandlerKeys::COMMAND_ONLY,
    types: &[HandlerType::Command],
};

/// A matcher text as Vibe's `match`: a name (letters, digits, `_`, `.`, `-`) as a glob, which
/// matches the whole name; anything else as the regex it is, after `re:`.
fn vibe_text(text: &str) -> String {
    let plain = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
    if plain { text.to_string() } else { format!("re:{text}") }
}

pub fn write(m: &Model, r: &mut Report) -> Value {
    let names: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
    let entry = |h: &Hook, o: &mut Map<String, Value>, r: &mut Report| {
        let ev = Some(h.event.name);
        o.remove("type");
        if let Some(Value::String(text)) = o.remove("matcher") {
            o.insert("match".into(), Value::String(vibe_text(&text)));
        }
        if o.remove("failClosed").is_some() {
            match h.event.tool_event {
                true => {
                    o.insert("strict".into(), Value::Bool(true));
                }
                false => {
                    let why =
                        "Vibe has no `strict` on post_agent: a hook that fails lets the turn end".into();
                    r.add(LossKind::FailurePolicy, &h.at, ev, why);
                }
            }
        }
        let mut names = names.borrow_mut();
        let wanted = h.handler.name.clone().filter(|n| !n.trim().is_empty() && !names.contains(n));
        let name = wanted.unwrap_or_else(|| {
            let n = (names.len()..).map(|i| format!("hook-{i}")).find(|n| !names.contains(n));
            n.unwrap_or_default()
        });
        names.insert(name.clone());
        o.insert("name".into(), Value::String(name));
        true
    };
    let target = write::Target {
        tool_name: |n| super::tools::namespaced(n).rsplit('.').next().unwrap_or(n).to_string(),
        flat: true,
        keeps: write::Keeps { name: Some("name"), ..write::Keeps::default() },
        entry: &entry,
        ..write::Target::new(&SHAPE, &PROFILE)
    };
    json!({"hooks": port::listed(write::hooks(&target, m, r), "type")})
}
