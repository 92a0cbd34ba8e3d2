//! `hookwire._native.claude_code_defaults`: Claude Code's default sources for a project, as the
//! core writes them (`hookwire_core::claude_code_defaults`); no layering rule lives here.

use crate::dispatcher::loads;
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::path::{Path, PathBuf};

/// The envelope's JSON text, or the `OSError` (with `errno` and `filename`) of a project
/// directory that cannot be resolved.
pub(crate) fn envelope_json(py: Python<'_>, project_dir: &Path) -> PyResult<String> {
    match py.detach(|| hookwire_core::claude_code_defaults(project_dir)) {
        Ok(envelope) => Ok(envelope.to_string()),
        Err(e) => {
            let filename = project_dir.to_string_lossy().into_owned();
            Err(match e.raw_os_error() {
                Some(code) => PyOSError::new_err((code, e.to_string(), filename)),
                None => PyOSError::new_err(format!("{filename}: {e}")),
            })
        }
    }
}

/// The configuration Claude Code itself would load for the project at `project_dir`: an
/// envelope with the user file `~/.claude/settings.json`, then the project's
/// `.claude/settings.json` and `.claude/settings.local.json`, the project ones gated on the
/// default trust store. `project_dir` is resolved to its canonical path; a directory that
/// cannot be resolved raises `OSError`. Pass the dict to `Dispatcher`, or use
/// `Dispatcher.from_claude_code_defaults(project_dir)`.
#[pyfunction]
pub fn claude_code_defaults<'py>(py: Python<'py>, project_dir: PathBuf) -> PyResult<Bound<'py, PyAny>> {
    let json = envelope_json(py, &project_dir)?;
    loads(py)?.call1((PyString::new(py, &json),))
}
