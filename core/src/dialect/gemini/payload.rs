//! The bytes on a Gemini hook's stdin (agents.md §3.2): compact JSON, the common five keys
//! (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `timestamp`), then the event's
//! own keys, in that order and no others, no trailing newline. Fields come from the event as
//! rewritten by earlier hooks of a sequential fire; a native field already in the event is
//! used as is, anything else is derived from Claude Code's fields.

use super::tools::gemini_name;
use crate::config::Handler;
use crate::dialect::time::timestamp;
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value};

/// The payload of one hook.
pub(super) fn bytes(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    serde_json::to_vec(&Value::Object(object(h, ev))).unwrap_or_default()
}

fn object(h: &Handler, ev: &FireEvent<'_>) -> Map<String, Value> {
    let e = ev.current;
    let text = |k: &str| Value::String(e.get(k).and_then(Value::as_str).unwrap_or("").to_string());
    let as_is = |k: &str, default: Value| e.get(k).filter(|v| !v.is_null()).cloned().unwrap_or(default);
    let mut m = Map::new();
    m.insert("session_id".into(), text("session_id"));
    m.insert("transcript_path".into(), text("transcript_path"));
    m.insert("cwd".into(), text("cwd"));
    m.insert("hook_event_name".into(), Value::String(h.native.clone()));
    let stamp = e.get("timestamp").and_then(Value::as_str).map_or_else(|| timestamp(ev.at), str::to_string);
    m.insert("timestamp".into(), Value::String(stamp));
    let empty = || Value::Object(Map::new());
    match h.native.as_str() {
        "BeforeTool" | "AfterTool" => {
            let cc_name = e.get("tool_name").and_then(Value::as_str).unwrap_or("");
            m.insert("tool_name".into(), Value::String(gemini_name(cc_name).to_string()));
            m.insert("tool_input".into(), tool_input(cc_name, e.get("tool_input")));
            if h.native == "AfterTool" {
                let failure = ev.spec.name == "PostToolUseFailure";
                m.insert("tool_response".into(), tool_response(e, failure));
            }
            if let Some(mcp) = e.get("mcp_context").filter(|v| !v.is_null()) {
                m.insert("mcp_context".into(), mcp.clone());
            }
        }
        "BeforeAgent" => {
            m.insert("prompt".into(), text("prompt"));
        }
        "AfterAgent" => {
            m.insert("prompt".into(), text("prompt"));
            let response = match e.get("prompt_response").and_then(Value::as_str) {
                Some(r) => Value::String(r.to_string()),
                None => text("last_assistant_message"),
            };
            m.insert("prompt_response".into(), response);
            let active = e.get("stop_hook_active").and_then(Value::as_bool).unwrap_or(false);
            m.insert("stop_hook_active".into(), Value::Bool(active));
        }
        "SessionStart" => {
            m.insert("source".into(), text("source"));
        }
        "SessionEnd" => {
            m.insert("reason".into(), text("reason"));
        }
        "PreCompress" => {
            m.insert("trigger".into(), text("trigger"));
        }
        "Notification" => {
            m.insert("notification_type".into(), text("notification_type"));
            m.insert("message".into(), text("message"));
            m.insert("details".into(), as_is("details", empty()));
        }
        "BeforeModel" | "BeforeToolSelection" => {
            m.insert("llm_request".into(), as_is("llm_request", empty()));
        }
        "AfterModel" => {
            m.insert("llm_request".into(), as_is("llm_request", empty()));
            m.insert("llm_response".into(), as_is("llm_response", empty()));
        }
        _ => {}
    }
    m
}

/// A translated `Bash` call carries `command` then `description`, nothing else (the model's
/// arguments as Gemini sends them); any other tool's input passes as given.
fn tool_input(cc_name: &str, input: Option<&Value>) -> Value {
    let Some(input) = input.filter(|v| !v.is_null()) else { return Value::Object(Map::new()) };
    match (cc_name, input.as_object()) {
        ("Bash", Some(obj)) => {
            let mut out = Map::new();
            for key in ["command", "description"] {
                if let Some(v) = obj.get(key) {
                    out.insert(key.into(), v.clone());
                }
            }
            Value::Object(out)
        }
        _ => input.clone(),
    }
}

/// `{llmContent, returnDisplay}`: an object that already holds `llmContent` as given; else both
/// keys the same text T: the string as given, an object's `stdout` then its `stderr`, or the
/// compact JSON. On a failure fire, T is the event's `error`, also under a third key `error`.
fn tool_response(e: &Value, failure: bool) -> Value {
    let given = e.get("tool_response").filter(|v| !v.is_null());
    if let Some(r) = given.filter(|r| r.get("llmContent").is_some()) {
        return r.clone();
    }
    let t = if failure {
        e.get("error").filter(|v| !v.is_null()).map(text_or_json).unwrap_or_default()
    } else {
        match given {
            None => String::new(),
            Some(Value::Object(o)) if o.contains_key("stdout") || o.contains_key("stderr") => {
                let part = |k: &str| o.get(k).map(text_or_json).unwrap_or_default();
                let (out, err) = (part("stdout"), part("stderr"));
                match (out.is_empty(), err.is_empty()) {
                    (_, true) => out,
                    (true, false) => err,
                    (false, false) => format!("{out}\n{err}"),
                }
            }
            Some(v) => text_or_json(v),
        }
    };
    let mut m = Map::new();
    m.insert("llmContent".into(), Value::String(t.clone()));
    m.insert("returnDisplay".into(), Value::String(t.clone()));
    if failure {
        m.insert("error".into(), Value::String(t));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn timestamps_are_utc_iso_8601_with_milliseconds() {
        let at = |ms: u64| timestamp(UNIX_EPOCH + Duration::from_millis(ms));
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(1_795_485_127_226), "2026-11-24T01:52:07.226Z");
        assert_eq!(at(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(at(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
    }

    #[test]
    fn a_translated_bash_input_keeps_command_then_description_only() {
        let input =
            json!({"timeout": 5, "description": "d", "command": "touch a", "run_in_background": false});
        assert_eq!(
            serde_json::to_string(&tool_input("Bash", Some(&input))).unwrap(),
            r#"{"command":"touch a","description":"d"}"#
        );
        assert_eq!(tool_input("run_shell_command", Some(&input)), input);
        assert_eq!(tool_input("Read", None), json!({}));
    }

    #[test]
    fn tool_responses_are_shaped_for_gemini() {
        let r = |resp: Value| tool_response(&json!({"tool_response": resp}), false);
        assert_eq!(r(json!("ok")), json!({"llmContent": "ok", "returnDisplay": "ok"}));
        assert_eq!(
            r(json!({"stdout": "o", "stderr": "e"})),
            json!({"llmContent": "o\ne", "returnDisplay": "o\ne"})
        );
        assert_eq!(r(json!({"stdout": "o", "stderr": ""})), json!({"llmContent": "o", "returnDisplay": "o"}));
        assert_eq!(r(json!({"a": 1})), json!({"llmContent": "{\"a\":1}", "returnDisplay": "{\"a\":1}"}));
        let native = json!({"llmContent": [1], "returnDisplay": "x"});
        assert_eq!(r(native.clone()), native);
        let failed = tool_response(&json!({"error": "boom"}), true);
        assert_eq!(
            serde_json::to_string(&failed).unwrap(),
            r#"{"llmContent":"boom","returnDisplay":"boom","error":"boom"}"#
        );
    }
}
