//! `hookwire._native`: the compiled half of the `hookwire` Python package.
//!
//! A thin shell over `hookwire-core` (CONTRIBUTING.md rule 1): this file only assembles the module.
//! The class lives in `dispatcher.rs`, the cancellation token in `cancel.rs`, Python callables
//! as handlers in `functions.rs`, the exceptions in `errors.rs`, `record_trust` in `trust.rs`, `host_step` in `host_step.rs`,
//! `host_event` in `host_event.rs`, `claude_code_defaults` in `defaults.rs`, the log sink in `logs.rs`, a dict's JSON text in
//! `encode.rs`, the decoded no-match results in `results.rs`;
//! `fire_async` is Python code in `python/hookwire/__init__.py`.

mod cancel;
mod defaults;
mod dispatcher;
mod encode;
mod errors;
mod functions;
mod host_event;
mod host_step;
mod logs;
mod results;
mod trust;

use pyo3::prelude::*;

/// The native module. `gil_used = false` is the default; it is written out to say that the
/// module is safe without the GIL: the dispatcher is `Send + Sync` and holds no Python state.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", hookwire_core::version())?;
    m.add("CLAUDE_CODE_VERSION", hookwire_core::CLAUDE_CODE_VERSION)?;
    m.add("MAX_STOP_CONTINUATIONS", hookwire_core::MAX_STOP_CONTINUATIONS)?;
    m.add_class::<dispatcher::Dispatcher>()?;
    m.add_class::<cancel::CancelToken>()?;
    m.add_function(wrap_pyfunction!(trust::record_trust, m)?)?;
    m.add_function(wrap_pyfunction!(host_step::host_step, m)?)?;
    m.add_function(wrap_pyfunction!(host_step::host_step_for, m)?)?;
    m.add_function(wrap_pyfunction!(host_event::host_event, m)?)?;
    m.add_function(wrap_pyfunction!(defaults::claude_code_defaults, m)?)?;
    m.add_function(wrap_pyfunction!(logs::set_log_sink, m)?)?;
    errors::register(m)?;
    Ok(())
}
