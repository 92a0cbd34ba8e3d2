//! What the test binaries that change the host's process-wide state (signal dispositions,
//! descriptors) share: one lock for their tests, and a PreToolUse fire through the public API.
#![allow(clippy::unwrap_used)]

use hookwire_core::Dispatcher;
use serde_json::{Value, json};
use std::sync::{Mutex, MutexGuard};

/// Held by every test of the binary: the state they change is the whole process's.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A dispatcher with one PreToolUse group of `handlers` (a JSON array), matching every tool.
pub fn dispatcher(handlers: Value) -> Dispatcher {
    let cfg = json!({"hooks": {"PreToolUse": [{"hooks": handlers}]}});
    Dispatcher::new(&cfg.to_string()).unwrap()
}

/// Fires a PreToolUse event of the Bash tool; the result JSON.
pub fn fire(d: &Dispatcher) -> Value {
    let e = json!({
        "hook_event_name": "PreToolUse", "session_id": "host-state", "cwd": "/",
        "tool_name": "Bash", "tool_input": {"command": "ls"},
    });
    serde_json::from_str(&d.fire_json(&e.to_string()).unwrap()).unwrap()
}
