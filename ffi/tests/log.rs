//! hooks_set_log_callback called from Rust through the real extern function (issue 16): records
//! reach the callback as JSON with their level, HOOKS_LOG_OFF and NULL stop them, a bad level
//! is refused, and the callback cannot re-register itself. The callback is process-wide, so
//! this file is its own test binary and its tests take turns.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use hookwire::*;
use serde_json::Value;
use std::ffi::{CStr, CString, c_char, c_void};
use std::ptr;
use std::sync::Mutex;

static SERIAL: Mutex<()> = Mutex::new(());

/// What the callback saw: (level, record), and the codes of its re-registration attempts.
#[derive(Default)]
struct Seen {
    records: Mutex<Vec<(i32, Value)>>,
    reentry: Mutex<Vec<i32>>,
}

unsafe extern "C" fn collect(user_data: *mut c_void, level: i32, record_json: *const c_char) {
    // SAFETY: user_data is the `Seen` registered with this callback, alive until it is replaced;
    // record_json is valid during the call.
    let (seen, text) = unsafe { (&*user_data.cast::<Seen>(), CStr::from_ptr(record_json)) };
    let record: Value = serde_json::from_str(text.to_str().unwrap()).unwrap();
    if record["fields"]["event"] == "fire.done" {
        let mut err: *mut c_char = ptr::null_mut();
        // SAFETY: a valid call; `err` is a valid out-param.
        let code = unsafe { hooks_set_log_callback(None, ptr::null_mut(), HOOKS_LOG_OFF, &mut err) };
        // SAFETY: `err` is NULL or a string from the library.
        unsafe { hooks_free(err) };
        seen.reentry.lock().unwrap().push(code);
    }
    seen.records.lock().unwrap().push((level, record));
}

fn set(callback: HooksLogCallback, seen: Option<&Seen>, level: i32) -> (i32, Option<Value>) {
    let user_data = seen.map_or(ptr::null_mut(), |s| ptr::from_ref(s).cast_mut().cast::<c_void>());
    let mut err: *mut c_char = ptr::dangling_mut();
    // SAFETY: `collect` keeps the callback contract; `seen` outlives the registration (each
    // test turns logging off before dropping it); `err` is a valid out-param.
    let code = unsafe { hooks_set_log_callback(callback, user_data, level, &mut err) };
    let error = (!err.is_null()).then(|| {
        // SAFETY: the library stored a string it owns.
        let text = unsafe { CStr::from_ptr(err) }.to_str().unwrap().to_string();
        // SAFETY: freed once, here.
        unsafe { hooks_free(err) };
        serde_json::from_str(&text).unwrap()
    });
    (code, error)
}

/// Turns logging off when dropped, also when an assertion failed: declared after the `Seen`
/// it protects, it is dropped before it.
struct Off;

impl Drop for Off {
    fn drop(&mut self) {
        set(None, None, HOOKS_LOG_OFF);
    }
}

fn fire_deny() {
    let config = CString::new(
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo nope >&2; exit 2"}]}]}}"#,
    )
    .unwrap();
    let event =
        CString::new(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"cwd":"/"}"#)
            .unwrap();
    // SAFETY: valid NUL-terminated inputs and out-params; the dispatcher is freed once.
    unsafe {
        let d = hooks_dispatcher_new(config.as_ptr(), ptr::null_mut());
        assert!(!d.is_null());
        let mut out: *mut c_char = ptr::null_mut();
        assert_eq!(hooks_fire(d, event.as_ptr(), &mut out), HOOKS_OK);
        hooks_free(out);
        hooks_dispatcher_free(d);
    }
}

#[test]
fn records_reach_the_callback_as_json_with_their_level_until_it_is_removed() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let seen = Seen::default();
    let _off = Off;
    assert_eq!(set(Some(collect), Some(&seen), HOOKS_LOG_DEBUG), (HOOKS_OK, None));
    fire_deny();
    assert_eq!(set(None, None, HOOKS_LOG_OFF), (HOOKS_OK, None));
    let records = std::mem::take(&mut *seen.records.lock().unwrap());
    let events: Vec<&str> = records.iter().map(|(_, r)| r["fields"]["event"].as_str().unwrap()).collect();
    for e in [
        "load.done",
        "fire.start",
        "hook.selected",
        "hook.spawned",
        "hook.exited",
        "hook.verdict",
        "fire.done",
    ] {
        assert!(events.contains(&e), "{e} missing: {events:?}");
    }
    for (level, r) in &records {
        let name = r["level"].as_str().unwrap();
        assert_eq!(
            *level,
            [("info", HOOKS_LOG_INFO), ("debug", HOOKS_LOG_DEBUG)]
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap()
                .1
        );
        assert!(r["target"].as_str().unwrap().starts_with("hookwire::"), "{r}");
        assert!(r["message"].is_string());
    }
    let spawned = &records.iter().find(|(_, r)| r["fields"]["event"] == "hook.spawned").unwrap().1;
    assert!(spawned["fields"]["pid"].as_i64().unwrap() > 0);
    // The callback may not replace itself: the call fails, and logging goes on.
    assert_eq!(*seen.reentry.lock().unwrap(), [HOOKS_ERR_INTERNAL]);

    // Removed: nothing more arrives.
    fire_deny();
    assert!(seen.records.lock().unwrap().is_empty());
}

#[test]
fn a_level_filters_records_and_off_is_no_callback() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let seen = Seen::default();
    let _off = Off;
    assert_eq!(set(Some(collect), Some(&seen), HOOKS_LOG_WARN), (HOOKS_OK, None));
    fire_deny(); // a deny is not a failure: nothing at WARN
    assert_eq!(set(Some(collect), Some(&seen), HOOKS_LOG_OFF), (HOOKS_OK, None));
    fire_deny();
    assert!(seen.records.lock().unwrap().is_empty());
}

#[test]
fn a_level_out_of_range_is_refused_and_changes_nothing() {
    let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let seen = Seen::default();
    let _off = Off;
    let (code, error) = set(Some(collect), Some(&seen), 9);
    assert_eq!(code, HOOKS_ERR_INVALID_CONFIG);
    assert_eq!(error.unwrap()["error"]["kind"], "invalid_config");
    fire_deny();
    assert!(seen.records.lock().unwrap().is_empty());
    // error_json may be NULL.
    // SAFETY: a valid call with a NULL out-param, which the function accepts.
    let code = unsafe { hooks_set_log_callback(Some(collect), ptr::null_mut(), -1, ptr::null_mut()) };
    assert_eq!(code, HOOKS_ERR_INVALID_CONFIG);
}
