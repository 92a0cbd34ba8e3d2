//! The exceptions of the `hookwire` package and the one function that turns a core error (a
//! caught panic included, as `ErrorDetails::from_panic` words it) into one of them.
//!
//! `HookwireError(Exception)` is the base; `ConfigError` and `EventError` sit beneath it
//! (abi.md §3, §6). Every instance raised here carries `.kind`, `.line`, `.column` and
//! `.pointer` (`None` when absent), and its message is `str(e)`. This module never raises a
//! bare `PyException` and never lets a `PanicException` (a `BaseException`) escape.

use hookwire_core::{ErrorDetails, ErrorKind};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyType;

create_exception!(
    hookwire,
    HookwireError,
    PyException,
    "Base of every hookwire error. `.kind` is one of the stable kinds of abi.md §6; `.line`, \
     `.column` (1-based, bytes) and `.pointer` (a JSON pointer) are `None` when absent. \
     Raised directly for `panic` and `internal`."
);
create_exception!(
    hookwire,
    ConfigError,
    HookwireError,
    "No dispatcher could be built: the configuration is not UTF-8, not JSON, or not a \
     configuration hookwire accepts."
);
create_exception!(
    hookwire,
    EventError,
    HookwireError,
    "The event could not be fired: it is not UTF-8, not JSON, or not an event. A failing hook \
     is never this: it is an outcome in the result."
);

/// The argument a failure is blamed on, which picks `ConfigError` or `EventError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Config,
    Event,
}

impl Side {
    /// The kind for a native value JSON cannot represent (a set, a NaN, a cycle, ...).
    pub(crate) fn invalid_kind(self) -> ErrorKind {
        match self {
            Side::Config => ErrorKind::InvalidConfig,
            Side::Event => ErrorKind::InvalidEvent,
        }
    }

    /// The word used in messages: "configuration" or "event".
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Side::Config => "configuration",
            Side::Event => "event",
        }
    }
}

/// Builds the exception for `details`: `panic`, `internal` and `null_pointer` (which Python
/// never produces) become `HookwireError`; every other kind is blamed on `side`.
pub(crate) fn to_pyerr(py: Python<'_>, side: Side, details: ErrorDetails) -> PyErr {
    let ErrorDetails { kind, message, line, column, pointer } = details;
    let err = match (kind, side) {
        (ErrorKind::Panic | ErrorKind::Internal | ErrorKind::NullPointer, _) => {
            HookwireError::new_err(message)
        }
        (_, Side::Config) => ConfigError::new_err(message),
        (_, Side::Event) => EventError::new_err(message),
    };
    let value = err.value(py);
    let set = value
        .setattr("kind", kind.as_str())
        .and_then(|()| value.setattr("line", line))
        .and_then(|()| value.setattr("column", column))
        .and_then(|()| value.setattr("pointer", pointer));
    match set {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// Registers the three exceptions in `m` and gives their classes `None` defaults for the
/// attributes, so an instance built by user code still answers `.kind` and friends.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let types: [(&str, Bound<'_, PyType>); 3] = [
        ("HookwireError", py.get_type::<HookwireError>()),
        ("ConfigError", py.get_type::<ConfigError>()),
        ("EventError", py.get_type::<EventError>()),
    ];
    for (name, ty) in types {
        if name == "HookwireError" {
            for attr in ["kind", "line", "column", "pointer"] {
                ty.setattr(attr, py.None())?;
            }
        }
        m.add(name, ty)?;
    }
    Ok(())
}
