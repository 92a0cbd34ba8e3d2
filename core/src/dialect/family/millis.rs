//! Timeouts in milliseconds (Auggie, observed): the shared settings reader reads seconds, so a
//! member whose handlers say milliseconds hands it a copy of its `hooks` with every numeric
//! `timeout` divided by 1,000, and says so where the value looks meant as seconds. Only numbers
//! are touched; any other value reaches the shared reader as written, which reports it.

use crate::config::{ConfigWarnings, escape};
use serde_json::Value;

/// Below this, a millisecond timeout was almost surely meant as seconds (a warning).
const WARN_BELOW_MS: f64 = 1_000.0;
/// Longest timeout kept, one day, as in every dialect.
const MAX_MS: f64 = 86_400_000.0;

/// `hooks` (an event map) with its handlers' numeric timeouts in seconds. `ptr` is the JSON
/// pointer of `hooks` in its document.
pub fn to_seconds(hooks: &Value, ptr: &str, label: &str, warnings: &mut ConfigWarnings) -> Value {
    let mut copy = hooks.clone();
    let Some(events) = copy.as_object_mut() else { return copy };
    for (name, groups) in events.iter_mut() {
        let Some(groups) = groups.as_array_mut() else { continue };
        for (gi, group) in groups.iter_mut().enumerate() {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else { continue };
            for (hi, handler) in handlers.iter_mut().enumerate() {
                let Some(slot) = handler.get_mut("timeout") else { continue };
                let Some(ms) = slot.as_f64() else { continue };
                let at = format!("{ptr}/{}/{gi}/hooks/{hi}/timeout", escape(name));
                *slot = Value::from(seconds(ms, &at, label, warnings));
            }
        }
    }
    copy
}

/// One timeout in seconds, with a warning when it looks meant as seconds or is over a day.
fn seconds(ms: f64, at: &str, label: &str, warnings: &mut ConfigWarnings) -> f64 {
    if !ms.is_finite() || ms < 1.0 {
        // The shared reader refuses it (under 0.001 s) in its own words.
        return if ms.is_finite() { ms / 1_000.0 } else { -1.0 };
    }
    if ms > MAX_MS {
        let why = format!("{label}: timeout {ms} ms is over one day; clamped to {MAX_MS} ms");
        warnings.note(None, at, why);
        return MAX_MS / 1_000.0;
    }
    if ms < WARN_BELOW_MS {
        let why = format!(
            "{label}: timeout {ms} is in milliseconds ({} s), not seconds: the hook is killed almost at once",
            ms / 1_000.0
        );
        warnings.note(None, at, why);
    }
    ms / 1_000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numeric_timeouts_become_seconds_and_small_ones_warn() {
        let hooks = json!({"PreToolUse": [{"hooks": [
            {"type": "command", "command": "x", "timeout": 1500},
            {"type": "command", "command": "x", "timeout": 5},
            {"type": "command", "command": "x", "timeout": "5"},
            {"type": "command", "command": "x", "timeout": 1e12}]}]});
        let mut w = ConfigWarnings::new();
        let out = to_seconds(&hooks, "/hooks", "config", &mut w);
        let t = |i: usize| out["PreToolUse"][0]["hooks"][i]["timeout"].clone();
        assert_eq!((t(0), t(1), t(2), t(3)), (json!(1.5), json!(0.005), json!("5"), json!(86_400.0)));
        assert_eq!(w.global.len(), 2, "{:?}", w.global);
        assert!(w.global[0].contains("milliseconds (0.005 s)"));
    }

    #[test]
    fn anything_not_an_event_map_passes_through() {
        let mut w = ConfigWarnings::new();
        assert_eq!(to_seconds(&json!([1, 2]), "/hooks", "c", &mut w), json!([1, 2]));
        assert_eq!(
            to_seconds(&json!({"E": 3, "F": [{"hooks": 4}]}), "/hooks", "c", &mut w),
            json!({"E": 3, "F": [{"hooks": 4}]})
        );
    }
}
