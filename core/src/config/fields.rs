//! What every dialect's configuration reader shares: where a document comes from, typed reads of
//! an object's keys with the JSON pointer of a wrong one, and pointer escaping.

use super::SourceInfo;
use crate::catalog::{Dialect, Rules};
use serde_json::{Map, Value};
use std::path::Path;

/// Everything a document parse needs to know about where it comes from.
pub struct DocContext<'a> {
    pub source: usize,
    pub dialect: Dialect,
    pub info: &'a SourceInfo,
    pub rules: Rules,
    /// JSON pointer of the document inside the configuration ("" for a file).
    pub base: String,
    pub project_dir: &'a Path,
    pub home: Option<&'a Path>,
    /// The file the document was read from, resolved; `None` for inline settings (Cursor runs
    /// a file's hooks in its directory).
    pub file: Option<&'a Path>,
}

/// Typed reads of the listed handler keys; `Err((pointer, message))` for a wrong type.
#[derive(Clone, Copy)]
pub(crate) struct Fields<'a> {
    pub obj: &'a Map<String, Value>,
    pub hptr: &'a str,
}

pub(crate) type FieldResult<T> = Result<Option<T>, (String, String)>;

impl Fields<'_> {
    fn err<T>(&self, key: &str, what: &str) -> FieldResult<T> {
        Err((format!("{}/{key}", self.hptr), format!("`{key}` must be {what}")))
    }
    pub(crate) fn number(&self, key: &str) -> FieldResult<f64> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(v) => v.as_f64().map(Some).map_or_else(|| self.err(key, "a number"), Ok),
        }
    }
    pub(crate) fn boolean(&self, key: &str) -> FieldResult<bool> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => self.err(key, "true or false"),
        }
    }
    pub(crate) fn string(&self, key: &str) -> FieldResult<String> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => self.err(key, "a string"),
        }
    }
    pub(crate) fn string_array(&self, key: &str) -> FieldResult<Vec<String>> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::Array(a)) => {
                let mut out = Vec::with_capacity(a.len());
                for (i, v) in a.iter().enumerate() {
                    match v {
                        Value::String(s) => out.push(s.clone()),
                        _ => {
                            return Err((
                                format!("{}/{key}/{i}", self.hptr),
                                format!("`{key}` must hold strings only"),
                            ));
                        }
                    }
                }
                Ok(Some(out))
            }
            Some(_) => self.err(key, "an array of strings"),
        }
    }
    pub(crate) fn string_pairs(&self, key: &str) -> FieldResult<Vec<(String, String)>> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::Object(m)) => {
                let mut out = Vec::with_capacity(m.len());
                for (k, v) in m {
                    match v.as_str() {
                        Some(s) => out.push((k.clone(), s.to_string())),
                        None => {
                            return Err((
                                format!("{}/{key}/{}", self.hptr, escape(k)),
                                format!("`{key}` values must be strings"),
                            ));
                        }
                    }
                }
                Ok(Some(out))
            }
            Some(_) => self.err(key, "an object of strings"),
        }
    }
}

/// Escapes a key for a JSON pointer (RFC 6901).
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
