//! What a Copilot hook is given (observed, `docs/dialects.md`, "copilot-cli"): on stdin, compact JSON in
//! the style of the event name it was configured under, and Copilot's variables.
//!
//! - camelCase: `sessionId`, `timestamp` (epoch milliseconds), `cwd`, then the event's own
//!   keys in Copilot's order (`toolName`, `toolArgs` on preToolUse), no event name. When the
//!   host fired this very payload ([`FireEvent::native`]) the hook gets it as the host gave it,
//!   with the arguments an earlier hook rewrote.
//! - PascalCase: `hook_event_name`, `session_id`, `timestamp` (ISO 8601), `cwd`, then Claude
//!   Code's keys with Claude Code's tool names; a PascalCase `PermissionRequest` gets the
//!   camelCase payload (observed).

use super::tools::copilot_name;
use super::{CopilotKnobs, Style};
use crate::catalog::Dialect;
use crate::config::Handler;
use crate::dialect::time::{epoch_millis, timestamp};
use crate::dialect::{FireEvent, text_or_json};
use serde_json::{Map, Value, json};

/// The Claude Code keys every event carries, which a payload writes under its own names.
const COMMON: &[&str] = &[
    "hook_event_name",
    "session_id",
    "cwd",
    "transcript_path",
    "permission_mode",
    "tool_use_id",
    "timestamp",
];

pub fn payload(h: &Handler, style: Style, ev: &FireEvent<'_>) -> Vec<u8> {
    let m = match style {
        _ if h.native == "permissionRequest" || h.native == "PermissionRequest" => camel(h, ev),
        Style::Camel => camel(h, ev),
        Style::Pascal => pascal(h, ev),
    };
    serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
}

/// Copilot's variables (observed): `COPILOT_PROJECT_DIR`, `COPILOT_HOOK_DIR` for a hooks
/// file's hooks, `COPILOT_CLI`, the git settings Copilot hands every hook, then the entry's
/// `env`. (`CLAUDE_PROJECT_DIR` comes from the profile.)
pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let mut v = vec![
        ("COPILOT_PROJECT_DIR".to_string(), ev.project_dir.to_string()),
        ("COPILOT_CLI".to_string(), "1".to_string()),
        ("GIT_CONFIG_COUNT".to_string(), "1".to_string()),
        ("GIT_CONFIG_KEY_0".to_string(), "safe.bareRepository".to_string()),
        ("GIT_CONFIG_VALUE_0".to_string(), "explicit".to_string()),
    ];
    if let Some(k) = h.knobs.get::<CopilotKnobs>() {
        if let Some(dir) = &k.hook_dir {
            v.push(("COPILOT_HOOK_DIR".to_string(), dir.clone()));
        }
        v.extend(k.env.iter().cloned());
    }
    v
}

/// The camelCase payload of handler `h`'s event.
fn camel(h: &Handler, ev: &FireEvent<'_>) -> Map<String, Value> {
    let e = ev.current;
    let input_key = if h.native.eq_ignore_ascii_case("permissionRequest") { "toolInput" } else { "toolArgs" };
    if let Some(n) = ev.native.filter(|n| n.dialect == Dialect::CopilotCli)
        && n.get("hook_event_name").and_then(Value::as_str) == Some(h.native.as_str())
        && let Some(obj) = n.event.as_object()
    {
        let mut m = obj.clone();
        m.shift_remove("hook_event_name");
        if e.get("tool_input") != ev.original.get("tool_input")
            && let Some(input) = e.get("tool_input")
        {
            m.insert(input_key.to_string(), input.clone());
        }
        return m;
    }
    let mut m = Map::new();
    let get = |k: &str| e.get(k).cloned();
    let string = |k: &str| get(k).unwrap_or(Value::String(String::new()));
    if input_key == "toolInput" {
        m.insert("hookName".into(), json!("permissionRequest"));
    }
    m.insert("sessionId".into(), string("session_id"));
    let stamp =
        e.get("timestamp").filter(|t| t.is_u64()).cloned().unwrap_or_else(|| json!(epoch_millis(ev.at)));
    m.insert("timestamp".into(), stamp);
    m.insert("cwd".into(), string("cwd"));
    let tool = || Value::String(copilot_name(crate::matcher::tool_name(e)).to_string());
    let args = || get("tool_input").unwrap_or_else(|| json!({}));
    match h.native.as_str() {
        "sessionStart" => {
            let source = match e.get("source").and_then(Value::as_str) {
                None | Some("startup") => "new",
                Some(s) => s,
            };
            m.insert("source".into(), json!(source));
            if let Some(p) = get("initialPrompt").or_else(|| get("initial_prompt")) {
                m.insert("initialPrompt".into(), p);
            }
        }
        "userPromptSubmitted" => {
            m.insert("prompt".into(), string("prompt"));
        }
        "userPromptTransformed" => {
            m.insert("prompt".into(), string("prompt"));
            m.insert(
                "transformedPrompt".into(),
                get("transformedPrompt").unwrap_or_else(|| string("prompt")),
            );
        }
        "preToolUse" => {
            m.insert("toolName".into(), tool());
            m.insert("toolArgs".into(), args());
        }
        "permissionRequest" | "PermissionRequest" => {
            m.insert("toolName".into(), tool());
            // Copilot leaves the model's `description` out of a permission request (observed).
            let mut input = args();
            if let Some(o) = input.as_object_mut() {
                o.shift_remove("description");
            }
            m.insert("toolInput".into(), input);
            m.insert(
                "permissionSuggestions".into(),
                get("permission_suggestions").unwrap_or_else(|| json!([])),
            );
        }
        "postToolUse" => {
            m.insert("toolName".into(), tool());
            m.insert("toolArgs".into(), args());
            m.insert(
                "toolResult".into(),
                tool_result(e.get("tool_response"), "resultType", "textResultForLlm"),
            );
        }
        "postToolUseFailure" => {
            m.insert("toolName".into(), tool());
            m.insert("toolArgs".into(), args());
            m.insert("error".into(), string("error"));
        }
        "notification" => {
            m.insert("message".into(), string("message"));
            m.insert("title".into(), string("title"));
            m.insert("hook_event_name".into(), json!("Notification"));
            m.insert("notification_type".into(), string("notification_type"));
        }
        "agentStop" | "subagentStop" => {
            m.insert("transcriptPath".into(), string("transcript_path"));
            m.insert("stopReason".into(), get("stopReason").unwrap_or_else(|| json!("end_turn")));
            // snake_case even in Copilot's camelCase payload (observed).
            m.insert("stop_hook_active".into(), get("stop_hook_active").unwrap_or(json!(false)));
        }
        "sessionEnd" => {
            let reason = match e.get("reason").and_then(Value::as_str) {
                None | Some("other") => "complete",
                Some(r) => r,
            };
            m.insert("reason".into(), json!(reason));
        }
        _ => rest(e, &mut m),
    }
    m
}

/// The PascalCase payload: Claude Code's keys with an ISO `timestamp` (observed).
fn pascal(h: &Handler, ev: &FireEvent<'_>) -> Map<String, Value> {
    let e = ev.current;
    let get = |k: &str| e.get(k).cloned();
    let string = |k: &str| get(k).unwrap_or(Value::String(String::new()));
    let mut m = Map::new();
    m.insert("hook_event_name".into(), json!(h.native));
    m.insert("session_id".into(), string("session_id"));
    let stamp =
        e.get("timestamp").filter(|t| t.is_string()).cloned().unwrap_or_else(|| json!(timestamp(ev.at)));
    m.insert("timestamp".into(), stamp);
    m.insert("cwd".into(), string("cwd"));
    match h.native.as_str() {
        "SessionStart" => {
            m.insert("source".into(), string("source"));
            if let Some(p) = get("initial_prompt").or_else(|| get("initialPrompt")) {
                m.insert("initial_prompt".into(), p);
            }
        }
        "UserPromptSubmit" => {
            m.insert("prompt".into(), string("prompt"));
        }
        "PreToolUse" => {
            m.insert("tool_name".into(), string("tool_name"));
            m.insert("tool_input".into(), get("tool_input").unwrap_or_else(|| json!({})));
        }
        "PostToolUse" => {
            m.insert("tool_name".into(), string("tool_name"));
            m.insert("tool_input".into(), get("tool_input").unwrap_or_else(|| json!({})));
            let result = tool_result(e.get("tool_response"), "result_type", "text_result_for_llm");
            m.insert("tool_result".into(), result);
        }
        "Stop" | "SubagentStop" => {
            m.insert("transcript_path".into(), string("transcript_path"));
            m.insert("stop_reason".into(), get("stop_reason").unwrap_or_else(|| json!("end_turn")));
            m.insert("stop_hook_active".into(), get("stop_hook_active").unwrap_or(json!(false)));
        }
        "SessionEnd" => {
            m.insert("reason".into(), string("reason"));
        }
        _ => rest(e, &mut m),
    }
    m
}

/// A tool's result as Copilot writes it: `{resultType, textResultForLlm}` (or its snake_case
/// spelling); a result already in that shape is kept.
fn tool_result(response: Option<&Value>, ty: &str, text: &str) -> Value {
    match response {
        Some(Value::Object(o)) if o.contains_key(ty) => Value::Object(o.clone()),
        Some(v) => json!({ty: "success", text: text_or_json(v)}),
        None => json!({ty: "success", text: ""}),
    }
}

/// An event whose payload was not recorded: the event's own keys after the common ones.
fn rest(e: &Value, m: &mut Map<String, Value>) {
    for (k, v) in e.as_object().into_iter().flatten() {
        if !COMMON.contains(&k.as_str()) && !m.contains_key(k) {
            m.insert(k.clone(), v.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Dialect, lookup, spec};
    use crate::config::{CommandSpec, Handler, Knobs};
    use crate::dialect::NativeFire;

    fn handler(native: &str) -> Handler {
        let c = CommandSpec::Shell { script: "x".into(), shell: crate::catalog::Shell::Sh };
        let mut h = Handler::command("user:x[0]".into(), 0, c, Dialect::CopilotCli, native);
        h.knobs = Knobs::new(CopilotKnobs { style: Style::of(native), hook_dir: None, env: Vec::new() });
        h
    }

    fn text(h: &Handler, ev: &FireEvent<'_>) -> String {
        String::from_utf8(payload(h, Style::of(&h.native), ev)).unwrap()
    }

    #[test]
    fn a_canonical_fire_gives_a_camel_case_hook_copilots_keys_and_tool_names() {
        let e = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/p", "tool_name": "Bash",
                       "tool_input": {"command": "ls"}, "timestamp": 5});
        let ev = FireEvent::plain(spec(lookup("PreToolUse").unwrap()), &e);
        assert_eq!(
            text(&handler("preToolUse"), &ev),
            r#"{"sessionId":"s","timestamp":5,"cwd":"/p","toolName":"bash","toolArgs":{"command":"ls"}}"#
        );
    }

    #[test]
    fn a_pascal_case_hook_gets_claude_codes_keys_with_an_iso_timestamp() {
        let e = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/p", "tool_name": "Bash",
                       "tool_input": {"command": "ls"}});
        let ev = FireEvent::plain(spec(lookup("PreToolUse").unwrap()), &e);
        let v: Value = serde_json::from_str(&text(&handler("PreToolUse"), &ev)).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["hook_event_name", "session_id", "timestamp", "cwd", "tool_name", "tool_input"]);
        assert!(v["timestamp"].as_str().unwrap().ends_with('Z'));
        assert_eq!(v["tool_name"], "Bash");
    }

    #[test]
    fn the_hosts_own_payload_reaches_the_hook_without_the_added_name_and_with_rewritten_args() {
        let native = json!({"sessionId": "s", "hook_event_name": "preToolUse", "timestamp": 9, "cwd": "/p",
                            "toolName": "bash", "toolArgs": {"command": "ls", "description": "d"}});
        let canonical = super::super::native::canonical("preToolUse", &native).unwrap();
        let n = NativeFire { dialect: Dialect::CopilotCli, event: &native, raw: None };
        let ev = FireEvent {
            native: Some(n),
            ..FireEvent::plain(spec(lookup("PreToolUse").unwrap()), &canonical)
        };
        let h = handler("preToolUse");
        assert_eq!(
            text(&h, &ev),
            r#"{"sessionId":"s","timestamp":9,"cwd":"/p","toolName":"bash","toolArgs":{"command":"ls","description":"d"}}"#
        );
        let mut rewritten = canonical.clone();
        rewritten["tool_input"] = json!({"command": "pwd"});
        let ev = FireEvent { current: &rewritten, ..ev };
        assert!(text(&h, &ev).ends_with(r#""toolArgs":{"command":"pwd"}}"#));
    }
}
