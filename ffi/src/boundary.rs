//! The boundary between C and Rust: the one place that turns whatever happens inside an
//! exported function into a return code plus a string the caller owns.
//!
//! [`guard`] is the only way an exported function runs Rust code. It catches every panic, so
//! nothing unwinds into C (which would abort the host, abi.md §2.6), and gives the body one
//! error type, [`ErrorDetails`], whose error JSON is what the caller receives. The helpers
//! beside it check the caller's pointers (NULL is an error, never a crash) and move strings
//! across: in as borrowed bytes, out through `CString::into_raw`, back through
//! `CString::from_raw` in `hooks_free`.
//!
//! This module must never keep a pointer the caller passed beyond the call that passed it,
//! never print, and never touch process-wide state (no panic hook, no signal handler).

use hookwire_core::{ErrorDetails, ErrorKind};
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;

/// The last resort when even the error JSON cannot be turned into a C string. It holds no
/// NUL byte, so that conversion cannot fail.
const FALLBACK_ERROR_JSON: &str =
    r#"{"error":{"kind":"internal","message":"hookwire could not build its reply as a C string"}}"#;

/// Runs `body`, turning a panic into an error of kind `panic` that carries the panic message.
///
/// Every exported function is a few lines inside one call to this. `AssertUnwindSafe` is
/// sound here: after a panic the body's captures are dropped or returned to the caller as an
/// error, and the only shared state a fire touches (the dispatcher) is immutable by design.
pub(crate) fn guard<T>(body: impl FnOnce() -> Result<T, ErrorDetails>) -> Result<T, ErrorDetails> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(outcome) => outcome,
        Err(payload) => Err(ErrorDetails::from_panic(payload)),
    }
}

/// Borrows the bytes of a NUL-terminated string the caller passed as argument `name`. NULL
/// is an error of kind `null_pointer` naming the argument. UTF-8 is not checked here: the
/// core's `from_bytes` / `fire_bytes` do it, so the message is the same in every language.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid and unchanged for `'a`.
pub(crate) unsafe fn borrow_text<'a>(p: *const c_char, name: &str) -> Result<&'a [u8], ErrorDetails> {
    if p.is_null() {
        return Err(ErrorDetails::new(ErrorKind::NullPointer, format!("{name} is NULL")));
    }
    // SAFETY: `p` is non-NULL, and the caller guarantees it is a valid NUL-terminated string
    // for `'a` (abi.md §2.4: borrowed for the duration of the call).
    Ok(unsafe { CStr::from_ptr(p) }.to_bytes())
}

/// Borrows the value behind a non-NULL handle the caller passed as argument `name`.
///
/// # Safety
/// `p` is NULL or a live pointer returned by this library, valid for `'a`.
pub(crate) unsafe fn borrow_handle<'a, T>(p: *const T, name: &str) -> Result<&'a T, ErrorDetails> {
    // SAFETY: the caller guarantees that a non-NULL `p` is a live, aligned `T` for `'a`.
    unsafe { p.as_ref() }.ok_or_else(|| ErrorDetails::new(ErrorKind::NullPointer, format!("{name} is NULL")))
}

/// Hands `text` to C as a new string the caller frees with `hooks_free`. Our JSON never holds
/// a NUL byte (JSON escapes it); if it ever did, the caller gets an `internal` error JSON
/// instead of a truncated string.
pub(crate) fn into_c_string(text: String) -> *mut c_char {
    let owned = CString::new(text).unwrap_or_else(|_| {
        let details = ErrorDetails::new(ErrorKind::Internal, "hookwire produced text with a NUL byte inside");
        CString::new(details.to_json()).unwrap_or_else(|_| fallback_error())
    });
    owned.into_raw()
}

/// The error JSON of `details` as a new C string.
pub(crate) fn error_c_string(details: &ErrorDetails) -> *mut c_char {
    into_c_string(details.to_json())
}

fn fallback_error() -> CString {
    CString::new(FALLBACK_ERROR_JSON).unwrap_or_default()
}

/// Writes `value` into the out-param `out` when `out` is non-NULL; with a NULL `out`, a
/// string `value` is freed at once so nothing leaks.
///
/// # Safety
/// `out` is NULL or valid for one write of a pointer. `value` is NULL or came from
/// [`into_c_string`] and is owned by no one else.
pub(crate) unsafe fn store(out: *mut *mut c_char, value: *mut c_char) {
    if out.is_null() {
        // SAFETY: `value` is NULL or a string from `into_c_string` that no one else owns.
        unsafe { free_c_string(value) };
        return;
    }
    // SAFETY: `out` is non-NULL and the caller guarantees it is valid for a write. `write`
    // does not read the old value, which may be uninitialised.
    unsafe { ptr::write(out, value) };
}

/// Frees a string made by [`into_c_string`]; NULL does nothing.
///
/// # Safety
/// `s` is NULL or came from [`into_c_string`] and has not been freed.
pub(crate) unsafe fn free_c_string(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: `s` came from `CString::into_raw` and is freed exactly once (caller's duty).
        drop(unsafe { CString::from_raw(s) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_with_a_string_becomes_a_panic_error_with_its_message() {
        let e = guard::<()>(|| panic!("boom {}", 42)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Panic);
        assert!(e.message.contains("boom 42"), "{}", e.message);
    }

    #[test]
    fn a_panic_with_a_str_becomes_a_panic_error_with_its_message() {
        let e = guard::<()>(|| panic!("static boom")).unwrap_err();
        assert!(e.message.contains("static boom"), "{}", e.message);
    }

    #[test]
    fn a_panic_with_a_foreign_payload_still_becomes_a_panic_error() {
        let e = guard::<()>(|| std::panic::panic_any(7_u8)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Panic);
    }

    #[test]
    fn text_with_an_inner_nul_becomes_an_internal_error_json() {
        let p = into_c_string("a\0b".to_string());
        // SAFETY: `p` came from `into_c_string` just above and is freed once below.
        let text = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
        // SAFETY: as above.
        unsafe { free_c_string(p) };
        assert!(text.contains("\"kind\":\"internal\""), "{text}");
    }

    #[test]
    fn storing_into_a_null_out_param_frees_the_value() {
        // Under Miri or valgrind a leak here would show; in plain tests it must not crash.
        // SAFETY: NULL out-param, value fresh from `into_c_string`.
        unsafe { store(ptr::null_mut(), into_c_string("{}".to_string())) };
    }

    #[test]
    fn the_fallback_error_json_is_valid_json_of_kind_internal() {
        let v: serde_json::Value = serde_json::from_str(FALLBACK_ERROR_JSON).unwrap();
        assert_eq!(v["error"]["kind"], "internal");
    }
}
