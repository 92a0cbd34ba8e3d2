//! The asynchronous fire: answered on the JavaScript thread when it runs nothing, else run on
//! a native thread of the addon's pool and settled through a deferred.
//!
//! A fire that matches nothing (the common case: most tool calls have no hook) never blocks,
//! so `Dispatcher::answer_without_running` answers it on the JavaScript thread and `fire()`
//! returns a promise that is already settled: no thread, no threadsafe function, no trip
//! through the event loop. Every other fire runs on a thread of `FIRES`, a pool that grows on
//! demand, so it never waits behind another fire's hooks and never runs on libuv's pool
//! (CONTRIBUTING.md rule 14: `AsyncTask` would queue 16 fires behind 4 threads). The event has already
//! been turned into JSON text on the JavaScript thread, so the worker owns everything it
//! touches. No panic escapes: a panic rejects the promise with code `'PANIC'` instead of
//! leaving it pending or aborting Node (rule 3).

use crate::errors;
use crate::pool::Pool;
use hookwire_core::{CancelToken, Dispatcher, ErrorDetails, ErrorKind};
use napi::bindgen_prelude::{
    FnArgs, Function, FunctionRef, JsObjectValue, Object, ObjectRef, PromiseRaw, Unknown,
};
use napi::{Env, Error, JsValue, Result};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The threads that run fires with hooks. Four wait for the next fire (an agent fires one
/// tool call at a time, a few when it runs tools in parallel), for 10 s each; a burst beyond
/// that gets new threads, which exit when it is over.
static FIRES: Pool = Pool::new(4, Duration::from_secs(10), "hookwire-fire");

/// What the JavaScript thread runs to settle a fire's promise.
type Settle = Box<dyn FnOnce(Env) -> Result<Unknown<'static>> + Send>;
type Deferred = napi::JsDeferred<Unknown<'static>, Settle>;
/// The `abort` listener a fire adds to its signal.
type Listener<'env> = Function<'env, Unknown<'static>, ()>;
/// `signal.addEventListener('abort', listener, { once: true })`.
type AddListener<'env> = Function<'env, FnArgs<(&'static str, Listener<'env>, Object<'env>)>, Unknown<'env>>;
/// `signal.removeEventListener('abort', listener)`.
type RemoveListener<'env> = Function<'env, FnArgs<(&'static str, Listener<'env>)>, Unknown<'env>>;

/// What `fire()` prepared on the JavaScript thread: the event's JSON text and the caller's
/// `AbortSignal`, if any. An error rejects the promise (so `fire()` never throws).
pub type Prepared<'env> = Result<(String, Option<Object<'env>>)>;

/// The promise's deferred, taken by whichever settles first: the fire's thread or the
/// signal's `abort` listener.
type Cell = Arc<Mutex<Option<Pending>>>;

struct Pending {
    deferred: Deferred,
    watch: Option<Watch>,
}

/// The caller's signal and the listener this fire added to it, removed when the fire is over
/// so a signal shared by many fires collects no listeners.
struct Watch {
    signal: ObjectRef<false>,
    listener: FunctionRef<Unknown<'static>, ()>,
}

impl Watch {
    /// Removes the listener and releases the signal; on the JavaScript thread only.
    fn release(self, env: &Env, remove_listener: bool) {
        if remove_listener && let Ok(signal) = self.signal.get_value(env) {
            let listener = self.listener.borrow_back(env);
            let remove = signal.get_named_property::<RemoveListener>("removeEventListener");
            if let (Ok(remove), Ok(listener)) = (remove, listener) {
                let _ = remove.apply(signal, FnArgs::from(("abort", listener)));
            }
        }
        let _ = self.signal.unref(env);
    }
}

/// `fire()`: returns the fire's promise at once. Whatever can be known on the JavaScript
/// thread settles the promise there, before it is returned: an event that could not be
/// converted rejects with that error (so `fire()` never throws), an already-aborted signal
/// rejects with `signal.reason` without firing, and a fire that runs nothing resolves with its
/// result. Only a fire that runs hooks goes to a thread (`start_on_thread`).
pub fn fire<'env>(
    env: &'env Env,
    dispatcher: &Arc<Dispatcher>,
    prepared: Prepared<'env>,
) -> Result<Unknown<'env>> {
    let (event_json, signal) = match prepared {
        Ok(p) => p,
        Err(e) => return settled(env, Err(e)),
    };
    if let Some(signal) = &signal {
        match signal.get_named_property::<bool>("aborted") {
            Ok(false) => {}
            Ok(true) => {
                return match signal.get_named_property::<Unknown>("reason") {
                    Ok(reason) => Ok(PromiseRaw::<Unknown>::reject(env, reason)?.to_unknown()),
                    Err(e) => settled(env, Err(e)),
                };
            }
            Err(e) => return settled(env, Err(e)),
        }
    }
    match catch_unwind(AssertUnwindSafe(|| dispatcher.answer_without_running(&event_json))) {
        Ok(Some(result_json)) => settled(env, crate::parse_result(env, &result_json)),
        Ok(None) => start_on_thread(env, Arc::clone(dispatcher), event_json, signal),
        Err(payload) => settled(env, Err(errors::engine_error(env, &ErrorDetails::from_panic(payload)))),
    }
}

/// A promise already resolved with the value, or rejected with the error.
fn settled<'env>(env: &'env Env, outcome: Result<Unknown<'static>>) -> Result<Unknown<'env>> {
    let promise = match outcome {
        Ok(value) => PromiseRaw::<Unknown>::resolve(env, value)?,
        Err(e) => PromiseRaw::<Unknown>::reject(env, e)?,
    };
    Ok(promise.to_unknown())
}

/// Starts a fire that runs hooks on a thread of the pool and returns its pending promise.
///
/// With a signal (not aborted: `fire` checked), an `abort` listener cancels the fire's token
/// (the core kills the running hooks' process groups and starts nothing more) and rejects the
/// promise with `signal.reason` at once; the fire's thread then ends on its own and its result
/// is dropped.
///
/// The deferred's threadsafe function keeps the event loop alive until the promise settles,
/// and the job holds its own `Arc`, so a pending fire finishes even if the JavaScript
/// `Dispatcher` is collected.
fn start_on_thread<'env>(
    env: &'env Env,
    dispatcher: Arc<Dispatcher>,
    event_json: String,
    signal: Option<Object<'env>>,
) -> Result<Unknown<'env>> {
    let (deferred, promise): (Deferred, Object) = env.create_deferred()?;
    let cell: Cell = Arc::new(Mutex::new(None));
    let token = match signal {
        None => {
            *lock(&cell) = Some(Pending { deferred, watch: None });
            None
        }
        Some(signal) => match watch(env, &signal, &cell) {
            Ok((token, watch)) => {
                *lock(&cell) = Some(Pending { deferred, watch: Some(watch) });
                Some(token)
            }
            Err(e) => {
                deferred.reject(e);
                return Ok(promise.to_unknown());
            }
        },
    };
    // The job starts only once the cell is filled, and a job that never starts still settles.
    let worker_cell = Arc::clone(&cell);
    let started = FIRES.execute(Box::new(move || {
        let outcome = run_fire_with(&dispatcher, &event_json, token.as_ref());
        drop(dispatcher);
        let taken = lock(&worker_cell).take();
        if let Some(pending) = taken {
            settle(pending, outcome);
        }
    }));
    if let Err(e) = started {
        let details = ErrorDetails::new(ErrorKind::Internal, format!("could not start a fire thread: {e}"));
        let taken = lock(&cell).take();
        if let Some(pending) = taken {
            settle(pending, Err(details));
        }
    }
    Ok(promise.to_unknown())
}

/// Adds the `abort` listener to a signal that has not aborted yet.
fn watch(env: &Env, signal: &Object, cell: &Cell) -> Result<(CancelToken, Watch)> {
    let token = CancelToken::new();
    let on_abort_token = token.clone();
    let on_abort_cell = Arc::clone(cell);
    let listener =
        env.create_function_from_closure::<Unknown<'static>, (), _>("hookwireAbort", move |ctx| {
            on_abort_token.cancel();
            let taken = lock(&on_abort_cell).take();
            if let Some(Pending { deferred, watch }) = taken {
                // `this` is the signal (EventTarget calls listeners on their target).
                let reason = ctx.this::<Object>().and_then(|s| s.get_named_property::<Unknown>("reason"));
                match reason {
                    Ok(reason) => deferred.reject(Error::from_unknown_without_coercion(reason)),
                    Err(e) => deferred.reject(e),
                }
                if let Some(watch) = watch {
                    // `once: true` has removed the listener already.
                    watch.release(ctx.env, false);
                }
            }
            Ok(())
        })?;
    let mut options = Object::new(env)?;
    options.set_named_property("once", true)?;
    let add: AddListener = signal.get_named_property("addEventListener")?;
    let listener_ref = listener.create_ref()?;
    add.apply(signal, FnArgs::from(("abort", listener, options)))?;
    let watch = Watch { signal: signal.create_ref::<false>()?, listener: listener_ref };
    Ok((token, watch))
}

fn lock(cell: &Cell) -> std::sync::MutexGuard<'_, Option<Pending>> {
    cell.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs the core fire, turning a panic into error details. Shared by `fire` and `fireSync`.
pub fn run_fire(dispatcher: &Dispatcher, event_json: &str) -> std::result::Result<String, ErrorDetails> {
    run_fire_with(dispatcher, event_json, None)
}

/// As `run_fire`, cancellable through `token`.
fn run_fire_with(
    dispatcher: &Dispatcher,
    event_json: &str,
    token: Option<&CancelToken>,
) -> std::result::Result<String, ErrorDetails> {
    let fire = || match token {
        Some(token) => dispatcher.fire_json_with(event_json, token),
        None => dispatcher.fire_json(event_json),
    };
    match catch_unwind(AssertUnwindSafe(fire)) {
        Ok(Ok(result_json)) => Ok(result_json),
        Ok(Err(e)) => Err(e.details()),
        Err(payload) => Err(ErrorDetails::from_panic(payload)),
    }
}

/// Settles the promise. The closure runs later on the JavaScript thread, the only place where
/// the result object or the error object can be built.
/// The signal's listener, if any, is removed there too.
fn settle(pending: Pending, outcome: std::result::Result<String, ErrorDetails>) {
    let Pending { deferred, watch } = pending;
    deferred.resolve(Box::new(move |env: Env| {
        if let Some(watch) = watch {
            watch.release(&env, true);
        }
        match outcome {
            Ok(result_json) => crate::parse_result(&env, &result_json),
            Err(details) => Err(errors::engine_error(&env, &details)),
        }
    }));
}
