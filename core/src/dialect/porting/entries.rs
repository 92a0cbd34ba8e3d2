//! What writers whose targets read hooks their own way do to a written handler or document:
//! rename a key, take out one the target has no such thing as (and report it), round a timeout,
//! list a map of events as one list of entries.

use super::{Hook, LossKind, Report};
use serde_json::{Map, Value};

/// For a target whose reader has no `failClosed`: the key is taken out of a written handler
/// and, when it was set, reported (a hook that fails now lets the action through there).
pub(crate) fn without_fail_closed(agent: &str, h: &Hook, o: &mut Map<String, Value>, r: &mut Report) {
    if o.remove("failClosed").is_some() {
        let why =
            format!("{agent} has no `failClosed`: a hook that fails or times out lets the action through");
        r.add(LossKind::FailurePolicy, &h.at, Some(h.event.name), why);
    }
}

/// A written handler for a target whose hooks are all commands without a `type` key and
/// without `failClosed` (Crush, Windsurf, Kimi, ok): both taken out, the second reported.
pub(crate) fn typeless(agent: &str, h: &Hook, o: &mut Map<String, Value>, r: &mut Report) -> bool {
    o.remove("type");
    without_fail_closed(agent, h, o, r);
    true
}

/// Renames key `from` of a written handler to `to`, when it is there.
pub(crate) fn rename(o: &mut Map<String, Value>, from: &str, to: &str) {
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
            let mut o = Map::new();
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
    o: &mut Map<String, Value>,
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
