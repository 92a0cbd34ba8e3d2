//! The boundary between C and Rust: the one place that turns whatever happens inside an
//! exported function into a return code plus a string the caller owns.
//!
//! Every exported function is written out with its C signature (cbindgen reads it for the
//! header) and a body that is one call of [`export!`]; `ffi/tests/exports.rs` fails the build
//! of any export whose body is anything else. The macro borrows the pointer arguments it is
//! given (NULL is an error, never a crash), and runs the body inside [`guard`], which catches
//! every panic, so nothing unwinds into C (which would abort the host, abi.md §2.6). The
//! body's one error type, [`ErrorDetails`], becomes the code and the error JSON the caller
//! receives, by one of four conventions ([`reply`], [`status`], [`create`], [`or`]). Strings
//! cross in as borrowed bytes, and out and back through [`crate::c_strings`].
//!
//! This module must never keep a pointer the caller passed beyond the call that passed it,
//! never print, and never touch process-wide state (no panic hook, no signal handler).

use crate::c_strings;
use hookwire_core::{ErrorDetails, ErrorKind};
use std::ffi::{CStr, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;

/// The body of every exported function:
///
/// ```text
/// export!(CONVENTION(OUT_PARAM), BORROWER(ARGUMENT), ... => { body })
/// ```
///
/// Each `BORROWER(ARGUMENT)` (`text`, `handle`, `optional`, `reclaim`, `function`) shadows the
/// raw argument with its borrowed value, or ends the call with a `null_pointer` error naming
/// the argument; then the block runs. Borrowing and block both run inside [`guard`], under the
/// `CONVENTION`: [`reply`] (a required out-param receives the JSON or the error JSON, the code
/// is returned), [`maybe_reply`] (as `reply`, or NULL when there is nothing to say), [`status`] (an optional out-param receives the error JSON), [`create`] (a
/// pointer is returned, the error JSON goes to an optional out-param) or [`or`] (no error
/// channel: a fallback value is returned instead).
macro_rules! export {
    (or($fallback:expr) $(, $how:ident($arg:ident))* => $body:block) => {
        $crate::boundary::or($fallback, || {
            $(
                // SAFETY: an export's `# Safety` section makes the caller pass this argument
                // NULL or valid for the call; the borrower turns NULL into an error.
                let $arg = unsafe { $crate::boundary::$how($arg, stringify!($arg)) }?;
            )*
            $body
        })
    };
    ($convention:ident($out:expr) $(, $how:ident($arg:ident))* => $body:block) => {{
        let body = || {
            $(
                // SAFETY: an export's `# Safety` section makes the caller pass this argument
                // NULL or valid for the call; the borrower turns NULL into an error.
                let $arg = unsafe { $crate::boundary::$how($arg, stringify!($arg)) }?;
            )*
            $body
        };
        // SAFETY: an export's `# Safety` section makes the caller pass its out-param NULL or
        // valid for one write of a pointer; the convention checks NULL before writing.
        unsafe { $crate::boundary::$convention($out, body) }
    }};
}
pub(crate) use export;

/// The last resort when even the error JSON cannot be turned into a C string. It holds no
/// NUL byte, so that conversion cannot fail.
const FALLBACK_ERROR_JSON: &str =
    r#"{"error":{"kind":"internal","message":"hookwire could not build its reply as a C string"}}"#;

/// Runs `body`, turning a panic into an error of kind `panic` that carries the panic message.
///
/// `AssertUnwindSafe` is sound here: after a panic the body's captures are dropped or returned
/// to the caller as an error, and the only shared state a fire touches (the dispatcher) is
/// immutable by design.
fn guard<T>(body: impl FnOnce() -> Result<T, ErrorDetails>) -> Result<T, ErrorDetails> {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(outcome) => outcome,
        Err(payload) => Err(ErrorDetails::from_panic(payload)),
    }
}

/// The `reply` convention: with a NULL `out`, returns `HOOKS_ERR_NULL_POINTER` and runs and
/// stores nothing. Otherwise runs `body` in the guard, stores its JSON (the code is `HOOKS_OK`)
/// or its error JSON (the code is the error's) in `*out`, and returns the code.
///
/// # Safety
/// `out` is NULL or valid for one write of a pointer.
pub(crate) unsafe fn reply(
    out: *mut *mut c_char,
    body: impl FnOnce() -> Result<String, ErrorDetails>,
) -> i32 {
    if out.is_null() {
        return crate::HOOKS_ERR_NULL_POINTER;
    }
    let (code, text) = match guard(body) {
        Ok(json) => (crate::HOOKS_OK, into_c_string(json)),
        Err(details) => (details.kind.code(), error_c_string(&details)),
    };
    // SAFETY: `out` is non-NULL and valid for a write (caller's contract); `text` is a fresh
    // string, now owned by the caller.
    unsafe { store(out, text) };
    code
}

/// The `maybe_reply` convention: [`reply`], except that the body may have nothing to say
/// (`None`), which stores NULL in `*out` and returns `HOOKS_OK`.
///
/// # Safety
/// `out` is NULL or valid for one write of a pointer.
pub(crate) unsafe fn maybe_reply(
    out: *mut *mut c_char,
    body: impl FnOnce() -> Result<Option<String>, ErrorDetails>,
) -> i32 {
    if out.is_null() {
        return crate::HOOKS_ERR_NULL_POINTER;
    }
    let (code, text) = match guard(body) {
        Ok(Some(json)) => (crate::HOOKS_OK, into_c_string(json)),
        Ok(None) => (crate::HOOKS_OK, ptr::null_mut()),
        Err(details) => (details.kind.code(), error_c_string(&details)),
    };
    // SAFETY: `out` is non-NULL and valid for a write (caller's contract); `text` is NULL or
    // a fresh string, now owned by the caller.
    unsafe { store(out, text) };
    code
}

/// The `status` convention: runs `body` in the guard and returns `HOOKS_OK` with NULL stored
/// in `*out`, or the error's code with its error JSON stored in `*out`. `out` may be NULL: then
/// nothing is stored and the code alone tells.
///
/// # Safety
/// `out` is NULL or valid for one write of a pointer.
pub(crate) unsafe fn status(out: *mut *mut c_char, body: impl FnOnce() -> Result<(), ErrorDetails>) -> i32 {
    let (code, error) = match guard(body) {
        Ok(()) => (crate::HOOKS_OK, ptr::null_mut()),
        Err(details) => (details.kind.code(), error_c_string(&details)),
    };
    // SAFETY: `out` is NULL or valid for a write (caller's contract); `store` frees `error`
    // itself when `out` is NULL.
    unsafe { store(out, error) };
    code
}

/// The `create` convention: runs `body` in the guard and returns the pointer it made, with
/// NULL stored in `*out`; or NULL, with the error JSON stored in `*out`. `out` may be NULL:
/// then nothing is stored and the NULL return alone tells.
///
/// # Safety
/// `out` is NULL or valid for one write of a pointer.
pub(crate) unsafe fn create<T>(
    out: *mut *mut c_char,
    body: impl FnOnce() -> Result<*mut T, ErrorDetails>,
) -> *mut T {
    let (made, error) = match guard(body) {
        Ok(made) => (made, ptr::null_mut()),
        Err(details) => (ptr::null_mut(), error_c_string(&details)),
    };
    // SAFETY: `out` is NULL or valid for a write (caller's contract); `store` frees `error`
    // itself when `out` is NULL.
    unsafe { store(out, error) };
    made
}

/// The `or` convention, for calls with no error channel (frees, `hooks_version`, ...): runs
/// `body` in the guard and returns its value, or `fallback` after an error or a panic.
pub(crate) fn or<T>(fallback: T, body: impl FnOnce() -> Result<T, ErrorDetails>) -> T {
    guard(body).unwrap_or(fallback)
}

fn null_pointer(name: &str) -> ErrorDetails {
    // `r#fn` is the C argument `fn`.
    ErrorDetails::new(ErrorKind::NullPointer, format!("{} is NULL", name.trim_start_matches("r#")))
}

/// Borrows the bytes of a NUL-terminated string the caller passed as argument `name`. NULL
/// is an error of kind `null_pointer` naming the argument. UTF-8 is not checked here: the
/// core's byte entry points do it, so the message is the same in every language.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that stays valid and unchanged for `'a`.
pub(crate) unsafe fn text<'a>(p: *const c_char, name: &str) -> Result<&'a [u8], ErrorDetails> {
    if p.is_null() {
        return Err(null_pointer(name));
    }
    // SAFETY: `p` is non-NULL, and the caller guarantees it is a valid NUL-terminated string
    // for `'a` (abi.md §2.4: borrowed for the duration of the call).
    Ok(unsafe { CStr::from_ptr(p) }.to_bytes())
}

/// Borrows the value behind a non-NULL handle the caller passed as argument `name`.
///
/// # Safety
/// `p` is NULL or a live pointer returned by this library, valid for `'a`.
pub(crate) unsafe fn handle<'a, T>(p: *const T, name: &str) -> Result<&'a T, ErrorDetails> {
    // SAFETY: the caller guarantees that a non-NULL `p` is a live, aligned `T` for `'a`.
    unsafe { p.as_ref() }.ok_or_else(|| null_pointer(name))
}

/// Borrows the value behind a handle that may be NULL (`None`).
///
/// # Safety
/// `p` is NULL or a live pointer returned by this library, valid for `'a`.
pub(crate) unsafe fn optional<'a, T>(p: *const T, _name: &str) -> Result<Option<&'a T>, ErrorDetails> {
    // SAFETY: the caller guarantees that a non-NULL `p` is a live, aligned `T` for `'a`.
    Ok(unsafe { p.as_ref() })
}

/// Takes back ownership of a handle made with `Box::into_raw`, for its free function; NULL is
/// `None` (freeing NULL does nothing).
///
/// # Safety
/// `p` is NULL or came from `Box::into_raw` in this library, has not been freed, and no other
/// call uses it any more.
pub(crate) unsafe fn reclaim<T>(p: *mut T, _name: &str) -> Result<Option<Box<T>>, ErrorDetails> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: a non-NULL `p` came from `Box::into_raw` and is freed exactly once, here
    // (caller's contract).
    Ok(Some(unsafe { Box::from_raw(p) }))
}

/// The function the caller passed as argument `name`; NULL (`None`) is a `null_pointer`
/// error.
///
/// # Safety
/// None beyond the function's own contract, which is checked where it is called; this is
/// `unsafe` only so [`export!`] calls every borrower alike.
pub(crate) unsafe fn function<F>(f: Option<F>, name: &str) -> Result<F, ErrorDetails> {
    f.ok_or_else(|| null_pointer(name))
}

/// Hands `text` to C as a new string the caller frees with `hooks_free`. Our JSON never holds
/// a NUL byte (JSON escapes it); if it ever did, the caller gets an `internal` error JSON
/// instead of a truncated string.
fn into_c_string(text: String) -> *mut c_char {
    c_strings::hand_out(text).unwrap_or_else(|| {
        let details = ErrorDetails::new(ErrorKind::Internal, "hookwire produced text with a NUL byte inside");
        c_strings::hand_out(details.to_json()).unwrap_or_else(fallback_error)
    })
}

/// The error JSON of `details` as a new C string.
fn error_c_string(details: &ErrorDetails) -> *mut c_char {
    into_c_string(details.to_json())
}

fn fallback_error() -> *mut c_char {
    // FALLBACK_ERROR_JSON holds no NUL, so it is always handed out.
    c_strings::hand_out(FALLBACK_ERROR_JSON.to_owned()).unwrap_or(ptr::null_mut())
}

/// Writes `value` into the out-param `out` when `out` is non-NULL; with a NULL `out`, a
/// string `value` is freed at once so nothing leaks.
///
/// # Safety
/// `out` is NULL or valid for one write of a pointer. `value` is NULL or came from
/// [`into_c_string`] and is owned by no one else.
unsafe fn store(out: *mut *mut c_char, value: *mut c_char) {
    if out.is_null() {
        // SAFETY: `value` is NULL or a string from `into_c_string` (made by `c_strings`) that
        // no one else owns.
        unsafe { c_strings::release(value) };
        return;
    }
    // SAFETY: `out` is non-NULL and the caller guarantees it is valid for a write. `write`
    // does not read the old value, which may be uninitialised.
    unsafe { ptr::write(out, value) };
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

    /// Takes back a string the boundary stored, as text.
    fn take(p: *mut c_char) -> String {
        assert!(!p.is_null());
        // SAFETY: `p` came from the boundary in the test and is freed once, here.
        let text = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
        // SAFETY: as above.
        unsafe { c_strings::release(p) };
        text
    }

    #[test]
    fn reply_with_a_null_out_param_runs_nothing() {
        let mut ran = false;
        // SAFETY: NULL out-param on purpose.
        let code = unsafe {
            reply(ptr::null_mut(), || {
                ran = true;
                Ok(String::new())
            })
        };
        assert_eq!((code, ran), (crate::HOOKS_ERR_NULL_POINTER, false));
    }

    #[test]
    fn every_convention_turns_a_panic_in_the_body_into_the_panic_code_and_json() {
        let mut out: *mut c_char = ptr::null_mut();
        // SAFETY: `out` is valid for a write.
        let code = unsafe { reply(&mut out, || panic!("in reply")) };
        assert_eq!(code, crate::HOOKS_ERR_PANIC);
        assert!(take(out).contains("hookwire panicked: in reply"));

        // SAFETY: as above.
        let code = unsafe { status(&mut out, || panic!("in status")) };
        assert_eq!(code, crate::HOOKS_ERR_PANIC);
        assert!(take(out).contains("\"kind\":\"panic\""));

        // SAFETY: as above.
        let made = unsafe { create::<u8>(&mut out, || panic!("in create")) };
        assert!(made.is_null());
        assert!(take(out).contains("in create"));

        assert_eq!(or(5, || panic!("in or")), 5);
    }

    #[test]
    fn status_and_create_store_null_on_success_and_tolerate_a_null_out_param() {
        let mut out: *mut c_char = ptr::dangling_mut::<c_char>();
        // SAFETY: `out` is valid for a write; its old value is never read.
        assert_eq!(unsafe { status(&mut out, || Ok(())) }, crate::HOOKS_OK);
        assert!(out.is_null());
        let mut value = 7_u8;
        out = ptr::dangling_mut::<c_char>();
        // SAFETY: as above.
        let made = unsafe { create(&mut out, || Ok(&mut value as *mut u8)) };
        assert_eq!((made, out), (&mut value as *mut u8, ptr::null_mut()));
        // SAFETY: NULL out-params: the error JSON is freed by the boundary, nothing leaks.
        let code = unsafe { status(ptr::null_mut(), || Err(null_pointer("x"))) };
        assert_eq!(code, crate::HOOKS_ERR_NULL_POINTER);
    }

    #[test]
    fn the_borrowers_name_the_null_argument() {
        // SAFETY: NULL pointers, which the borrowers must refuse without reading.
        let e = unsafe { text(ptr::null(), "event_json") }.unwrap_err();
        assert_eq!((e.kind, e.message.as_str()), (ErrorKind::NullPointer, "event_json is NULL"));
        // SAFETY: as above.
        let e = unsafe { handle::<u8>(ptr::null(), "dispatcher") }.unwrap_err();
        assert_eq!(e.message, "dispatcher is NULL");
        // SAFETY: `function` reads nothing.
        let e = unsafe { function::<fn()>(None, "r#fn") }.unwrap_err();
        assert_eq!(e.message, "fn is NULL");
        // SAFETY: NULL is allowed for these two.
        assert!(unsafe { optional::<u8>(ptr::null(), "token") }.unwrap().is_none());
        // SAFETY: as above.
        assert!(unsafe { reclaim::<u8>(ptr::null_mut(), "token") }.unwrap().is_none());
    }

    #[test]
    fn text_with_an_inner_nul_becomes_an_internal_error_json() {
        let p = into_c_string("a\0b".to_string());
        // SAFETY: `p` came from `into_c_string` just above and is freed once below.
        let text = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
        // SAFETY: as above.
        unsafe { c_strings::release(p) };
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
