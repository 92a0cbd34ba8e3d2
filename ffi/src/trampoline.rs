//! Host code that hookwire calls back: C function hooks and C host callbacks (issue 8).
//!
//! A C function pointer plus its `void *user_data` becomes a core `HookFn` or `CallbackFn`
//! here. The closure copies the input into a C string, calls the function on hookwire's own
//! thread, takes back the answer string (made by `hooks_string_new`, so our allocator owns it)
//! and turns a non-zero code into an error answer. A panic in this Rust glue becomes an error
//! answer too: nothing unwinds into C, and nothing unwinds through the engine.
//!
//! [`Gate`] makes `hooks_dispatcher_free` a real end of the registration: calls that have not
//! started are refused, and the free waits for calls in progress (a call that overran its
//! timeout keeps running on its thread), so `user_data` need live only until the free returns.
//!
//! The log callback becomes the core's `LogSink` here too: each record goes to it as JSON.
//!
//! This module never dereferences `user_data`, never keeps a string the host handed back, and
//! never touches process-wide state (the log sink is registered by `hooks_set_log_callback`).

use hookwire_core::{CallbackFn, ErrorDetails, HookFn, LogRecord, LogSink};
use serde_json::Value;
use std::ffi::{CString, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::{Arc, Condvar, Mutex};

/// The C signature shared by function hooks and host callbacks (see the header's typedefs).
pub(crate) type RawFn = unsafe extern "C" fn(*mut c_void, *const c_char, *mut *mut c_char) -> i32;

/// The host's `user_data`, passed back to its function and never dereferenced by hookwire.
#[derive(Clone, Copy)]
pub(crate) struct UserData(pub(crate) *mut c_void);

// SAFETY: the header's contract for hooks_add_function_hook and hooks_set_host_callback makes
// the host promise that `user_data` may be passed to its function from any thread, by several
// threads at once, until hooks_dispatcher_free returns. hookwire only copies the pointer and
// hands it back; it never reads, writes or frees what it points to, and the [`Gate`] ensures
// no call starts or runs after hooks_dispatcher_free returned. For hooks_set_log_callback the
// promise holds until the next hooks_set_log_callback returns, and the core's sink lock
// ensures no call runs after that.
unsafe impl Send for UserData {}
// SAFETY: as for `Send` above: shared access is only ever copying the pointer value.
unsafe impl Sync for UserData {}

impl UserData {
    /// The pointer; a method, so closures capture the `Send + Sync` wrapper, not the field.
    fn get(self) -> *mut c_void {
        self.0
    }
}

/// Counts the host calls in progress and refuses new ones once the dispatcher is being freed.
#[derive(Default)]
pub(crate) struct Gate {
    /// (closed, calls in progress)
    state: Mutex<(bool, usize)>,
    idle: Condvar,
}

/// One call in progress; dropping it lets `hooks_dispatcher_free` go on.
struct Pass<'a>(&'a Gate);

impl Gate {
    fn enter(&self) -> Option<Pass<'_>> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if s.0 {
            return None;
        }
        s.1 += 1;
        Some(Pass(self))
    }

    /// Refuses every later call and waits until the calls in progress have returned.
    pub(crate) fn close_and_wait(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.0 = true;
        while s.1 > 0 {
            s = self.idle.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.1 -= 1;
        if s.1 == 0 {
            self.0.idle.notify_all();
        }
    }
}

/// A C function with its user data, callable from any hookwire thread.
#[derive(Clone)]
pub(crate) struct HostFn {
    f: RawFn,
    user_data: UserData,
    gate: Arc<Gate>,
    /// "function hook" or "host callback", for messages.
    what: &'static str,
}

impl HostFn {
    pub(crate) fn new(f: RawFn, user_data: *mut c_void, gate: Arc<Gate>, what: &'static str) -> HostFn {
        HostFn { f, user_data: UserData(user_data), gate, what }
    }

    /// Calls the C function with `input`; `Ok(None)` when it answered nothing. Never panics.
    fn call(&self, input: &str) -> Result<Option<String>, String> {
        match catch_unwind(AssertUnwindSafe(|| self.call_unguarded(input))) {
            Ok(answer) => answer,
            Err(payload) => Err(format!("{} glue: {}", self.what, ErrorDetails::from_panic(payload).message)),
        }
    }

    fn call_unguarded(&self, input: &str) -> Result<Option<String>, String> {
        let Some(_pass) = self.gate.enter() else {
            return Err(format!("the dispatcher is being freed: the {} was not called", self.what));
        };
        let input = CString::new(input).map_err(|_| format!("the {} input holds a NUL byte", self.what))?;
        let mut answer: *mut c_char = ptr::null_mut();
        // SAFETY: `f` is the host's function, called as the header documents: `user_data` as
        // given (valid until hooks_dispatcher_free returns, which the gate's pass holds back),
        // `input` NUL-terminated and alive for the call, `answer` a valid out-param set to NULL.
        let code = unsafe { (self.f)(self.user_data.0, input.as_ptr(), &mut answer) };
        // SAFETY: the header requires `*answer` to be NULL or a string from hooks_string_new
        // that the host gave up; hookwire takes it back and frees it exactly once, here.
        let text = unsafe { crate::c_strings::take_text(answer) };
        match code {
            0 => Ok(text),
            _ => Err(match text {
                Some(message) if !message.trim().is_empty() => message,
                _ => format!("the {} returned {code}", self.what),
            }),
        }
    }

    /// The core's hook function: the event JSON in, what a command would print out.
    pub(crate) fn into_hook_fn(self) -> HookFn {
        Arc::new(move |event: &str| self.call(event).map(Option::unwrap_or_default))
    }

    /// The core's host callback: the request object in, the reply object out.
    pub(crate) fn into_callback_fn(self) -> CallbackFn {
        Arc::new(move |request: &Value| {
            let reply = self.call(&request.to_string())?;
            let reply = reply.ok_or_else(|| format!("the {} gave no reply", self.what))?;
            hookwire_core::json::from_str(&reply)
                .map_err(|e| format!("the {} reply is not JSON: {e}", self.what))
        })
    }
}

/// The C signature of a log callback (see the header's HooksLogCallback).
pub(crate) type RawLogFn = unsafe extern "C" fn(*mut c_void, i32, *const c_char);

/// The core's log sink for a C log callback: each record as JSON text, with its level code.
/// The core holds the sink's registration while it runs and waits for running calls before it
/// replaces the sink, which is what lets `user_data` be released once the next
/// hooks_set_log_callback returns.
pub(crate) fn log_sink(f: RawLogFn, user_data: *mut c_void) -> LogSink {
    let user_data = UserData(user_data);
    std::sync::Arc::new(move |record: &LogRecord| {
        // JSON escapes NUL, so the text has none; a record that somehow had one is dropped.
        let Ok(json) = CString::new(record.to_json()) else { return };
        // SAFETY: `f` is the host's log callback, called as the header documents: `user_data`
        // as given (valid until the next hooks_set_log_callback returns, which waits for this
        // call), the level code, and `json` NUL-terminated and alive for the call.
        unsafe { f(user_data.get(), record.level.code(), json.as_ptr()) };
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn echo(_: *mut c_void, input: *const c_char, answer: *mut *mut c_char) -> i32 {
        // SAFETY: hookwire passes a valid input and out-param.
        unsafe { *answer = crate::c_strings::copy(input) };
        0
    }

    unsafe extern "C" fn fails_silently(_: *mut c_void, _: *const c_char, _: *mut *mut c_char) -> i32 {
        9
    }

    #[test]
    fn a_zero_code_answers_the_string_and_a_nonzero_code_is_an_error() {
        let gate = Arc::new(Gate::default());
        let ok = HostFn::new(echo, ptr::null_mut(), gate.clone(), "function hook");
        assert_eq!(ok.call("{}").unwrap().as_deref(), Some("{}"));
        let bad = HostFn::new(fails_silently, ptr::null_mut(), gate, "function hook");
        assert!(bad.call("{}").unwrap_err().contains("returned 9"));
    }

    #[test]
    fn a_closed_gate_refuses_calls() {
        let gate = Arc::new(Gate::default());
        let f = HostFn::new(echo, ptr::null_mut(), gate.clone(), "host callback");
        gate.close_and_wait();
        assert!(f.call("{}").unwrap_err().contains("being freed"));
    }
}
