//! The dicts of no-match results, decoded once per text and copied out.
//!
//! A fire that runs nothing answers with a text the engine prepared at load, the same for
//! every fire of an event (`Dispatcher::answer_without_running`), and `json.loads` of it was a
//! third of a no-match `fire(dict)` (figure 6py-0). [`NoMatchResults`] keeps the dict decoded
//! from each such text, keyed by the whole text, so a hit can only ever give what decoding
//! would. Each hit is a copy of every `dict` and `list` in it (the other values `json.loads`
//! makes are immutable), so callers may change what they get.
//!
//! At most [`MAX_TEXTS`] texts are kept: a new one past that starts afresh, so the cache stays
//! bounded whatever the engine returns. The lock is held only to find or add an entry, never
//! across a call into Python.

use crate::dispatcher::loads;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::Mutex;

/// More than the event names of protocol.md §3: the texts one dispatcher's no-match fires
/// can produce.
const MAX_TEXTS: usize = 64;

#[derive(Default)]
pub(crate) struct NoMatchResults {
    entries: Mutex<Vec<(String, Py<PyAny>)>>,
}

impl NoMatchResults {
    /// The result JSON `text` as a new dict, as `json.loads(text)` would give it.
    pub(crate) fn decode<'py>(&self, py: Python<'py>, text: String) -> PyResult<Bound<'py, PyAny>> {
        let hit = {
            let entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            entries.iter().find(|(t, _)| *t == text).map(|(_, v)| v.clone_ref(py))
        };
        if let Some(v) = hit {
            return copy(v.bind(py));
        }
        let v = loads(py)?.call1((PyString::new(py, &text),))?;
        let kept = copy(&v)?.unbind();
        let dropped = {
            let mut entries = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let dropped = if entries.len() >= MAX_TEXTS { std::mem::take(&mut *entries) } else { Vec::new() };
            entries.push((text, kept));
            dropped
        };
        drop(dropped); // outside the lock: releasing Python objects is a call into Python
        Ok(v)
    }
}

/// A copy of a value `json.loads` made that shares no `dict` or `list` with it.
fn copy<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(d) = v.cast_exact::<PyDict>() {
        let c = d.copy()?;
        for (k, x) in d.iter() {
            if x.is_exact_instance_of::<PyDict>() || x.is_exact_instance_of::<PyList>() {
                c.set_item(k, copy(&x)?)?;
            }
        }
        Ok(c.into_any())
    } else if let Ok(l) = v.cast_exact::<PyList>() {
        let items = l.iter().map(|x| copy(&x)).collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(v.py(), items)?.into_any())
    } else {
        Ok(v.clone())
    }
}
