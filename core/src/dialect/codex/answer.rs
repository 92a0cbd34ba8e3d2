//! A result in Codex's own answer form, for the bridge (`bridge.rs`; agents.md §2.3): one JSON
//! object on stdout and exit 0, holding only what Codex accepts on the event, since one
//! field it does not support rejects the whole output and the hook then fails open. So:
//! - PreToolUse: a deny always carries a reason (a deny without one is rejected); `ask` and
//!   `continue: false` (both rejected) become a deny; an allow is said only with a rewrite
//!   (an allow alone is rejected), and on `Bash` Codex takes only `command` from it;
//!   `suppressOutput` is rejected and dropped.
//! - PermissionRequest: `decision.behavior`; a rewrite cannot be carried, so an allow with one
//!   becomes no decision (Codex asks as it would without the hook).
//! - Stop and SubagentStop take no `hookSpecificOutput`: their context is dropped.
//! - The bridge's own failure is exit 1 (`exit 1` is an error to Codex: nothing is delivered
//!   and the tool runs).

use crate::dialect::answering::{Answer, Answering, Losses, block_reason, blocks};
use crate::result::FireResult;
use crate::verdict::Decision;
use serde_json::{Map, Value, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Codex") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let mut out = Map::new();
    let mut hso = Map::new();
    hso.insert("hookEventName".into(), json!(native));
    let permission = matches!(native, "PreToolUse" | "PermissionRequest");
    match native {
        "PreToolUse" => pre_tool_use(a, r, &mut hso, &mut l),
        "PermissionRequest" => permission_request(r, &mut hso, &mut l),
        "PostToolUse" | "UserPromptSubmit" | "Stop" | "SubagentStop" => {
            if blocks(r) {
                out.insert("decision".into(), json!("block"));
                out.insert("reason".into(), json!(block_reason(r)));
            } else if r.decision.is_some() {
                l.lose(native, "an allow or ask", "no decision");
            }
            if r.updated_input.is_some() {
                l.lose(native, "a rewritten input", "dropped");
            }
        }
        _ => {
            if r.decision.is_some() {
                l.lose(native, "a decision", "dropped");
            }
        }
    }
    if let Some(c) = &r.additional_context {
        if matches!(native, "PreToolUse" | "PostToolUse" | "UserPromptSubmit" | "SessionStart") {
            hso.insert("additionalContext".into(), json!(c));
        } else {
            l.lose(native, "added context", "dropped");
        }
    }
    if let Some(o) = &r.updated_tool_output {
        if native == "PostToolUse" {
            hso.insert("updatedToolOutput".into(), o.clone());
        } else {
            l.lose(native, "a rewritten tool output", "dropped");
        }
    }
    l.unread(native, r, &[]);
    if !r.continue_ && !permission {
        out.insert("continue".into(), json!(false));
        if let Some(s) = &r.stop_reason {
            out.insert("stopReason".into(), json!(s));
        }
    }
    if let Some(m) = &r.system_message {
        out.insert("systemMessage".into(), json!(m));
    }
    if r.suppress_output {
        if matches!(native, "PreToolUse" | "PermissionRequest" | "PostToolUse") {
            l.lose(native, "suppressOutput", "dropped (the output is shown)");
        } else {
            out.insert("suppressOutput".into(), json!(true));
        }
    }
    let known = matches!(
        native,
        "PreToolUse" | "PermissionRequest" | "PostToolUse" | "UserPromptSubmit" | "SessionStart"
    );
    if hso.len() > 1 && known {
        out.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    Answer::json(out, l.into_lines())
}

/// PreToolUse: deny (with a reason), or allow with a rewrite; nothing else decides.
fn pre_tool_use(a: &Answering<'_>, r: &FireResult, hso: &mut Map<String, Value>, l: &mut Losses) {
    let ev = "PreToolUse";
    let deny = |hso: &mut Map<String, Value>, reason: String| {
        hso.insert("permissionDecision".into(), json!("deny"));
        hso.insert("permissionDecisionReason".into(), json!(reason));
    };
    if blocks(r) {
        return deny(hso, block_reason(r));
    }
    if !r.continue_ {
        l.lose(ev, "`continue: false`", "the tool call is denied instead (the agent goes on)");
        let why = r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".to_string());
        return deny(hso, why);
    }
    match r.decision {
        Some(Decision::Ask) => {
            l.lose(ev, "ask", "denied instead (Codex has no ask)");
            let why = r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".to_string());
            deny(hso, why);
        }
        Some(Decision::Defer) => l.lose(ev, "defer", "no decision (the same: Codex's own approval applies)"),
        _ => match &r.updated_input {
            Some(u) => {
                if a.event.get("tool_name").and_then(Value::as_str) == Some("Bash") {
                    let before = a.tool_input().cloned().unwrap_or_default();
                    let others_changed = u
                        .as_object()
                        .is_some_and(|m| m.iter().any(|(k, v)| k != "command" && before.get(k) != Some(v)))
                        || before.keys().any(|k| k != "command" && u.get(k).is_none());
                    if others_changed {
                        l.lose(
                            ev,
                            "a rewrite of Bash arguments other than `command`",
                            "only `command` is rewritten",
                        );
                    }
                }
                hso.insert("permissionDecision".into(), json!("allow"));
                hso.insert("updatedInput".into(), u.clone());
            }
            None if r.decision == Some(Decision::Allow) => l.lose(
                ev,
                "an allow without a rewrite",
                "no decision: the tool goes through Codex's own approval",
            ),
            None => {}
        },
    }
}

/// PermissionRequest: `decision.behavior`; no rewrite, no stop.
fn permission_request(r: &FireResult, hso: &mut Map<String, Value>, l: &mut Losses) {
    let ev = "PermissionRequest";
    let behavior = |b: &str, message: Option<String>| {
        let mut d = Map::new();
        d.insert("behavior".into(), json!(b));
        if let Some(m) = message {
            d.insert("message".into(), json!(m));
        }
        Value::Object(d)
    };
    if blocks(r) {
        hso.insert("decision".into(), behavior("deny", Some(block_reason(r))));
    } else if !r.continue_ {
        l.lose(ev, "`continue: false`", "the permission is denied instead");
        hso.insert("decision".into(), behavior("deny", r.stop_reason.clone()));
    } else if r.decision == Some(Decision::Allow) {
        if r.updated_input.is_some() {
            l.lose(ev, "a rewritten input", "no decision: Codex asks the user about the original input");
        } else {
            hso.insert("decision".into(), behavior("allow", None));
        }
    } else if r.decision.is_some() {
        l.lose(ev, "ask or defer", "no decision: Codex asks the user");
    }
}
