//! hookwire-ffi: the C ABI of hookwire (abi.md §2): the five functions of §2.2, the project
//! trust functions added under §2.8, and eight codes.
//!
//! The doc comments in this file are the documentation of `include/hookwire.h`: cbindgen
//! copies them into the header, so they are written for C programmers. Every exported
//! function is a few lines inside `boundary::guard`, which catches panics and turns every
//! failure into a code plus an error JSON; no function here may unwind into C, keep a pointer
//! the caller passed after returning, or keep any global state.

use hookwire_core::{ConfigError, Dispatcher};
use std::ffi::c_char;
use std::ptr;

mod boundary;

/// Success: the out-param holds the result JSON.
pub const HOOKS_OK: i32 = 0;
/// A required pointer argument was NULL. Error JSON kind "null_pointer".
pub const HOOKS_ERR_NULL_POINTER: i32 = 1;
/// Input text is not UTF-8. Error JSON kind "invalid_utf8".
pub const HOOKS_ERR_INVALID_UTF8: i32 = 2;
/// Input text is not JSON. Error JSON kind "invalid_json", with "line" and "column"
/// (1-based, the column counted in bytes).
pub const HOOKS_ERR_INVALID_JSON: i32 = 3;
/// JSON, but not a configuration hookwire accepts. Error JSON kind "invalid_config", with a
/// JSON "pointer" to the offending value when there is one. Never returned by hooks_fire.
pub const HOOKS_ERR_INVALID_CONFIG: i32 = 4;
/// JSON, but not an event (not an object, or no string "hook_event_name"). Error JSON kind
/// "invalid_event".
pub const HOOKS_ERR_INVALID_EVENT: i32 = 5;
/// A bug in hookwire, caught before it could reach the caller. Error JSON kind "panic",
/// carrying the panic message. The dispatcher may still be freed.
pub const HOOKS_ERR_PANIC: i32 = 6;
/// Any other failure of hookwire itself (for example, no thread could be started). Error JSON
/// kind "internal".
pub const HOOKS_ERR_INTERNAL: i32 = 7;

/// The library version "MAJOR.MINOR.PATCH", NUL-terminated for C.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// A loaded configuration, ready to fire events. Opaque: only pointers to it exist.
///
/// Create it with hooks_dispatcher_new and destroy it with hooks_dispatcher_free. It is
/// thread-safe: any number of threads may call hooks_fire on one dispatcher at once, and it
/// may be created, used and freed on different threads.
pub struct HooksDispatcher {
    inner: Dispatcher,
}

/// Parses and checks a configuration (NUL-terminated UTF-8 JSON, the settings shape or the
/// envelope) and compiles its matchers.
///
/// On success, returns a new dispatcher, which the caller owns until hooks_dispatcher_free,
/// and stores NULL in *error_json.
///
/// On failure, returns NULL and stores a new error JSON in *error_json, which the caller frees
/// with hooks_free. Kinds: "null_pointer" (config_json is NULL), "invalid_utf8",
/// "invalid_json", "invalid_config", "panic", "internal".
///
/// error_json may be NULL: then nothing is stored and the NULL return alone signals failure.
/// config_json is borrowed for this call only. Safe to call from any thread.
///
/// # Safety
/// config_json is NULL or a NUL-terminated string; error_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_dispatcher_new(
    config_json: *const c_char,
    error_json: *mut *mut c_char,
) -> *mut HooksDispatcher {
    let built = boundary::guard(|| {
        // SAFETY: the caller passes NULL or a NUL-terminated string valid for this call.
        let config = unsafe { boundary::borrow_text(config_json, "config_json") }?;
        let inner = Dispatcher::from_bytes(config).map_err(|e| e.details())?;
        Ok(Box::into_raw(Box::new(HooksDispatcher { inner })))
    });
    let (dispatcher, error) = match built {
        Ok(dispatcher) => (dispatcher, ptr::null_mut()),
        Err(details) => (ptr::null_mut(), boundary::error_c_string(&details)),
    };
    // SAFETY: error_json is NULL or valid for a write (caller's contract); `error` is NULL or
    // a fresh string from the boundary, which `store` frees itself when error_json is NULL.
    unsafe { boundary::store(error_json, error) };
    dispatcher
}

/// Fires one event (NUL-terminated UTF-8 JSON, an event object) and blocks the calling thread
/// until the fire is over: every matching hook has exited or been killed at its deadline.
///
/// If result_json is NULL, returns HOOKS_ERR_NULL_POINTER and runs and stores nothing.
/// Otherwise it always stores a new string in *result_json, which the caller frees with
/// hooks_free: with HOOKS_OK the result JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (dispatcher or event_json is NULL);
/// HOOKS_ERR_INVALID_UTF8; HOOKS_ERR_INVALID_JSON; HOOKS_ERR_INVALID_EVENT; HOOKS_ERR_PANIC;
/// HOOKS_ERR_INTERNAL. Treat any other non-zero code as an error and read its error JSON.
/// Hooks that fail, hang or flood output still give HOOKS_OK; the outcomes say what happened.
///
/// Thread safety: any number of threads may fire on one dispatcher at once, each fire with
/// its own hook processes. It must not race with hooks_dispatcher_free on the same dispatcher.
/// event_json is borrowed for this call only.
///
/// # Safety
/// dispatcher is NULL or a live dispatcher from hooks_dispatcher_new; event_json is NULL or a
/// NUL-terminated string; result_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_fire(
    dispatcher: *const HooksDispatcher,
    event_json: *const c_char,
    result_json: *mut *mut c_char,
) -> i32 {
    if result_json.is_null() {
        return HOOKS_ERR_NULL_POINTER;
    }
    let fired = boundary::guard(|| {
        // SAFETY: the caller passes NULL or a dispatcher from hooks_dispatcher_new that is not
        // being freed while this fire runs.
        let d = unsafe { boundary::borrow_handle(dispatcher, "dispatcher") }?;
        // SAFETY: the caller passes NULL or a NUL-terminated string valid for this call.
        let event = unsafe { boundary::borrow_text(event_json, "event_json") }?;
        d.inner.fire_bytes(event).map_err(|e| e.details())
    });
    let (code, text) = match fired {
        Ok(result) => (HOOKS_OK, boundary::into_c_string(result)),
        Err(details) => (details.kind.code(), boundary::error_c_string(&details)),
    };
    // SAFETY: result_json is non-NULL and valid for a write (caller's contract); `text` is a
    // fresh string from the boundary, now owned by the caller.
    unsafe { boundary::store(result_json, text) };
    code
}

/// Reports the trust state of every project and local source of the dispatcher's
/// configuration (protocol.md §2.8), as JSON:
///   {"store": path|null, "default_store": path|null, "project_dir": path|null,
///    "sources": [{"scope", "label", "path", "resolved", "key", "digest", "trusted", "why"}]}
/// A host shows the untrusted sources to the user; once approved, it calls hooks_trust_record
/// and builds a new dispatcher, which runs them. Nothing is spawned, read or written.
///
/// If result_json is NULL, returns HOOKS_ERR_NULL_POINTER and stores nothing. Otherwise it
/// always stores a new string in *result_json, which the caller frees with hooks_free: with
/// HOOKS_OK the status JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (dispatcher is NULL); HOOKS_ERR_PANIC. Treat any
/// other non-zero code as an error and read its error JSON.
///
/// Thread safety: may run at the same time as fires on the same dispatcher. It must not race
/// with hooks_dispatcher_free on the same dispatcher.
///
/// # Safety
/// dispatcher is NULL or a live dispatcher from hooks_dispatcher_new; result_json is NULL or
/// valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_trust_status(
    dispatcher: *const HooksDispatcher,
    result_json: *mut *mut c_char,
) -> i32 {
    if result_json.is_null() {
        return HOOKS_ERR_NULL_POINTER;
    }
    let status = boundary::guard(|| {
        // SAFETY: the caller passes NULL or a dispatcher from hooks_dispatcher_new that is not
        // being freed during this call.
        let d = unsafe { boundary::borrow_handle(dispatcher, "dispatcher") }?;
        Ok(d.inner.trust_status().to_string())
    });
    // SAFETY: result_json is non-NULL and valid for a write (caller's contract).
    unsafe { reply(result_json, status) }
}

/// Records trust in every project and local file source of a configuration (NUL-terminated
/// UTF-8 JSON, as for hooks_dispatcher_new), as the files read now: the SHA-256 of each is
/// written to the trust store, trust.store, else $XDG_CONFIG_HOME/hookwire/trust.json or
/// ~/.config/hookwire/trust.json (protocol.md §2.8). The store is written atomically with
/// mode 0600. The configuration needs "project_dir". Call it only after the user approved
/// what hooks_trust_status showed; dispatchers built afterwards run those sources until a
/// file changes. Returns the new trust status, the JSON of hooks_trust_status.
///
/// If result_json is NULL, returns HOOKS_ERR_NULL_POINTER and records nothing. Otherwise it
/// always stores a new string in *result_json, which the caller frees with hooks_free: with
/// HOOKS_OK the new status JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (config_json is NULL); HOOKS_ERR_INVALID_UTF8;
/// HOOKS_ERR_INVALID_JSON; HOOKS_ERR_INVALID_CONFIG (including pointer "/project_dir" when
/// project_dir is missing); HOOKS_ERR_PANIC; HOOKS_ERR_INTERNAL (the store could not be
/// written). Treat any other non-zero code as an error and read its error JSON.
///
/// Safe to call from any thread. config_json is borrowed for this call only.
///
/// # Safety
/// config_json is NULL or a NUL-terminated string; result_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_trust_record(
    config_json: *const c_char,
    result_json: *mut *mut c_char,
) -> i32 {
    if result_json.is_null() {
        return HOOKS_ERR_NULL_POINTER;
    }
    let recorded = boundary::guard(|| {
        // SAFETY: the caller passes NULL or a NUL-terminated string valid for this call.
        let config = unsafe { boundary::borrow_text(config_json, "config_json") }?;
        let text = std::str::from_utf8(config).map_err(|e| ConfigError::Utf8(e.to_string()).details())?;
        let status = hookwire_core::record_trust_for(text).map_err(|e| e.details())?;
        Ok(status.to_string())
    });
    // SAFETY: result_json is non-NULL and valid for a write (caller's contract).
    unsafe { reply(result_json, recorded) }
}

/// Stores the JSON of a successful call, or the error JSON of a failed one, in the non-NULL
/// out-param `out`, and returns the matching code.
///
/// # Safety
/// `out` is non-NULL and valid for one write of a pointer.
unsafe fn reply(out: *mut *mut c_char, outcome: Result<String, hookwire_core::ErrorDetails>) -> i32 {
    let (code, text) = match outcome {
        Ok(json) => (HOOKS_OK, boundary::into_c_string(json)),
        Err(details) => (details.kind.code(), boundary::error_c_string(&details)),
    };
    // SAFETY: `out` is valid for a write (caller's contract); `text` is a fresh string from
    // the boundary, now owned by the caller.
    unsafe { boundary::store(out, text) };
    code
}

/// Releases a string this library returned (a result JSON or an error JSON), exactly once,
/// from any thread. hooks_free(NULL) does nothing. Never pass such a string to libc free,
/// and never pass hooks_free a pointer that did not come from this library.
///
/// # Safety
/// s is NULL or a string returned by this library that has not been freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_free(s: *mut c_char) {
    let _ = boundary::guard(|| {
        // SAFETY: s is NULL or an unfreed string from `into_c_string` (caller's contract).
        unsafe { boundary::free_c_string(s) };
        Ok(())
    });
}

/// Destroys a dispatcher; hooks_dispatcher_free(NULL) does nothing. It must not run while a
/// hooks_fire on that dispatcher is in flight (the caller ensures that). Afterwards the
/// pointer is invalid; freeing it twice is undefined behaviour. May be called from any thread,
/// including after a fire returned HOOKS_ERR_PANIC.
///
/// # Safety
/// dispatcher is NULL or a dispatcher from hooks_dispatcher_new that has not been freed and
/// that no fire is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_dispatcher_free(dispatcher: *mut HooksDispatcher) {
    let _ = boundary::guard(|| {
        if !dispatcher.is_null() {
            // SAFETY: a non-NULL dispatcher came from `Box::into_raw` in hooks_dispatcher_new,
            // is freed exactly once, and no fire uses it any more (caller's contract).
            drop(unsafe { Box::from_raw(dispatcher) });
        }
        Ok(())
    });
}

/// Returns the library version, "MAJOR.MINOR.PATCH". The string is static and NUL-terminated,
/// never NULL, valid for the life of the process, and must never be freed. Safe to call from
/// any thread.
#[unsafe(no_mangle)]
pub extern "C" fn hooks_version() -> *const c_char {
    VERSION.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookwire_core::ErrorKind;
    use std::ffi::CStr;

    #[test]
    fn codes_equal_the_core_kinds_codes() {
        let pairs = [
            (HOOKS_ERR_NULL_POINTER, ErrorKind::NullPointer),
            (HOOKS_ERR_INVALID_UTF8, ErrorKind::InvalidUtf8),
            (HOOKS_ERR_INVALID_JSON, ErrorKind::InvalidJson),
            (HOOKS_ERR_INVALID_CONFIG, ErrorKind::InvalidConfig),
            (HOOKS_ERR_INVALID_EVENT, ErrorKind::InvalidEvent),
            (HOOKS_ERR_PANIC, ErrorKind::Panic),
            (HOOKS_ERR_INTERNAL, ErrorKind::Internal),
        ];
        for (code, kind) in pairs {
            assert_eq!(code, kind.code(), "{kind}");
        }
        assert_eq!(HOOKS_OK, 0);
    }

    #[test]
    fn version_is_the_core_version_nul_terminated() {
        // SAFETY: hooks_version returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(hooks_version()) };
        assert_eq!(v.to_str().unwrap(), hookwire_core::version());
    }
}
