//! hookwire-ffi: the C ABI of hookwire (abi.md §2): the five functions of §2.2, and the
//! additions of §2.8: project trust, cancellation tokens, C function hooks and host callbacks;
//! the log callback (issue 16); eight codes and six log levels.
//!
//! The doc comments in this file are the documentation of `include/hookwire.h`: cbindgen
//! copies them into the header, so they are written for C programmers. Every exported
//! function is its C signature around one call of the boundary macro `export!`, which borrows
//! its pointer arguments (NULL is an error), catches panics and turns every failure into a
//! code plus an error JSON (`ffi/tests/exports.rs` holds every export to that form); no
//! function here may unwind into C, keep a pointer the caller passed after returning, or keep
//! any global state but one: the record of the large strings handed to C (`c_strings`),
//! which `hooks_free` needs. The log callback is process-wide, but its state is the core's one log
//! sink (`hookwire_core::set_log_sink`), not a global of this crate.

use boundary::export;
use hookwire_core::{CancelToken, Dispatcher, ErrorDetails, ErrorKind, FunctionHook, LogLevel, config_text};
use std::ffi::{c_char, c_void};
use std::ptr;
use std::sync::Arc;

mod boundary;
mod c_strings;
mod trampoline;

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

/// Log level for hooks_set_log_callback: no records (the default).
pub const HOOKS_LOG_OFF: i32 = 0;
/// Log level: failures of hookwire itself (none are logged today; they are returned errors).
pub const HOOKS_LOG_ERROR: i32 = 1;
/// Log level: hooks that failed, timed out or could not start, and configuration warnings.
pub const HOOKS_LOG_WARN: i32 = 2;
/// Log level: also one record per fire that ran hooks ("fire.done").
pub const HOOKS_LOG_INFO: i32 = 3;
/// Log level: also why each hook runs or not, its process, its verdict, the fold.
pub const HOOKS_LOG_DEBUG: i32 = 4;
/// Log level: also each hook's stdin payload, stdout and stderr, which may hold secrets.
pub const HOOKS_LOG_TRACE: i32 = 5;

/// The library version "MAJOR.MINOR.PATCH", NUL-terminated for C.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
/// `hookwire_core::CLAUDE_CODE_VERSION`, NUL-terminated (a test keeps the two equal).
const CLAUDE_CODE_VERSION: &str = "2.1.332\0";

/// A loaded configuration, ready to fire events. Opaque: only pointers to it exist.
///
/// Create it with hooks_dispatcher_new and destroy it with hooks_dispatcher_free. It is
/// thread-safe: any number of threads may call hooks_fire on one dispatcher at once, and it
/// may be created, used and freed on different threads.
pub struct HooksDispatcher {
    inner: Dispatcher,
    /// Lets hooks_dispatcher_free wait for C function hooks and host callbacks still running.
    gate: Arc<trampoline::Gate>,
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
    export!(create(error_json), text(config_json) => {
        let inner = Dispatcher::from_bytes(config_json).map_err(|e| e.details())?;
        Ok(Box::into_raw(Box::new(HooksDispatcher { inner, gate: Arc::default() })))
    })
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
    export!(reply(result_json), handle(dispatcher), text(event_json) => {
        fire(dispatcher, event_json, None)
    })
}

/// Reports the trust state of every project and local source of the dispatcher's
/// configuration, and of any other source marked "trusted": false (protocol.md §2.8), as JSON:
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
    export!(reply(result_json), handle(dispatcher) => {
        Ok(dispatcher.inner.trust_status().to_json())
    })
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
    export!(reply(result_json), text(config_json) => {
        let status = hookwire_core::record_trust_for_bytes(config_json).map_err(|e| e.details())?;
        Ok(status.to_json())
    })
}

/// The host step of a result (agents.md §5): what an agent loop does next with the result JSON
/// of one fire (NUL-terminated UTF-8, as hooks_fire returned it), as JSON:
///   {"event", "action", "tool_input", "message", "feedback", "tool_output", "prompt",
///    "context", "user_message", "stop", "seen_by", "approved"}
/// with "action" one of "run_tool", "deny_tool", "defer_tool", "deliver_result",
/// "call_model", "block_prompt", "continue_turn", "end_turn", "proceed"
/// (schema/host-step.schema.json). A pure function: nothing is spawned, read or written.
///
/// If step_json is NULL, returns HOOKS_ERR_NULL_POINTER and stores nothing. Otherwise it always
/// stores a new string in *step_json, which the caller frees with hooks_free: with HOOKS_OK the
/// step JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (result_json is NULL); HOOKS_ERR_INVALID_UTF8;
/// HOOKS_ERR_INVALID_JSON; HOOKS_ERR_INVALID_EVENT (JSON that is not a result: no string
/// "event", a key of the wrong type); HOOKS_ERR_PANIC. Treat any other non-zero code as an
/// error and read its error JSON.
///
/// Safe to call from any thread. result_json is borrowed for this call only.
///
/// # Safety
/// result_json is NULL or a NUL-terminated string; step_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_host_step(result_json: *const c_char, step_json: *mut *mut c_char) -> i32 {
    export!(reply(step_json), text(result_json) => {
        let text = hookwire_core::event_text(result_json).map_err(|e| e.details())?;
        hookwire_core::HostStep::of_json(text).map_err(|e| e.details())
    })
}

/// As hooks_host_step, for a PostToolUse or PostToolUseFailure result of a tool whose output
/// was tool_response_json (NUL-terminated UTF-8 JSON: what the tool returned, as JSON): the
/// step's "tool_output" is kept only when it has the JSON kind of that output (a string for a
/// string, an object for an object, ...), else it is null and the host keeps the real output.
/// A host tells a refused replacement by the result's "updated_tool_output" being set.
///
/// Codes and ownership as hooks_host_step's; HOOKS_ERR_NULL_POINTER also for a NULL
/// tool_response_json, HOOKS_ERR_INVALID_JSON also for one that is not JSON.
///
/// # Safety
/// result_json and tool_response_json are NULL or NUL-terminated strings; step_json is NULL or
/// valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_host_step_for(
    result_json: *const c_char,
    tool_response_json: *const c_char,
    step_json: *mut *mut c_char,
) -> i32 {
    export!(reply(step_json), text(result_json), text(tool_response_json) => {
        let result = hookwire_core::event_text(result_json).map_err(|e| e.details())?;
        let response = hookwire_core::event_text(tool_response_json).map_err(|e| e.details())?;
        hookwire_core::HostStep::of_json_for(result, response).map_err(|e| e.details())
    })
}

/// Builds the event a host fires from what its framework knows at one point of its loop
/// (facts_json, NUL-terminated UTF-8 JSON, schema/host-facts.schema.json):
///   {"event", "session_id", "cwd", "transcript_path"?, "permission_mode"?, "tool_name"?,
///    "tool_names"?, "tool_input"?, "tool_use_id"?, "tool_response"?, "error"?, "error_type"?,
///    "is_interrupt"?, "prompt"?, "source"?, "reason"?, "stop_hook_active"?,
///    "last_assistant_message"?, "fields"?}
/// by one rule for every host (Claude Code's key order; transcript_path only when given;
/// permission_mode "default"; tool_name mapped through tool_names; tool_input always an
/// object; PostToolUseFailure's error as "<error_type>: <error>"). Pass the event to
/// hooks_fire. A pure function: nothing is spawned, read or written.
///
/// If event_json is NULL, returns HOOKS_ERR_NULL_POINTER and stores nothing. Otherwise it always
/// stores a new string in *event_json, which the caller frees with hooks_free: with HOOKS_OK
/// the event JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (facts_json is NULL); HOOKS_ERR_INVALID_UTF8;
/// HOOKS_ERR_INVALID_JSON; HOOKS_ERR_INVALID_EVENT (an unknown or mistyped key, an unknown
/// event, a fact the event needs missing: its "pointer" names it); HOOKS_ERR_PANIC. Treat any
/// other non-zero code as an error and read its error JSON.
///
/// Safe to call from any thread. facts_json is borrowed for this call only.
///
/// # Safety
/// facts_json is NULL or a NUL-terminated string; event_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_host_event(facts_json: *const c_char, event_json: *mut *mut c_char) -> i32 {
    export!(reply(event_json), text(facts_json) => {
        let text = hookwire_core::event_text(facts_json).map_err(|e| e.details())?;
        hookwire_core::HostFacts::event_of_json(text).map_err(|e| e.details())
    })
}

/// Says whether a framework's tool (tool_name, NUL-terminated UTF-8) can reach the hooks the
/// dispatcher has on tool events, as JSON (schema/tool-reach.schema.json):
///   {"tool_name", "hooked": bool, "reached": bool, "warning": string|null}
/// "warning" is set when hooks are configured on tool events and no matcher can match the
/// name: a host shows it once, the first time the tool is called (a `Bash` guard never runs on
/// a tool named `bash` unless the name is mapped). Nothing is run.
///
/// If reach_json is NULL, returns HOOKS_ERR_NULL_POINTER and stores nothing. Otherwise it
/// always stores a new string in *reach_json, which the caller frees with hooks_free: with
/// HOOKS_OK the reach JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (dispatcher or tool_name is NULL);
/// HOOKS_ERR_INVALID_UTF8; HOOKS_ERR_PANIC.
///
/// Thread safety: may run at the same time as fires on the same dispatcher. It must not race
/// with hooks_dispatcher_free on the same dispatcher.
///
/// # Safety
/// dispatcher is NULL or a live dispatcher from hooks_dispatcher_new; tool_name is NULL or a
/// NUL-terminated string; reach_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_tool_reach(
    dispatcher: *const HooksDispatcher,
    tool_name: *const c_char,
    reach_json: *mut *mut c_char,
) -> i32 {
    export!(reply(reach_json), handle(dispatcher), text(tool_name) => {
        let name = hookwire_core::event_text(tool_name).map_err(|e| e.details())?;
        Ok(dispatcher.inner.tool_reach(name).to_json())
    })
}

/// How many consecutive Stop continuations a host allows in one run before it ends the turn
/// itself, above the engine's own guard (8 per session): the framework adapters' bound.
pub const HOOKS_MAX_STOP_CONTINUATIONS: u32 = 16;

/// The configuration Claude Code itself would load for the project at project_dir
/// (NUL-terminated, the bytes of a path): an envelope with the user file
/// ~/.claude/settings.json, then the project's .claude/settings.json and
/// .claude/settings.local.json, the project ones gated on the default trust store
/// ($XDG_CONFIG_HOME/hookwire/trust.json, else ~/.config/hookwire/trust.json). Pass it to
/// hooks_dispatcher_new. project_dir is resolved to its canonical path; nothing is read but
/// the directory's path.
///
/// If config_json is NULL, returns HOOKS_ERR_NULL_POINTER and stores nothing. Otherwise it
/// always stores a new string in *config_json, which the caller frees with hooks_free: with
/// HOOKS_OK the envelope JSON, with any other code the error JSON.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (project_dir is NULL); HOOKS_ERR_INVALID_CONFIG
/// (pointer "/project_dir": the directory cannot be resolved, with the system's reason);
/// HOOKS_ERR_PANIC. Treat any other non-zero code as an error and read its error JSON.
///
/// Safe to call from any thread. project_dir is borrowed for this call only.
///
/// # Safety
/// project_dir is NULL or a NUL-terminated string; config_json is NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_claude_code_defaults(
    project_dir: *const c_char,
    config_json: *mut *mut c_char,
) -> i32 {
    export!(reply(config_json), text(project_dir) => {
        use std::os::unix::ffi::OsStrExt;
        let dir = std::path::Path::new(std::ffi::OsStr::from_bytes(project_dir));
        hookwire_core::claude_code_defaults(dir).map(|envelope| envelope.to_string()).map_err(|e| {
            let mut details = ErrorDetails::new(
                ErrorKind::InvalidConfig,
                format!("project_dir {} cannot be resolved: {e}", dir.display()),
            );
            details.pointer = Some("/project_dir".to_string());
            details
        })
    })
}

/// A cancellation token for hooks_fire_with. Opaque: only pointers to it exist.
///
/// Create it with hooks_cancel_token_new and destroy it with hooks_cancel_token_free. It is
/// thread-safe: hooks_cancel_token_cancel may be called from any thread, at any time, any
/// number of times, also while fires watching the token run on other threads. Cancelling is
/// permanent: a cancelled token cancels every fire it is passed to, before or after. One token
/// may watch several fires at once.
pub struct HooksCancelToken {
    inner: CancelToken,
}

/// A C function registered as a hook with hooks_add_function_hook.
///
/// hookwire calls it with the user_data given at registration and the event JSON (a
/// NUL-terminated string valid only during the call), and *answer set to NULL. It returns 0
/// and stores in *answer what a command hook would print on stdout (JSON or text), as a
/// string made with hooks_string_new, or leaves NULL for no answer. A non-zero return is an
/// error of the hook (a non-blocking error outcome, blocking when registered fail_closed);
/// *answer, if set, is the error message. hookwire frees *answer; never store a string that
/// did not come from hooks_string_new, and never free it yourself after storing it.
///
/// Threads: it runs on hookwire's own threads, possibly several calls at once (one per fire
/// that matches), so it must be thread-safe. It runs under the hook's timeout; a call that
/// overruns is reported timed_out and left to finish on its thread (hookwire cannot stop it).
/// It must not unwind (C++ exceptions, longjmp) out of the call, and must not call
/// hooks_dispatcher_free on its own dispatcher.
pub type HooksFunctionHook = Option<
    unsafe extern "C" fn(user_data: *mut c_void, event_json: *const c_char, answer: *mut *mut c_char) -> i32,
>;

/// A C host callback registered with hooks_set_host_callback, which runs the prompt, agent
/// or mcp_tool handlers that hookwire cannot run itself (protocol.md section 5.9).
///
/// hookwire calls it with the user_data given at registration, the request JSON
///   {"type": "prompt"|"agent"|"mcp_tool", "handler": {...as configured}, "event": "<event
///    JSON text>", "timeout_s": seconds}
/// (valid only during the call), and *reply_json set to NULL. It returns 0 and stores in
/// *reply_json a reply made with hooks_string_new: {"text": "..."} (read as the stdout of a
/// command that exited 0; mcp_tool) or {"ok": bool, "reason"?: "...", "impossible"?: bool}
/// (prompt, agent). A non-zero return, or no reply, is an error outcome; *reply_json, if set,
/// is the message. hookwire frees *reply_json.
///
/// Threads, timeout and unwinding: as for HooksFunctionHook.
pub type HooksHostCallback = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        request_json: *const c_char,
        reply_json: *mut *mut c_char,
    ) -> i32,
>;

/// The C log callback registered with hooks_set_log_callback; docs/logging.md lists the
/// events.
///
/// hookwire calls it with the user_data given at registration, the record's level
/// (HOOKS_LOG_ERROR ... HOOKS_LOG_TRACE) and the record as JSON (NUL-terminated, valid only
/// during the call):
///   {"level": "debug", "target": "hookwire::hook", "message": "...",
///    "fields": {"event": "hook.spawned", "fire_id": 7, "hook_id": "...", "pid": 4242, ...}}
/// "fields.event" names the event and the field names are stable; "message" is for people.
///
/// Threads: it runs on the thread that emitted the event (a thread calling hooks_fire, or one
/// of hookwire's own), possibly several calls at once, so it must be thread-safe. The fire
/// waits for it: keep it quick (queue the record if it must travel). It must not unwind (C++
/// exceptions, longjmp) out of the call, and must not call hooks_set_log_callback. An event
/// hookwire emits while the callback runs on that thread (the callback firing, say) is
/// dropped.
pub type HooksLogCallback =
    Option<unsafe extern "C" fn(user_data: *mut c_void, level: i32, record_json: *const c_char)>;

/// Registers the process's log callback, which receives the events of every dispatcher at
/// level and above (HOOKS_LOG_ERROR ... HOOKS_LOG_TRACE), replacing an earlier one. A NULL
/// callback or HOOKS_LOG_OFF turns logging off; that is the default, and costs nothing. See
/// HooksLogCallback for the call. Hook stdin, stdout and stderr appear only at
/// HOOKS_LOG_TRACE.
///
/// On success, returns HOOKS_OK and stores NULL in *error_json. On failure, returns the code
/// and stores a new error JSON in *error_json, which the caller frees with hooks_free; nothing
/// changes. Codes: HOOKS_ERR_INVALID_CONFIG (level is not one of the HOOKS_LOG_* values);
/// HOOKS_ERR_INTERNAL (called from inside the log callback); HOOKS_ERR_PANIC. error_json may
/// be NULL.
///
/// Lifetime and threads: may be called from any thread, at any time, also while fires run.
/// When it returns, the earlier callback is not running on any thread and will not be called
/// again, so its user_data may be released. user_data must stay valid until the next
/// hooks_set_log_callback returns; hookwire never reads, writes or frees it.
///
/// # Safety
/// callback is NULL or a function with the HooksLogCallback contract; error_json is NULL or
/// valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_set_log_callback(
    callback: HooksLogCallback,
    user_data: *mut c_void,
    level: i32,
    error_json: *mut *mut c_char,
) -> i32 {
    export!(status(error_json) => {
        let level = LogLevel::from_code(level).ok_or_else(|| {
            let why = format!("level must be HOOKS_LOG_OFF (0) to HOOKS_LOG_TRACE (5), not {level}");
            ErrorDetails::new(ErrorKind::InvalidConfig, why)
        })?;
        let sink = callback.map(|f| trampoline::log_sink(f, user_data));
        hookwire_core::set_log_sink(sink, level).map_err(|e| ErrorDetails::new(ErrorKind::Internal, e.to_string()))
    })
}

/// Creates a cancellation token for hooks_fire_with. The caller owns it until
/// hooks_cancel_token_free. Returns NULL only if hookwire failed internally. Safe to call
/// from any thread.
#[unsafe(no_mangle)]
pub extern "C" fn hooks_cancel_token_new() -> *mut HooksCancelToken {
    export!(or(ptr::null_mut()) => {
        Ok(Box::into_raw(Box::new(HooksCancelToken { inner: CancelToken::new() })))
    })
}

/// Cancels every fire watching the token, now and later: their running hooks are killed
/// (each hook's process group gets SIGTERM, then SIGKILL), hooks not yet started never start,
/// and each of those fires returns promptly with HOOKS_OK and a result whose outcomes say
/// "cancelled". Idempotent; NULL does nothing. Safe to call from any thread, including while
/// the fire runs on another; it must not race with hooks_cancel_token_free on the same token.
///
/// # Safety
/// token is NULL or a live token from hooks_cancel_token_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_cancel_token_cancel(token: *const HooksCancelToken) {
    export!(or(()), optional(token) => {
        if let Some(t) = token {
            t.inner.cancel();
        }
        Ok(())
    })
}

/// Destroys a token; hooks_cancel_token_free(NULL) does nothing. It must not run while a
/// hooks_fire_with watching the token or a hooks_cancel_token_cancel on it is in flight.
/// Afterwards the pointer is invalid; freeing it twice is undefined behaviour. May be called
/// from any thread.
///
/// # Safety
/// token is NULL or a token from hooks_cancel_token_new that has not been freed and that no
/// call is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_cancel_token_free(token: *mut HooksCancelToken) {
    export!(or(()), reclaim(token) => {
        drop(token);
        Ok(())
    })
}

/// hooks_fire, cancellable: fires one event, and a hooks_cancel_token_cancel on token (from
/// another thread, or before the call) ends the fire early. Running hooks are killed, hooks not
/// yet started never start, their outcomes say "cancelled", and the call still returns
/// HOOKS_OK with a result JSON. A cancelled hook never fails closed. token may be NULL: then
/// this is hooks_fire.
///
/// Out-param, codes, thread safety and ownership are those of hooks_fire. The token is
/// borrowed for this call only and must stay alive until it returns.
///
/// # Safety
/// As for hooks_fire; token is NULL or a live token from hooks_cancel_token_new.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_fire_with(
    dispatcher: *const HooksDispatcher,
    event_json: *const c_char,
    token: *const HooksCancelToken,
    result_json: *mut *mut c_char,
) -> i32 {
    export!(reply(result_json), handle(dispatcher), text(event_json), optional(token) => {
        fire(dispatcher, event_json, token)
    })
}

/// The result of firing event_json when that fire would run nothing: stores in *result_json
/// exactly the result JSON hooks_fire would store, or NULL when only hooks_fire can answer
/// (a hook or function matches, the session has state to update, the event is not valid
/// UTF-8, JSON or an event: hooks_fire gives that error), and returns HOOKS_OK. It never runs
/// a hook, starts a thread or blocks, so a binding can answer a no-match fire on its own
/// thread and start a worker (a goroutine, a cancel token) only for fires that run hooks.
///
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (dispatcher, event_json or result_json is NULL;
/// with a NULL result_json nothing is stored); HOOKS_ERR_PANIC. Any other code stores an error
/// JSON. Ownership and thread safety are those of hooks_fire.
///
/// # Safety
/// As for hooks_fire.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_answer_without_running(
    dispatcher: *const HooksDispatcher,
    event_json: *const c_char,
    result_json: *mut *mut c_char,
) -> i32 {
    export!(maybe_reply(result_json), handle(dispatcher), text(event_json) => {
        Ok(hookwire_core::event_text(event_json).ok().and_then(|text| dispatcher.inner.answer_without_running(text)))
    })
}

/// Returns a copy of a NUL-terminated string, allocated by this library. This is how a
/// HooksFunctionHook or HooksHostCallback hands its answer to hookwire: store the copy in the
/// out-param, and hookwire frees it. A copy that is not handed over is released with
/// hooks_free. hooks_string_new(NULL) returns NULL. Safe to call from any thread.
///
/// # Safety
/// s is NULL or a NUL-terminated string valid for this call.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_string_new(s: *const c_char) -> *mut c_char {
    export!(or(ptr::null_mut()) => {
        if s.is_null() {
            return Ok(ptr::null_mut());
        }
        // SAFETY: `s` is non-NULL and NUL-terminated, valid for this call (caller's contract).
        Ok(unsafe { c_strings::copy(s) })
    })
}

/// Registers a C function as a hook of one event, beside the configured hooks; its answers
/// are read and folded like a command hook's stdout, in configuration order (after the
/// configured hooks unless "first" is true). See HooksFunctionHook for the call.
///
/// options_json is a NUL-terminated JSON object:
///   {"event": "PreToolUse", "matcher"?: "Bash|Write", "timeout_s"?: seconds > 0,
///    "fail_closed"?: bool, "name"?: "text", "first"?: bool}
/// "matcher" is a claude-code matcher on the event's matcher field (absent: every occurrence);
/// "timeout_s" defaults as for a command on that event; "fail_closed" makes an error or a
/// timeout block where the event can block; "name" names the hook id "function(<name>):<Event>".
///
/// If result_json is NULL, returns HOOKS_ERR_NULL_POINTER and registers nothing. Otherwise it
/// always stores a new string in *result_json, which the caller frees with hooks_free: with
/// HOOKS_OK {"hook": "<hook id>"} (the id in outcomes), with any other code the error JSON.
/// Codes: HOOKS_OK; HOOKS_ERR_NULL_POINTER (dispatcher, options_json or fn is NULL);
/// HOOKS_ERR_INVALID_UTF8; HOOKS_ERR_INVALID_JSON; HOOKS_ERR_INVALID_CONFIG (an unknown event,
/// a bad matcher or timeout, an unknown key; with "pointer"); HOOKS_ERR_PANIC.
///
/// Lifetime and threads: fn is called from hookwire's threads, possibly several calls at once,
/// with user_data, which must stay valid until hooks_dispatcher_free on this dispatcher
/// returns; hookwire never reads, writes or frees user_data. Registering may run at the same
/// time as fires on the dispatcher; fires that already started do not see the new hook. There
/// is no way to unregister a hook but to free the dispatcher.
///
/// # Safety
/// dispatcher is NULL or a live dispatcher; options_json is NULL or a NUL-terminated string;
/// fn is NULL or a function with the HooksFunctionHook contract; result_json is NULL or valid
/// for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_add_function_hook(
    dispatcher: *const HooksDispatcher,
    options_json: *const c_char,
    r#fn: HooksFunctionHook,
    user_data: *mut c_void,
    result_json: *mut *mut c_char,
) -> i32 {
    export!(reply(result_json), handle(dispatcher), text(options_json), function(r#fn) => {
        let hook = config_text(options_json).and_then(FunctionHook::from_json).map_err(|e| e.details())?;
        let host = trampoline::HostFn::new(r#fn, user_data, dispatcher.gate.clone(), "function hook");
        let id = dispatcher.inner.add_function_hook(hook, host.into_hook_fn()).map_err(|e| e.details())?;
        Ok(serde_json::json!({ "hook": id }).to_string())
    })
}

/// Registers the host's callback for one delegated handler type, "prompt", "agent" or
/// "mcp_tool" (NUL-terminated), replacing an earlier one for that type. Without a callback
/// such handlers are skipped with a warning. See HooksHostCallback for the call; the callback
/// runs under the handler's timeout, and its failure or lateness is an outcome, never an
/// error of the fire.
///
/// On success, returns HOOKS_OK and stores NULL in *error_json. On failure, returns the code
/// and stores a new error JSON in *error_json, which the caller frees with hooks_free. Codes:
/// HOOKS_ERR_NULL_POINTER (dispatcher, handler_type or fn is NULL); HOOKS_ERR_INVALID_UTF8;
/// HOOKS_ERR_INVALID_CONFIG (another handler type); HOOKS_ERR_PANIC. error_json may be NULL.
///
/// Lifetime and threads: fn is called from hookwire's threads, possibly several calls at once,
/// with user_data, which must stay valid until hooks_dispatcher_free on this dispatcher
/// returns (also when the callback is replaced); hookwire never reads, writes or frees
/// user_data. Registering may run at the same time as fires on the dispatcher.
///
/// # Safety
/// dispatcher is NULL or a live dispatcher; handler_type is NULL or a NUL-terminated string;
/// fn is NULL or a function with the HooksHostCallback contract; error_json is NULL or valid
/// for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_set_host_callback(
    dispatcher: *const HooksDispatcher,
    handler_type: *const c_char,
    r#fn: HooksHostCallback,
    user_data: *mut c_void,
    error_json: *mut *mut c_char,
) -> i32 {
    export!(status(error_json), handle(dispatcher), text(handler_type), function(r#fn) => {
        let handler_type = config_text(handler_type).map_err(|e| e.details())?;
        let host = trampoline::HostFn::new(r#fn, user_data, dispatcher.gate.clone(), "host callback");
        dispatcher.inner.set_host_callback(handler_type, host.into_callback_fn()).map_err(|e| e.details())
    })
}

/// The fire of hooks_fire and hooks_fire_with: the event's bytes go to the core as they are,
/// which checks UTF-8 and reads the JSON.
fn fire(d: &HooksDispatcher, event: &[u8], token: Option<&HooksCancelToken>) -> Result<String, ErrorDetails> {
    match token {
        None => d.inner.fire_bytes(event),
        Some(t) => d.inner.fire_bytes_with(event, &t.inner),
    }
    .map_err(|e| e.details())
}

/// Releases a string this library returned (a result JSON or an error JSON), exactly once,
/// from any thread. hooks_free(NULL) does nothing. Never pass such a string to libc free,
/// and never pass hooks_free a pointer that did not come from this library. A large result's
/// memory is kept for the next one.
///
/// # Safety
/// s is NULL or a string returned by this library that has not been freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_free(s: *mut c_char) {
    export!(or(()) => {
        // SAFETY: s is NULL or an unfreed string from this library (caller's contract).
        unsafe { c_strings::release(s) };
        Ok(())
    })
}

/// Destroys a dispatcher; hooks_dispatcher_free(NULL) does nothing. It must not run while a
/// hooks_fire or hooks_fire_with on that dispatcher is in flight (the caller ensures that).
/// Afterwards the pointer is invalid; freeing it twice is undefined behaviour. May be called
/// from any thread, including after a fire returned HOOKS_ERR_PANIC.
///
/// With function hooks or host callbacks registered, it first refuses every call of them that
/// has not started, then waits for the calls still running (a call that overran its timeout
/// keeps running on a hookwire thread after its fire returned). When it returns, hookwire will
/// never call those functions again, and their user_data may be released. A function that
/// never returns therefore makes hooks_dispatcher_free wait forever.
///
/// # Safety
/// dispatcher is NULL or a dispatcher from hooks_dispatcher_new that has not been freed and
/// that no fire is using.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hooks_dispatcher_free(dispatcher: *mut HooksDispatcher) {
    export!(or(()), reclaim(dispatcher) => {
        if let Some(d) = dispatcher {
            d.gate.close_and_wait();
        }
        Ok(())
    })
}

/// Returns the library version, "MAJOR.MINOR.PATCH". The string is static and NUL-terminated,
/// never NULL, valid for the life of the process, and must never be freed. Safe to call from
/// any thread.
#[unsafe(no_mangle)]
pub extern "C" fn hooks_version() -> *const c_char {
    export!(or(VERSION.as_ptr().cast()) => {
        Ok(VERSION.as_ptr().cast())
    })
}

/// Returns the Claude Code release, "2.1.332", whose events the library knows and whose loop
/// `hooks_host_step` reproduces, so that a host can tell which behaviour it gets (the library
/// version alone does not say it). Static and NUL-terminated, never NULL, never freed; safe
/// from any thread.
#[unsafe(no_mangle)]
pub extern "C" fn hooks_claude_code_version() -> *const c_char {
    export!(or(CLAUDE_CODE_VERSION.as_ptr().cast()) => {
        Ok(CLAUDE_CODE_VERSION.as_ptr().cast())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use hookwire_core::ErrorKind;
    use std::ffi::CStr;

    #[test]
    fn the_stop_continuation_bound_is_the_cores() {
        assert_eq!(HOOKS_MAX_STOP_CONTINUATIONS, hookwire_core::MAX_STOP_CONTINUATIONS);
    }

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
    fn log_levels_equal_the_core_levels_codes() {
        let pairs = [
            (HOOKS_LOG_OFF, LogLevel::Off),
            (HOOKS_LOG_ERROR, LogLevel::Error),
            (HOOKS_LOG_WARN, LogLevel::Warn),
            (HOOKS_LOG_INFO, LogLevel::Info),
            (HOOKS_LOG_DEBUG, LogLevel::Debug),
            (HOOKS_LOG_TRACE, LogLevel::Trace),
        ];
        for (code, level) in pairs {
            assert_eq!(code, level.code(), "{level}");
        }
    }

    #[test]
    fn version_is_the_core_version_nul_terminated() {
        // SAFETY: hooks_version returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(hooks_version()) };
        assert_eq!(v.to_str().unwrap(), hookwire_core::version());
    }

    #[test]
    fn claude_code_version_is_the_cores_nul_terminated() {
        // SAFETY: hooks_claude_code_version returns a static NUL-terminated string.
        let v = unsafe { CStr::from_ptr(hooks_claude_code_version()) };
        assert_eq!(v.to_str().unwrap(), hookwire_core::CLAUDE_CODE_VERSION);
    }
}
