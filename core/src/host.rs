//! The byte forms of the calls that take text, for bindings that hold bytes (C strings,
//! Python `bytes`, files). The UTF-8 check itself is `error::config_text` / `error::event_text`,
//! the one every entry point uses, so every language reports the same `invalid_utf8` error.
//!
//! Each function here only checks the encoding and hands the text to the call that does the
//! work; none of them reads JSON or runs a hook itself.

use crate::dispatcher::{CancelToken, Dispatcher};
use crate::error::{ConfigError, EventError, config_text, event_text};

impl Dispatcher {
    /// As [`Dispatcher::fire_json_with`], from bytes that must be UTF-8: a cancellable fire of
    /// an event a host holds as bytes.
    pub fn fire_bytes_with(&self, event: &[u8], cancel: &CancelToken) -> Result<String, EventError> {
        self.fire_json_with(event_text(event)?, cancel)
    }
}

/// As [`crate::record_trust_for`], from bytes that must be UTF-8.
pub fn record_trust_for_bytes(config: &[u8]) -> Result<crate::TrustStatus, ConfigError> {
    crate::record_trust_for(config_text(config)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    const NOT_UTF8: &[u8] = b"{\"hook_event_name\":\"Stop\",\"x\":\"\xff\"}";

    #[test]
    fn fire_bytes_with_refuses_invalid_utf8_with_the_text_of_fire_bytes() {
        let d = Dispatcher::new("{}").unwrap();
        let with = d.fire_bytes_with(NOT_UTF8, &CancelToken::new()).unwrap_err();
        let without = d.fire_bytes(NOT_UTF8).unwrap_err();
        assert_eq!(with.kind(), ErrorKind::InvalidUtf8);
        assert_eq!(with, without);
    }

    #[test]
    fn fire_bytes_with_answers_like_fire_json_with() {
        let d = Dispatcher::new("{}").unwrap();
        let event = br#"{"hook_event_name":"Stop","session_id":"s","cwd":"/"}"#;
        let token = CancelToken::new();
        let text = std::str::from_utf8(event).unwrap();
        assert_eq!(d.fire_bytes_with(event, &token).unwrap(), d.fire_json_with(text, &token).unwrap());
        assert_eq!(d.fire_bytes_with(b"[", &token).unwrap_err().kind(), ErrorKind::InvalidJson);
    }

    #[test]
    fn config_and_event_text_name_their_side() {
        assert_eq!(config_text(b"\xc3").unwrap_err().kind(), ErrorKind::InvalidUtf8);
        assert!(
            config_text(b"\xc3").unwrap_err().to_string().starts_with("configuration is not valid UTF-8")
        );
        assert!(event_text(b"\xc3").unwrap_err().to_string().starts_with("event is not valid UTF-8"));
        assert_eq!(config_text("é".as_bytes()).unwrap(), "é");
    }

    #[test]
    fn record_trust_for_bytes_checks_utf8_before_anything_else() {
        let e = record_trust_for_bytes(b"{\"project_dir\":\"\xff\"}").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
        let e = record_trust_for_bytes(b"{}").unwrap_err();
        assert_eq!(e.details().pointer.as_deref(), Some("/project_dir"));
    }
}
