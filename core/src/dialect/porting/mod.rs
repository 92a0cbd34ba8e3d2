//! What a dialect's `write.rs` is given and fills in, for `hookwire port` (`port/`): the model
//! of a source configuration as the engine loaded it (`model.rs`), the report of what a port
//! changes (`loss.rs`), and the probes that compare two dialects' matchers on sample values
//! (`probe.rs`). Here, beside the dialects, as `answering.rs` is for the bridge, so that the
//! writers in each dialect's folder and the port that calls them never import each other.

mod carried;
pub mod loss;
mod model;
mod probe;

pub(crate) use carried::{env_of, sequential};
pub use loss::{At, Loss, LossKind, Report};
pub use model::{Hook, Model};
pub(crate) use probe::{candidates, differences, same_name, say, tools};

use crate::catalog::{self, EventSpec};
use crate::dialect::Profile;
use serde_json::Value;

/// A dialect's writer: the model as a document of the dialect, changes recorded in the report.
pub type WriteFn = fn(&Model, &mut Report) -> Value;

/// The name under which a dialect configures the canonical event `spec`; `None`: it has none.
pub fn native_name(profile: &Profile, spec: &EventSpec) -> Option<&'static str> {
    match profile.native_events {
        None => spec.native_of.is_none().then_some(spec.name),
        Some(_) => profile.native_name(spec),
    }
}

/// The canonical events a dialect's configured name `name` runs on.
pub fn events_of(profile: &Profile, name: &str) -> Vec<&'static EventSpec> {
    match profile.native_events {
        None => catalog::lookup(name).into_iter().map(catalog::spec).collect(),
        Some(_) => profile.event_ids(name).into_iter().map(catalog::spec).collect(),
    }
}

/// For a target whose reader has no `failClosed`: the key is taken out of a written handler
/// and, when it was set, reported (a hook that fails now lets the action through there).
pub(crate) fn without_fail_closed(
    agent: &str,
    h: &Hook,
    o: &mut serde_json::Map<String, Value>,
    r: &mut Report,
) {
    if o.remove("failClosed").is_some() {
        let why =
            format!("{agent} has no `failClosed`: a hook that fails or times out lets the action through");
        r.add(LossKind::FailurePolicy, &h.at, Some(h.event.name), why);
    }
}

/// A written handler for a target whose hooks are all commands without a `type` key and
/// without `failClosed` (Crush, Windsurf, Kimi, ok): both taken out, the second reported.
pub(crate) fn typeless(
    agent: &str,
    h: &Hook,
    o: &mut serde_json::Map<String, Value>,
    r: &mut Report,
) -> bool {
    o.remove("type");
    without_fail_closed(agent, h, o, r);
    true
}

/// Renames key `from` of a written handler to `to`, when it is there.
pub(crate) fn rename(o: &mut serde_json::Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = o.remove(from) {
        o.insert(to.to_string(), v);
    }
}

/// A flat map of event name → entries as one list of entries, each naming its event under
/// `key` (Kimi's and Vibe's `[[hooks]]` tables), events in the map's order.
pub(crate) fn listed(hooks: Value, key: &str) -> Value {
    let Value::Object(map) = hooks else { return Value::Array(Vec::new()) };
    let mut out = Vec::new();
    for (event, entries) in map {
        for e in entries.as_array().into_iter().flatten() {
            let mut o = serde_json::Map::new();
            o.insert(key.to_string(), Value::String(event.clone()));
            o.extend(e.as_object().into_iter().flatten().map(|(k, v)| (k.clone(), v.clone())));
            out.push(Value::Object(o));
        }
    }
    Value::Array(out)
}

/// A written timeout as a whole number of seconds within `range` (Kimi's 1 to 600, Antigravity's
/// 1 to 86,400), rounded up; a change is one loss, in the target `agent`'s terms.
pub(crate) fn whole_seconds(
    agent: &str,
    range: std::ops::RangeInclusive<f64>,
    h: &Hook,
    o: &mut serde_json::Map<String, Value>,
    r: &mut Report,
) {
    let Some(t) = o.get("timeout").and_then(Value::as_f64) else { return };
    let whole = t.ceil().clamp(*range.start(), *range.end());
    if whole != t {
        let why = format!(
            "timeout {t} s written as {whole} s: {agent} takes whole seconds from {} to {}",
            range.start(),
            range.end()
        );
        r.add(LossKind::FieldDropped, &h.at, Some(h.event.name), why);
    }
    o.insert("timeout".into(), Value::from(whole as i64));
}
