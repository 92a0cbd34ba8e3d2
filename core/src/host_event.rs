//! The host event: the event an agent built on a framework fires, made from what the framework
//! knows at one point of its loop, by one rule for every adapter and language.
//!
//! Before this, each adapter layer (Python, Node, Go) composed Claude Code's event shape itself
//! and the copies drifted: one sent `"transcript_path": null` where the others left it out, one
//! defaulted `permission_mode` to `bypassPermissions`, a failed tool's `error` text was written
//! two ways. Hooks in the wild read these fields (`jq -r .transcript_path`), so the shape is a
//! rule of the engine and lives here, beside the host step that reads the result.
//!
//! The rule, in the order the keys are written:
//! - the common keys of every Claude Code event: `session_id`, `transcript_path` (only when the
//!   host keeps a transcript: a hook reading it gets no key rather than `null`), `cwd`,
//!   `permission_mode` (`default` unless the host says otherwise), `hook_event_name`;
//! - on a tool event, `tool_name` (the framework's name mapped through `tool_names`, so that a
//!   user's `Bash` matcher reaches a framework's `bash` tool), `tool_input` (always an object:
//!   a framework's non-object arguments become `{"input": …}`, none become `{}`), `tool_use_id`;
//! - PostToolUse `tool_response` (`null` when the tool returned nothing); PostToolUseFailure
//!   `error` (`"<error_type>: <error>"` when the host names the exception's type) and
//!   `is_interrupt` (`false` unless said);
//! - UserPromptSubmit `prompt`; SessionStart `source` (`startup`); SessionEnd `reason`
//!   (`other`); Stop and SubagentStop `stop_hook_active` (`false`) and
//!   `last_assistant_message` when known;
//! - then `fields`, the event's other keys as the host gives them; a key of the rule above is
//!   never overwritten by one of them.
//!
//! A pure function: nothing is spawned, read or written. The event is checked again, like any
//! event, when it is fired.

use crate::catalog;
use crate::error::EventError;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The default `permission_mode` of a host event: a framework has no permission modes, and
/// `default` is what Claude Code sends when the user chose none.
pub const DEFAULT_PERMISSION_MODE: &str = "default";

/// How many consecutive Stop continuations an adapter allows in one run before it ends the
/// turn itself: a safety net above the engine's own guard (8 per session, protocol.md §5.11),
/// should the engine's count be bypassed (a caller changing `session_id` between fires).
pub const MAX_STOP_CONTINUATIONS: u32 = 16;

/// What a framework knows at one point of its loop. Only `event`, `session_id` and `cwd` are
/// always required; each event needs the facts its rule reads (a tool event its `tool_name`,
/// UserPromptSubmit its `prompt`, PostToolUseFailure its `error`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HostFacts")]
pub struct HostFacts {
    /// The Claude Code event to build (`PreToolUse`, `Stop`, …).
    pub event: String,
    pub session_id: String,
    /// The working directory the hooks see.
    pub cwd: String,
    /// Left out of the event when the host keeps no transcript file.
    #[serde(default)]
    pub transcript_path: Option<String>,
    /// `default` when not given.
    #[serde(default)]
    pub permission_mode: Option<String>,
    /// The tool as the framework names it.
    #[serde(default)]
    pub tool_name: Option<String>,
    /// Framework tool name → the name hooks match (`{"bash": "Bash"}`); a name not in the map
    /// is sent as the framework spells it.
    #[serde(default)]
    pub tool_names: BTreeMap<String, String>,
    /// The tool's arguments as the model gave them; any JSON.
    #[serde(default)]
    pub tool_input: Option<Value>,
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// PostToolUse: what the tool returned, any JSON.
    #[serde(default)]
    pub tool_response: Option<Value>,
    /// PostToolUseFailure: the error's message.
    #[serde(default)]
    pub error: Option<String>,
    /// PostToolUseFailure: the error's type (an exception class), put before the message.
    #[serde(default)]
    pub error_type: Option<String>,
    #[serde(default)]
    pub is_interrupt: Option<bool>,
    /// UserPromptSubmit: the prompt's text.
    #[serde(default)]
    pub prompt: Option<String>,
    /// SessionStart: `startup` when not given.
    #[serde(default)]
    pub source: Option<String>,
    /// SessionEnd: `other` when not given.
    #[serde(default)]
    pub reason: Option<String>,
    /// Stop, SubagentStop: a hook already continued this turn.
    #[serde(default)]
    pub stop_hook_active: Option<bool>,
    /// Stop, SubagentStop: the model's last text.
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// The event's other keys, as the host gives them (`agent_id`, `permission_suggestions`…).
    #[serde(default)]
    pub fields: Map<String, Value>,
}

impl HostFacts {
    /// The event these facts make (the rule in the module comment). Errors are
    /// `invalid_event` with a pointer to the fact at fault.
    pub fn event(self) -> Result<Value, EventError> {
        let Some(eid) = catalog::lookup(&self.event) else {
            return Err(EventError::invalid(
                "/event",
                format!("{:?} is not a Claude Code event", self.event),
            ));
        };
        let spec = catalog::spec(eid);
        if spec.native_of.is_some() {
            return Err(EventError::invalid(
                "/event",
                format!(
                    "{} is native to {}; a host event is one of Claude Code's",
                    spec.name,
                    spec.native_of.unwrap_or("")
                ),
            ));
        }
        let mut e = Map::new();
        e.insert("session_id".into(), self.session_id.into());
        if let Some(path) = self.transcript_path {
            e.insert("transcript_path".into(), path.into());
        }
        e.insert("cwd".into(), self.cwd.into());
        let mode = self.permission_mode.unwrap_or_else(|| DEFAULT_PERMISSION_MODE.to_string());
        e.insert("permission_mode".into(), mode.into());
        e.insert("hook_event_name".into(), spec.name.into());
        let need =
            |what: &str| EventError::invalid(format!("/{what}"), format!("{} needs `{what}`", spec.name));
        if spec.tool_event {
            let name = self.tool_name.ok_or_else(|| need("tool_name"))?;
            let name = self.tool_names.get(&name).cloned().unwrap_or(name);
            e.insert("tool_name".into(), name.into());
            e.insert("tool_input".into(), tool_input(self.tool_input));
            if let Some(id) = self.tool_use_id {
                e.insert("tool_use_id".into(), id.into());
            }
        }
        match spec.name {
            "PostToolUse" => {
                e.insert("tool_response".into(), self.tool_response.unwrap_or(Value::Null));
            }
            "PostToolUseFailure" => {
                let message = self.error.ok_or_else(|| need("error"))?;
                let text = match self.error_type.filter(|t| !t.is_empty()) {
                    Some(kind) if message.is_empty() => kind,
                    Some(kind) => format!("{kind}: {message}"),
                    None => message,
                };
                e.insert("error".into(), text.into());
                e.insert("is_interrupt".into(), self.is_interrupt.unwrap_or(false).into());
            }
            "UserPromptSubmit" => {
                e.insert("prompt".into(), self.prompt.ok_or_else(|| need("prompt"))?.into());
            }
            "SessionStart" => {
                e.insert("source".into(), self.source.unwrap_or_else(|| "startup".into()).into());
            }
            "SessionEnd" => {
                e.insert("reason".into(), self.reason.unwrap_or_else(|| "other".into()).into());
            }
            _ if spec.stop_like => {
                e.insert("stop_hook_active".into(), self.stop_hook_active.unwrap_or(false).into());
                if let Some(text) = self.last_assistant_message {
                    e.insert("last_assistant_message".into(), text.into());
                }
            }
            _ => {}
        }
        for (key, value) in self.fields {
            e.entry(key).or_insert(value);
        }
        Ok(Value::Object(e))
    }

    /// The event of facts given as JSON (the form every binding passes), as compact JSON.
    /// Errors: `invalid_json`, and `invalid_event` for facts of the wrong shape (an unknown
    /// key, a key of the wrong type) or missing what their event needs.
    pub fn event_of_json(facts: &str) -> Result<String, EventError> {
        let value = crate::json::value_from_str(facts).map_err(|e| EventError::from_json(&e))?;
        let facts: HostFacts = serde_json::from_value(value)
            .map_err(|e| EventError::invalid("", format!("not host facts: {e}")))?;
        Ok(facts.event()?.to_string())
    }
}

/// A tool's arguments as the object `tool_input` always is.
fn tool_input(input: Option<Value>) -> Value {
    match input {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(object @ Value::Object(_)) => object,
        Some(other) => {
            let mut wrapped = Map::new();
            wrapped.insert("input".into(), other);
            Value::Object(wrapped)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn build(facts: Value) -> Result<Value, EventError> {
        HostFacts::event_of_json(&facts.to_string()).map(|t| serde_json::from_str(&t).unwrap())
    }

    #[test]
    fn common_keys_come_first_with_default_permission_mode_and_no_transcript_path() {
        let e = build(json!({"event": "Stop", "session_id": "s", "cwd": "/p"})).unwrap();
        let keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["session_id", "cwd", "permission_mode", "hook_event_name", "stop_hook_active"]);
        assert_eq!(e["permission_mode"], "default");
        assert_eq!(e["stop_hook_active"], false);
        let e = build(json!({"event": "Stop", "session_id": "s", "cwd": "/p", "transcript_path": "/t.jsonl",
                             "permission_mode": "plan", "stop_hook_active": true, "last_assistant_message": "done"}))
        .unwrap();
        assert_eq!(e["transcript_path"], "/t.jsonl");
        assert_eq!(e["permission_mode"], "plan");
        assert_eq!(e["stop_hook_active"], true);
        assert_eq!(e["last_assistant_message"], "done");
    }

    #[test]
    fn a_framework_tool_name_is_mapped_and_its_input_is_always_an_object() {
        let base =
            json!({"event": "PreToolUse", "session_id": "s", "cwd": "/p", "tool_names": {"bash": "Bash"}});
        let with = |extra: Value| {
            let mut f = base.clone();
            f.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            build(f).unwrap()
        };
        let e = with(json!({"tool_name": "bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}));
        assert_eq!(
            (e["tool_name"].as_str(), &e["tool_input"], &e["tool_use_id"]),
            (Some("Bash"), &json!({"command": "ls"}), &json!("t1"))
        );
        let e = with(json!({"tool_name": "read_file", "tool_input": "a.txt"}));
        assert_eq!(e["tool_name"], "read_file", "a name outside the map is sent as spelt");
        assert_eq!(e["tool_input"], json!({"input": "a.txt"}));
        assert_eq!(with(json!({"tool_name": "x"}))["tool_input"], json!({}));
        assert_eq!(with(json!({"tool_name": "x", "tool_input": null}))["tool_input"], json!({}));
        assert_eq!(with(json!({"tool_name": "x", "tool_input": [1]}))["tool_input"], json!({"input": [1]}));
    }

    #[test]
    fn a_failure_names_the_error_type_once_and_is_not_an_interrupt_unless_said() {
        let f = |t: Value| {
            build(
                json!({"event": "PostToolUseFailure", "session_id": "s", "cwd": "/", "tool_name": "x"})
                    .as_object()
                    .unwrap()
                    .clone()
                    .into_iter()
                    .chain(t.as_object().unwrap().clone())
                    .collect::<Map<_, _>>()
                    .into(),
            )
            .unwrap()
        };
        let e = f(json!({"error": "boom", "error_type": "ValueError"}));
        assert_eq!((e["error"].as_str(), &e["is_interrupt"]), (Some("ValueError: boom"), &json!(false)));
        assert_eq!(f(json!({"error": "boom"}))["error"], "boom");
        assert_eq!(f(json!({"error": "", "error_type": "Timeout"}))["error"], "Timeout");
        assert_eq!(f(json!({"error": "x", "is_interrupt": true}))["is_interrupt"], true);
    }

    #[test]
    fn post_tool_use_always_carries_a_response_even_null() {
        let e =
            build(json!({"event": "PostToolUse", "session_id": "s", "cwd": "/", "tool_name": "x"})).unwrap();
        assert_eq!(e.get("tool_response"), Some(&Value::Null));
    }

    #[test]
    fn session_events_default_their_matcher_field() {
        let e = build(json!({"event": "SessionStart", "session_id": "s", "cwd": "/"})).unwrap();
        assert_eq!(e["source"], "startup");
        let e =
            build(json!({"event": "SessionEnd", "session_id": "s", "cwd": "/", "reason": "clear"})).unwrap();
        assert_eq!(e["reason"], "clear");
    }

    #[test]
    fn extra_fields_pass_through_but_never_overwrite_the_rule() {
        let e = build(json!({"event": "PermissionRequest", "session_id": "s", "cwd": "/", "tool_name": "bash",
                             "tool_names": {"bash": "Bash"},
                             "fields": {"permission_suggestions": [], "tool_name": "Evil", "hook_event_name": "Stop"}}))
        .unwrap();
        assert_eq!(e["tool_name"], "Bash");
        assert_eq!(e["hook_event_name"], "PermissionRequest");
        assert_eq!(e["permission_suggestions"], json!([]));
    }

    #[test]
    fn missing_or_unknown_facts_are_invalid_event_errors_with_a_pointer() {
        let err = |f: Value| build(f).unwrap_err().details();
        let d = err(json!({"event": "PreToolUse", "session_id": "s", "cwd": "/"}));
        assert_eq!((d.kind.as_str(), d.pointer.as_deref()), ("invalid_event", Some("/tool_name")));
        let d = err(json!({"event": "UserPromptSubmit", "session_id": "s", "cwd": "/"}));
        assert_eq!(d.pointer.as_deref(), Some("/prompt"));
        let d = err(json!({"event": "PostToolUseFailure", "session_id": "s", "cwd": "/", "tool_name": "x"}));
        assert_eq!(d.pointer.as_deref(), Some("/error"));
        let d = err(json!({"event": "Nope", "session_id": "s", "cwd": "/"}));
        assert_eq!(d.pointer.as_deref(), Some("/event"));
        let d = err(json!({"event": "Stop", "session_id": "s", "cwd": "/", "tool_nmae": "x"}));
        assert!(d.message.contains("tool_nmae"), "{}", d.message);
        let d = err(json!({"event": "Stop", "session_id": 1, "cwd": "/"}));
        assert_eq!(d.kind.as_str(), "invalid_event");
        assert_eq!(HostFacts::event_of_json("[").unwrap_err().details().kind.as_str(), "invalid_json");
    }

    #[test]
    fn a_built_event_fires() {
        let d = crate::Dispatcher::new(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}}"#,
        )
        .unwrap();
        let event = HostFacts::event_of_json(
            r#"{"event":"PreToolUse","session_id":"s","cwd":"/","tool_name":"bash","tool_names":{"bash":"Bash"},"tool_input":{"command":"ls"}}"#,
        )
        .unwrap();
        let result: Value = serde_json::from_str(&d.fire_json(&event).unwrap()).unwrap();
        assert_eq!(result["decision"], "deny");
    }
}
