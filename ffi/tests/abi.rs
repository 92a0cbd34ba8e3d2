//! The C ABI called from Rust through the real extern functions (the rlib), pinning what
//! abi.md §2 promises a C caller: codes, out-params, error JSON, threads, panics, version.
//!
//! Every `unsafe` call here passes pointers that are either NULL on purpose (the ABI must
//! refuse them) or valid for the call: `CString`s that outlive it, out-params on the stack,
//! and dispatchers created here and freed once, after their last fire.
#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use hookwire::*;
use serde_json::Value;
use std::ffi::{CStr, CString, c_char, c_void};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const EMPTY_CONFIG: &str = r#"{"hooks":{}}"#;
const DENY_CONFIG: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo nope >&2; exit 2"}]}]}}"#;

fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

/// Takes ownership of a string the library returned, frees it with hooks_free, parses it.
fn take_json(p: *mut c_char) -> Value {
    assert!(!p.is_null(), "expected a string, got NULL");
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let text = unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_free(p) };
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A poison value, so a test can see that an out-param was written.
fn poison() -> *mut c_char {
    ptr::dangling_mut::<c_char>()
}

fn new_dispatcher(config: &str) -> *mut HooksDispatcher {
    let config = c(config);
    let mut err = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let d = unsafe { hooks_dispatcher_new(config.as_ptr(), &mut err) };
    assert!(!d.is_null(), "dispatcher refused: {:?}", take_json(err));
    assert!(err.is_null(), "error_json must be NULL on success");
    d
}

fn fire(d: *const HooksDispatcher, event: &[u8]) -> (i32, Value) {
    let event = CString::new(event).unwrap();
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_fire(d, event.as_ptr(), &mut out) };
    (code, take_json(out))
}

fn new_error(config: &[u8]) -> Value {
    let config = CString::new(config).unwrap();
    let mut err = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let d = unsafe { hooks_dispatcher_new(config.as_ptr(), &mut err) };
    if !d.is_null() {
        // SAFETY: d was just created and no fire uses it.
        unsafe { hooks_dispatcher_free(d) };
        panic!("the configuration was accepted: {}", String::from_utf8_lossy(config.as_bytes()));
    }
    take_json(err)
}

#[test]
fn version_equals_the_core_version_and_is_static() {
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let first = unsafe { CStr::from_ptr(hooks_version()) };
    assert_eq!(first.to_str().unwrap(), hookwire_core::version());
    assert_eq!(hooks_version(), hooks_version(), "the same static string every time");
    let parts: Vec<&str> = first.to_str().unwrap().split('.').collect();
    assert_eq!(parts.len(), 3, "MAJOR.MINOR.PATCH");
}

#[test]
fn null_config_gives_null_and_a_null_pointer_error() {
    let mut err = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let d = unsafe { hooks_dispatcher_new(ptr::null(), &mut err) };
    assert!(d.is_null());
    let e = take_json(err);
    assert_eq!(e["error"]["kind"], "null_pointer");
    assert!(e["error"]["message"].as_str().unwrap().contains("config_json"));
}

#[test]
fn failure_with_a_null_error_out_param_just_returns_null() {
    let bad = c("{");
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert!(unsafe { hooks_dispatcher_new(bad.as_ptr(), ptr::null_mut()) }.is_null());
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert!(unsafe { hooks_dispatcher_new(ptr::null(), ptr::null_mut()) }.is_null());
}

#[test]
fn success_with_a_null_error_out_param_returns_a_dispatcher() {
    let config = c(EMPTY_CONFIG);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let d = unsafe { hooks_dispatcher_new(config.as_ptr(), ptr::null_mut()) };
    assert!(!d.is_null());
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn freeing_null_does_nothing() {
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_free(ptr::null_mut()) };
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(ptr::null_mut()) };
}

#[test]
fn config_that_is_not_utf8_is_invalid_utf8() {
    let e = new_error(b"{\"hooks\":{\"\xff\xfe\":[]}}");
    assert_eq!(e["error"]["kind"], "invalid_utf8");
}

#[test]
fn config_that_is_not_json_is_invalid_json_with_line_and_column() {
    let e = new_error(b"{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}");
    assert_eq!(e["error"]["kind"], "invalid_json");
    assert_eq!(e["error"]["line"], 3);
    assert_eq!(e["error"]["column"], 20);
    assert!(e["error"]["message"].is_string());
}

#[test]
fn config_that_is_json_but_not_a_configuration_is_invalid_config() {
    let e = new_error(b"[1, 2, 3]");
    assert_eq!(e["error"]["kind"], "invalid_config");
    assert!(e["error"]["message"].is_string());
}

// Needs the real engine: the temporary core scaffold accepts any object (protocol.md §2.9).
#[test]
fn config_with_a_value_of_the_wrong_type_is_invalid_config_with_its_pointer() {
    let e = new_error(
        br#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true","timeout":"5"}]}]}}"#,
    );
    assert_eq!(e["error"]["kind"], "invalid_config", "{e}");
    assert_eq!(e["error"]["pointer"], "/hooks/PreToolUse/0/hooks/0/timeout", "{e}");
}

#[test]
fn null_result_out_param_is_refused_and_nothing_runs() {
    let d = new_dispatcher(EMPTY_CONFIG);
    let event = c(r#"{"hook_event_name":"Stop"}"#);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert_eq!(unsafe { hooks_fire(d, event.as_ptr(), ptr::null_mut()) }, HOOKS_ERR_NULL_POINTER);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn null_dispatcher_or_event_is_a_null_pointer_error_json() {
    let (code, e) = fire(ptr::null(), br#"{"hook_event_name":"Stop"}"#);
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    assert_eq!(e["error"]["kind"], "null_pointer");
    assert!(e["error"]["message"].as_str().unwrap().contains("dispatcher"));

    let d = new_dispatcher(EMPTY_CONFIG);
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_fire(d, ptr::null(), &mut out) };
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    let e = take_json(out);
    assert_eq!(e["error"]["kind"], "null_pointer");
    assert!(e["error"]["message"].as_str().unwrap().contains("event_json"));
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

/// hooks_answer_without_running: (code, the stored string or None for NULL).
fn answer(d: *const HooksDispatcher, event: Option<&[u8]>) -> (i32, Option<String>) {
    let event = event.map(|e| CString::new(e).unwrap());
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe {
        hooks_answer_without_running(d, event.as_ref().map_or(ptr::null(), |e| e.as_ptr()), &mut out)
    };
    if out.is_null() {
        return (code, None);
    }
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let text = unsafe { CStr::from_ptr(out) }.to_str().unwrap().to_string();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_free(out) };
    (code, Some(text))
}

#[test]
fn answer_without_running_stores_the_fires_bytes_for_a_non_match_and_null_otherwise() {
    let d = new_dispatcher(DENY_CONFIG);
    let read = br#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}"#;
    let (code, fired) = fire(d, read);
    assert_eq!(code, HOOKS_OK);
    let (code, answered) = answer(d, Some(read));
    assert_eq!(code, HOOKS_OK);
    assert_eq!(serde_json::from_str::<Value>(&answered.unwrap()).unwrap(), fired);
    for runs_or_refused in [
        &br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#[..],
        br#"{"hook_event_name":"PreToolUse","tool_name":5}"#,
        br#"{"hook_event_name":"#,
        b"\xff",
    ] {
        assert_eq!(answer(d, Some(runs_or_refused)), (HOOKS_OK, None), "{runs_or_refused:?}");
    }
    let (code, e) = answer(d, None);
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    assert!(e.unwrap().contains("event_json"));
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
    let (code, e) = answer(ptr::null(), Some(read));
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    assert!(e.unwrap().contains("dispatcher"));
    let event = c(r#"{"hook_event_name":"Stop"}"#);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_answer_without_running(ptr::null(), event.as_ptr(), ptr::null_mut()) };
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
}

#[test]
fn event_errors_come_back_as_codes_and_error_json() {
    let d = new_dispatcher(EMPTY_CONFIG);

    let (code, e) = fire(d, b"{\"hook_event_name\":\"Stop\",\"x\":\"\xc3\x28\"}");
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_INVALID_UTF8, Some("invalid_utf8")));

    let (code, e) = fire(d, b"{\"hook_event_name\":\n \"Stop\" \"x\"}");
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_INVALID_JSON, Some("invalid_json")));
    assert_eq!(e["error"]["line"], 2);
    assert_eq!(e["error"]["column"], 9);

    for not_an_event in [&b"[]"[..], b"42", b"{}", b"{\"hook_event_name\":7}"] {
        let (code, e) = fire(d, not_an_event);
        assert_eq!(code, HOOKS_ERR_INVALID_EVENT, "{}", String::from_utf8_lossy(not_an_event));
        assert_eq!(e["error"]["kind"], "invalid_event");
    }
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn an_event_that_matches_nothing_gives_ok_and_no_outcomes() {
    let d = new_dispatcher(DENY_CONFIG);
    let (code, r) = fire(d, br#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}"#);
    assert_eq!(code, HOOKS_OK, "{r}");
    assert_eq!(r["event"], "PreToolUse");
    assert_eq!(r["decision"], Value::Null);
    assert_eq!(r["outcomes"], serde_json::json!([]));
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

// Needs the real engine: the temporary core scaffold runs no hooks, so this fails until the
// engine lands (it is written to the spec, protocol.md §6 and §8).
#[test]
fn a_shell_hook_exiting_2_denies_with_its_stderr_as_the_reason() {
    let d = new_dispatcher(DENY_CONFIG);
    let (code, r) = fire(
        d,
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/"}"#,
    );
    assert_eq!(code, HOOKS_OK, "{r}");
    assert_eq!(r["decision"], "deny", "{r}");
    assert!(r["reason"].as_str().unwrap_or("").contains("nope"), "{r}");
    assert_eq!(r["outcomes"][0]["exit_code"], 2, "{r}");
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn eight_threads_fire_on_one_dispatcher_at_once() {
    struct Shared(*const HooksDispatcher);
    // SAFETY: HooksDispatcher is thread-safe (abi.md §2.5); the pointer is only used while the
    // dispatcher is alive, and it is freed after every thread has joined.
    unsafe impl Send for Shared {}
    // SAFETY: as for Send: concurrent hooks_fire on one dispatcher is allowed.
    unsafe impl Sync for Shared {}

    let d = Shared(new_dispatcher(
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}"#,
    ));
    let barrier = std::sync::Barrier::new(8);
    std::thread::scope(|s| {
        for i in 0..8 {
            let (d, barrier) = (&d, &barrier);
            s.spawn(move || {
                barrier.wait();
                for j in 0..4 {
                    let tool = if (i + j) % 2 == 0 { "Bash" } else { "Read" };
                    let event = format!(r#"{{"hook_event_name":"PreToolUse","tool_name":"{tool}","tool_input":{{}},"cwd":"/"}}"#);
                    let (code, r) = fire(d.0, event.as_bytes());
                    assert_eq!(code, HOOKS_OK, "{r}");
                    assert_eq!(r["event"], "PreToolUse");
                }
            });
        }
    });
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d.0 as *mut HooksDispatcher) };
}

/// The core's test-only trigger (core/src/dispatcher.rs) panics inside `fire_json` when
/// `HOOKWIRE_TEST_PANIC` is set and the event is named `__hookwire_test_panic__`. The variable
/// is set on a child run of this test binary, never with `set_var` in this multi-threaded
/// process, where other tests' hooks read the environment at the same time.
#[test]
fn a_panic_inside_a_fire_becomes_hooks_err_panic_and_the_dispatcher_can_still_be_freed() {
    const NAME: &str = "a_panic_inside_a_fire_becomes_hooks_err_panic_and_the_dispatcher_can_still_be_freed";
    if std::env::var_os("HOOKWIRE_TEST_PANIC").is_none() {
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", NAME, "--test-threads=1"])
            .env("HOOKWIRE_TEST_PANIC", "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&child.stdout);
        assert!(
            child.status.success(),
            "child run failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&child.stderr)
        );
        assert!(stdout.contains("1 passed"), "the child ran no test:\n{stdout}");
        return;
    }
    let d = new_dispatcher(EMPTY_CONFIG);
    let (code, e) = fire(d, br#"{"hook_event_name":"__hookwire_test_panic__"}"#);
    assert_eq!(code, HOOKS_ERR_PANIC, "{e}");
    assert_eq!(e["error"]["kind"], "panic");
    assert!(e["error"]["message"].as_str().unwrap().contains("HOOKWIRE_TEST_PANIC"), "{e}");

    // A caught panic leaves the dispatcher usable and freeable.
    let (code, r) = fire(d, br#"{"hook_event_name":"Stop"}"#);
    assert_eq!(code, HOOKS_OK, "{r}");
    // SAFETY: d came from hooks_dispatcher_new and no fire is running.
    unsafe { hooks_dispatcher_free(d) };
}

fn trust_record(config: &str) -> (i32, Value) {
    let config = c(config);
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_trust_record(config.as_ptr(), &mut out) };
    (code, take_json(out))
}

fn trust_status(d: *const HooksDispatcher) -> (i32, Value) {
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_trust_status(d, &mut out) };
    (code, take_json(out))
}

#[test]
fn trust_calls_refuse_nulls_with_codes_and_error_json() {
    let config = c(EMPTY_CONFIG);
    let d = new_dispatcher(EMPTY_CONFIG);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe {
        assert_eq!(hooks_trust_status(d, ptr::null_mut()), HOOKS_ERR_NULL_POINTER);
        assert_eq!(hooks_trust_record(config.as_ptr(), ptr::null_mut()), HOOKS_ERR_NULL_POINTER);
    }
    let (code, e) = trust_status(ptr::null());
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_NULL_POINTER, Some("null_pointer")));
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_trust_record(ptr::null(), &mut out) };
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    assert_eq!(take_json(out)["error"]["kind"], "null_pointer");
    // SAFETY: d came from hooks_dispatcher_new and no fire is running.
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn trust_record_reports_bad_input_like_the_constructor() {
    let bad = CString::new(&b"{\"x\":\"\xff\"}"[..]).unwrap();
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_trust_record(bad.as_ptr(), &mut out) };
    assert_eq!(code, HOOKS_ERR_INVALID_UTF8);
    assert_eq!(take_json(out)["error"]["kind"], "invalid_utf8");
    let (code, e) = trust_record("{\n ,}");
    assert_eq!(code, HOOKS_ERR_INVALID_JSON, "{e}");
    assert_eq!(e["error"]["line"], 2);
    let (code, e) = trust_record(
        r#"{"sources":[{"scope":"project","settings":{}}],"trust":{"store":"/nonexistent/t.json"}}"#,
    );
    assert_eq!(code, HOOKS_ERR_INVALID_CONFIG, "{e}");
    assert_eq!(e["error"]["pointer"], "/project_dir");
}

#[test]
fn a_recorded_project_source_is_trusted_and_runs_in_a_new_dispatcher() {
    let dir = std::env::temp_dir().join(format!("hookwire-ffi-trust-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(".claude")).unwrap();
    std::fs::write(
        dir.join(".claude/settings.json"),
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo ran"}]}]}}"#,
    )
    .unwrap();
    let config = serde_json::json!({
        "project_dir": dir,
        "trust": {"store": dir.join("trust.json")},
        "sources": [{"scope": "project", "path": ".claude/settings.json"}]
    })
    .to_string();
    let stop = br#"{"hook_event_name":"Stop","cwd":"/"}"#;

    let before = new_dispatcher(&config);
    let (code, status) = trust_status(before);
    assert_eq!(code, HOOKS_OK, "{status}");
    assert_eq!(status["sources"][0]["trusted"], false, "{status}");
    assert_eq!(fire(before, stop).1["outcomes"].as_array().unwrap().len(), 0);

    let (code, status) = trust_record(&config);
    assert_eq!(code, HOOKS_OK, "{status}");
    assert_eq!(status["sources"][0]["trusted"], true, "{status}");

    let after = new_dispatcher(&config);
    assert_eq!(trust_status(after).1["sources"][0]["trusted"], true);
    assert_eq!(fire(after, stop).1["outcomes"].as_array().unwrap().len(), 1);
    // SAFETY: both came from hooks_dispatcher_new and no fire is running.
    unsafe {
        hooks_dispatcher_free(before);
        hooks_dispatcher_free(after);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- cancellation tokens, function hooks and host callbacks (abi.md §2.8, issue 8) ----

const ALLOW_JSON: &str =
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;

fn bash_event(command: &str) -> Vec<u8> {
    serde_json::json!({"hook_event_name": "PreToolUse", "cwd": "/", "tool_name": "Bash",
                       "tool_input": {"command": command}})
    .to_string()
    .into_bytes()
}

fn fire_with(d: *const HooksDispatcher, event: &[u8], token: *const HooksCancelToken) -> (i32, Value) {
    let event = CString::new(event).unwrap();
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_fire_with(d, event.as_ptr(), token, &mut out) };
    (code, take_json(out))
}

fn add_function_hook(
    d: *const HooksDispatcher,
    options: &str,
    f: HooksFunctionHook,
    user_data: *mut c_void,
) -> (i32, Value) {
    let options = c(options);
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_add_function_hook(d, options.as_ptr(), f, user_data, &mut out) };
    (code, take_json(out))
}

/// Answers `answer` through hooks_string_new, or fails with it when it starts with "ERR:".
fn answer_with(text: &str, answer: *mut *mut c_char) -> i32 {
    let (code, text) = match text.strip_prefix("ERR:") {
        Some(message) => (1, message),
        None => (0, text),
    };
    let text = c(text);
    // SAFETY: hookwire passes a valid out-param; the copy is handed over to hookwire.
    unsafe { *answer = hooks_string_new(text.as_ptr()) };
    code
}

/// Denies commands containing "rm", allows the rest, and rewrites `ls` to `ls -la`; counts
/// its calls in the AtomicUsize behind user_data.
unsafe extern "C" fn guard_fn(user_data: *mut c_void, event: *const c_char, answer: *mut *mut c_char) -> i32 {
    // SAFETY: user_data is the &AtomicUsize the test registered, alive until the free.
    let calls = unsafe { &*(user_data as *const AtomicUsize) };
    calls.fetch_add(1, Ordering::SeqCst);
    // SAFETY: hookwire passes the event as a NUL-terminated string valid for the call.
    let event: Value = serde_json::from_str(unsafe { CStr::from_ptr(event) }.to_str().unwrap()).unwrap();
    let cmd = event["tool_input"]["command"].as_str().unwrap().to_string();
    let reply = if cmd.contains("rm") {
        serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no rm from C"}})
    } else {
        serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "updatedInput": {"command": format!("{cmd} -la")}}})
    };
    answer_with(&reply.to_string(), answer)
}

unsafe extern "C" fn failing_fn(_: *mut c_void, _: *const c_char, answer: *mut *mut c_char) -> i32 {
    answer_with("ERR:checker crashed", answer)
}

unsafe extern "C" fn silent_failure_fn(_: *mut c_void, _: *const c_char, _: *mut *mut c_char) -> i32 {
    42
}

/// Sleeps 1.5 s, then sets the AtomicBool behind user_data: it overruns a 1 s timeout.
unsafe extern "C" fn slow_fn(user_data: *mut c_void, _: *const c_char, _: *mut *mut c_char) -> i32 {
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: user_data is the &AtomicBool the test registered, alive until the free returns.
    unsafe { &*(user_data as *const AtomicBool) }.store(true, Ordering::SeqCst);
    0
}

/// A prompt callback that says no, echoing the handler's prompt in the reason.
unsafe extern "C" fn prompt_fn(_: *mut c_void, request: *const c_char, reply: *mut *mut c_char) -> i32 {
    // SAFETY: hookwire passes the request as a NUL-terminated string valid for the call.
    let req: Value = serde_json::from_str(unsafe { CStr::from_ptr(request) }.to_str().unwrap()).unwrap();
    assert_eq!(req["type"], "prompt");
    let reason = format!("model: {}", req["handler"]["prompt"].as_str().unwrap());
    answer_with(&serde_json::json!({"ok": false, "reason": reason}).to_string(), reply)
}

#[test]
fn a_c_function_deny_beats_a_command_allow_and_its_rewrite_is_taken() {
    let cfg = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("echo '{ALLOW_JSON}'")}]}]}});
    let d = new_dispatcher(&cfg.to_string());
    let calls = Box::new(AtomicUsize::new(0));
    let user_data = &*calls as *const AtomicUsize as *mut c_void;
    let (code, reply) = add_function_hook(
        d,
        r#"{"event":"PreToolUse","matcher":"Bash","name":"guard"}"#,
        Some(guard_fn),
        user_data,
    );
    assert_eq!(code, HOOKS_OK, "{reply}");
    assert_eq!(reply["hook"], "function(guard):PreToolUse");

    let (code, r) = fire(d, &bash_event("rm -rf /"));
    assert_eq!(code, HOOKS_OK);
    assert_eq!(r["decision"], "deny", "{r}");
    assert_eq!(r["reason"], "no rm from C");
    let (_, r) = fire(d, &bash_event("ls"));
    assert_eq!(r["decision"], "allow", "{r}");
    assert_eq!(r["updated_input"], serde_json::json!({"command": "ls -la"}));
    assert_eq!(r["outcomes"][1]["hook"], "function(guard):PreToolUse");
    // SAFETY: no fire is running; the free returns before `calls` is dropped.
    unsafe { hooks_dispatcher_free(d) };
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[test]
fn a_failing_c_function_is_a_non_blocking_error_with_its_message() {
    let d = new_dispatcher(EMPTY_CONFIG);
    let (code, _) = add_function_hook(d, r#"{"event":"PreToolUse"}"#, Some(failing_fn), ptr::null_mut());
    assert_eq!(code, HOOKS_OK);
    let (code, _) =
        add_function_hook(d, r#"{"event":"PreToolUse"}"#, Some(silent_failure_fn), ptr::null_mut());
    assert_eq!(code, HOOKS_OK);
    let (_, r) = fire(d, &bash_event("ls"));
    assert_eq!(r["decision"], Value::Null, "{r}");
    assert_eq!(r["outcomes"][0]["status"], "error");
    assert!(r["outcomes"][0]["error"].as_str().unwrap().contains("checker crashed"), "{r}");
    assert!(r["outcomes"][1]["error"].as_str().unwrap().contains("returned 42"), "{r}");
    let (code, _) = add_function_hook(
        d,
        r#"{"event":"PreToolUse","fail_closed":true}"#,
        Some(failing_fn),
        ptr::null_mut(),
    );
    assert_eq!(code, HOOKS_OK);
    assert_eq!(fire(d, &bash_event("ls")).1["decision"], "deny");
    // SAFETY: created above; no fire is running.
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn function_hook_registration_reports_bad_arguments() {
    let d = new_dispatcher(EMPTY_CONFIG);
    let f: HooksFunctionHook = Some(failing_fn);
    for (options, kind) in [
        ("{", "invalid_json"),
        ("[]", "invalid_config"),
        (r#"{"matcher":"Bash"}"#, "invalid_config"),
        (r#"{"event":"Nope"}"#, "invalid_config"),
        (r#"{"event":"PreToolUse","timeout_s":0}"#, "invalid_config"),
        (r#"{"event":"PreToolUse","colour":"red"}"#, "invalid_config"),
    ] {
        let (code, e) = add_function_hook(d, options, f, ptr::null_mut());
        assert_eq!(e["error"]["kind"], kind, "{options}: {e}");
        assert_ne!(code, HOOKS_OK);
    }
    let (code, e) = add_function_hook(d, r#"{"event":"PreToolUse"}"#, None, ptr::null_mut());
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_NULL_POINTER, Some("null_pointer")));
    let (code, e) = add_function_hook(ptr::null(), r#"{"event":"PreToolUse"}"#, f, ptr::null_mut());
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_NULL_POINTER, Some("null_pointer")));
    let options = c(r#"{"event":"PreToolUse"}"#);
    // SAFETY: NULL result_json on purpose: nothing is registered or stored.
    let code = unsafe { hooks_add_function_hook(d, options.as_ptr(), f, ptr::null_mut(), ptr::null_mut()) };
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    assert_eq!(
        fire(d, &bash_event("ls")).1["outcomes"].as_array().unwrap().len(),
        0,
        "nothing was registered"
    );
    // SAFETY: created above; no fire is running.
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn a_c_host_callback_answers_prompt_handlers() {
    let cfg = r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"prompt","prompt":"is it safe?"}]}]}}"#;
    let d = new_dispatcher(cfg);
    let prompt = c("prompt");
    let mut err = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code =
        unsafe { hooks_set_host_callback(d, prompt.as_ptr(), Some(prompt_fn), ptr::null_mut(), &mut err) };
    assert_eq!(code, HOOKS_OK);
    assert!(err.is_null());
    let (_, r) = fire(d, &bash_event("ls"));
    assert_eq!(r["decision"], "deny", "{r}");
    assert_eq!(r["reason"], "model: is it safe?");

    let command = c("command");
    // SAFETY: as above.
    let code =
        unsafe { hooks_set_host_callback(d, command.as_ptr(), Some(prompt_fn), ptr::null_mut(), &mut err) };
    assert_eq!(
        (code, take_json(err)["error"]["kind"].as_str().map(str::to_string)),
        (HOOKS_ERR_INVALID_CONFIG, Some("invalid_config".into()))
    );
    // SAFETY: as above; a NULL error_json just drops the error.
    let code = unsafe { hooks_set_host_callback(d, prompt.as_ptr(), None, ptr::null_mut(), ptr::null_mut()) };
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    // SAFETY: created above; no fire is running.
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn freeing_the_dispatcher_waits_for_a_function_that_overran_its_timeout() {
    let d = new_dispatcher(EMPTY_CONFIG);
    let done = Box::new(AtomicBool::new(false));
    let user_data = &*done as *const AtomicBool as *mut c_void;
    let (code, _) = add_function_hook(d, r#"{"event":"PreToolUse","timeout_s":1}"#, Some(slow_fn), user_data);
    assert_eq!(code, HOOKS_OK);
    let (_, r) = fire(d, &bash_event("ls"));
    assert_eq!(r["outcomes"][0]["status"], "timed_out", "{r}");
    assert!(!done.load(Ordering::SeqCst), "the fire returned at the deadline, before the function");
    // SAFETY: no fire is running; the free must wait for the call still running.
    unsafe { hooks_dispatcher_free(d) };
    assert!(done.load(Ordering::SeqCst), "hooks_dispatcher_free returned while user_data was in use");
}

#[test]
fn cancel_tokens_tolerate_null_and_a_null_token_fires_normally() {
    // SAFETY: NULL on purpose: both do nothing.
    unsafe {
        hooks_cancel_token_cancel(ptr::null());
        hooks_cancel_token_free(ptr::null_mut());
    }
    let d = new_dispatcher(DENY_CONFIG);
    let (code, r) = fire_with(d, &bash_event("ls"), ptr::null());
    assert_eq!((code, r["decision"].as_str()), (HOOKS_OK, Some("deny")));
    let token = hooks_cancel_token_new();
    assert!(!token.is_null());
    let (code, e) = fire_with(d, b"{", token);
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_INVALID_JSON, Some("invalid_json")));
    let (code, e) = fire_with(d, b"\"\xff\"", token);
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_INVALID_UTF8, Some("invalid_utf8")));
    let (code, e) = fire_with(ptr::null(), &bash_event("ls"), token);
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_NULL_POINTER, Some("null_pointer")));
    // SAFETY: the token is live; cancelling twice is allowed.
    unsafe {
        hooks_cancel_token_cancel(token);
        hooks_cancel_token_cancel(token);
    }
    let (code, r) = fire_with(d, &bash_event("ls"), token);
    assert_eq!(code, HOOKS_OK);
    assert_eq!(r["outcomes"][0]["status"], "cancelled", "{r}");
    assert_eq!(r["decision"], Value::Null, "a cancelled hook does not deny");
    // SAFETY: created above, no call uses them any more.
    unsafe {
        hooks_cancel_token_free(token);
        hooks_dispatcher_free(d);
    }
}

#[test]
fn cancelling_from_another_thread_ends_a_sleeping_hook_promptly() {
    let d = new_dispatcher(r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"sleep 30"}]}]}}"#);
    let token = hooks_cancel_token_new();
    let addr = token as usize;
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: the token outlives this thread (joined before the free).
        unsafe { hooks_cancel_token_cancel(addr as *const HooksCancelToken) };
    });
    let started = Instant::now();
    let (code, r) = fire_with(d, br#"{"hook_event_name":"Stop","cwd":"/"}"#, token);
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    canceller.join().unwrap();
    assert_eq!(code, HOOKS_OK);
    assert_eq!(r["outcomes"][0]["status"], "cancelled", "{r}");
    // SAFETY: created above, no call uses them any more.
    unsafe {
        hooks_cancel_token_free(token);
        hooks_dispatcher_free(d);
    }
}

fn host_step(result: &[u8]) -> (i32, Value) {
    let result = CString::new(result).unwrap();
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_host_step(result.as_ptr(), &mut out) };
    (code, take_json(out))
}

#[test]
fn the_host_step_of_a_fired_deny_keeps_the_tool_from_running_with_the_reason() {
    let d = new_dispatcher(DENY_CONFIG);
    let event =
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/"}"#;
    let (_, r) = fire(d, event);
    let (code, step) = host_step(r.to_string().as_bytes());
    assert_eq!(code, HOOKS_OK, "{step}");
    assert_eq!(step["action"], "deny_tool", "{step}");
    assert_eq!(step["message"], "nope", "{step}");
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn the_host_step_refuses_nulls_and_text_that_is_not_a_result_with_error_json() {
    let text = c(r#"{"event":"Stop"}"#);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert_eq!(unsafe { hooks_host_step(text.as_ptr(), ptr::null_mut()) }, HOOKS_ERR_NULL_POINTER);
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert_eq!(unsafe { hooks_host_step(ptr::null(), &mut out) }, HOOKS_ERR_NULL_POINTER);
    assert_eq!(take_json(out)["error"]["kind"], "null_pointer");
    for (text, code, kind) in [
        (&b"{"[..], HOOKS_ERR_INVALID_JSON, "invalid_json"),
        (&b"\xff"[..], HOOKS_ERR_INVALID_UTF8, "invalid_utf8"),
        (&br#"{"decision":"deny"}"#[..], HOOKS_ERR_INVALID_EVENT, "invalid_event"),
    ] {
        let (c, e) = host_step(text);
        assert_eq!((c, e["error"]["kind"].as_str()), (code, Some(kind)), "{e}");
    }
}

#[test]
fn claude_code_defaults_name_the_three_settings_files_of_a_resolved_project() {
    let dir = c("/tmp/../tmp");
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_claude_code_defaults(dir.as_ptr(), &mut out) };
    let envelope = take_json(out);
    assert_eq!(code, HOOKS_OK, "{envelope}");
    assert_eq!(envelope["project_dir"], "/tmp", "{envelope}");
    let paths: Vec<&str> =
        envelope["sources"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["~/.claude/settings.json", ".claude/settings.json", ".claude/settings.local.json"]);
}

#[test]
fn claude_code_defaults_of_a_missing_directory_is_invalid_config_at_project_dir() {
    let dir = c("/nonexistent/hookwire-project");
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_claude_code_defaults(dir.as_ptr(), &mut out) };
    let e = take_json(out);
    assert_eq!(code, HOOKS_ERR_INVALID_CONFIG, "{e}");
    assert_eq!(e["error"]["pointer"], "/project_dir", "{e}");
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert_eq!(unsafe { hooks_claude_code_defaults(ptr::null(), ptr::null_mut()) }, HOOKS_ERR_NULL_POINTER);
}

#[test]
fn the_host_event_of_a_frameworks_facts_fires_and_reaches_a_mapped_guard() {
    let facts = c(
        r#"{"event":"PreToolUse","session_id":"s","cwd":"/","tool_name":"bash","tool_names":{"bash":"Bash"},"tool_input":{"command":"ls"}}"#,
    );
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_host_event(facts.as_ptr(), &mut out) };
    let event = take_json(out);
    assert_eq!(code, HOOKS_OK, "{event}");
    assert_eq!(
        (event["tool_name"].as_str(), event["permission_mode"].as_str()),
        (Some("Bash"), Some("default"))
    );
    let d = new_dispatcher(DENY_CONFIG);
    let (_, r) = fire(d, event.to_string().as_bytes());
    assert_eq!(r["decision"], "deny", "{r}");
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn the_host_event_refuses_nulls_and_facts_an_event_lacks_with_error_json() {
    let facts = c(r#"{"event":"Stop","session_id":"s","cwd":"/"}"#);
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert_eq!(unsafe { hooks_host_event(facts.as_ptr(), ptr::null_mut()) }, HOOKS_ERR_NULL_POINTER);
    for (text, code, kind) in [
        (&b"{"[..], HOOKS_ERR_INVALID_JSON, "invalid_json"),
        (&b"\xff"[..], HOOKS_ERR_INVALID_UTF8, "invalid_utf8"),
        (
            &br#"{"event":"PreToolUse","session_id":"s","cwd":"/"}"#[..],
            HOOKS_ERR_INVALID_EVENT,
            "invalid_event",
        ),
    ] {
        let text = CString::new(text).unwrap();
        let mut out = poison();
        // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
        let c = unsafe { hooks_host_event(text.as_ptr(), &mut out) };
        let e = take_json(out);
        assert_eq!((c, e["error"]["kind"].as_str()), (code, Some(kind)), "{e}");
    }
}

#[test]
fn tool_reach_warns_about_a_framework_name_no_matcher_reaches() {
    let d = new_dispatcher(DENY_CONFIG);
    let reach = |name: &str| {
        let name = c(name);
        let mut out = poison();
        // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
        let code = unsafe { hooks_tool_reach(d, name.as_ptr(), &mut out) };
        (code, take_json(out))
    };
    let (code, r) = reach("bash");
    assert_eq!(code, HOOKS_OK, "{r}");
    assert_eq!((r["hooked"].as_bool(), r["reached"].as_bool()), (Some(true), Some(false)), "{r}");
    assert!(r["warning"].as_str().unwrap().contains("Bash"), "{r}");
    let (_, r) = reach("Bash");
    assert_eq!((r["reached"].as_bool(), r["warning"].clone()), (Some(true), Value::Null), "{r}");
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    assert_eq!(unsafe { hooks_tool_reach(d, ptr::null(), &mut out) }, HOOKS_ERR_NULL_POINTER);
    take_json(out);
    // SAFETY: created above, no call uses it any more.
    unsafe { hooks_dispatcher_free(d) };
}

#[test]
fn the_host_step_for_a_tools_output_refuses_a_replacement_of_another_kind() {
    let result = c(r#"{"event":"PostToolUse","updated_tool_output":{"n":1}}"#);
    let step_for = |response: &str| {
        let response = c(response);
        let mut out = poison();
        // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
        let code = unsafe { hooks_host_step_for(result.as_ptr(), response.as_ptr(), &mut out) };
        (code, take_json(out))
    };
    let (code, step) = step_for(r#"{"n":0}"#);
    assert_eq!((code, step["tool_output"].clone()), (HOOKS_OK, serde_json::json!({"n": 1})), "{step}");
    let (_, step) = step_for(r#""text""#);
    assert_eq!(step["tool_output"], Value::Null, "{step}");
    let (code, e) = step_for("{");
    assert_eq!((code, e["error"]["kind"].as_str()), (HOOKS_ERR_INVALID_JSON, Some("invalid_json")));
    let mut out = poison();
    // SAFETY: pointers are NULL on purpose or valid for this call (see the top).
    let code = unsafe { hooks_host_step_for(result.as_ptr(), ptr::null(), &mut out) };
    assert_eq!(code, HOOKS_ERR_NULL_POINTER);
    take_json(out);
}
