//! Python callables as hookwire handlers: function hooks (`Dispatcher.add_function_hook`) and
//! host callbacks for `prompt`, `agent` and `mcp_tool` handlers (`Dispatcher.set_host_callback`).
//!
//! It only translates (CONTRIBUTING.md rule 1): the core calls the closures built here on its own
//! threads, under the handler's timeout. Each call attaches to the interpreter only while the
//! Python function runs (`Python::try_attach`), so the GIL is never held while hookwire waits.
//! An `async def` function's coroutine runs to its end on a fresh event loop in that thread
//! (`asyncio.run`). An exception, a wrong return type, an interpreter that is shutting down and
//! a panic all become the handler's error message, never an unwind into the core (rule 3).

use crate::dispatcher::{encoder, loads};
use hookwire_core::{CallbackFn, ErrorDetails, HookFn};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// `asyncio.run`, for the coroutine an `async def` function returns.
static ASYNCIO_RUN: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `inspect.iscoroutine`.
static IS_COROUTINE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn imported<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    module: &str,
    name: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.get_or_try_init(py, || Ok(py.import(module)?.getattr(name)?.unbind())).map(|f| f.bind(py))
}

/// The type name of a value, for messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_string())
}

/// Calls `f` with `arg` (JSON text) parsed into Python values, runs a returned coroutine on a
/// fresh event loop, and converts the answer with `convert`; the GIL is held only inside.
fn invoke<T>(
    f: &Py<PyAny>,
    arg: &str,
    convert: impl FnOnce(&Bound<'_, PyAny>) -> Result<T, String>,
) -> Result<T, String> {
    let run = || {
        Python::try_attach(|py| {
            let call = || -> PyResult<Bound<'_, PyAny>> {
                let arg = loads(py)?.call1((PyString::new(py, arg),))?;
                let out = f.bind(py).call1((arg,))?;
                if imported(py, &IS_COROUTINE, "inspect", "iscoroutine")?.call1((&out,))?.is_truthy()? {
                    return imported(py, &ASYNCIO_RUN, "asyncio", "run")?.call1((out,));
                }
                Ok(out)
            };
            match call() {
                Ok(out) => convert(&out),
                Err(e) => Err(e.to_string()),
            }
        })
        .unwrap_or_else(|| Err("the Python interpreter is not running (shutting down?)".to_string()))
    };
    catch_unwind(AssertUnwindSafe(run))
        .unwrap_or_else(|payload| Err(ErrorDetails::from_panic(payload).message))
}

/// A dict as compact JSON text (as `json.dumps` would write it), or why it cannot be one.
fn dict_to_json(obj: &Bound<'_, PyAny>) -> Result<String, String> {
    let text = encoder(obj.py())
        .and_then(|enc| enc.call1((obj,)))
        .and_then(|t| t.extract::<String>())
        .map_err(|e| format!("the returned dict cannot be represented as JSON: {e}"))?;
    Ok(text)
}

/// A function hook: `fn(event: dict) -> dict | str | None`. A dict is the JSON a command hook
/// would print, a str is printed as is, `None` prints nothing.
pub(crate) fn hook_fn(f: Py<PyAny>) -> HookFn {
    Arc::new(move |event: &str| {
        invoke(&f, event, |out| {
            if out.is_none() {
                Ok(String::new())
            } else if out.is_instance_of::<PyDict>() {
                dict_to_json(out)
            } else if out.is_instance_of::<PyString>() {
                out.extract::<String>().map_err(|e| format!("the returned str is not valid UTF-8: {e}"))
            } else {
                Err(format!("a function hook must return a dict, a str or None, not {}", type_name(out)))
            }
        })
    })
}

/// A host callback: `fn(request: dict) -> dict`, the request `{type, handler, event (JSON
/// text), timeout_s}` and the reply `{"text": ...}` or `{"ok": bool, "reason"?, "impossible"?}`.
pub(crate) fn callback_fn(f: Py<PyAny>) -> CallbackFn {
    Arc::new(move |request: &serde_json::Value| {
        let text = invoke(&f, &request.to_string(), |out| {
            if out.is_instance_of::<PyDict>() {
                dict_to_json(out)
            } else {
                Err(format!("a host callback must return a dict, not {}", type_name(out)))
            }
        })?;
        hookwire_core::json::from_str(&text).map_err(|e| format!("the callback's reply is not JSON: {e}"))
    })
}
