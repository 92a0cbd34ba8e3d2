//! A dict's JSON text, written from Rust for the plain values events are made of.
//!
//! Hooks see these bytes on stdin, so they must be exactly what the binding's encoder,
//! `json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode`,
//! writes. That encoder builds a `c_make_encoder` and joins a list of chunks on every call:
//! a third of a no-match `fire(dict)` (figure 6py-0). [`dumps`] writes the exact types `dict`
//! (with `str` keys), `list`, `tuple`, `str`, `int` (within `i64`), finite `float`, `bool`
//! and `None` itself, in the encoder's order and spelling, and declines everything else:
//! subclasses (an `IntEnum`, a `dict` subclass), other key types, big ints, NaN and
//! infinities, strings that are not UTF-8 (lone surrogates), nesting deeper than
//! [`MAX_DEPTH`] (which also sends cycles to the encoder's own error). Declined values go to
//! the encoder whole, so every error and every odd case is Python's own. It never calls
//! Python code (only `float.__repr__`), so the dict cannot change while it is read.
//! `tests/test_encode.py` checks it byte for byte against the encoder.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How deep [`dumps`] follows nested containers before it declines.
const MAX_DEPTH: usize = 64;

/// The JSON text of `obj` as the encoder would write it, or `None` to let the encoder do it.
pub(crate) fn dumps(obj: &Bound<'_, PyAny>) -> Option<String> {
    let mut out = String::with_capacity(256);
    // A panic (none is known) only declines: the encoder then gives the answer.
    catch_unwind(AssertUnwindSafe(|| write(&mut out, obj, 0))).ok()?.then_some(out)
}

fn write(out: &mut String, obj: &Bound<'_, PyAny>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if obj.is_none() {
        out.push_str("null");
    } else if let Ok(s) = obj.cast_exact::<PyString>() {
        let Ok(s) = s.to_str() else { return false };
        write_str(out, s);
    } else if let Ok(b) = obj.cast_exact::<PyBool>() {
        out.push_str(if b.is_true() { "true" } else { "false" });
    } else if obj.is_exact_instance_of::<PyInt>() {
        let Ok(i) = obj.extract::<i64>() else { return false };
        // Writing to a String cannot fail.
        let _ = write!(out, "{i}");
    } else if let Ok(f) = obj.cast_exact::<PyFloat>() {
        if !f.value().is_finite() {
            return false;
        }
        let Ok(repr) = f.repr() else { return false };
        let Ok(repr) = repr.to_str() else { return false };
        out.push_str(repr);
    } else if let Ok(d) = obj.cast_exact::<PyDict>() {
        out.push('{');
        for (i, (k, v)) in d.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let Ok(k) = k.cast_exact::<PyString>() else { return false };
            let Ok(k) = k.to_str() else { return false };
            write_str(out, k);
            out.push(':');
            if !write(out, &v, depth + 1) {
                return false;
            }
        }
        out.push('}');
    } else if let Ok(l) = obj.cast_exact::<PyList>() {
        return write_array(out, l.iter(), depth);
    } else if let Ok(t) = obj.cast_exact::<PyTuple>() {
        return write_array(out, t.iter(), depth);
    } else {
        return false;
    }
    true
}

/// A list's or a tuple's items as a JSON array (the encoder writes both the same way).
fn write_array<'py>(out: &mut String, items: impl Iterator<Item = Bound<'py, PyAny>>, depth: usize) -> bool {
    out.push('[');
    for (i, v) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if !write(out, &v, depth + 1) {
            return false;
        }
    }
    out.push(']');
    true
}

/// A JSON string as the encoder writes it with `ensure_ascii=False`: `"` and `\` escaped,
/// `\b \f \n \r \t` by their short escapes, other characters below U+0020 as `\u00xx` (lower
/// case hex), everything else as is.
fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}
