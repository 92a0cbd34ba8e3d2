//! A result in Gemini CLI's own answer form, for the bridge (`bridge.rs`; agents.md §3.3): one
//! JSON object on stdout and exit 0 (Gemini reads JSON whatever the exit code). Top-level
//! `decision` and `reason`, `continue`/`stopReason`, `systemMessage`, `suppressOutput`;
//! `hookSpecificOutput.tool_input` for a rewrite on BeforeTool and `additionalContext` where
//! Gemini honours it (AfterTool, BeforeAgent, SessionStart). What it cannot carry:
//! - `ask` on BeforeTool becomes a deny: Gemini reads `ask`, but Gemini CLI 0.61.0 hangs on it
//!   in a headless run [o], and the bridge cannot tell whether anyone is there to answer **[u]**;
//! - a rewrite is merged over the input by Gemini: a key the hook removed stays (a loss);
//! - context on BeforeTool and AfterAgent is delivered nowhere [o]: dropped;
//! - the bridge's own failure is exit 1 (an error to Gemini: a warning, the tool runs).

use crate::dialect::answering::{Answer, Answering, Part, block_reason, blocks};
use crate::verdict::Decision;
use serde_json::{Map, Value, json};

pub fn answer(a: &Answering<'_>) -> Answer {
    let (r, mut l) = match a.begin("Gemini CLI") {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let mut out = Map::new();
    let mut hso = Map::new();
    hso.insert("hookEventName".into(), json!(native));
    let decides = matches!(native, "BeforeTool" | "AfterTool" | "BeforeAgent" | "AfterAgent" | "BeforeModel");
    match r.decision {
        None => {}
        Some(_) if blocks(r) && decides => {
            let word = if native == "BeforeTool" { "deny" } else { "block" };
            out.insert("decision".into(), json!(word));
            out.insert("reason".into(), json!(block_reason(r)));
        }
        Some(Decision::Ask) if native == "BeforeTool" => {
            l.lose(native, "ask", "denied instead (a headless Gemini CLI hangs on ask)");
            out.insert("decision".into(), json!("deny"));
            let why = r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".to_string());
            out.insert("reason".into(), json!(why));
        }
        Some(Decision::Allow) if native == "BeforeTool" => {
            out.insert("decision".into(), json!("allow"));
            if let Some(why) = &r.reason {
                out.insert("reason".into(), json!(why));
            }
        }
        Some(Decision::Defer) if native == "BeforeTool" => {
            l.lose(native, "defer", "no decision (the same: Gemini's own approval applies)")
        }
        Some(_) => l.lose(native, "a decision", "dropped"),
    }
    if let Some(u) = r.updated_input.as_ref().filter(|_| !blocks(r)) {
        match (native, u.as_object()) {
            ("BeforeTool", Some(m)) => {
                let before = a.tool_input().cloned().unwrap_or_default();
                if before.keys().any(|k| !m.contains_key(k)) {
                    l.lose(
                        native,
                        "removing a tool argument",
                        "the rewrite is merged over the input, so removed arguments stay",
                    );
                }
                hso.insert("tool_input".into(), u.clone());
            }
            _ => l.lose(native, "a rewritten input", "dropped"),
        }
    }
    if let Some(c) = &r.additional_context {
        if matches!(native, "AfterTool" | "BeforeAgent" | "SessionStart") {
            hso.insert("additionalContext".into(), json!(c));
        } else {
            l.lose(native, "added context", "dropped (Gemini CLI delivers it nowhere here)");
        }
    }
    l.unread(native, r, &[Part::ToolOutput]);
    if !r.continue_ {
        out.insert("continue".into(), json!(false));
        if let Some(s) = &r.stop_reason {
            out.insert("stopReason".into(), json!(s));
        }
    }
    if let Some(m) = &r.system_message {
        out.insert("systemMessage".into(), json!(m));
    }
    if r.suppress_output {
        out.insert("suppressOutput".into(), json!(true));
    }
    if hso.len() > 1 {
        out.insert("hookSpecificOutput".into(), Value::Object(hso));
    }
    Answer::json(out, l.into_lines())
}
