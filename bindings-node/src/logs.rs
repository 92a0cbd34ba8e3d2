//! `setLogger(fn, level)`: the core's one log sink (docs/logging.md) as a JavaScript function
//! (CONTRIBUTING.md rule 16). A record is emitted on whatever thread the engine is on, often while the
//! JavaScript thread waits (`fireSync`) or runs other code, so the sink never calls JavaScript
//! itself: it queues the record's JSON on a weak, unbounded `ThreadsafeFunction` without
//! blocking, and the function runs later on the JavaScript thread with the record as a plain
//! object. A throw in it is ignored; the registration never keeps the process alive; records
//! still queued when the process exits are lost.

use crate::errors;
use hookwire_core::{ErrorDetails, ErrorKind, LogLevel, LogRecord, LogSink};
use napi::bindgen_prelude::{Function, Unknown};
use napi::threadsafe_function::{ThreadsafeCallContext, ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Result, Status};
use napi_derive::napi;
use std::sync::Arc;

/// A JavaScript function callable from any thread with a record's JSON, parsed on the
/// JavaScript thread. Weak: it does not keep the event loop alive.
type LogFn = ThreadsafeFunction<String, Unknown<'static>, Unknown<'static>, Status, false, true>;

fn sink(func: &Function<'_, Unknown<'static>, Unknown<'static>>) -> Result<LogSink> {
    let tsfn: LogFn = func
        .build_threadsafe_function::<String>()
        .weak::<true>()
        .build_callback(|ctx: ThreadsafeCallContext<String>| crate::parse_result(&ctx.env, &ctx.value))?;
    Ok(Arc::new(move |record: &LogRecord| {
        // Non-blocking into an unbounded queue: the emitting thread never waits for JavaScript.
        // A throw arrives here as an `Err` and is dropped, like the record of a closing process.
        let _ = tsfn.call_with_return_value(
            record.to_json(),
            ThreadsafeFunctionCallMode::NonBlocking,
            |_thrown: Result<Unknown<'static>>, _env| Ok(()),
        );
    }))
}

/// Sends hookwire's events (docs/logging.md) to `logger`, at `level` and above (default
/// `'info'`), or stops them with `null` (the default; logging off costs nothing).
///
/// Process-wide: it replaces an earlier logger, and every dispatcher's events go to it. Each
/// record is a plain object `{ level, target, message, fields }`: `fields.event` names the
/// event (`'hook.spawned'`, ...) and the field names are stable. The logger is called on the
/// JavaScript thread, after the engine queued the record without waiting: a record from a
/// `fireSync()` arrives after it returns, one from `fire()` about when its promise settles.
/// A throw in the logger is ignored. The registration does not keep the process alive. Hook
/// stdin, stdout and stderr appear only at `'trace'`.
///
/// Throws an `Error` with `code` `'INVALID_CONFIG'` for a level that is not `'off'`,
/// `'error'`, `'warn'`, `'info'`, `'debug'` or `'trace'`.
#[napi(catch_unwind, ts_args_type = "logger: ((record: LogRecord) => void) | null, level?: LogLevel")]
pub fn set_logger(
    env: &Env,
    logger: Option<Function<'_, Unknown<'static>, Unknown<'static>>>,
    level: Option<String>,
) -> Result<()> {
    let refused = |kind, message: String| errors::engine_error(env, &ErrorDetails::new(kind, message));
    let level = match level.as_deref() {
        None => LogLevel::Info,
        Some(name) => LogLevel::parse(name).ok_or_else(|| {
            refused(
                ErrorKind::InvalidConfig,
                format!("unknown log level {name:?}: off, error, warn, info, debug or trace"),
            )
        })?,
    };
    let sink = logger.as_ref().map(sink).transpose()?;
    hookwire_core::set_log_sink(sink, level).map_err(|e| refused(ErrorKind::Internal, e.to_string()))
}
