//! neocode's `match` object (protocol.md §4.5): fields AND, list values OR.

use crate::catalog::EventSpec;
use crate::matcher::{GroupMatch, arguments_preview, describe_all, tool_name};
use regex::Regex;
use serde_json::Value;

#[derive(Debug, Clone, Default)]
pub struct NeoMatch {
    /// Lower-cased exact tool names.
    pub tool_names: Vec<String>,
    pub tool_regex: Option<Regex>,
    /// Lower-cased substrings of the arguments preview.
    pub args_contains: Vec<String>,
}

impl GroupMatch for NeoMatch {
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.tool_names.is_empty() {
            parts.push(format!("tool_name in [{}]", self.tool_names.join(", ")));
        }
        if let Some(r) = &self.tool_regex {
            parts.push(format!("tool_name =~ /{}/", r.as_str()));
        }
        if !self.args_contains.is_empty() {
            parts.push(format!("arguments contain [{}]", self.args_contains.join(", ")));
        }
        describe_all(parts)
    }

    fn matches(&self, _spec: &EventSpec, _value: &str, event: &Value) -> bool {
        let tool = tool_name(event);
        if !self.tool_names.is_empty() && !self.tool_names.contains(&tool.to_lowercase()) {
            return false;
        }
        if let Some(r) = &self.tool_regex
            && !r.is_match(tool)
        {
            return false;
        }
        if !self.args_contains.is_empty() {
            let preview = arguments_preview(event).to_lowercase();
            if !self.args_contains.iter().any(|s| preview.contains(s.as_str())) {
                return false;
            }
        }
        true
    }
}
