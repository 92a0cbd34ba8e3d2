//! Errors of the engine: what stops a dispatcher from being built (`ConfigError`) or an event
//! from being fired (`EventError`), and the one error JSON every language hands to its users.
//!
//! A hook's own failure is never an error here: it is an outcome inside a successful result.
//! This module never decides *whether* something is an error, it only carries the context the
//! user needs to fix it (line and column for JSON, a JSON pointer for a wrong type).

use schemars::JsonSchema;
use serde::Serialize;
use std::any::Any;
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The stable error kinds of `abi.md` §6. Programs branch on [`ErrorKind::as_str`].
// The schema's names follow `as_str` (the hand-written `Serialize` below); core/tests/schemas.rs
// checks that they agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, JsonSchema)]
#[schemars(
    rename_all = "snake_case",
    description = "The stable kind of an error (abi.md §6); programs branch on it."
)]
pub enum ErrorKind {
    /// A required pointer argument is NULL (C only).
    NullPointer,
    /// Input text is not UTF-8.
    InvalidUtf8,
    /// Input text is not JSON; `line` and `column` say where.
    InvalidJson,
    /// JSON, but not a configuration protocol.md accepts; `pointer` says where, when known.
    InvalidConfig,
    /// JSON, but not an event (not an object, or no string `hook_event_name`).
    InvalidEvent,
    /// A bug in hookwire, caught at the boundary.
    Panic,
    /// Any other failure of hookwire itself (for example, no thread could be started).
    Internal,
}

impl ErrorKind {
    /// The kind string of the error JSON (`"invalid_json"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::NullPointer => "null_pointer",
            ErrorKind::InvalidUtf8 => "invalid_utf8",
            ErrorKind::InvalidJson => "invalid_json",
            ErrorKind::InvalidConfig => "invalid_config",
            ErrorKind::InvalidEvent => "invalid_event",
            ErrorKind::Panic => "panic",
            ErrorKind::Internal => "internal",
        }
    }

    /// The C code of `abi.md` §2.2 (`HOOKS_ERR_*`).
    pub fn code(self) -> i32 {
        match self {
            ErrorKind::NullPointer => 1,
            ErrorKind::InvalidUtf8 => 2,
            ErrorKind::InvalidJson => 3,
            ErrorKind::InvalidConfig => 4,
            ErrorKind::InvalidEvent => 5,
            ErrorKind::Panic => 6,
            ErrorKind::Internal => 7,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Everything an error JSON holds, in one flat shape every binding translates from, so the
/// four languages cannot disagree on what an error says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(description = "What went wrong (abi.md §1). Readers ignore keys they do not know.")]
pub struct ErrorDetails {
    /// The stable kind; programs branch on it.
    pub kind: ErrorKind,
    /// For people; it may change between releases.
    pub message: String,
    /// The 1-based line of a JSON syntax error.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")] // absent, never null
    pub line: Option<u64>,
    /// The 1-based column, counted in bytes, of a JSON syntax error.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "u64")] // absent, never null
    pub column: Option<u64>,
    /// A JSON pointer such as `/hooks/PreToolUse/0/hooks/1/timeout`, when a well-formed
    /// document is wrong in one place.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")] // absent, never null
    pub pointer: Option<String>,
}

impl Serialize for ErrorKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl ErrorDetails {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ErrorDetails { kind, message: message.into(), line: None, column: None, pointer: None }
    }

    /// The `panic` error for a payload caught by `catch_unwind` at a boundary, with one text
    /// in every language: `hookwire panicked: <message>` for a `&str` or `String` payload (every
    /// `panic!` with a message), else a fixed sentence.
    ///
    /// The payload is dropped under its own `catch_unwind`: a payload whose `Drop` panics
    /// would otherwise unwind straight out of the boundary that caught the first panic. Such a
    /// second payload is leaked rather than dropped, for the same reason.
    pub fn from_panic(payload: Box<dyn Any + Send>) -> ErrorDetails {
        let message = if let Some(s) = payload.downcast_ref::<&str>() {
            format!("hookwire panicked: {s}")
        } else if let Some(s) = payload.downcast_ref::<String>() {
            format!("hookwire panicked: {s}")
        } else {
            "hookwire panicked with a payload that is not a string".to_string()
        };
        if let Err(nested) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
            std::mem::forget(nested);
        }
        ErrorDetails::new(ErrorKind::Panic, message)
    }

    /// The `invalid_json` error for text serde_json could not parse: its reason without the
    /// ` at line L column C` serde_json appends, and the line and column as fields. For hosts
    /// that parse JSON themselves (the CLI reading files); the dispatcher reports its own.
    pub fn from_serde_json(e: &serde_json::Error) -> ErrorDetails {
        let (message, line, column) = json_parts(e);
        ErrorDetails {
            line: Some(line),
            column: Some(column),
            ..ErrorDetails::new(ErrorKind::InvalidJson, message)
        }
    }

    /// The error JSON of `abi.md` §1: `{"error": {"kind", "message", "line"?, "column"?, "pointer"?}}`.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Wrapper<'a> {
            error: &'a ErrorDetails,
        }
        serde_json::to_string(&Wrapper { error: self }).unwrap_or_else(|_| {
            r#"{"error":{"kind":"internal","message":"error JSON could not be written"}}"#.to_string()
        })
    }
}

impl fmt::Display for ErrorDetails {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Declares an input error: what stops a configuration or an event from being used. The two
/// share one shape and one implementation, and differ in their noun ("configuration is not
/// valid JSON", "event is not valid JSON") and in the kind of well-formed input that is wrong
/// (`invalid_config`, `invalid_event`). One definition keeps them from drifting apart.
macro_rules! input_error {
    ($(#[$doc:meta])* $name:ident, $noun:literal, $invalid_kind:expr, $(#[$invalid_doc:meta])*) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
        pub enum $name {
            #[doc = concat!("The ", $noun, " text is not JSON.")]
            #[error("{noun} is not valid JSON: {message} at line {line} column {column}", noun = $noun)]
            Json { message: String, line: u64, column: u64 },
            #[doc = concat!("The ", $noun, " text is not UTF-8.")]
            #[error("{noun} is not valid UTF-8: {0}", noun = $noun)]
            Utf8(String),
            $(#[$invalid_doc])*
            #[error("{}{message}", pointer_prefix(pointer))]
            Invalid { pointer: Option<String>, message: String },
            /// hookwire itself failed (no thread, no temporary directory, ...).
            #[error("internal error: {0}")]
            Internal(String),
        }

        impl $name {
            pub(crate) fn from_json(e: &serde_json::Error) -> Self {
                let (message, line, column) = json_parts(e);
                $name::Json { message, line, column }
            }

            pub(crate) fn invalid(pointer: impl Into<String>, message: impl Into<String>) -> Self {
                let p: String = pointer.into();
                $name::Invalid { pointer: if p.is_empty() { None } else { Some(p) }, message: message.into() }
            }

            pub fn kind(&self) -> ErrorKind {
                match self {
                    $name::Json { .. } => ErrorKind::InvalidJson,
                    $name::Utf8(_) => ErrorKind::InvalidUtf8,
                    $name::Invalid { .. } => $invalid_kind,
                    $name::Internal(_) => ErrorKind::Internal,
                }
            }

            /// The flat form every binding reports.
            pub fn details(&self) -> ErrorDetails {
                let mut d = ErrorDetails::new(self.kind(), self.to_string());
                match self {
                    $name::Json { line, column, .. } => {
                        d.line = Some(*line);
                        d.column = Some(*column);
                    }
                    $name::Invalid { pointer, .. } => d.pointer = pointer.clone(),
                    $name::Utf8(_) | $name::Internal(_) => {}
                }
                d
            }
        }
    };
}

input_error!(
    /// Why a configuration was refused. Files are the user's and never produce this (they become
    /// warnings); only content the host passes inline does.
    ConfigError,
    "configuration",
    ErrorKind::InvalidConfig,
    /// Well-formed JSON that is not a configuration protocol.md accepts.
);

input_error!(
    /// Why an event could not be fired. A hook that fails is never this.
    EventError,
    "event",
    ErrorKind::InvalidEvent,
    /// JSON, but not an event (not an object, no string `hook_event_name`, a wrong field type).
);

fn pointer_prefix(pointer: &Option<String>) -> String {
    match pointer {
        Some(p) => format!("{p}: "),
        None => String::new(),
    }
}

fn json_parts(e: &serde_json::Error) -> (String, u64, u64) {
    // serde_json appends " at line L column C" to its Display; keep the bare reason.
    let full = e.to_string();
    let bare = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    (bare, e.line() as u64, e.column() as u64)
}

/// Configuration text (a whole configuration, a handler type, function-hook options) from
/// bytes that must be UTF-8; otherwise the `invalid_utf8` error of a configuration.
pub fn config_text(bytes: &[u8]) -> Result<&str, ConfigError> {
    std::str::from_utf8(bytes).map_err(|e| ConfigError::Utf8(e.to_string()))
}

/// Event text from bytes that must be UTF-8; otherwise the `invalid_utf8` error of an event,
/// the same one `Dispatcher::fire_bytes` gives.
pub fn event_text(bytes: &[u8]) -> Result<&str, EventError> {
    std::str::from_utf8(bytes).map_err(|e| EventError::Utf8(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_error_keeps_line_and_column_and_a_bare_message() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  \"a\": 1,\n  }").unwrap_err();
        let d = ConfigError::from_json(&e).details();
        assert_eq!(d.kind, ErrorKind::InvalidJson);
        assert_eq!(d.line, Some(3));
        assert!(d.column.is_some());
        let json: serde_json::Value = serde_json::from_str(&d.to_json()).unwrap();
        assert_eq!(json["error"]["kind"], "invalid_json");
        assert_eq!(json["error"]["line"], 3);
        assert!(json["error"].get("pointer").is_none());
    }

    #[test]
    fn a_panic_with_a_str_payload_keeps_its_message() {
        let d = ErrorDetails::from_panic(Box::new("static boom"));
        assert_eq!(d.kind, ErrorKind::Panic);
        assert_eq!(d.message, "hookwire panicked: static boom");
    }

    #[test]
    fn a_panic_with_a_string_payload_keeps_its_message() {
        let payload = std::panic::catch_unwind(|| panic!("boom {}", 42)).unwrap_err();
        let d = ErrorDetails::from_panic(payload);
        assert_eq!((d.kind, d.message.as_str()), (ErrorKind::Panic, "hookwire panicked: boom 42"));
    }

    #[test]
    fn a_panic_with_another_payload_still_is_a_panic_error() {
        let d = ErrorDetails::from_panic(Box::new(7_u8));
        assert_eq!(d.kind, ErrorKind::Panic);
        assert_eq!(d.message, "hookwire panicked with a payload that is not a string");
        assert_eq!((d.line, d.column, d.pointer), (None, None, None));
    }

    #[test]
    fn a_payload_whose_drop_panics_does_not_unwind_out_of_from_panic() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("the payload's drop panicked");
            }
        }
        let d = ErrorDetails::from_panic(Box::new(Bomb));
        assert_eq!(d.kind, ErrorKind::Panic);
    }

    #[test]
    fn a_serde_json_error_gives_invalid_json_with_a_bare_message() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  \"a\": 1,\n  }").unwrap_err();
        let d = ErrorDetails::from_serde_json(&e);
        assert_eq!(d.kind, ErrorKind::InvalidJson);
        assert_eq!((d.line, d.column), (Some(3), Some(3)));
        assert!(!d.message.contains(" at line "), "{}", d.message);
        let ConfigError::Json { message, .. } = ConfigError::from_json(&e) else {
            panic!("not a JSON error")
        };
        assert_eq!(d.message, message, "the same bare reason as the dispatcher's own errors");
    }

    #[test]
    fn invalid_config_names_its_pointer_in_message_and_field() {
        let d = ConfigError::invalid("/hooks/PreToolUse/0/hooks/1/timeout", "expected a number").details();
        assert_eq!(d.kind.as_str(), "invalid_config");
        assert_eq!(d.pointer.as_deref(), Some("/hooks/PreToolUse/0/hooks/1/timeout"));
        assert!(d.message.contains("/hooks/PreToolUse/0/hooks/1/timeout"));
    }
}
