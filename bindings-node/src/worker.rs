//! The asynchronous fire: one dedicated native thread per fire, settled through a deferred.
//!
//! The event has already been turned into JSON text on the JavaScript thread, so the worker
//! owns everything it touches. It never runs on libuv's pool (style.md rule 14: `AsyncTask`
//! would queue 16 fires behind 4 threads) and never lets a panic escape: a panic rejects the
//! promise with code `'PANIC'` instead of leaving it pending or aborting Node (rule 3).

use crate::errors;
use hookwire_core::{Dispatcher, ErrorDetails, ErrorKind};
use napi::bindgen_prelude::{Object, Unknown};
use napi::{Env, Result};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, mpsc};

/// What the JavaScript thread runs to settle a fire's promise.
type Settle = Box<dyn FnOnce(Env) -> Result<Unknown<'static>> + Send>;
type Deferred = napi::JsDeferred<Unknown<'static>, Settle>;

/// Starts a fire of `event_json` on a new thread and returns its promise at once. An event
/// that could not be converted gives a promise that rejects with that error, so `fire()`
/// never throws.
///
/// The deferred's threadsafe function keeps the event loop alive until the promise settles,
/// and the thread holds its own `Arc`, so a pending fire finishes even if the JavaScript
/// `Dispatcher` is collected.
pub fn spawn_fire<'env>(
    env: &'env Env,
    dispatcher: Arc<Dispatcher>,
    event_json: Result<String>,
) -> Result<Object<'env>> {
    let (deferred, promise): (Deferred, _) = env.create_deferred()?;
    let event_json = match event_json {
        Ok(text) => text,
        Err(e) => {
            deferred.reject(e);
            return Ok(promise);
        }
    };
    // The deferred is handed over only once the thread exists, so a failed spawn can still
    // reject it (with `'INTERNAL'`) instead of dropping a promise that would never settle.
    let (handoff, receive) = mpsc::channel::<Deferred>();
    let spawned = std::thread::Builder::new().name("hookwire-fire".to_owned()).spawn(move || {
        let outcome = run_fire(&dispatcher, &event_json);
        drop(dispatcher);
        if let Ok(deferred) = receive.recv() {
            settle(deferred, outcome);
        }
    });
    match spawned {
        // The thread keeps its receiver until it has received, so this send cannot fail.
        Ok(_) => drop(handoff.send(deferred)),
        Err(e) => {
            let details =
                ErrorDetails::new(ErrorKind::Internal, format!("could not start a fire thread: {e}"));
            settle(deferred, Err(details));
        }
    }
    Ok(promise)
}

/// Runs the core fire, turning a panic into error details. Shared by `fire` and `fireSync`.
pub fn run_fire(dispatcher: &Dispatcher, event_json: &str) -> std::result::Result<String, ErrorDetails> {
    match catch_unwind(AssertUnwindSafe(|| dispatcher.fire_json(event_json))) {
        Ok(Ok(result_json)) => Ok(result_json),
        Ok(Err(e)) => Err(e.details()),
        Err(payload) => Err(errors::panic_details(payload.as_ref())),
    }
}

/// Settles the promise. The closure runs later on the JavaScript thread, the only place where
/// the result object or the error object can be built.
fn settle(deferred: Deferred, outcome: std::result::Result<String, ErrorDetails>) {
    deferred.resolve(Box::new(move |env: Env| match outcome {
        Ok(result_json) => crate::parse_result(&env, &result_json),
        Err(details) => Err(errors::engine_error(&env, &details)),
    }));
}
