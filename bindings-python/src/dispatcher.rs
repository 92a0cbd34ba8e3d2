//! `hookwire._native.Dispatcher`: a frozen Python class over an `Arc<hookwire_core::Dispatcher>`.
//!
//! It only translates: Python values to JSON text, the result JSON back to a dict, core errors
//! to exceptions, and the GIL around the blocking calls. Every rule of the engine stays in
//! `hookwire-core`. Blocking work (loading, firing, reading a file) runs inside `py.detach`
//! on owned arguments and inside `catch_unwind`, so other Python threads keep running and a
//! bug in the core becomes a `HookwireError` of kind `panic`, never a `BaseException`.

use crate::cancel::CancelToken;
use crate::errors::{Side, to_pyerr};
use crate::functions::{callback_fn, hook_fn};
use crate::results::NoMatchResults;
use hookwire_core::{ConfigError, ErrorDetails, ErrorKind, EventError, FunctionHook, LogLevel};
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString, PyType};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

/// A loaded configuration, ready to fire events.
///
/// Thread-safe: one `Dispatcher` may be shared by any number of threads, and their fires run
/// at the same time, each with its own hook processes. The GIL is released while hooks run.
/// In-flight fires keep their own reference, so dropping the object never cuts them short.
#[pyclass(frozen, subclass, module = "hookwire._native")]
pub struct Dispatcher {
    inner: Arc<hookwire_core::Dispatcher>,
    /// The decoded no-match results of this dispatcher (`results.rs`).
    no_match: NoMatchResults,
}

/// JSON text ready to cross into the core, owned so the detached closure can use it (`Send`)
/// without copying what Python already holds.
pub(crate) enum Input {
    Text(PyBackedStr),
    /// A dict's text as `encode::dumps` wrote it.
    Owned(String),
    Bytes(PyBackedBytes),
}

/// `json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode`:
/// Python's own conversion, so a dict becomes exactly the JSON `json.dumps` would write, and
/// whatever JSON cannot represent (NaN, a set, a cycle) fails here instead of reaching the core.
static ENCODE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `json.loads`, for the result JSON.
static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

pub(crate) fn encoder(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    ENCODE
        .get_or_try_init(py, || {
            let kwargs = PyDict::new(py);
            kwargs.set_item("ensure_ascii", false)?;
            kwargs.set_item("allow_nan", false)?;
            kwargs.set_item("separators", (",", ":"))?;
            let enc = py.import("json")?.getattr("JSONEncoder")?.call((), Some(&kwargs))?;
            Ok(enc.getattr("encode")?.unbind())
        })
        .map(|f| f.bind(py))
}

pub(crate) fn loads(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    LOADS.get_or_try_init(py, || Ok(py.import("json")?.getattr("loads")?.unbind())).map(|f| f.bind(py))
}

impl Input {
    /// Accepts a dict (converted as JSON would), a str or bytes; anything else is `TypeError`.
    pub(crate) fn from_py(py: Python<'_>, obj: &Bound<'_, PyAny>, side: Side) -> PyResult<Input> {
        if obj.is_instance_of::<PyDict>() {
            if let Some(text) = crate::encode::dumps(obj) {
                return Ok(Input::Owned(text));
            }
            let text = encoder(py)?.call1((obj,)).map_err(|e| {
                let msg = format!("the {} dict cannot be represented as JSON: {e}", side.noun());
                to_pyerr(py, side, ErrorDetails::new(side.invalid_kind(), msg))
            })?;
            Self::text(py, &text, side)
        } else if obj.is_instance_of::<PyString>() {
            Self::text(py, obj, side)
        } else if obj.is_instance_of::<PyBytes>() {
            Ok(Input::Bytes(obj.extract::<PyBackedBytes>()?))
        } else {
            let ty = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_string());
            Err(PyTypeError::new_err(format!("{} must be a dict, str or bytes, not {ty}", side.noun())))
        }
    }

    /// The text, or the bytes that still need their UTF-8 checked by the core.
    pub(crate) fn as_text(&self) -> Result<&str, &[u8]> {
        match self {
            Input::Text(s) => Ok(s),
            Input::Owned(s) => Ok(s),
            Input::Bytes(b) => Err(b),
        }
    }

    /// A str that cannot be UTF-8 (lone surrogates) is `invalid_utf8`, as bad bytes would be.
    fn text(py: Python<'_>, s: &Bound<'_, PyAny>, side: Side) -> PyResult<Input> {
        s.extract::<PyBackedStr>().map(Input::Text).map_err(|e| {
            let msg = format!("{} is not valid UTF-8: {e}", side.noun());
            to_pyerr(py, side, ErrorDetails::new(ErrorKind::InvalidUtf8, msg))
        })
    }
}

/// Runs `f` with the GIL released and any panic caught, so the core never unwinds into Python.
pub(crate) fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> Result<T, ErrorDetails> + Send,
) -> Result<T, ErrorDetails> {
    py.detach(|| {
        catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(ErrorDetails::from_panic(payload)))
    })
}

impl Dispatcher {
    /// The result of a fire that would run nothing, computed with the GIL held: releasing and
    /// retaking it cost more than the whole answer (figure 6py-0). `None` sends the fire to the
    /// detached path, as does an active log sink, which must never be called holding the GIL
    /// (`logs.rs`). Panics are caught like `detached` catches them.
    fn answer_without_running(&self, input: &Input) -> Result<Option<String>, ErrorDetails> {
        if hookwire_core::log_level() != LogLevel::Off {
            return Ok(None);
        }
        // Bytes that are not UTF-8 get their precise error from the full path.
        let Ok(text) = input.as_text().or_else(hookwire_core::event_text) else { return Ok(None) };
        catch_unwind(AssertUnwindSafe(|| self.inner.answer_without_running(text)))
            .map_err(ErrorDetails::from_panic)
    }

    fn load(py: Python<'_>, input: Input) -> PyResult<Dispatcher> {
        // `input` is borrowed, not moved, so its Python object is released with the GIL held.
        let built = detached(py, || {
            match input.as_text() {
                Ok(s) => hookwire_core::Dispatcher::new(s),
                Err(b) => hookwire_core::Dispatcher::from_bytes(b),
            }
            .map_err(|e: ConfigError| e.details())
        });
        match built {
            Ok(d) => Ok(Dispatcher { inner: Arc::new(d), no_match: NoMatchResults::default() }),
            Err(details) => Err(to_pyerr(py, Side::Config, details)),
        }
    }
}

#[pymethods]
impl Dispatcher {
    /// Builds a dispatcher from a configuration: a dict, or JSON text as str or bytes.
    /// Raises `ConfigError`; an argument of another type raises `TypeError`.
    #[new]
    fn py_new(py: Python<'_>, config: &Bound<'_, PyAny>) -> PyResult<Self> {
        let input = Input::from_py(py, config, Side::Config)?;
        Self::load(py, input)
    }

    /// Builds a dispatcher from a JSON file. I/O failures raise `OSError` (with `errno` and
    /// `filename`), a bad configuration raises `ConfigError`.
    #[classmethod]
    fn from_file<'py>(cls: &Bound<'py, PyType>, path: PathBuf) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let read = py.detach(|| std::fs::read(&path));
        let bytes = match read {
            Ok(b) => b,
            Err(e) => {
                let filename = path.to_string_lossy().into_owned();
                return Err(match e.raw_os_error() {
                    // OSError(errno, strerror, filename) picks the subclass (FileNotFoundError...).
                    // The strerror alone: Rust's text ends in " (os error N)", which Python
                    // prints already as "[Errno N]".
                    Some(code) => {
                        let text = e.to_string();
                        let strerror = text.rfind(" (os error ").map_or(text.as_str(), |i| &text[..i]);
                        PyOSError::new_err((code, strerror.to_string(), filename))
                    }
                    None => PyOSError::new_err(format!("{filename}: {e}")),
                });
            }
        };
        cls.call1((PyBytes::new(py, &bytes),))
    }

    /// Builds a dispatcher from Claude Code's default sources for the project at `project_dir`
    /// (see `claude_code_defaults`): the user, project and local settings files, the project
    /// ones gated on the default trust store. A directory that cannot be resolved raises
    /// `OSError`, a bad settings file a warning in results (files are the user's).
    #[classmethod]
    fn from_claude_code_defaults<'py>(
        cls: &Bound<'py, PyType>,
        project_dir: PathBuf,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let json = crate::defaults::envelope_json(py, &project_dir)?;
        cls.call1((PyString::new(py, &json),))
    }

    /// Fires one event (a dict, or JSON text as str or bytes) and returns the result JSON
    /// (protocol.md §8) as a dict. Raises `EventError`; a hook's failure is an outcome, never
    /// an exception. The GIL is released while hooks run. With `cancel`, `cancel.cancel()` from
    /// another thread ends the fire early: running hooks are killed, the rest never start, and
    /// their outcomes say `cancelled`.
    #[pyo3(signature = (event, cancel = None))]
    fn fire<'py>(
        &self,
        py: Python<'py>,
        event: &Bound<'py, PyAny>,
        cancel: Option<&Bound<'py, CancelToken>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = Input::from_py(py, event, Side::Event)?;
        let token = cancel.map(|t| t.get().inner.clone());
        if token.as_ref().is_none_or(|t| !t.is_cancelled()) {
            match self.answer_without_running(&input) {
                Ok(Some(answer)) => return self.no_match.decode(py, answer),
                Ok(None) => {}
                Err(details) => return Err(to_pyerr(py, Side::Event, details)),
            }
        }
        let inner = Arc::clone(&self.inner);
        let fired = detached(py, || {
            match (input.as_text(), &token) {
                (Ok(s), None) => inner.fire_json(s),
                (Err(b), None) => inner.fire_bytes(b),
                (Ok(s), Some(t)) => inner.fire_json_with(s, t),
                (Err(b), Some(t)) => inner.fire_bytes_with(b, t),
            }
            .map_err(|e: EventError| e.details())
        });
        match fired {
            Ok(json) => loads(py)?.call1((PyString::new(py, &json),)),
            Err(details) => Err(to_pyerr(py, Side::Event, details)),
        }
    }

    /// Registers `fn(event: dict) -> dict | str | None` as a hook of `event`, folded with the
    /// configured hooks (after them unless `first`) and returns its hook id. A dict answer is
    /// the JSON a command hook would print, a str is printed as is, `None` prints nothing. An
    /// exception is a non-blocking error, unless `fail_closed`. `fn` may be an `async def`
    /// function: its coroutine runs on a fresh event loop (`asyncio.run`) in the hookwire
    /// thread. It runs on hookwire's threads, maybe several at once, under `timeout` seconds
    /// (default: the event's), holding the GIL only while it runs. Raises `ConfigError` (an
    /// unknown event, a bad matcher or timeout) and `TypeError` (`fn` is not callable).
    #[pyo3(signature = (event, r#fn, *, matcher = None, timeout = None, fail_closed = false, name = None, first = false))]
    #[allow(clippy::too_many_arguments)]
    fn add_function_hook(
        &self,
        py: Python<'_>,
        event: String,
        r#fn: Bound<'_, PyAny>,
        matcher: Option<String>,
        timeout: Option<f64>,
        fail_closed: bool,
        name: Option<String>,
        first: bool,
    ) -> PyResult<String> {
        if !r#fn.is_callable() {
            return Err(PyTypeError::new_err("fn must be callable"));
        }
        let hook = FunctionHook { event, matcher, timeout_s: timeout, fail_closed, name, first };
        let inner = Arc::clone(&self.inner);
        let f = hook_fn(r#fn.unbind());
        detached(py, || inner.add_function_hook(hook, f).map_err(|e: ConfigError| e.details()))
            .map_err(|details| to_pyerr(py, Side::Config, details))
    }

    /// Registers `fn(request: dict) -> dict` as the host callback for `prompt`, `agent` or
    /// `mcp_tool` handlers (`handler_type`), replacing an earlier one. The request is
    /// `{"type", "handler", "event", "timeout_s"}` (`event` is the event's JSON text); the
    /// reply `{"text": ...}` is read like a hook's stdout, `{"ok": bool, "reason"?,
    /// "impossible"?}` allows or blocks. Same rules as `add_function_hook` (threads, GIL,
    /// `async def`, exceptions). Raises `ConfigError` for another handler type and `TypeError`
    /// when `fn` is not callable.
    fn set_host_callback(
        &self,
        py: Python<'_>,
        handler_type: String,
        r#fn: Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if !r#fn.is_callable() {
            return Err(PyTypeError::new_err("fn must be callable"));
        }
        let inner = Arc::clone(&self.inner);
        let f = callback_fn(r#fn.unbind());
        detached(py, || inner.set_host_callback(&handler_type, f).map_err(|e: ConfigError| e.details()))
            .map_err(|details| to_pyerr(py, Side::Config, details))
    }

    /// The trust state of every project and local source of this configuration, and of any
    /// other source marked `trusted: false` (protocol.md §2.8), as a dict: `store`,
    /// `default_store`, `project_dir` and `sources`, one entry per source with `scope`,
    /// `label`, `path`, `resolved`, `key`, `digest`, `trusted`, `why`.
    /// Nothing is spawned, read or written. Raises `HookwireError` only for a bug (`panic`).
    fn trust_status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = Arc::clone(&self.inner);
        match detached(py, || Ok(inner.trust_status().to_json())) {
            Ok(json) => loads(py)?.call1((PyString::new(py, &json),)),
            Err(details) => Err(to_pyerr(py, Side::Config, details)),
        }
    }

    /// Whether the hooks on tool events can reach the tool `tool_name` (the name the hooks see,
    /// after an adapter's tool-name map), as a dict: `tool_name`, `hooked` (hooks exist on tool
    /// events), `reached` (one of their matchers matches the name) and `warning` (the text to
    /// show once when hooks exist and none can match, else `None`;
    /// schema/tool-reach.schema.json). Nothing is run. Raises `HookwireError` only for a bug
    /// (`panic`); a `tool_name` that is not a str raises `TypeError`.
    fn tool_reach<'py>(&self, py: Python<'py>, tool_name: &str) -> PyResult<Bound<'py, PyAny>> {
        let reach = catch_unwind(AssertUnwindSafe(|| self.inner.tool_reach(tool_name).to_json()))
            .map_err(ErrorDetails::from_panic);
        match reach {
            Ok(json) => loads(py)?.call1((PyString::new(py, &json),)),
            Err(details) => Err(to_pyerr(py, Side::Config, details)),
        }
    }

    fn __repr__(&self) -> &'static str {
        "<hookwire.Dispatcher>"
    }
}
