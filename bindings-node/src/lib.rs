//! hookwire for Node.js: the `#[napi]` surface of the npm package `hookwire` (abi.md §4).
//!
//! A thin shell over `hookwire-core`: it converts arguments to JSON text, errors to
//! JavaScript errors and fires to promises, and holds no rule of the engine. Values cross as
//! JSON through the host's own `JSON.stringify` and `JSON.parse`, so an object is converted
//! exactly as JSON would convert it, and a result has the result JSON's keys and order.
//! `setLogger` is in `logs.rs`. The TypeScript types `Config`, `Event`, `Result`, `Outcome`,
//! `TrustStatus`, `TrustSource`, `HostStep`, `HostFacts`, `ToolReach` and `LogRecord` live in
//! `types.d.ts`, which `napi build` injects at the top of the generated `index.d.ts`.

mod callbacks;
mod errors;
mod logs;
mod pool;
mod worker;

pub use logs::set_logger;

use hookwire_core::{ConfigError, ErrorDetails, ErrorKind};
use napi::bindgen_prelude::{Function, JsObjectValue, Object, Unknown, ValueType};
use napi::{Env, Result};
use napi_derive::napi;
use serde_json::{Map, Value};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The version of hookwire (`MAJOR.MINOR.PATCH`): the crate version, equal to the C
/// library's `hooks_version()` and Python's `hookwire.__version__`.
///
/// Named in lower case because napi-derive registers a const under its Rust name.
#[napi]
#[allow(non_upper_case_globals)]
pub const version: &str = env!("CARGO_PKG_VERSION");

/// The Claude Code release (`2.1.332`) whose events hookwire knows and whose loop `hostStep`
/// and the adapters reproduce: equal to the C library's `hooks_claude_code_version()` and
/// Python's `hookwire.CLAUDE_CODE_VERSION`, so that a host can tell which behaviour it gets.
#[napi]
#[allow(non_upper_case_globals)]
pub const claudeCodeVersion: &str = hookwire_core::CLAUDE_CODE_VERSION;

/// How many consecutive Stop continuations a framework adapter allows in one run before it
/// ends the turn itself (16): a safety net above the engine's own cap (8 per session), equal to
/// the C library's `HOOKS_MAX_STOP_CONTINUATIONS`. The adapters' `maxStopBlocks` defaults to it.
#[napi]
#[allow(non_upper_case_globals)]
pub const maxStopContinuations: u32 = hookwire_core::MAX_STOP_CONTINUATIONS;

/// A loaded hook configuration, ready to fire events.
///
/// Safe to share: any number of `fire()` calls may be in flight on one dispatcher at once,
/// each that runs hooks on a native thread of its own with its own hook processes. A pending
/// fire keeps the process alive and finishes even if the dispatcher is collected. Its
/// configuration never changes; `addFunctionHook` and `setHostCallback` add to it, and apply
/// to fires started afterwards.
#[napi]
pub struct Dispatcher {
    inner: Arc<hookwire_core::Dispatcher>,
    /// A JavaScript function hook or host callback was registered: `fireSync` refuses.
    has_js: AtomicBool,
}

/// Options of `dispatcher.addFunctionHook()`. Read strictly: a key that is not one of these
/// throws `'INVALID_CONFIG'`, as a C host's options would.
#[napi(object)]
pub struct FunctionHookOptions {
    /// A Claude Code matcher on the event's matcher field (the tool name for tool events):
    /// `'Bash'`, `'Edit|Write'`, a regular expression, `'*'`. Default: every occurrence.
    pub matcher: Option<String>,
    /// Seconds the function may take before its outcome is `'timed_out'`; default as for a
    /// command hook of the event.
    pub timeout: Option<f64>,
    /// A throw, a rejection or a timeout blocks (denies) where the event can block, instead of
    /// being a non-blocking error. Default `false`.
    pub fail_closed: Option<bool>,
    /// Names the hook id `function(<name>):<Event>`; default `function#<n>:<Event>`.
    pub name: Option<String>,
    /// Runs before the configured hooks in configuration order; default after them.
    pub first: Option<bool>,
}

#[napi]
impl Dispatcher {
    /// Builds a dispatcher from a configuration: a JSON-representable object (settings shape
    /// or envelope) or its JSON text.
    ///
    /// Throws an `Error` with `code` `'INVALID_JSON'` (with `line` and `column`),
    /// `'INVALID_CONFIG'` (with `pointer` when known), `'PANIC'` or `'INTERNAL'`, and a
    /// `TypeError` when `config` is neither an object nor a string.
    #[napi(constructor, catch_unwind, ts_args_type = "config: Config | string")]
    pub fn new(env: &Env, config: Unknown) -> Result<Self> {
        let text = to_json_text(env, config, "config", ErrorKind::InvalidConfig)?;
        build(env, text.as_bytes())
    }

    /// Builds a dispatcher from a UTF-8 JSON file, whose content is checked exactly as by the
    /// constructor. A file that cannot be read throws an `Error` with a system `code`
    /// (`'ENOENT'`, `'EACCES'`, `'EISDIR'`, else `'EIO'`) and `path`, as Node's `fs` would;
    /// content that is not UTF-8 throws `code` `'INVALID_UTF8'`.
    #[napi(factory, catch_unwind)]
    pub fn from_file(env: &Env, path: String) -> Result<Self> {
        let bytes = std::fs::read(&path).map_err(|e| errors::io_error(env, &path, &e))?;
        build(env, &bytes)
    }

    /// Builds a dispatcher from Claude Code's default sources for the project at `projectDir`
    /// (see `claudeCodeDefaults`): the user, project and local settings files, the project
    /// ones gated on the default trust store. A directory that cannot be resolved throws as
    /// `claudeCodeDefaults` does.
    #[napi(factory, catch_unwind)]
    pub fn from_claude_code_defaults(env: &Env, project_dir: String) -> Result<Self> {
        build(env, default_envelope(env, &project_dir)?.as_bytes())
    }

    /// Fires one event and resolves with the result once every matching hook has ended.
    ///
    /// The event is converted on the calling thread. A fire that runs nothing (no hook matches)
    /// is answered there too, and its promise is already resolved; any other fire runs on a
    /// native thread of the addon's own (a pool that grows on demand, so concurrent fires never
    /// wait for each other), so it never blocks the event loop nor occupies libuv's pool.
    /// Rejects with an `Error` whose `code` is `'INVALID_JSON'`, `'INVALID_EVENT'`, `'PANIC'`
    /// or `'INTERNAL'` (a hook's own failure is an outcome, never a rejection), and with a
    /// `TypeError` when `event` is neither an object nor a string; it never throws.
    ///
    /// With `options.signal`, aborting the signal cancels the fire: the running hooks' process
    /// groups are killed (`SIGTERM`, then `SIGKILL` 200 ms later), no further hook starts, and
    /// the promise rejects at once with `signal.reason` (an `AbortError` `DOMException` unless
    /// `abort()` was given another reason). A signal that is already aborted rejects without
    /// running anything. The fire removes its listener from the signal when it ends.
    #[napi(
        catch_unwind,
        ts_args_type = "event: Event | string, options?: FireOptions",
        ts_return_type = "Promise<Result>"
    )]
    pub fn fire<'env>(
        &self,
        env: &'env Env,
        event: Unknown,
        options: Option<Unknown<'env>>,
    ) -> Result<Unknown<'env>> {
        let prepared = to_json_text(env, event, "event", ErrorKind::InvalidEvent)
            .and_then(|text| Ok((text, signal_of(env, options)?)));
        worker::fire(env, &self.inner, prepared)
    }

    /// The same fire as `fire()`, blocking the calling thread until it is over; for scripts.
    /// Throws what `fire()` rejects with.
    ///
    /// Refused on a dispatcher with a JavaScript function hook or host callback registered:
    /// those run on this very thread, which `fireSync` would be blocking, so it throws an
    /// `Error` with `code` `'FIRE_SYNC_WITH_JS_HOOKS'` (before converting the event) instead of
    /// deadlocking. Use `await fire()` there.
    #[napi(catch_unwind, ts_args_type = "event: Event | string", ts_return_type = "Result")]
    pub fn fire_sync(&self, env: &Env, event: Unknown) -> Result<Unknown<'static>> {
        if self.has_js.load(Ordering::Acquire) {
            return Err(errors::coded_error(
                env,
                "FIRE_SYNC_WITH_JS_HOOKS",
                "fireSync cannot run a dispatcher with JavaScript function hooks or host callbacks: \
                 they need the JavaScript thread that fireSync blocks; use await dispatcher.fire()"
                    .to_owned(),
            ));
        }
        let text = to_json_text(env, event, "event", ErrorKind::InvalidEvent)?;
        match worker::run_fire(&self.inner, &text) {
            Ok(result_json) => parse_result(env, &result_json),
            Err(details) => Err(errors::engine_error(env, &details)),
        }
    }

    /// Registers a JavaScript function as a hook of `event` (a canonical event name such as
    /// `'PreToolUse'`), folded with the configured hooks in configuration order: after them,
    /// or before them with `first: true`. Returns its hook id, which its outcomes carry
    /// (`type` `'function'`).
    ///
    /// The function gets the event as a plain object and answers what a command hook would
    /// print: an object (its JSON, for example `{ hookSpecificOutput: { ... } }` or
    /// `{ decision: 'block', reason }`), a string (read like stdout), or `undefined` (no
    /// opinion); or a promise of one of these. A throw or a rejection is a non-blocking error
    /// outcome, unless `failClosed`, when it denies. It is called on the JavaScript thread, once
    /// per matching fire; calls of concurrent fires interleave at `await`. The registration does
    /// not keep the process alive. Once a function is registered, `fireSync` refuses this
    /// dispatcher.
    ///
    /// Throws an `Error` with `code` `'INVALID_CONFIG'` (and `pointer` `'/event'`, `'/matcher'`
    /// or `'/timeout_s'`) for an unknown event, a bad matcher or a timeout that is not
    /// seconds ≥ 0.001, and for an option of the wrong type or one `FunctionHookOptions` does
    /// not have (with `pointer` naming it); a `TypeError` when `options` is not an object.
    #[napi(
        catch_unwind,
        ts_args_type = "event: string, fn: (event: Event) => HookAnswer | Promise<HookAnswer>, options?: FunctionHookOptions"
    )]
    pub fn add_function_hook(
        &self,
        env: &Env,
        event: String,
        func: Function<'_, Unknown<'static>, Unknown<'static>>,
        options: Option<Unknown>,
    ) -> Result<String> {
        let hook = function_hook(env, event, options)?;
        let f = callbacks::hook_fn(&func, hook.timeout_s)?;
        let id =
            self.inner.add_function_hook(hook, f).map_err(|e| errors::engine_error(env, &e.details()))?;
        self.has_js.store(true, Ordering::Release);
        Ok(id)
    }

    /// Registers the host's callback for the `prompt`, `agent` or `mcp_tool` handlers of the
    /// configuration, replacing an earlier one for that type. hookwire cannot call a model or
    /// an MCP server; the callback does, and answers for the handler. Without a callback such
    /// handlers are skipped with a warning.
    ///
    /// The callback gets `{ type, handler, event, timeout_s }` (the handler as configured, and
    /// the event payload as the JSON text a command would read on stdin) and answers an
    /// object, or a promise of one: `{ ok: true }` or `{ ok: false, reason, impossible? }` for
    /// `prompt` and `agent`, `{ text }` (the tool's output, read like a command's stdout) for
    /// `mcp_tool`. A throw or a rejection is an error outcome, and the handler's timeout
    /// applies. Once a callback is registered,
    /// `fireSync` refuses this dispatcher. Throws an `Error` with `code` `'INVALID_CONFIG'`
    /// for another `type`.
    #[napi(
        catch_unwind,
        ts_args_type = "type: HostCallbackType, fn: (request: HostCallbackRequest) => HostCallbackAnswer | Promise<HostCallbackAnswer>"
    )]
    pub fn set_host_callback(
        &self,
        env: &Env,
        r#type: String,
        func: Function<'_, Unknown<'static>, Unknown<'static>>,
    ) -> Result<()> {
        let f = callbacks::callback_fn(&func)?;
        self.inner.set_host_callback(&r#type, f).map_err(|e| errors::engine_error(env, &e.details()))?;
        self.has_js.store(true, Ordering::Release);
        Ok(())
    }

    /// The trust state of every project and local source of this configuration, and of any
    /// other source marked `trusted: false` (protocol.md §2.8): the store, the default store,
    /// the project directory, and one `TrustSource` per source saying whether it is trusted
    /// and why. Nothing is spawned, read or written.
    /// After the user approves the untrusted sources, call `recordTrust(config)` and build a
    /// new dispatcher. Throws only for a bug in hookwire (`code` `'PANIC'`).
    #[napi(catch_unwind, ts_return_type = "TrustStatus")]
    pub fn trust_status(&self, env: &Env) -> Result<Unknown<'static>> {
        match catch_unwind(AssertUnwindSafe(|| self.inner.trust_status().to_json())) {
            Ok(status_json) => parse_result(env, &status_json),
            Err(payload) => Err(errors::engine_error(env, &ErrorDetails::from_panic(payload))),
        }
    }

    /// Whether a tool named `toolName` (as the hooks would see it: after the adapter's tool-name
    /// map) can reach the hooks configured on tool events: `{ tool_name, hooked, reached,
    /// warning }`. `warning` is set when hooks are configured on tool events and no matcher
    /// can match the name (a user's `Bash` guard and a framework tool named `bash`), the text
    /// to show the user once. Nothing is run. Throws only for a bug in hookwire (`code`
    /// `'PANIC'`); a `TypeError` when `toolName` is not a string.
    #[napi(catch_unwind, ts_args_type = "toolName: string", ts_return_type = "ToolReach")]
    pub fn tool_reach(&self, env: &Env, tool_name: Unknown) -> Result<Unknown<'static>> {
        let tool_name: String = match tool_name.get_type()? {
            ValueType::String => napi::bindgen_prelude::FromNapiValue::from_unknown(tool_name)?,
            other => {
                return Err(errors::type_error(
                    env,
                    format!("The \"toolName\" argument must be a string. Received {}", describe(other)),
                ));
            }
        };
        json_answer(env, || Ok(self.inner.tool_reach(&tool_name).to_json()))
    }
}

/// Records trust in every project and local file source of a configuration (the same
/// argument as the `Dispatcher` constructor), as the files read now: their SHA-256 goes to
/// the trust store, `trust.store`, else `$XDG_CONFIG_HOME/hookwire/trust.json` or
/// `~/.config/hookwire/trust.json` (written atomically, mode 0600). Dispatchers built
/// afterwards run those sources until a file changes. Returns the new trust status.
///
/// Call it only after the user approved what `trustStatus()` showed. Blocks while it reads
/// the files and writes the store. Throws an `Error` with `code` `'INVALID_JSON'`,
/// `'INVALID_CONFIG'` (`pointer` `'/project_dir'` when the project directory is missing),
/// `'PANIC'` or `'INTERNAL'` (the store could not be written), and a `TypeError` when
/// `config` is neither an object nor a string.
#[napi(catch_unwind, ts_args_type = "config: Config | string", ts_return_type = "TrustStatus")]
pub fn record_trust(env: &Env, config: Unknown) -> Result<Unknown<'static>> {
    let text = to_json_text(env, config, "config", ErrorKind::InvalidConfig)?;
    match catch_unwind(|| hookwire_core::record_trust_for(&text)) {
        Ok(Ok(status)) => parse_result(env, &status.to_json()),
        Ok(Err(e)) => Err(errors::engine_error(env, &e.details())),
        Err(payload) => Err(errors::engine_error(env, &ErrorDetails::from_panic(payload))),
    }
}

/// What an agent loop does next with a result (agents.md §5, "Applying a result in a host"):
/// run the tool (with `tool_input` when a hook rewrote it), deny it with `message` as the error
/// tool result, call the model once more with `message`, block the prompt, ... as Claude
/// Code's own loop would. The framework adapters (`hookwire/langchain`, `hookwire/ai`,
/// `hookwire/openai-agents`) are built on it. Takes a `Result` (what `fire()` resolved to) or
/// its JSON text; throws an `Error` with `code` `'INVALID_JSON'` or `'INVALID_EVENT'` for
/// something that is not a result, and a `TypeError` for an argument that is neither an
/// object nor a string.
#[napi(catch_unwind, ts_args_type = "result: Result | string", ts_return_type = "HostStep")]
pub fn host_step(env: &Env, result: Unknown) -> Result<Unknown<'static>> {
    let text = to_json_text(env, result, "result", ErrorKind::InvalidEvent)?;
    json_answer(env, || hookwire_core::HostStep::of_json(&text).map_err(|e| e.details()))
}

/// As `hostStep`, for a PostToolUse result of a tool whose output, as JSON text, was
/// `toolResponse`: the step's `tool_output` is kept only when it has the JSON kind of that
/// output, else it is `null` (keep the real output). Throws as `hostStep` does, and an `Error`
/// with `code` `'INVALID_JSON'` for `toolResponse` text that is not JSON.
#[napi(
    catch_unwind,
    ts_args_type = "result: Result | string, toolResponse: string",
    ts_return_type = "HostStep"
)]
pub fn host_step_for(env: &Env, result: Unknown, tool_response: String) -> Result<Unknown<'static>> {
    let text = to_json_text(env, result, "result", ErrorKind::InvalidEvent)?;
    json_answer(env, || hookwire_core::HostStep::of_json_for(&text, &tool_response).map_err(|e| e.details()))
}

/// The event a host fires, built from what its framework knows (`HostFacts`) by the core's one
/// rule, the same in every language: Claude Code's key order, `transcript_path` only when
/// given, `permission_mode` `'default'` unless given, `tool_name` through the `tool_names` map,
/// `tool_input` always an object, a PostToolUseFailure `error` as `'<error_type>: <error>'`,
/// then `fields`, which never overwrite a key of the rule. The framework adapters build every
/// event they fire with it. Takes the facts as an object or their JSON text; throws an `Error`
/// with `code` `'INVALID_JSON'`, or `'INVALID_EVENT'` (with `pointer` at the fact at fault)
/// for facts of the wrong shape, an unknown key, or an event missing what it needs (a tool
/// event its `tool_name`, UserPromptSubmit its `prompt`), and a `TypeError` for an argument
/// that is neither an object nor a string. Nothing is run.
#[napi(catch_unwind, ts_args_type = "facts: HostFacts | string", ts_return_type = "Event")]
pub fn host_event(env: &Env, facts: Unknown) -> Result<Unknown<'static>> {
    let text = to_json_text(env, facts, "facts", ErrorKind::InvalidEvent)?;
    json_answer(env, || hookwire_core::HostFacts::event_of_json(&text).map_err(|e| e.details()))
}

/// The JSON answer of a pure core function as a plain object (through `JSON.parse`), its error
/// as a coded `Error`, and a panic as `'PANIC'` rather than napi's generic error.
fn json_answer(
    env: &Env,
    f: impl FnOnce() -> std::result::Result<String, ErrorDetails>,
) -> Result<Unknown<'static>> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(json)) => parse_result(env, &json),
        Ok(Err(details)) => Err(errors::engine_error(env, &details)),
        Err(payload) => Err(errors::engine_error(env, &ErrorDetails::from_panic(payload))),
    }
}

/// The configuration Claude Code itself would load for the project at `projectDir`: an
/// envelope with the user file `~/.claude/settings.json`, then the project's
/// `.claude/settings.json` and `.claude/settings.local.json`, the project ones gated on the
/// default trust store (`$XDG_CONFIG_HOME/hookwire/trust.json`, else
/// `~/.config/hookwire/trust.json`). `projectDir` is resolved to its canonical path; one that
/// cannot be resolved throws an `Error` with a system `code` (`'ENOENT'`, ...) and `path`, as
/// Node's `fs` would. Pass the result to `new Dispatcher()`, or use
/// `Dispatcher.fromClaudeCodeDefaults(projectDir)`.
#[napi(catch_unwind, ts_return_type = "Config")]
pub fn claude_code_defaults(env: &Env, project_dir: String) -> Result<Unknown<'static>> {
    parse_result(env, &default_envelope(env, &project_dir)?)
}

/// The envelope of `claudeCodeDefaults` as JSON text.
fn default_envelope(env: &Env, project_dir: &str) -> Result<String> {
    hookwire_core::claude_code_defaults(std::path::Path::new(project_dir))
        .map(|envelope| envelope.to_string())
        .map_err(|e| errors::io_error(env, project_dir, &e))
}

/// Builds the core dispatcher from configuration text, which the core checks for UTF-8 (a
/// file's bytes may not be), turning a panic into `'PANIC'` rather than napi's generic error.
fn build(env: &Env, config_json: &[u8]) -> Result<Dispatcher> {
    match catch_unwind(|| hookwire_core::Dispatcher::from_bytes(config_json)) {
        Ok(Ok(inner)) => Ok(Dispatcher { inner: Arc::new(inner), has_js: AtomicBool::new(false) }),
        Ok(Err(e)) => Err(errors::engine_error(env, &e.details())),
        Err(payload) => Err(errors::engine_error(env, &ErrorDetails::from_panic(payload))),
    }
}

/// The option names of `addFunctionHook` spelled otherwise in JavaScript, with the core's
/// spelling (the C ABI's options), which is not an option name here.
const RENAMED_OPTIONS: [(&str, &str); 2] = [("timeout", "timeout_s"), ("failClosed", "fail_closed")];

/// `addFunctionHook`'s options, read by the core as a C host's are: the object converted as
/// JSON would (like every argument), its JavaScript spellings renamed, and `event` (the first
/// argument) added. The core refuses unknown keys and wrong types, with a pointer to the key.
fn function_hook(env: &Env, event: String, options: Option<Unknown>) -> Result<hookwire_core::FunctionHook> {
    let refused = |details: ErrorDetails| errors::engine_error(env, &details);
    let mut value = match options {
        None => Value::Object(Map::new()),
        Some(o) => match o.get_type()? {
            ValueType::Undefined | ValueType::Null => Value::Object(Map::new()),
            ValueType::Object => {
                let text = to_json_text(env, o, "options", ErrorKind::InvalidConfig)?;
                hookwire_core::json::from_str(&text)
                    .map_err(|e| refused(ErrorDetails::from_serde_json(&e)))?
            }
            other => {
                return Err(errors::type_error(
                    env,
                    format!("The \"options\" argument must be an object. Received {}", describe(other)),
                ));
            }
        },
    };
    if let Value::Object(map) = &mut value {
        let not_here = |key: &str, why: String| {
            refused(ConfigError::Invalid { pointer: Some(format!("/{key}")), message: why }.details())
        };
        for (js, core) in RENAMED_OPTIONS {
            if map.contains_key(core) {
                return Err(not_here(core, format!("unknown option; addFunctionHook spells it `{js}`")));
            }
            if let Some(v) = map.remove(js) {
                map.insert(core.to_owned(), v);
            }
        }
        if map.contains_key("event") {
            return Err(not_here(
                "event",
                "the event is addFunctionHook's first argument, not an option".into(),
            ));
        }
        map.insert("event".to_owned(), Value::String(event));
    }
    hookwire_core::FunctionHook::from_value(&value).map_err(|e| refused(e.details()))
}

/// The host's `JSON` object, whose functions define "exactly as JSON would" (abi.md §1).
fn json_object(env: &Env) -> Result<Object<'static>> {
    env.get_global()?.get_named_property::<Object<'static>>("JSON")
}

/// JSON text for an argument: a string is used as is, an object goes through
/// `JSON.stringify`; anything else is a `TypeError`. An object JSON cannot represent (a cycle,
/// a BigInt) is an engine error of `kind`.
fn to_json_text(env: &Env, value: Unknown, what: &str, kind: ErrorKind) -> Result<String> {
    match value.get_type()? {
        ValueType::String => napi::bindgen_prelude::FromNapiValue::from_unknown(value),
        ValueType::Object => {
            let stringify: Function<Unknown, Unknown> = json_object(env)?.get_named_property("stringify")?;
            let unrepresentable = |why: String| {
                errors::engine_error(
                    env,
                    &ErrorDetails::new(kind, format!("{what} cannot be represented as JSON: {why}")),
                )
            };
            let text = stringify.call(value).map_err(|e| unrepresentable(e.reason.clone()))?;
            match text.get_type()? {
                ValueType::String => napi::bindgen_prelude::FromNapiValue::from_unknown(text),
                _ => Err(unrepresentable("JSON.stringify gave no text".to_owned())),
            }
        }
        other => Err(errors::type_error(
            env,
            format!("The \"{what}\" argument must be an object or a string. Received {}", describe(other)),
        )),
    }
}

/// The `signal` of `fire()`'s options: `undefined` and `null` options or signal mean none; a
/// signal must be an object (an `AbortSignal`), options an object, else a `TypeError`.
fn signal_of<'env>(env: &'env Env, options: Option<Unknown<'env>>) -> Result<Option<Object<'env>>> {
    let Some(options) = options else { return Ok(None) };
    match options.get_type()? {
        ValueType::Undefined | ValueType::Null => return Ok(None),
        ValueType::Object => {}
        other => {
            return Err(errors::type_error(
                env,
                format!("The \"options\" argument must be an object. Received {}", describe(other)),
            ));
        }
    }
    // SAFETY: the type was checked just above.
    let options: Object = unsafe { options.cast()? };
    let signal: Unknown = options.get_named_property("signal")?;
    match signal.get_type()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        // SAFETY: the type is checked by the match.
        ValueType::Object => Ok(Some(unsafe { signal.cast()? })),
        other => Err(errors::type_error(
            env,
            format!("The \"options.signal\" property must be an AbortSignal. Received {}", describe(other)),
        )),
    }
}

/// The JavaScript name of a value's type, for `TypeError` messages.
fn describe(ty: ValueType) -> &'static str {
    match ty {
        ValueType::Undefined => "undefined",
        ValueType::Null => "null",
        ValueType::Boolean => "type boolean",
        ValueType::Number => "type number",
        ValueType::Symbol => "type symbol",
        ValueType::Function => "a function",
        ValueType::External => "an external value",
        _ => "a value of another type",
    }
}

/// The result JSON (or a trust status) as a plain object, through `JSON.parse`, so its keys
/// are exactly the JSON's (protocol.md §8).
pub(crate) fn parse_result(env: &Env, result_json: &str) -> Result<Unknown<'static>> {
    let parse: Function<&str, Unknown<'static>> = json_object(env)?.get_named_property("parse")?;
    parse.call(result_json)
}
