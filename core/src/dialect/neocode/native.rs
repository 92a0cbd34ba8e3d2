//! neocode's own payload as the canonical event, for the bridge (`bridge.rs`; protocol.md §9.2
//! read backwards): `point` names it, `session_id` and `run_id` as given, and from `metadata`:
//! `workdir` → `cwd`, `prompt`, `tool_call_id` → `tool_use_id`, `tool_name` under Claude Code's
//! names **[u]** (neocode's own are not recorded: the bridge's table of common spellings
//! decides, and a name it does not know passes as is with a warning), and
//! `tool_arguments_preview` → `tool_input`. neocode never sends the arguments, only compact
//! JSON of them cut at 4,096 bytes: a preview that is whole JSON is the input; a cut one keeps
//! the members read whole and gives the rest placeholders that leave an `if` rule undecided,
//! so its hook runs (a guard errs toward running), with a warning.

use crate::dialect::tool_names;
use serde_json::{Value, json};

const KEYS: &[(&str, &str)] = &[("session_id", "session_id"), ("run_id", "run_id")];
const METADATA_KEYS: &[(&str, &str)] =
    &[("workdir", "cwd"), ("prompt", "prompt"), ("tool_call_id", "tool_use_id")];

pub fn canonical(name: &str, event: &Value) -> Option<Value> {
    let spec = super::PROFILE.canonical_spec(name)?;
    let meta = event.get("metadata").filter(|m| m.is_object()).cloned().unwrap_or_else(|| json!({}));
    let input = match meta.get("tool_arguments_preview") {
        Some(Value::String(s)) if !s.is_empty() => tool_names::object_from_prefix(
            s,
            "neocode sends a preview of the arguments cut at 4,096 bytes, never the arguments",
        )
        .unwrap_or_else(|cut| cut),
        _ => json!({}),
    };
    let tool = meta.get("tool_name").filter(|_| spec.tool_event).map(|n| (n, input));
    let mut c = tool_names::renamed(spec.name, event, KEYS, tool);
    if let Value::Object(m) = &mut c {
        for (own, cc) in METADATA_KEYS {
            if let Some(v) = meta.get(*own).filter(|v| !v.is_null()) {
                m.entry(cc.to_string()).or_insert_with(|| v.clone());
            }
        }
    }
    Some(c)
}
