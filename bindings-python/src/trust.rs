//! `hookwire._native.record_trust`: records trust in a configuration's project sources.
//!
//! A thin shell over `hookwire_core::record_trust_for` (protocol.md §2.8): the configuration is
//! taken like the `Dispatcher` constructor takes it, the store is written with the GIL released
//! and any panic caught, and the new trust status comes back as a dict. No trust rule lives here.

use crate::dispatcher::{Input, detached, loads};
use crate::errors::{Side, to_pyerr};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Records the SHA-256 of every project and local file source of `config` (a dict, or JSON
/// text as str or bytes) in the trust store: `trust.store`, else
/// `$XDG_CONFIG_HOME/hookwire/trust.json` or `~/.config/hookwire/trust.json`. Call it after
/// the user approved what `Dispatcher.trust_status()` showed; dispatchers built afterwards run
/// those sources until a file changes. Returns the new trust status (the dict of
/// `trust_status`). Raises `ConfigError` (the configuration, or no `project_dir`: pointer
/// `/project_dir`) and `HookwireError` (`internal`: the store could not be written); another
/// argument type raises `TypeError`. Safe to call from any thread; the GIL is released.
#[pyfunction]
pub fn record_trust<'py>(py: Python<'py>, config: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let input = Input::from_py(py, config, Side::Config)?;
    let recorded = detached(py, || {
        match input.as_text() {
            Ok(s) => hookwire_core::record_trust_for(s),
            Err(b) => hookwire_core::record_trust_for_bytes(b),
        }
        .map(|status| status.to_json())
        .map_err(|e| e.details())
    });
    match recorded {
        Ok(json) => loads(py)?.call1((PyString::new(py, &json),)),
        Err(details) => Err(to_pyerr(py, Side::Config, details)),
    }
}
