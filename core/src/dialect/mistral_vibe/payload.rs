//! What a Vibe hook reads on stdin (observed, key order included), one line of JSON in Python's
//! `json.dumps` spelling (`", "` and `": "` separators; non-ASCII escaped as `\uXXXX`, as
//! `json.dumps` does by default: unverified, no recording had non-ASCII input):
//!
//! - `pre_tool`: `session_id, transcript_path, cwd, parent_session_id, hook_event_name,
//!   tool_name, tool_call_id, tool_input`;
//! - `post_tool`: the same, then `tool_status` (`success`/`failure`), `tool_output` (an object
//!   or null), `tool_output_text`, `tool_error`, `duration_ms`;
//! - `post_agent`: `session_id, transcript_path, cwd, parent_session_id, hook_event_name,
//!   agent_name`.
//!
//! `hook_event_name` is Vibe's own name (`pre_tool`); `tool_name` is namespaced
//! (`file_system.bash` for Claude Code's `Bash`, `tools.rs`); `tool_input` is the event's, as
//! rewritten by earlier hooks of the chain. No `stop_hook_active`: a retry looks like a first
//! stop (observed). A host that is Vibe fires its own stdin (`native.rs`): a hook of that event
//! gets the host's text as it is, unless an earlier hook rewrote the tool input. Unverified, chosen: `parent_session_id` is the event's or null,
//! `agent_name` the event's `agent_name` or `agent_type` or `default`, `tool_output_text` the
//! tool response's text (a string as it is, an object as `key: value` lines), `duration_ms` the
//! event's or 0. Vibe normalises the input (fills defaults, renames keys); hookwire passes the
//! host's input as it is.

use super::tools;
use crate::catalog::Dialect;
use crate::dialect::FireEvent;
use serde_json::{Map, Value, json};

pub(super) fn payload(native: &str, ev: &FireEvent<'_>) -> Vec<u8> {
    if let Some(fired) = ev.native.filter(|n| n.dialect == Dialect::MistralVibe)
        && fired.get("hook_event_name").and_then(Value::as_str) == Some(native)
        && ev.current.get("tool_input") == ev.original.get("tool_input")
    {
        // Vibe's own stdin carries its event name: the host's text as it is.
        return fired.payload(true);
    }
    let e = ev.current;
    let get = |k: &str| e.get(k).cloned().unwrap_or(Value::Null);
    let text = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut m = Map::new();
    m.insert("session_id".into(), json!(text("session_id")));
    m.insert("transcript_path".into(), get("transcript_path"));
    m.insert("cwd".into(), json!(text("cwd")));
    m.insert("parent_session_id".into(), get("parent_session_id"));
    m.insert("hook_event_name".into(), json!(native));
    if native == "post_agent" {
        let agent = ["agent_name", "agent_type"].iter().find_map(|k| e.get(*k).and_then(Value::as_str));
        m.insert("agent_name".into(), json!(agent.unwrap_or("default")));
        return python_json(&Value::Object(m));
    }
    m.insert("tool_name".into(), json!(tools::namespaced(&text("tool_name"))));
    m.insert("tool_call_id".into(), json!(text("tool_use_id")));
    m.insert("tool_input".into(), e.get("tool_input").cloned().unwrap_or_else(|| json!({})));
    if native == "post_tool" {
        let failed = ev.spec.name == "PostToolUseFailure";
        let (output, text_out, error) = if failed {
            (Value::Null, text("error"), json!(text("error")))
        } else {
            let out = get("tool_response");
            let rendered = render(&out);
            let object = if out.is_object() { out } else { Value::Null };
            (object, rendered, Value::Null)
        };
        m.insert("tool_status".into(), json!(if failed { "failure" } else { "success" }));
        m.insert("tool_output".into(), output);
        m.insert("tool_output_text".into(), json!(text_out));
        m.insert("tool_error".into(), error);
        m.insert(
            "duration_ms".into(),
            e.get("duration_ms").filter(|v| v.is_number()).cloned().unwrap_or(json!(0)),
        );
    }
    python_json(&Value::Object(m))
}

/// Vibe's `key: value` rendering of a tool's result (observed for bash); a string as it is.
fn render(out: &Value) -> String {
    match out {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Object(o) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}: {s}"),
                Value::Bool(b) => format!("{k}: {}", if *b { "True" } else { "False" }),
                other => format!("{k}: {other}"),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

/// `json.dumps(v)` as Python writes it: `", "` and `": "` separators, non-ASCII escaped.
pub(super) fn python_json(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonFormatter);
    let _ = serde::Serialize::serialize(v, &mut ser);
    out
}

struct PythonFormatter;

impl serde_json::ser::Formatter for PythonFormatter {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        for c in fragment.chars() {
            if c.is_ascii() {
                w.write_all(&[c as u8])?;
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(w, "\\u{u:04x}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pythons_separators_and_ascii_escapes() {
        let v = json!({"a": [1, "é😀"], "b": {"c": null}});
        assert_eq!(
            String::from_utf8(python_json(&v)).unwrap(),
            r#"{"a": [1, "\u00e9\ud83d\ude00"], "b": {"c": null}}"#
        );
    }
}
