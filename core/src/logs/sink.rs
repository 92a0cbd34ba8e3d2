//! The one bridge from hookwire's `tracing` events to a host's logger (docs/logging.md): a
//! `tracing` subscriber that turns each event into a flat [`LogRecord`] `{level, target,
//! message, fields}` and hands it to the one [`LogSink`] the host registered. The C callback,
//! Python's `logging`, Node's logger function and Go's `*slog.Logger` all consume this record,
//! so every language sees the same events with the same fields.
//!
//! The sink is process-wide, like the loggers it feeds and like `tracing`'s own global default,
//! which this module takes the first time a sink is registered. Nothing is built while no sink
//! is registered: the subscriber then reports `OFF` as its maximum level, and `tracing`'s
//! macros stop at one atomic load, before evaluating a single field.
//!
//! The sink runs on whatever thread emitted the event (the fire's, a hook's), while the read
//! side of [`SINK`] is held, so [`set_log_sink`] returning means no call of the old sink is in
//! progress. An event emitted from inside the sink is dropped, a panic in the sink is caught,
//! and the sink itself may not register another one: logging never fails or recurses into a
//! fire. This module must never print, and never spawn.

use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock, RwLock};
use tracing::field::{Field, Visit};
use tracing::level_filters::LevelFilter;
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Level, Metadata, Subscriber};

/// How much a sink receives; each level includes those above it. The numbers are the C ABI's
/// `HOOKS_LOG_*` codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    Off = 0,
    Error = 1,
    Warn = 2,
    Info = 3,
    Debug = 4,
    /// Everything, including hook payloads and output (which may hold secrets).
    Trace = 5,
}

impl LogLevel {
    const ALL: [LogLevel; 6] =
        [LogLevel::Off, LogLevel::Error, LogLevel::Warn, LogLevel::Info, LogLevel::Debug, LogLevel::Trace];

    /// `"off"`, `"error"`, `"warn"`, `"info"`, `"debug"` or `"trace"`: the record's `level`.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Off => "off",
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }

    /// A level name as [`LogLevel::as_str`] spells it (any case; `warning` too).
    pub fn parse(name: &str) -> Option<LogLevel> {
        let name = name.trim().to_ascii_lowercase();
        if name == "warning" {
            return Some(LogLevel::Warn);
        }
        LogLevel::ALL.into_iter().find(|l| l.as_str() == name)
    }

    /// The C code (`HOOKS_LOG_OFF` 0 … `HOOKS_LOG_TRACE` 5).
    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|l| l.code() == code)
    }

    fn of(level: &Level) -> LogLevel {
        match *level {
            Level::ERROR => LogLevel::Error,
            Level::WARN => LogLevel::Warn,
            Level::INFO => LogLevel::Info,
            Level::DEBUG => LogLevel::Debug,
            Level::TRACE => LogLevel::Trace,
        }
    }

    fn filter(self) -> LevelFilter {
        match self {
            LogLevel::Off => LevelFilter::OFF,
            LogLevel::Error => LevelFilter::ERROR,
            LogLevel::Warn => LevelFilter::WARN,
            LogLevel::Info => LevelFilter::INFO,
            LogLevel::Debug => LevelFilter::DEBUG,
            LogLevel::Trace => LevelFilter::TRACE,
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One event, flat: what every binding hands to its language's logger.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRecord {
    pub level: LogLevel,
    /// `hookwire::load`, `hookwire::fire` or `hookwire::hook`.
    pub target: &'static str,
    /// A sentence for people; programs read `fields` (`fields.event` names the event).
    pub message: String,
    /// The event's fields by name (docs/logging.md); a field with no value is absent.
    pub fields: Map<String, Value>,
}

impl LogRecord {
    /// `{"level": "debug", "target": "hookwire::hook", "message": "...", "fields": {...}}`.
    pub fn to_json(&self) -> String {
        let mut o = Map::new();
        o.insert("level".into(), Value::String(self.level.as_str().into()));
        o.insert("target".into(), Value::String(self.target.into()));
        o.insert("message".into(), Value::String(self.message.clone()));
        o.insert("fields".into(), Value::Object(self.fields.clone()));
        Value::Object(o).to_string()
    }
}

/// The host's receiver of records. It is called on hookwire's threads, possibly several at
/// once, and must not block for long: the fire that emitted the record waits for it.
pub type LogSink = Arc<dyn Fn(&LogRecord) + Send + Sync>;

/// Why a sink could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogSinkError {
    /// The process already has another global `tracing` subscriber (a Rust host's own); the
    /// events go to it instead.
    #[error(
        "another tracing subscriber is the process's global default: hookwire's events go to it, not to a sink"
    )]
    OtherSubscriber,
    /// [`set_log_sink`] was called from inside the sink, which would wait for itself.
    #[error("the log sink cannot be replaced from inside a call of the sink")]
    FromSink,
}

/// The registered sink. Calls hold the read side, [`set_log_sink`] takes the write side.
static SINK: RwLock<Option<LogSink>> = RwLock::new(None);
/// The sink's level as a [`LogLevel`] code; `Off` while no sink is registered.
static LEVEL: AtomicU8 = AtomicU8::new(LogLevel::Off as u8);
/// Whether [`Bridge`] became the global default (decided once, at the first registration).
static INSTALLED: OnceLock<bool> = OnceLock::new();

thread_local! {
    /// This thread is inside the sink: its own events are dropped, not delivered again.
    static IN_SINK: Cell<bool> = const { Cell::new(false) };
}

/// The level records are delivered at, `Off` when no sink is registered.
pub fn log_level() -> LogLevel {
    LogLevel::from_code(i32::from(LEVEL.load(Ordering::Relaxed))).unwrap_or(LogLevel::Off)
}

/// Registers the process's log sink, receiving every hookwire event at `level` or above, or
/// removes it (`None`, or `LogLevel::Off`). Replaces an earlier sink; when this returns, no
/// call of the earlier one is in progress and none will start. Safe from any thread, but not
/// from inside the sink.
pub fn set_log_sink(sink: Option<LogSink>, level: LogLevel) -> Result<(), LogSinkError> {
    if IN_SINK.with(Cell::get) {
        return Err(LogSinkError::FromSink);
    }
    let (sink, level) = match sink {
        Some(s) if level != LogLevel::Off => (Some(s), level),
        _ => (None, LogLevel::Off),
    };
    if sink.is_some() && !*INSTALLED.get_or_init(|| tracing::subscriber::set_global_default(Bridge).is_ok()) {
        return Err(LogSinkError::OtherSubscriber);
    }
    let old = {
        let mut slot = SINK.write().unwrap_or_else(|e| e.into_inner());
        LEVEL.store(level as u8, Ordering::Relaxed);
        std::mem::replace(&mut *slot, sink)
    };
    // The global maximum level follows `max_level_hint`: `OFF` again makes every event of
    // every callsite cost one atomic load.
    tracing_core::callsite::rebuild_interest_cache();
    // Dropped outside the lock: a binding's sink may release host objects.
    drop(old);
    Ok(())
}

/// The global `tracing` subscriber that feeds the sink. Spans are not used by hookwire and are
/// ignored.
struct Bridge;

fn is_ours(meta: &Metadata<'_>) -> bool {
    meta.target().starts_with("hookwire")
}

impl Subscriber for Bridge {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        if is_ours(meta) { Interest::sometimes() } else { Interest::never() }
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        is_ours(meta) && LogLevel::of(meta.level()) <= log_level()
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(log_level().filter())
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        deliver(event);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

/// Marks this thread as inside the sink until dropped (also when the sink panics).
struct Inside;

impl Inside {
    fn enter() -> Option<Inside> {
        // Not `then_some(Inside)`: that would build (and drop, clearing the flag) a guard even
        // when this thread is already inside.
        if IN_SINK.with(|c| c.replace(true)) { None } else { Some(Inside) }
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        IN_SINK.with(|c| c.set(false));
    }
}

fn deliver(event: &Event<'_>) {
    let Some(_inside) = Inside::enter() else { return };
    let slot = SINK.read().unwrap_or_else(|e| e.into_inner());
    let Some(sink) = slot.as_ref() else { return };
    let meta = event.metadata();
    let mut fields = Fields::default();
    event.record(&mut fields);
    let record = LogRecord {
        level: LogLevel::of(meta.level()),
        target: meta.target(),
        message: fields.message,
        fields: fields.fields,
    };
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| sink(&record))) {
        // Dropped safely (a payload's own Drop may panic); the record is lost, the fire goes on.
        drop(crate::ErrorDetails::from_panic(payload));
    }
}

/// An event's fields as JSON values, its `message` apart.
#[derive(Default)]
struct Fields {
    message: String,
    fields: Map<String, Value>,
}

impl Fields {
    fn put(&mut self, field: &Field, value: Value) {
        self.fields.insert(field.name().to_string(), value);
    }
}

impl Visit for Fields {
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.put(field, Number::from_f64(value).map_or(Value::Null, Value::Number));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.put(field, Value::from(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.put(field, Value::from(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.put(field, Value::Bool(value));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message = value.to_string();
        } else {
            self.put(field, Value::String(value.to_string()));
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            self.message = format!("{value:?}");
        } else {
            self.put(field, Value::String(format!("{value:?}")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_their_names_and_codes_round_trip() {
        for l in LogLevel::ALL {
            assert_eq!(LogLevel::parse(l.as_str()), Some(l));
            assert_eq!(LogLevel::from_code(l.code()), Some(l));
        }
        assert_eq!(LogLevel::parse("WARNING"), Some(LogLevel::Warn));
        assert_eq!(LogLevel::parse("loud"), None);
        assert_eq!(LogLevel::from_code(6), None);
        assert!(LogLevel::Error < LogLevel::Trace);
    }

    #[test]
    fn a_record_is_flat_json() {
        let mut fields = Map::new();
        fields.insert("pid".into(), Value::from(7));
        let r =
            LogRecord { level: LogLevel::Debug, target: "hookwire::hook", message: "spawned".into(), fields };
        assert_eq!(
            r.to_json(),
            r#"{"level":"debug","target":"hookwire::hook","message":"spawned","fields":{"pid":7}}"#
        );
    }
}
