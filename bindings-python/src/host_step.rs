//! `hookwire._native.host_step`: what an agent loop does next with a result (agents.md §5).
//!
//! A thin shell over `hookwire_core::HostStep::of_json`: the result is taken like an event
//! (a dict, or JSON text as str or bytes) and the step comes back as a dict. The framework
//! adapters in `hookwire.adapters` call it; no rule of the loop lives in Python.

use crate::dispatcher::{Input, loads};
use crate::errors::{Side, to_pyerr};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The host step of `result` (the dict `Dispatcher.fire` returned, or its JSON text): a dict
/// with `event`, `action` (`run_tool`, `deny_tool`, `defer_tool`, `deliver_result`,
/// `call_model`, `block_prompt`, `continue_turn`, `end_turn`, `switch_model`, `keep_model`,
/// `proceed`), `tool_input`, `message`, `feedback`, `tool_output`, `prompt`, `context`,
/// `user_message`, `stop`, `seen_by` (who sees each text) and `approved` (a `run_tool` a hook
/// allowed: the host's own approval is not asked) (schema/host-step.schema.json). Raises
/// `EventError` for something that is not a result, `TypeError` for an argument that is not a
/// dict, str or bytes.
#[pyfunction]
pub fn host_step<'py>(py: Python<'py>, result: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    pure_json_call(py, result, hookwire_core::HostStep::of_json)
}

/// The one shell of the binding's pure JSON calls (`host_step`, `host_step_for`,
/// `host_event`): `value` is read like an event (a dict, or JSON text as str or bytes), `f`
/// answers its text with JSON, which comes back as a Python value; its error is an
/// `EventError`.
pub(crate) fn pure_json_call<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    f: impl Fn(&str) -> Result<String, hookwire_core::EventError>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = Input::from_py(py, value, Side::Event)?;
    let answer = match input.as_text() {
        Ok(s) => f(s),
        Err(b) => hookwire_core::event_text(b).and_then(&f),
    };
    match answer {
        Ok(json) => loads(py)?.call1((PyString::new(py, &json),)),
        Err(e) => Err(to_pyerr(py, Side::Event, e.details())),
    }
}

/// As `host_step`, for a PostToolUse result of a tool whose output, as JSON text, was
/// `tool_response`: the step's `tool_output` is kept only when it has the JSON kind of that
/// output, else it is `None` (keep the real output). Raises `EventError` as `host_step` does,
/// and for `tool_response` text that is not JSON.
#[pyfunction]
pub fn host_step_for<'py>(
    py: Python<'py>,
    result: &Bound<'py, PyAny>,
    tool_response: &str,
) -> PyResult<Bound<'py, PyAny>> {
    pure_json_call(py, result, |s| hookwire_core::HostStep::of_json_for(s, tool_response))
}
