//! Windsurf's twelve hook events as one typed list (agents-2.md §2.4), and what each of them
//! means: which kind of tool call it is about (Windsurf has no matchers: the event itself
//! selects the tool), whether exit 2 blocks there, and what its `tool_info` holds. The rest of
//! the dialect asks these methods instead of comparing names.

use super::tools::{self, Tool};
use crate::verdict::Decision;

/// One of Cascade's hook events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    PreReadCode,
    PostReadCode,
    PreWriteCode,
    PostWriteCode,
    PreRunCommand,
    PostRunCommand,
    PreMcpToolUse,
    PostMcpToolUse,
    PreUserPrompt,
    PostCascadeResponse,
    PostCascadeResponseWithTranscript,
    PostSetupWorktree,
}

const ALL: [(Kind, &str); 12] = [
    (Kind::PreReadCode, "pre_read_code"),
    (Kind::PostReadCode, "post_read_code"),
    (Kind::PreWriteCode, "pre_write_code"),
    (Kind::PostWriteCode, "post_write_code"),
    (Kind::PreRunCommand, "pre_run_command"),
    (Kind::PostRunCommand, "post_run_command"),
    (Kind::PreMcpToolUse, "pre_mcp_tool_use"),
    (Kind::PostMcpToolUse, "post_mcp_tool_use"),
    (Kind::PreUserPrompt, "pre_user_prompt"),
    (Kind::PostCascadeResponse, "post_cascade_response"),
    (Kind::PostCascadeResponseWithTranscript, "post_cascade_response_with_transcript"),
    (Kind::PostSetupWorktree, "post_setup_worktree"),
];

impl Kind {
    pub fn of(name: &str) -> Option<Kind> {
        ALL.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
    }

    pub fn name(self) -> &'static str {
        ALL.iter().find(|(k, _)| *k == self).map_or("", |(_, n)| n)
    }

    /// The kind of tool call the event is about; `None` for the prompt and response events.
    pub fn tool(self) -> Option<Tool> {
        match self {
            Kind::PreReadCode | Kind::PostReadCode => Some(Tool::Read),
            Kind::PreWriteCode | Kind::PostWriteCode => Some(Tool::Write),
            Kind::PreRunCommand | Kind::PostRunCommand => Some(Tool::Command),
            Kind::PreMcpToolUse | Kind::PostMcpToolUse => Some(Tool::Mcp),
            _ => None,
        }
    }

    /// Whether a fire for the tool `tool` (as the host names it) runs this event's hooks.
    /// Events that are not about a tool accept every fire of their canonical event.
    pub fn takes_tool(self, tool: &str) -> bool {
        self.tool().is_none_or(|t| tools::kind_of(tool) == Some(t))
    }

    /// What exit 2 does here: only the five `pre_*` hooks block (documented); a tool call is
    /// denied, a prompt blocked. `None`: exit 2 is an error like any other code.
    pub fn exit2_decision(self) -> Option<Decision> {
        match self {
            Kind::PreReadCode | Kind::PreWriteCode | Kind::PreRunCommand | Kind::PreMcpToolUse => {
                Some(Decision::Deny)
            }
            Kind::PreUserPrompt => Some(Decision::Block),
            _ => None,
        }
    }

    /// The event happens after the tool ran: its `tool_info` carries the result.
    pub fn after(self) -> bool {
        self.name().starts_with("post_")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_native_event_of_the_table_has_a_kind_and_back() {
        for e in super::super::EVENTS {
            let k = Kind::of(e.name).unwrap_or_else(|| panic!("{}", e.name));
            assert_eq!(k.name(), e.name);
            // The table's "can block" column and the kind agree: only the pre_ hooks.
            assert_eq!(k.exit2_decision().is_some(), e.can_block, "{}", e.name);
            assert_eq!(e.can_block, e.name.starts_with("pre_"), "{}", e.name);
        }
        assert_eq!(ALL.len(), super::super::EVENTS.len());
        assert_eq!(Kind::of("PreToolUse"), None);
    }

    #[test]
    fn the_event_itself_selects_the_tool() {
        assert!(Kind::PreRunCommand.takes_tool("Bash"));
        assert!(!Kind::PreRunCommand.takes_tool("Read"));
        assert!(Kind::PreReadCode.takes_tool("Read") && !Kind::PreReadCode.takes_tool("Grep"));
        for t in ["Edit", "Write", "MultiEdit"] {
            assert!(Kind::PreWriteCode.takes_tool(t) && Kind::PostWriteCode.takes_tool(t));
        }
        assert!(Kind::PreMcpToolUse.takes_tool("mcp__github__create_issue"));
        assert!(!Kind::PreMcpToolUse.takes_tool("Bash"));
        assert!(!Kind::PreRunCommand.takes_tool("WebFetch"));
        assert!(Kind::PreUserPrompt.takes_tool(""));
    }
}
