// Package hookwireeino runs Claude Code hooks (through a hookwire Dispatcher) in agents built
// on CloudWeGo eino's ADK: a ChatModelAgent gets its users' PreToolUse, PostToolUse,
// PostToolUseFailure, UserPromptSubmit, SessionStart, SessionEnd and Stop hooks, applied
// where Claude Code's own loop applies them.
//
// Supported eino versions: github.com/cloudwego/eino v0.7.x from v0.7.36 (tested with
// v0.7.36 exactly): the adapter uses adk.AgentMiddleware (BeforeChatModel, WrapToolCall) and
// the four kinds of compose.ToolMiddleware of that line. The package lives in its own module,
// so the hookwire module itself does not depend on eino.
//
// Two eino values carry the hooks, both built from one *Hooks:
//
//   - Hooks.Middleware returns an adk.AgentMiddleware for ChatModelAgentConfig.Middlewares.
//     Its WrapToolCall fires PreToolUse before every tool call and PostToolUse or
//     PostToolUseFailure after it; its BeforeChatModel ends a run that a hook stopped.
//   - Hooks.Wrap wraps the agent (an adk.Agent, given to adk.NewRunner) to fire SessionStart
//     once, UserPromptSubmit on the prompt of each run, and Stop when the agent has answered;
//     a Stop block runs the agent once more with the hook's feedback as the next user message.
//
// What each hook result means for the loop is not decided here: the core's host step
// (hookwire.HostStepOf) says it, and this package only translates it into eino's terms.
//
// What eino cannot express, each said once per Hooks in a slog warning:
//
//   - text for the model beside a tool result (PreToolUse and PostToolUse context, a
//     PostToolUse block's feedback): eino has no message slot beside a tool result, so the
//     text is appended to the tool result;
//   - a replacement tool output (updated_tool_output) that is not what the tool returns (a
//     JSON string for a text tool, {"parts": [...]} for an enhanced tool): the original output
//     is kept;
//   - a failed tool call's feedback or context (PostToolUseFailure): eino ends the run with
//     the tool's error, so no model reads them.
//
// Also by eino's design, and documented only: a streamed tool output is buffered (PostToolUse
// needs all of it before the model gets it), and a Stop block's feedback reaches the model as
// the next user message but is not among the run's events.
package hookwireeino
