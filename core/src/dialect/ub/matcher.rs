//! ub's `tools` (protocol.md §9.5): exact tool names; empty matches every tool; ignored on
//! events that are not about a tool.

use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, is_tool_event, tool_name};
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct ToolsMatcher(pub Vec<String>);

impl GroupMatch for ToolsMatcher {
    fn describe(&self) -> String {
        if self.0.is_empty() { "*".into() } else { format!("tools [{}]", self.0.join(", ")) }
    }

    fn matches(&self, spec: &EventSpec, _value: &str, event: &Value) -> bool {
        self.0.is_empty() || !is_tool_event(spec) || self.0.iter().any(|n| n == tool_name(event))
    }
}
