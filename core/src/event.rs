//! The event as the engine reads it before anything runs (protocol.md §3.1): its name, the
//! fields every fire needs (session, agent, cwd) and the field its matchers test, typed once.
//!
//! [`Head`] comes from the event's text on the fast path ([`Head::from_text`], borrowed, no
//! tree built) and from a parsed value on the full path ([`Head::from_value`], which also
//! validates the typed fields and names the wrong one). Both give the same head for the same
//! event; `select` reads only the head to decide what matches, so the two paths cannot
//! disagree about a matcher.

use crate::catalog::{EventSpec, MatchOn};
use crate::error::EventError;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// Event fields that must be a string (or null) when present (§3.1).
pub const STRING_FIELDS: &[&str] = &[
    "session_id",
    "transcript_path",
    "cwd",
    "permission_mode",
    "prompt_id",
    "agent_id",
    "agent_type",
    "tool_name",
    "tool_use_id",
    "source",
    "reason",
    "trigger",
    "notification_type",
    "prompt",
];

/// The typed head of one event.
pub struct Head<'a> {
    pub name: Cow<'a, str>,
    pub session_id: Cow<'a, str>,
    pub agent_id: Cow<'a, str>,
    fields: Fields<'a>,
}

/// Where the matcher fields are read from. The text head stays inline: a head lives on the stack
/// for one fire, and a box would be a heap allocation on the no-match fast path.
#[allow(clippy::large_enum_variant)]
enum Fields<'a> {
    Value(&'a Value),
    Text(TextHead<'a>),
}

impl<'a> Head<'a> {
    /// The head of a parsed event, or the precise error of a malformed one (a pointer to the
    /// wrong field).
    pub fn from_value(event: &'a Value) -> Result<Head<'a>, EventError> {
        let Some(obj) = event.as_object() else {
            return Err(EventError::invalid(
                "",
                "an event must be a JSON object with a string hook_event_name",
            ));
        };
        let name = match obj.get("hook_event_name") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => {
                return Err(EventError::invalid("/hook_event_name", "hook_event_name must be a string"));
            }
            None => {
                return Err(EventError::invalid(
                    "/hook_event_name",
                    "an event needs a string hook_event_name",
                ));
            }
        };
        for f in STRING_FIELDS {
            if let Some(v) = obj.get(*f)
                && !v.is_string()
                && !v.is_null()
            {
                return Err(EventError::invalid(format!("/{f}"), format!("{f} must be a string or null")));
            }
        }
        if let Some(v) = obj.get("tool_input")
            && !v.is_object()
            && !v.is_null()
        {
            return Err(EventError::invalid("/tool_input", "tool_input must be an object or null"));
        }
        if let Some(v) = obj.get("stop_hook_active")
            && !v.is_boolean()
            && !v.is_null()
        {
            return Err(EventError::invalid(
                "/stop_hook_active",
                "stop_hook_active must be true, false or null",
            ));
        }
        let s = |k: &str| Cow::Borrowed(obj.get(k).and_then(Value::as_str).unwrap_or(""));
        Ok(Head {
            name: Cow::Borrowed(name),
            session_id: s("session_id"),
            agent_id: s("agent_id"),
            fields: Fields::Value(event),
        })
    }

    /// The head read straight from the event's text, borrowing from it. `None` when the text
    /// is anything but a well-typed event object: the full path then says what is wrong.
    pub fn from_text(text: &'a str) -> Option<Head<'a>> {
        // serde reads a struct from an array too; an event must be an object.
        if !text.trim_start().starts_with('{') {
            return None;
        }
        let head: TextHead<'a> = serde_json::from_str(text).ok()?;
        if head.tool_input.is_some_and(|t| !(t.get().starts_with('{') || t.get() == "null")) {
            return None;
        }
        let mut head = head;
        let name = std::mem::take(&mut head.hook_event_name);
        let session_id = head.session_id.take().unwrap_or_default();
        let agent_id = head.agent_id.take().unwrap_or_default();
        Some(Head { name, session_id, agent_id, fields: Fields::Text(head) })
    }

    /// A matcher field: absent or not a string reads as `""` (§4.2).
    fn field(&self, name: &str) -> Cow<'_, str> {
        match &self.fields {
            Fields::Value(v) => Cow::Borrowed(v.get(name).and_then(Value::as_str).unwrap_or("")),
            Fields::Text(t) => t.field(name),
        }
    }

    /// The value the event's matchers are tested against (§4.2).
    pub fn matcher_value(&self, spec: &EventSpec) -> Cow<'_, str> {
        match spec.match_on {
            MatchOn::Nothing => Cow::Borrowed(""),
            MatchOn::Field(f) => self.field(f),
            MatchOn::Basename(f) => match self.field(f) {
                Cow::Borrowed(full) => Cow::Borrowed(basename(full)),
                Cow::Owned(full) => Cow::Owned(basename(&full).to_string()),
            },
        }
    }
}

fn basename(path: &str) -> &str {
    path.trim_end_matches('/').rsplit('/').next().unwrap_or("")
}

/// The fields of [`Head`] as serde reads them from text: the typed fields of §3.1 are declared
/// with their types so that a wrong type fails here.
#[derive(Deserialize)]
struct TextHead<'a> {
    #[serde(borrow)]
    hook_event_name: Cow<'a, str>,
    #[serde(borrow, default)]
    session_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    transcript_path: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    cwd: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    permission_mode: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    prompt_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    agent_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    agent_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_use_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    source: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    reason: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    trigger: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    notification_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    prompt: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_input: Option<&'a RawValue>,
    #[serde(default)]
    stop_hook_active: Option<bool>,
    // Free matcher fields (any type; a non-string matches as "").
    #[serde(borrow, default)]
    command_name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    load_reason: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
    #[serde(borrow, default)]
    mcp_server_name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    file_path: Option<&'a RawValue>,
    #[serde(borrow, default)]
    to_model: Option<&'a RawValue>,
    /// Open Plugins' shell events match on their command.
    #[serde(borrow, default)]
    command: Option<&'a RawValue>,
}

impl TextHead<'_> {
    fn field(&self, name: &str) -> Cow<'_, str> {
        fn s<'s>(v: &'s Option<Cow<'_, str>>) -> Cow<'s, str> {
            Cow::Borrowed(v.as_deref().unwrap_or(""))
        }
        let _ = (&self.transcript_path, &self.permission_mode, &self.prompt_id, &self.tool_use_id);
        let _ = (&self.prompt, &self.stop_hook_active, &self.cwd, &self.tool_input);
        match name {
            "tool_name" => s(&self.tool_name),
            "agent_type" => s(&self.agent_type),
            "source" => s(&self.source),
            "reason" => s(&self.reason),
            "trigger" => s(&self.trigger),
            "notification_type" => s(&self.notification_type),
            "command_name" => raw_str(self.command_name),
            "load_reason" => raw_str(self.load_reason),
            "error" => raw_str(self.error),
            "mcp_server_name" => raw_str(self.mcp_server_name),
            "file_path" => raw_str(self.file_path),
            "to_model" => raw_str(self.to_model),
            "command" => raw_str(self.command),
            _ => Cow::Borrowed(""),
        }
    }
}

fn raw_str(v: Option<&RawValue>) -> Cow<'_, str> {
    match v {
        Some(raw) if raw.get().starts_with('"') => {
            crate::json::from_str::<Cow<'_, str>>(raw.get()).unwrap_or(Cow::Borrowed(""))
        }
        _ => Cow::Borrowed(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{self, MatchOn};

    #[test]
    fn a_wrong_type_in_any_typed_field_fails_both_readings() {
        for f in STRING_FIELDS {
            let text = format!(r#"{{"hook_event_name":"PreToolUse","{f}":5}}"#);
            assert!(Head::from_text(&text).is_none(), "{f}: the text reading accepted a number");
            let v: Value = serde_json::from_str(&text).unwrap();
            let err = Head::from_value(&v).err().unwrap_or_else(|| panic!("{f}: accepted"));
            assert!(err.to_string().contains(f), "{f}: {err}");
        }
        for (f, bad) in [("tool_input", "\"x\""), ("stop_hook_active", "\"yes\"")] {
            let text = format!(r#"{{"hook_event_name":"PreToolUse","{f}":{bad}}}"#);
            assert!(Head::from_text(&text).is_none(), "{f}");
            assert!(Head::from_value(&serde_json::from_str(&text).unwrap()).is_err(), "{f}");
        }
    }

    #[test]
    fn file_changed_matches_on_the_basename() {
        let v = serde_json::json!({"hook_event_name": "FileChanged", "file_path": "/a/b/.env"});
        let spec = crate::catalog::spec(crate::catalog::lookup("FileChanged").unwrap());
        assert_eq!(Head::from_value(&v).unwrap().matcher_value(spec), ".env");
    }

    #[test]
    fn both_readings_give_every_matcher_field_alike() {
        let values = [r#""Bash""#, r#""/a/b/.env/""#, "7", "null", r#"{"x":1}"#, r#""esc\"aped\u00e9""#];
        for spec in (0..catalog::count()).map(catalog::spec) {
            let field = match spec.match_on {
                MatchOn::Nothing => continue,
                MatchOn::Field(f) | MatchOn::Basename(f) => f,
            };
            for raw in values {
                let text = format!(r#"{{"hook_event_name":"{}","{field}":{raw}}}"#, spec.name);
                let v: Value = serde_json::from_str(&text).unwrap();
                let typed = STRING_FIELDS.contains(&field) && !raw.starts_with('"') && raw != "null";
                let (Some(fast), Ok(full)) = (Head::from_text(&text), Head::from_value(&v)) else {
                    assert!(typed, "{text}: only a typed field of the wrong type may fail");
                    continue;
                };
                assert_eq!(fast.matcher_value(spec), full.matcher_value(spec), "{text}");
            }
        }
    }
}
