//! A VS Code hook's answer (agents-2.md §2.2): Claude Code's, except that Stop's
//! `decision: "block"` and its `reason` sit inside `hookSpecificOutput` (SubagentStop's at the
//! top, as Claude Code's). The most restrictive answer wins: Claude Code's fold.

use crate::config::Handler;
use crate::dialect::claude_code::ClaudeCodeRules;
use crate::dialect::{DialectRules, Finished, FireEvent, Step};
use crate::runner::Text;
use serde_json::Value;

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let lifted = (ev.spec.name == "Stop").then(|| stop_block_lifted(f.stdout)).flatten();
    match &lifted {
        Some(stdout) => ClaudeCodeRules.read(h, ev, &Finished { stdout, ..*f }),
        None => ClaudeCodeRules.read(h, ev, f),
    }
}

/// Stop's answer with `hookSpecificOutput.decision` and `.reason` moved to the top, where
/// Claude Code's reading looks; `None` when there is nothing to move.
fn stop_block_lifted(stdout: &Text) -> Option<Text> {
    if stdout.truncated {
        return None;
    }
    let mut v = crate::json::from_output(stdout.text.trim()).ok()?;
    let obj = v.as_object_mut()?;
    let hso = obj.get_mut("hookSpecificOutput")?.as_object_mut()?;
    let decision = hso.shift_remove("decision")?;
    let reason = hso.shift_remove("reason");
    obj.insert("decision".into(), decision);
    if let Some(r) = reason {
        obj.insert("reason".into(), r);
    }
    Some(Text { text: Value::Object(obj.clone()).to_string(), ..stdout.clone() })
}
