//! Hooks deferred to the end of a turn (`RunMode::TurnEnd`; Kiro CLI's postToolUse hooks with
//! `only_when_turn_complete: true`): a fire that selects one records its event for the session
//! (`Sessions::defer`) instead of running it, and the session's next `Stop` runs it once, before
//! the Stop hooks, with every event recorded since. What the batch looks like on the hook's
//! stdin is its dialect's business: the engine hands the dialect one event of the deferred
//! kind carrying the recorded events under [`EVENTS_KEY`].

use crate::catalog::EventSpec;
use crate::fold;
use crate::result::FireResult;
use serde_json::{Map, Value};

/// The key of a turn-end batch event that holds the recorded events, oldest first. Only a
/// dialect that defers hooks (its payload builds the batch's stdin) ever sees it.
pub const EVENTS_KEY: &str = "hook_events";

/// The event whose end runs the deferred hooks: the main agent's turn ending.
pub const TURN_END: &str = "Stop";

/// The event a turn-end run fires for the hooks deferred on `spec`: `spec`'s name, the
/// session's keys from the `Stop` event that ends the turn, and the recorded events.
pub fn batch_event(stop: &Value, spec: &EventSpec, events: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("hook_event_name".into(), Value::String(spec.name.into()));
    for key in ["session_id", "transcript_path", "cwd", "permission_mode"] {
        if let Some(v) = stop.get(key) {
            m.insert(key.into(), v.clone());
        }
    }
    m.insert(EVENTS_KEY.into(), Value::Array(events));
    Value::Object(m)
}

/// What a turn-end run adds to the `Stop` result: its outcomes (before the Stop hooks'), its
/// warnings and its context. Its decision is not the Stop's: a hook deferred from a tool event
/// never ends or continues the turn.
pub fn merge(into: &mut FireResult, run: FireResult) {
    into.outcomes.extend(run.outcomes);
    into.warnings.extend(run.warnings);
    let before = into.additional_context.take();
    into.additional_context = fold::join_texts(
        fold::CONTEXT_SEPARATOR,
        before.iter().chain(&run.additional_context).map(String::as_str),
    );
}

/// The warning for events dropped while a turn was too long to keep them all.
pub fn dropped_note(dropped: usize) -> String {
    format!(
        "{dropped} older deferred events of this turn were dropped for space; the turn-end hooks got the most recent ones"
    )
}
