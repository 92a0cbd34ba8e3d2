//! `hookwire._native.CancelToken`: a frozen Python class over `hookwire_core::CancelToken`.

use pyo3::prelude::*;

/// Cancels fires from another thread or task: `d.fire(event, cancel=token)` in one thread,
/// `token.cancel()` in another. A cancelled fire kills its running hooks (their process
/// groups), starts no more, and still returns a result whose outcomes say `cancelled`.
/// Cancelling is permanent: a cancelled token cancels every fire it is passed to.
///
/// Thread-safe: one token may be shared by any number of threads and fires.
#[pyclass(frozen, module = "hookwire._native")]
pub struct CancelToken {
    pub(crate) inner: hookwire_core::CancelToken,
}

#[pymethods]
impl CancelToken {
    /// A token that is not cancelled yet.
    #[new]
    fn py_new() -> Self {
        CancelToken { inner: hookwire_core::CancelToken::new() }
    }

    /// Cancels every fire watching this token, now and later. Never blocks.
    fn cancel(&self) {
        self.inner.cancel();
    }

    /// Whether `cancel()` was called.
    fn is_cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    fn __repr__(&self) -> &'static str {
        if self.inner.is_cancelled() { "<hookwire.CancelToken cancelled>" } else { "<hookwire.CancelToken>" }
    }
}
