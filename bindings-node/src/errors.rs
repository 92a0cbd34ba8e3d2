//! Turns hookwire's errors into JavaScript errors, on the JavaScript thread.
//!
//! An engine error becomes an `Error` whose `code` is the kind in capitals (`'INVALID_JSON'`,
//! ...), with `line`, `column` and `pointer` set when the core knows them (abi.md §4, §6). A
//! wrong argument type becomes a `TypeError` with Node's own code, `'ERR_INVALID_ARG_TYPE'`.
//! This module only builds values; it never decides whether something is an error.

use hookwire_core::{ErrorDetails, ErrorKind};
use napi::bindgen_prelude::{JsObjectValue, JsTypeError, ToNapiValue};
use napi::{Env, Error, Status};

/// The `code` of an engine error: the kind of abi.md §6 in capitals.
pub fn code_of(kind: ErrorKind) -> String {
    kind.as_str().to_ascii_uppercase()
}

/// A JavaScript `Error` carrying `code`, plus `line`, `column` and `pointer` when known,
/// wrapped so that returning it from an export throws (or rejects with) that very object.
pub fn engine_error(env: &Env, details: &ErrorDetails) -> Error {
    build_engine_error(env, details).unwrap_or_else(|_| {
        // Building the object failed (the environment is going away): a plain napi error
        // still carries the code.
        Error::new(Status::GenericFailure, format!("{}: {}", code_of(details.kind), details.message))
    })
}

fn build_engine_error(env: &Env, details: &ErrorDetails) -> napi::Result<Error> {
    let mut obj = env.create_error(Error::new(Status::GenericFailure, details.message.clone()))?;
    obj.set_named_property("code", code_of(details.kind))?;
    if let Some(line) = details.line {
        obj.set_named_property("line", line as f64)?;
    }
    if let Some(column) = details.column {
        obj.set_named_property("column", column as f64)?;
    }
    if let Some(pointer) = &details.pointer {
        obj.set_named_property("pointer", pointer.as_str())?;
    }
    Ok(Error::from(obj.into_unknown(env)?))
}

/// An `Error` with a `code` of the binding's own, for misuse that is not an engine error
/// (`'FIRE_SYNC_WITH_JS_HOOKS'`).
pub fn coded_error(env: &Env, code: &str, message: String) -> Error {
    let built = env.create_error(Error::new(Status::GenericFailure, message.clone())).and_then(|mut obj| {
        obj.set_named_property("code", code)?;
        obj.into_unknown(env)
    });
    match built {
        Ok(value) => Error::from(value),
        Err(_) => Error::new(Status::GenericFailure, format!("{code}: {message}")),
    }
}

/// A `TypeError` for an argument that is neither an object nor a string.
pub fn type_error(env: &Env, message: String) -> Error {
    let err = JsTypeError::from(Error::new("ERR_INVALID_ARG_TYPE", message));
    Error::from(err.into_unknown(*env))
}

/// A file that could not be read, shaped like Node's own `fs` errors (`code`, `path`).
pub fn io_error(env: &Env, path: &str, err: &std::io::Error) -> Error {
    let code = match err.kind() {
        std::io::ErrorKind::NotFound => "ENOENT",
        std::io::ErrorKind::PermissionDenied => "EACCES",
        std::io::ErrorKind::IsADirectory => "EISDIR",
        _ => "EIO",
    };
    let message = format!("{code}: cannot read {path}: {err}");
    let built = env.create_error(Error::new(Status::GenericFailure, message.clone())).and_then(|mut obj| {
        obj.set_named_property("code", code)?;
        obj.set_named_property("path", path)?;
        obj.into_unknown(env)
    });
    match built {
        Ok(value) => Error::from(value),
        Err(_) => Error::new(Status::GenericFailure, message),
    }
}
