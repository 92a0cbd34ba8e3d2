//! What a hook of this dialect is given: the bytes on its stdin and its own variables.

use crate::config::Handler;
use crate::dialect::FireEvent;
use serde_json::Value;

pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    let field = |k: &str| ev.original.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    vec![
        ("JCODE_SESSION_ID".into(), field("session_id")),
        ("JCODE_TOOL_NAME".into(), field("tool_name")),
        ("JCODE_CWD".into(), field("cwd")),
        ("JCODE_TRANSCRIPT_PATH".into(), field("transcript_path")),
        ("JCODE_HOOK_EVENT".into(), h.native.clone()),
    ]
}
