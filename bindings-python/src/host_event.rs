//! `hookwire._native.host_event`: the event a host (a framework adapter) fires, built from the
//! framework's facts by the core's one rule (`hookwire_core::HostFacts::event_of_json`).
//!
//! A thin shell: the facts are taken like an event (a dict, or JSON text as str or bytes) and
//! the event comes back as a dict, its keys in the core's order. No field of an event is
//! composed in Python.

use pyo3::prelude::*;

/// The event the host facts `facts` make (schema/host-facts.schema.json: `event`,
/// `session_id`, `cwd`, then what the event needs: `tool_name` and `tool_names`, `tool_input`,
/// `prompt`, `error`, ...): Claude Code's key order, `transcript_path` only when given,
/// `permission_mode` `default` unless given, the tool name mapped through `tool_names`.
/// Raises `EventError` (`invalid_json`, or `invalid_event` with a pointer to the fact at
/// fault), `TypeError` for an argument that is not a dict, str or bytes.
#[pyfunction]
pub fn host_event<'py>(py: Python<'py>, facts: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    crate::host_step::pure_json_call(py, facts, hookwire_core::HostFacts::event_of_json)
}
