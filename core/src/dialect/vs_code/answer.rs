//! A result in VS Code's own answer form, for the bridge (`bridge.rs`; agents-2.md §2.2):
//! Claude Code's answer (VS Code reads Claude Code's keys), with two differences: Stop's
//! `decision: "block"` and `reason` go inside `hookSpecificOutput` (where VS Code reads them),
//! and a rewritten tool input carries VS Code's argument names (`filePath`), since the
//! canonical event the hooks saw had Claude Code's. What Claude Code's form cannot carry on
//! the event is lost as there. The bridge's own failure is exit 1, a non-blocking error.

use super::tools::KEYS;
use crate::dialect::answering::{Answer, Answering};
use crate::dialect::claude_code::answer::answer_as;
use serde_json::{Map, Value};

pub fn answer(a: &Answering<'_>) -> Answer {
    let mut ans = answer_as("VS Code", a);
    if ans.stdout.is_empty() {
        return ans;
    }
    let Ok(Value::Object(mut out)) = serde_json::from_slice::<Value>(&ans.stdout) else { return ans };
    if a.native == "Stop"
        && let Some(decision) = out.shift_remove("decision")
    {
        let reason = out.shift_remove("reason");
        let hso =
            out.entry("hookSpecificOutput").or_insert_with(|| serde_json::json!({"hookEventName": "Stop"}));
        if let Some(h) = hso.as_object_mut() {
            h.insert("decision".into(), decision);
            if let Some(r) = reason {
                h.insert("reason".into(), r);
            }
        }
    }
    if let Some(Value::Object(input)) =
        out.get_mut("hookSpecificOutput").and_then(|h| h.get_mut("updatedInput"))
    {
        let renamed: Map<String, Value> = std::mem::take(input)
            .into_iter()
            .map(|(k, v)| match KEYS.iter().find(|(_, cc)| *cc == k) {
                Some((vs, _)) => ((*vs).to_string(), v),
                None => (k, v),
            })
            .collect();
        *input = renamed;
    }
    ans.stdout = serde_json::to_vec(&Value::Object(out)).unwrap_or_default();
    ans
}
