//! The options of a function the host registers as a hook (`Dispatcher::add_function_hook`),
//! and the one reading of them from JSON that every binding shares: the C ABI's
//! `hooks_add_function_hook` options and Node's `addFunctionHook` options both come through
//! [`FunctionHook::from_json`] / [`FunctionHook::from_value`].
//!
//! The reading is strict: an unknown key or a value of the wrong type is an `invalid_config`
//! error with a JSON pointer to the key, never silently ignored. Whether the event exists and
//! the matcher compiles is checked when the hook is registered, against the dispatcher's rules.
//! This module never runs a hook.

use crate::config::{MIN_TIMEOUT_S, escape, timeout_ok};
use crate::error::ConfigError;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// A function the host registers as a hook (`Dispatcher::add_function_hook`).
///
/// Its JSON form is `{"event", "matcher"?, "timeout_s"?, "fail_closed"?, "name"?, "first"?}`:
/// the field names, with `null` standing for an absent `matcher`, `timeout_s` or `name`. Any
/// other key is refused. A plain value that may be shared between threads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionHook {
    /// The event it runs on (a canonical name).
    pub event: String,
    /// A claude-code matcher on the event's matcher field; `None` = every occurrence.
    #[serde(default)]
    pub matcher: Option<String>,
    /// Seconds; default as for a command on that event.
    #[serde(default, deserialize_with = "seconds")]
    pub timeout_s: Option<f64>,
    /// A failure (an error or a timeout) blocks where the event can block.
    #[serde(default)]
    pub fail_closed: bool,
    /// Names the hook id `function(<name>):<Event>`; else `function#<n>:<Event>`.
    #[serde(default)]
    pub name: Option<String>,
    /// Run before the configured hooks in configuration order (default: after them).
    #[serde(default)]
    pub first: bool,
}

impl FunctionHook {
    /// Reads the options object from JSON text. Text that is not JSON is `invalid_json` (with
    /// line and column); a document that is not an object, lacks `event`, has an unknown key
    /// or a value of the wrong type (a `timeout_s` that is not seconds ≥ 0.001 included) is
    /// `invalid_config` with a pointer to the key.
    pub fn from_json(options: &str) -> Result<FunctionHook, ConfigError> {
        let value = crate::json::value_from_str(options).map_err(|e| ConfigError::from_json(&e))?;
        Self::from_value(&value)
    }

    /// As [`FunctionHook::from_json`], from a parsed value.
    pub fn from_value(options: &Value) -> Result<FunctionHook, ConfigError> {
        let Some(map) = options.as_object() else {
            return Err(ConfigError::invalid("", "the options must be a JSON object"));
        };
        FunctionHook::deserialize(options)
            .map_err(|e| ConfigError::invalid(pointer_of(map, &e), e.to_string()))
    }
}

/// The pointer of the key a refusal is about. serde names a missing field in its message, but
/// not the key whose value it refused, so each key is read alone beside a valid event, in
/// document order, and the first one refused is the culprit (an unknown key is refused alone
/// too). The options are a handful of keys, read once per registration.
fn pointer_of(map: &Map<String, Value>, e: &serde_json::Error) -> String {
    let message = e.to_string();
    if let Some(rest) = message.strip_prefix("missing field `")
        && let Some(field) = rest.split('`').next()
    {
        return format!("/{}", escape(field));
    }
    for (key, value) in map {
        let mut alone = Map::new();
        alone.insert("event".to_string(), Value::String(String::new()));
        alone.insert(key.clone(), value.clone());
        if FunctionHook::deserialize(Value::Object(alone)).is_err() {
            return format!("/{}", escape(key));
        }
    }
    String::new()
}

/// `timeout_s`: `null` or seconds ≥ 0.001 ([`timeout_ok`]), so a bad timeout is refused while
/// reading, with the same rule as every configured timeout.
fn seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    struct Seconds;

    impl<'de> Visitor<'de> for Seconds {
        type Value = Option<f64>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "seconds ≥ {MIN_TIMEOUT_S} (a number) or null")
        }

        fn visit_unit<E: de::Error>(self) -> Result<Option<f64>, E> {
            Ok(None)
        }

        fn visit_none<E: de::Error>(self) -> Result<Option<f64>, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<f64>, D::Error> {
            d.deserialize_any(self)
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<f64>, E> {
            if timeout_ok(v) { Ok(Some(v)) } else { Err(E::invalid_value(de::Unexpected::Float(v), &self)) }
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<f64>, E> {
            self.visit_f64(v as f64)
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<f64>, E> {
            self.visit_f64(v as f64)
        }
    }

    d.deserialize_option(Seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn refused(options: &str) -> crate::error::ErrorDetails {
        FunctionHook::from_json(options).expect_err(options).details()
    }

    #[test]
    fn every_option_is_read_and_nulls_mean_absent() {
        let h = FunctionHook::from_json(
            r#"{"event":"PreToolUse","matcher":"Bash","timeout_s":2.5,"fail_closed":true,"name":"guard","first":true}"#,
        )
        .unwrap();
        assert_eq!(
            h,
            FunctionHook {
                event: "PreToolUse".into(),
                matcher: Some("Bash".into()),
                timeout_s: Some(2.5),
                fail_closed: true,
                name: Some("guard".into()),
                first: true,
            }
        );
        let h = FunctionHook::from_json(r#"{"event":"Stop","matcher":null,"timeout_s":null,"name":null}"#)
            .unwrap();
        assert_eq!(h, FunctionHook { event: "Stop".into(), ..FunctionHook::default() });
        assert_eq!(
            FunctionHook::from_json(r#"{"event":"Stop","timeout_s":3}"#).unwrap().timeout_s,
            Some(3.0)
        );
    }

    #[test]
    fn an_unknown_key_is_refused_with_its_pointer() {
        let d = refused(r#"{"event":"PreToolUse","colour":"red"}"#);
        assert_eq!(d.kind, ErrorKind::InvalidConfig);
        assert_eq!(d.pointer.as_deref(), Some("/colour"));
        assert!(d.message.contains("unknown field `colour`"), "{}", d.message);
        // Spellings of other bindings are not options here.
        assert_eq!(refused(r#"{"event":"Stop","failClosed":true}"#).pointer.as_deref(), Some("/failClosed"));
        assert_eq!(refused(r#"{"event":"Stop","a/b":1}"#).pointer.as_deref(), Some("/a~1b"));
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused_with_the_key_of_that_value() {
        for (options, pointer) in [
            (r#"{"event":5}"#, "/event"),
            (r#"{"event":"Stop","matcher":["Bash"]}"#, "/matcher"),
            (r#"{"event":"Stop","fail_closed":"yes"}"#, "/fail_closed"),
            (r#"{"event":"Stop","fail_closed":null}"#, "/fail_closed"),
            (r#"{"event":"Stop","first":1}"#, "/first"),
            (r#"{"event":"Stop","name":false}"#, "/name"),
            (r#"{"event":"Stop","name":"ok","timeout_s":"5"}"#, "/timeout_s"),
        ] {
            let d = refused(options);
            assert_eq!(
                (d.kind, d.pointer.as_deref()),
                (ErrorKind::InvalidConfig, Some(pointer)),
                "{options}: {d:?}"
            );
        }
    }

    #[test]
    fn a_timeout_that_is_not_seconds_of_at_least_a_millisecond_is_refused() {
        for t in ["0", "-1", "0.0001", "1e-300", "true", "{}"] {
            let d = refused(&format!(r#"{{"event":"Stop","timeout_s":{t}}}"#));
            assert_eq!(d.pointer.as_deref(), Some("/timeout_s"), "{t}: {d:?}");
            assert!(d.message.contains("seconds"), "{t}: {}", d.message);
        }
        assert_eq!(
            FunctionHook::from_json(r#"{"event":"Stop","timeout_s":0.001}"#).unwrap().timeout_s,
            Some(0.001)
        );
    }

    #[test]
    fn no_event_and_no_object_are_refused() {
        let d = refused(r#"{"matcher":"Bash"}"#);
        assert_eq!((d.kind, d.pointer.as_deref()), (ErrorKind::InvalidConfig, Some("/event")));
        for options in ["[]", "\"PreToolUse\"", "null"] {
            let d = refused(options);
            assert_eq!((d.kind, d.pointer.as_deref()), (ErrorKind::InvalidConfig, None), "{options}");
        }
    }

    #[test]
    fn text_that_is_not_json_is_invalid_json_with_line_and_column() {
        let d = refused("{\n  \"event\": ");
        assert_eq!(d.kind, ErrorKind::InvalidJson);
        assert_eq!(d.line, Some(2));
        assert!(d.column.is_some());
    }
}
