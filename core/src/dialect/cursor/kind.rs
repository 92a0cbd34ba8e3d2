//! Cursor's native events as one typed list, and what each of them means (agents.md §4.1, §4.3):
//! which tool calls it is about, what its matcher tests, what it can decide. The rest of the
//! dialect asks these methods instead of comparing names.

use super::tools;
use crate::verdict::Decision;

/// One of Cursor's hook events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    PreToolUse,
    BeforeShellExecution,
    BeforeMcpExecution,
    BeforeReadFile,
    PostToolUse,
    PostToolUseFailure,
    AfterShellExecution,
    AfterMcpExecution,
    AfterFileEdit,
    BeforeSubmitPrompt,
    Stop,
    SubagentStart,
    SubagentStop,
    SessionStart,
    SessionEnd,
    PreCompact,
    AfterAgentResponse,
    AfterAgentThought,
    AfterTabFileEdit,
    BeforeTabFileRead,
}

/// What a matcher is tested against (§4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// The Cursor tool name (`Shell`, `MCP:tool`, ...).
    ToolName,
    /// The shell command text.
    Command,
    /// The subagent's type.
    SubagentType,
    /// Nothing: the matcher is ignored.
    Ignored,
}

const ALL: [(Kind, &str); 20] = [
    (Kind::PreToolUse, "preToolUse"),
    (Kind::BeforeShellExecution, "beforeShellExecution"),
    (Kind::BeforeMcpExecution, "beforeMCPExecution"),
    (Kind::BeforeReadFile, "beforeReadFile"),
    (Kind::PostToolUse, "postToolUse"),
    (Kind::PostToolUseFailure, "postToolUseFailure"),
    (Kind::AfterShellExecution, "afterShellExecution"),
    (Kind::AfterMcpExecution, "afterMCPExecution"),
    (Kind::AfterFileEdit, "afterFileEdit"),
    (Kind::BeforeSubmitPrompt, "beforeSubmitPrompt"),
    (Kind::Stop, "stop"),
    (Kind::SubagentStart, "subagentStart"),
    (Kind::SubagentStop, "subagentStop"),
    (Kind::SessionStart, "sessionStart"),
    (Kind::SessionEnd, "sessionEnd"),
    (Kind::PreCompact, "preCompact"),
    (Kind::AfterAgentResponse, "afterAgentResponse"),
    (Kind::AfterAgentThought, "afterAgentThought"),
    (Kind::AfterTabFileEdit, "afterTabFileEdit"),
    (Kind::BeforeTabFileRead, "beforeTabFileRead"),
];

impl Kind {
    pub fn of(name: &str) -> Option<Kind> {
        ALL.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
    }

    pub fn name(self) -> &'static str {
        ALL.iter().find(|(k, _)| *k == self).map_or("", |(_, n)| n)
    }

    /// Whether a fire for the tool `tool` (as the host names it) runs this event's hooks. Events
    /// that are not about one kind of tool accept every tool (and every non-tool fire).
    pub fn takes_tool(self, tool: &str) -> bool {
        match self {
            Kind::BeforeShellExecution | Kind::AfterShellExecution => tools::is_shell(tool),
            Kind::BeforeMcpExecution | Kind::AfterMcpExecution => tools::is_mcp(tool),
            Kind::BeforeReadFile => tool == "Read",
            Kind::AfterFileEdit => tools::is_file_edit(tool),
            _ => true,
        }
    }

    pub fn matcher_on(self) -> On {
        match self {
            Kind::PreToolUse | Kind::PostToolUse | Kind::PostToolUseFailure => On::ToolName,
            Kind::BeforeShellExecution | Kind::AfterShellExecution => On::Command,
            Kind::SubagentStart | Kind::SubagentStop => On::SubagentType,
            _ => On::Ignored,
        }
    }

    /// It answers with `permission` (allow, deny, and on some events ask).
    pub fn decides_permission(self) -> bool {
        matches!(
            self,
            Kind::PreToolUse
                | Kind::BeforeShellExecution
                | Kind::BeforeMcpExecution
                | Kind::BeforeReadFile
                | Kind::BeforeTabFileRead
        )
    }

    /// `permission: "ask"` is honoured (elsewhere a warning).
    pub fn can_ask(self) -> bool {
        matches!(self, Kind::BeforeShellExecution | Kind::BeforeMcpExecution)
    }

    /// The decision of a block here (exit 2 aside): deny on permission events, block where a
    /// prompt or a follow-up can block; `None` where nothing can be blocked.
    pub fn blocking_decision(self) -> Option<Decision> {
        match self {
            _ if self.decides_permission() => Some(Decision::Deny),
            Kind::BeforeSubmitPrompt | Kind::Stop | Kind::SubagentStop => Some(Decision::Block),
            _ => None,
        }
    }

    /// What exit 2 does: deny on the before-events and `preToolUse`, block on
    /// `beforeSubmitPrompt`; `None` (ignored) elsewhere.
    pub fn exit2_decision(self) -> Option<Decision> {
        match self {
            _ if self.decides_permission() => Some(Decision::Deny),
            Kind::BeforeSubmitPrompt => Some(Decision::Block),
            _ => None,
        }
    }

    /// `additional_context` is honoured.
    pub fn takes_context(self) -> bool {
        matches!(
            self,
            Kind::SessionStart
                | Kind::BeforeSubmitPrompt
                | Kind::PreToolUse
                | Kind::PostToolUse
                | Kind::PostToolUseFailure
        )
    }

    /// `followup_message` continues the agent, and `loop_limit` applies.
    pub fn loops(self) -> bool {
        matches!(self, Kind::Stop | Kind::SubagentStop)
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
            // The table's "can block" column and the kind agree.
            assert_eq!(k.blocking_decision().is_some(), e.can_block, "{}", e.name);
        }
        assert_eq!(ALL.len(), super::super::EVENTS.len());
    }

    #[test]
    fn tool_specific_events_take_only_their_tools() {
        assert!(Kind::BeforeShellExecution.takes_tool("Bash"));
        assert!(!Kind::BeforeShellExecution.takes_tool("Read"));
        assert!(Kind::BeforeMcpExecution.takes_tool("mcp__s__t"));
        assert!(!Kind::BeforeMcpExecution.takes_tool("Bash"));
        assert!(Kind::BeforeReadFile.takes_tool("Read") && !Kind::BeforeReadFile.takes_tool("Write"));
        for t in ["Edit", "Write", "MultiEdit"] {
            assert!(Kind::AfterFileEdit.takes_tool(t));
        }
        assert!(!Kind::AfterFileEdit.takes_tool("Read"));
        assert!(Kind::PreToolUse.takes_tool("Anything"));
    }

    #[test]
    fn ask_is_only_for_shell_and_mcp_and_exit2_is_ignored_after_the_fact() {
        assert!(Kind::BeforeShellExecution.can_ask() && Kind::BeforeMcpExecution.can_ask());
        assert!(!Kind::PreToolUse.can_ask() && !Kind::BeforeReadFile.can_ask());
        assert_eq!(Kind::Stop.exit2_decision(), None);
        assert_eq!(Kind::PostToolUse.exit2_decision(), None);
        assert_eq!(Kind::BeforeSubmitPrompt.exit2_decision(), Some(Decision::Block));
        assert_eq!(Kind::BeforeReadFile.exit2_decision(), Some(Decision::Deny));
    }
}
