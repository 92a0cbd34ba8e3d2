//! JavaScript functions as hooks and as host callbacks (issue 8; CONTRIBUTING.md rule 16).
//!
//! The core calls a hook function on one of its own threads and blocks that thread until the
//! answer is there. Here the answer comes from JavaScript: the thread queues a call on a weak
//! `ThreadsafeFunction` (held in an `Arc` by the core's closure) and waits on a channel. On the
//! JavaScript thread the function is called with the event as a plain object; its value, or the
//! value its promise settles with, is turned into JSON text there and sent back. A throw or a
//! rejection sends its message as the hook's error.
//!
//! The JavaScript thread must be free for any of this to happen, which is why `fireSync` refuses
//! dispatchers with JavaScript functions registered (see `Dispatcher::fire_sync`). The function
//! is weak: a registration alone never keeps the process alive.

use hookwire_core::{CallbackFn, HookFn};
use napi::bindgen_prelude::{Function, JsObjectValue, JsValue, Object, PromiseRaw, Unknown, ValueType};
use napi::threadsafe_function::{ThreadsafeCallContext, ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Error, Result, Status};
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// A JavaScript function callable from any thread: it gets JSON text (parsed into a value on the
/// JavaScript thread) and returns anything. Weak, so it does not keep the event loop alive.
type JsFn = ThreadsafeFunction<String, Unknown<'static>, Unknown<'static>, Status, false, true>;

/// What a JavaScript function settled with, already turned into text on the JavaScript thread.
type Answer = std::result::Result<String, String>;

/// How a settled value becomes JSON text; runs on the JavaScript thread.
type Convert = fn(&Env, Unknown) -> Answer;

/// Wraps a JavaScript function for calls from hookwire's threads.
fn threadsafe(func: &Function<'_, Unknown<'static>, Unknown<'static>>) -> Result<Arc<JsFn>> {
    let tsfn = func
        .build_threadsafe_function::<String>()
        .weak::<true>()
        .build_callback(|ctx: ThreadsafeCallContext<String>| crate::parse_result(&ctx.env, &ctx.value))?;
    Ok(Arc::new(tsfn))
}

/// A function hook for the core: the JavaScript function answers what a command would print.
pub fn hook_fn(
    func: &Function<'_, Unknown<'static>, Unknown<'static>>,
    timeout_s: Option<f64>,
) -> Result<HookFn> {
    let tsfn = threadsafe(func)?;
    Ok(Arc::new(move |event_json: &str| call_blocking(&tsfn, event_json.to_owned(), timeout_s, hook_answer)))
}

/// A host callback for the core: the JavaScript function answers a JSON object.
pub fn callback_fn(func: &Function<'_, Unknown<'static>, Unknown<'static>>) -> Result<CallbackFn> {
    let tsfn = threadsafe(func)?;
    Ok(Arc::new(move |request: &serde_json::Value| {
        let timeout_s = request.get("timeout_s").and_then(serde_json::Value::as_f64);
        let text = call_blocking(&tsfn, request.to_string(), timeout_s, callback_answer)?;
        hookwire_core::json::from_str(&text).map_err(|e| format!("the callback's answer is not JSON: {e}"))
    }))
}

/// Calls the function from a hookwire thread and waits for its answer.
///
/// The wait is bounded by the handler's timeout (plus a second) when it is known, so a
/// promise that never settles does not hold the thread forever; the core has already reported
/// `timed_out` by then. Without a known timeout the wait ends when the promise settles, or when
/// its callbacks are collected.
fn call_blocking(tsfn: &JsFn, json: String, timeout_s: Option<f64>, convert: Convert) -> Answer {
    let (tx, rx) = mpsc::channel::<Answer>();
    let status =
        tsfn.call_with_return_value(json, ThreadsafeFunctionCallMode::NonBlocking, move |ret, env| {
            settle_when_done(&env, ret, tx, convert);
            Ok(())
        });
    if status != Status::Ok {
        return Err(format!("the JavaScript function could not be called ({status})"));
    }
    let gone = || "the JavaScript function never answered (its promise was collected)".to_owned();
    match timeout_s.filter(|t| t.is_finite() && *t > 0.0) {
        Some(t) => rx.recv_timeout(Duration::from_secs_f64(t + 1.0)).map_err(|e| match e {
            mpsc::RecvTimeoutError::Timeout => format!("the JavaScript function did not answer within {t} s"),
            mpsc::RecvTimeoutError::Disconnected => gone(),
        })?,
        None => rx.recv().map_err(|_| gone())?,
    }
}

/// On the JavaScript thread: sends the answer now, or once the returned promise settles.
fn settle_when_done(env: &Env, ret: Result<Unknown<'static>>, tx: mpsc::Sender<Answer>, convert: Convert) {
    let value = match ret {
        Ok(value) => value,
        Err(e) => {
            let _ = tx.send(Err(message_of_error(&e)));
            return;
        }
    };
    if !value.is_promise().unwrap_or(false) {
        let _ = tx.send(convert(env, value));
        return;
    }
    // SAFETY: `is_promise` said so.
    let promise: PromiseRaw<'_, Unknown<'static>> = match unsafe { value.cast() } {
        Ok(p) => p,
        Err(e) => {
            let _ = tx.send(Err(e.reason));
            return;
        }
    };
    let on_reject = tx.clone();
    let chained = promise
        .then(move |ctx| {
            let _ = tx.send(convert(&ctx.env, ctx.value));
            Ok(())
        })
        .and_then(|then| {
            then.catch(move |ctx: napi::bindgen_prelude::CallbackContext<Unknown<'static>>| {
                let _ = on_reject.send(Err(message_of_thrown(ctx.value)));
                Ok(())
            })
        });
    // A failure to chain drops the senders, which ends the wait with an error.
    drop(chained);
}

/// The message of a thrown value or a rejection reason, read without running user code.
fn message_of_thrown(value: Unknown) -> String {
    message_of_error(&Error::from_unknown_without_coercion(value))
}

fn message_of_error(e: &Error) -> String {
    if e.reason.is_empty() { "the function threw".to_owned() } else { e.reason.clone() }
}

/// A hook's answer: `undefined` or `null` prints nothing, a string is printed as is, an object
/// is printed as its JSON.
fn hook_answer(env: &Env, value: Unknown) -> Answer {
    match value.get_type().map_err(|e| e.reason)? {
        ValueType::Undefined | ValueType::Null => Ok(String::new()),
        ValueType::String => {
            napi::bindgen_prelude::FromNapiValue::from_unknown(value).map_err(|e: Error| e.reason)
        }
        ValueType::Object => stringify(env, value),
        other => Err(format!(
            "a function hook must return an object, a string or undefined, not a {}",
            type_name(other)
        )),
    }
}

/// A host callback's answer: an object (`{ok, reason?}` or `{text}`), as JSON.
fn callback_answer(env: &Env, value: Unknown) -> Answer {
    match value.get_type().map_err(|e| e.reason)? {
        ValueType::Object => stringify(env, value),
        other => Err(format!("a host callback must return an object, not a {}", type_name(other))),
    }
}

fn stringify(env: &Env, value: Unknown) -> Answer {
    let json: Object = env.get_global().and_then(|g| g.get_named_property("JSON")).map_err(|e| e.reason)?;
    let stringify: Function<Unknown, Unknown> = json.get_named_property("stringify").map_err(|e| e.reason)?;
    let text = stringify
        .call(value)
        .map_err(|e| format!("the answer cannot be represented as JSON: {}", message_of_error(&e)))?;
    match text.get_type().map_err(|e| e.reason)? {
        ValueType::String => {
            napi::bindgen_prelude::FromNapiValue::from_unknown(text).map_err(|e: Error| e.reason)
        }
        _ => Err("the answer cannot be represented as JSON".to_owned()),
    }
}

fn type_name(ty: ValueType) -> &'static str {
    match ty {
        ValueType::Boolean => "boolean",
        ValueType::Number => "number",
        ValueType::Symbol => "symbol",
        ValueType::Function => "function",
        _ => "value of another type",
    }
}
