//! Claude Code's own tool names, as the engine fires them: the names every dialect's tool map
//! translates to and from, a port's matchers are probed on, and the bridge never renames.

/// Claude Code's built-in tools (MCP tools are `mcp__<server>__<tool>`).
pub const CLAUDE_CODE_TOOLS: &[&str] = &[
    "Bash",
    "BashOutput",
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
    "ExitPlanMode",
];
