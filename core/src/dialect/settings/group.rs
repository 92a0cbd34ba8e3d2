//! One matcher group of the settings shape: `{"matcher": ..., "hooks": [handler, ...]}` plus
//! the keys its dialect reads (Gemini's `sequential`). Its matcher is compiled once per
//! document and text; a matcher that cannot match any value of a closed set is kept and said.

use super::{Compiled, Event, SettingsShape, handler, never_runs_all, note_all};
use crate::catalog::{EventSpec, MatchOn};
use crate::config::{ConfigWarnings, DocContext, Fields, Group, Parse, escape};
use crate::error::ConfigError;
use crate::matcher::{GroupMatcher, Matcher};
use serde_json::{Map, Value};

#[allow(clippy::too_many_arguments)]
pub(super) fn read<'d>(
    shape: &dyn SettingsShape,
    g: &'d Value,
    event: &Event<'_>,
    gi: usize,
    gptr: &str,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
    compiled: &mut Compiled<'d>,
) -> Result<Option<Group>, ConfigError> {
    let spec = event.spec();
    let flat = shape.flat_handlers() && g.as_object().is_some_and(|o| !o.contains_key("hooks"));
    let obj = match g.as_object() {
        Some(obj) if flat => obj,
        _ => match group_object(g, gptr, p, warnings)? {
            Some(obj) => obj,
            None => return Ok(None),
        },
    };
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return p.fail(warnings, &format!("{gptr}/matcher"), "`matcher` must be a string"),
    };
    let hooks: &[Value] = if flat {
        std::slice::from_ref(g)
    } else {
        let Some(hooks) = obj.get("hooks") else {
            return p.fail(warnings, &format!("{gptr}/hooks"), "a matcher group needs a `hooks` array");
        };
        let Some(hooks) = hooks.as_array() else {
            return p.fail(warnings, &format!("{gptr}/hooks"), "`hooks` must be an array of handlers");
        };
        hooks
    };
    let group_id = format!("{}:{}[{gi}]", cx.info.id_label, event.name);
    let own = shape.group_keys();
    // A flat entry's other keys are its handler's, read there.
    let group_keys = obj.keys().filter(|_| !flat);
    for key in group_keys.filter(|k| *k != "matcher" && *k != "hooks" && !own.contains(&k.as_str())) {
        let at = format!("{gptr}/{}", escape(key));
        let why = match key.as_str() {
            "if" => format!(
                "{group_id}: `if` belongs on a handler, not on its matcher group; ignored here, so the group's hooks run on every {} event",
                event.name
            ),
            _ => format!("{group_id}: unknown group key \"{key}\" ignored"),
        };
        note_all(warnings, event.ids, &at, why);
    }
    let at = format!("{gptr}/matcher");
    let compiled_matcher = compiled
        .matchers
        .entry((event.ids[0], matcher_raw))
        .or_insert_with(|| shape.group_matcher(matcher_raw, spec, cx.rules))
        .clone();
    let matcher = match compiled_matcher {
        Ok((m, warning)) => {
            if let Some(w) = warning {
                note_all(warnings, event.ids, &at, format!("{group_id}: {w}"));
            }
            if !m.can_match_any(spec.matcher_values) {
                // Kept as configured (a later Claude Code may send a new value); `validate`
                // says so.
                let why = closed_set_miss(spec, matcher_raw.unwrap_or(""));
                never_runs_all(warnings, event.ids, &at, format!("{group_id}: {why}; this group never runs"));
            }
            m
        }
        Err(why) => {
            never_runs_all(warnings, event.ids, &at, format!("{group_id}: {why}; this group never runs"));
            GroupMatcher::new(Matcher::Never)
        }
    };
    let mut handlers = Vec::new();
    for (hi, h) in hooks.iter().enumerate() {
        let at = match flat {
            true => handler::At { id: group_id.clone(), ptr: gptr.to_string() },
            false => handler::At { id: format!("{group_id}.hooks[{hi}]"), ptr: format!("{gptr}/hooks/{hi}") },
        };
        let group = Fields { obj, hptr: gptr };
        if let Some(handler) = handler::read(shape, h, &group, event, at, cx, p, warnings, compiled)? {
            handlers.push(handler);
        }
    }
    Ok(Some(Group { matcher, handlers }))
}

/// A matcher group as an object, or the problem with it: not an object, or a handler written
/// where its group should be.
fn group_object<'a>(
    g: &'a Value,
    gptr: &str,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<&'a Map<String, Value>>, ConfigError> {
    let Some(obj) = g.as_object() else {
        return p.fail(
            warnings,
            gptr,
            "a matcher group must be an object {\"matcher\": ..., \"hooks\": [...]}",
        );
    };
    if !obj.contains_key("hooks") && (obj.contains_key("type") || obj.contains_key("command")) {
        return p.fail(
            warnings,
            gptr,
            "a handler must sit inside a matcher group: wrap it in {\"hooks\": [ ... ]}",
        );
    }
    Ok(Some(obj))
}

/// Why a matcher names none of the values an event's matcher field takes (a closed set).
fn closed_set_miss(spec: &EventSpec, raw: &str) -> String {
    let field = match spec.match_on {
        MatchOn::Field(f) | MatchOn::Basename(f) => f,
        MatchOn::Nothing => "",
    };
    format!(
        "matcher {raw:?} matches none of the values Claude Code sends in `{field}` on {} ({})",
        spec.name,
        spec.matcher_values.join(", ")
    )
}
