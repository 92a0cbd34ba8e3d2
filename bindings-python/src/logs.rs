//! `hookwire._native.set_log_sink`: the core's one log sink (docs/logging.md) as a Python
//! callable. The Python half (`hookwire/_logging.py`) turns each record into a `logging` record;
//! this file only moves records across the language boundary (CONTRIBUTING.md rule 1).
//!
//! The sink runs on the thread that emitted the record, which never holds the GIL there (every
//! call into the core runs detached), and takes the GIL only for the call (`Python::try_attach`).
//! Registering runs detached too: the core waits for sink calls in progress, which may be
//! waiting for the GIL. An exception in the callable goes to `sys.unraisablehook`; a dying
//! interpreter drops the record. Nothing here reaches the fire.

use crate::dispatcher::{detached, loads};
use crate::errors::{Side, to_pyerr};
use hookwire_core::{ErrorDetails, ErrorKind, LogLevel, LogRecord, LogSink};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::Arc;

/// `fn(level: int, target: str, message: str, fields: dict) -> None` as the core's sink.
fn sink(f: Py<PyAny>) -> LogSink {
    Arc::new(move |r: &LogRecord| {
        let fields = serde_json::to_string(&r.fields).unwrap_or_else(|_| "{}".to_string());
        Python::try_attach(|py| {
            let call = || -> PyResult<()> {
                let fields = loads(py)?.call1((PyString::new(py, &fields),))?;
                f.bind(py).call1((r.level.code(), r.target, &r.message, fields))?;
                Ok(())
            };
            if let Err(e) = call() {
                e.write_unraisable(py, Some(f.bind(py)));
            }
        });
    })
}

/// Registers `fn` as the process's log sink at `level` (0 off, 1 error, 2 warn, 3 info,
/// 4 debug, 5 trace), replacing an earlier one; `None` or level 0 turns logging off. When it
/// returns, the earlier sink is not running on any thread. Raises `ValueError` for another
/// level, `TypeError` when `fn` is not callable, `HookwireError` when called from the sink.
#[pyfunction]
#[pyo3(signature = (r#fn, level))]
pub(crate) fn set_log_sink(py: Python<'_>, r#fn: Option<Bound<'_, PyAny>>, level: i32) -> PyResult<()> {
    let Some(level) = LogLevel::from_code(level) else {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "level must be 0 (off) to 5 (trace), not {level}"
        )));
    };
    let sink = match r#fn {
        Some(f) if !f.is_callable() => {
            return Err(pyo3::exceptions::PyTypeError::new_err("fn must be callable"));
        }
        Some(f) => Some(sink(f.unbind())),
        None => None,
    };
    detached(py, || {
        hookwire_core::set_log_sink(sink, level)
            .map_err(|e| ErrorDetails::new(ErrorKind::Internal, e.to_string()))
    })
    .map_err(|details| to_pyerr(py, Side::Config, details))
}
