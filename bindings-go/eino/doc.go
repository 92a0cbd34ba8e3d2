// Package hookwireeino runs Claude Code hooks (through a hookwire Dispatcher) in agents built
// on CloudWeGo eino's ADK: a ChatModelAgent gets its users' PreToolUse, PermissionRequest,
// PostToolUse, PostToolUseFailure, UserPromptSubmit, SessionStart, SessionEnd and Stop hooks,
// applied where Claude Code's own loop applies them.
//
// Supported eino versions: github.com/cloudwego/eino v0.7.x from v0.7.36 (tested with
// v0.7.36 exactly): the adapter uses adk.AgentMiddleware (BeforeChatModel, WrapToolCall) and
// the four kinds of compose.ToolMiddleware of that line. The package lives in its own module,
// so the hookwire module itself does not depend on eino.
//
// Two eino values carry the hooks, both built from one *Hooks (NewForProject, or New on a
// dispatcher of the caller's):
//
//   - Hooks.Middleware returns an adk.AgentMiddleware for ChatModelAgentConfig.Middlewares.
//     Its WrapToolCall fires PreToolUse before every tool call (and PermissionRequest for the
//     calls Options.NeedsPermission names) and PostToolUse or PostToolUseFailure after it;
//     its BeforeChatModel ends a run that a hook stopped.
//   - Hooks.Wrap wraps the agent (an adk.Agent, given to adk.NewRunner) to fire SessionStart
//     once, UserPromptSubmit on the prompt of each run, and Stop when the agent has answered;
//     a Stop block runs the agent once more with the hook's feedback as the next user message,
//     at most hookwire.MaxStopContinuations times in a row.
//
// The adapter builds no event and decides nothing itself: each event is hookwire.HostEvent of
// the facts eino knows (so there is no transcript_path, and permission_mode is "default"
// unless Options say otherwise), and what each result means for the loop is the core's host
// step (hookwire.HostStepOf), which this package only translates into eino's terms.
//
// Trust. A project's own .claude/settings.json and .claude/settings.local.json run only once
// trusted: NewForProject takes the host's decision (TrustStore, the default: the trust store
// that hookwire.RecordTrust writes; TrustTrusted: the host vouches for the project;
// TrustUntrusted: skip them). When such files exist but are skipped for want of trust, the
// tools run unguarded by them; the adapter says so once per Hooks in a Logger warning (kind
// "untrusted-hooks") naming hookwire.RecordTrust and TrustTrusted, and Hooks.Untrusted
// returns it as an *UntrustedHooksError. New does the same for the dispatcher it is given.
// The engine's own warning about those files, which every fire's result carries, is not
// repeated; every other warning of a result is logged once per Hooks.
//
// Tool names. Hooks written for Claude Code match its tool names (Bash, Read, ...): an eino
// tool reaches them through Options.ToolNames, laid over DefaultToolNames (eino's filesystem
// middleware tools and the common shell, fetch and search names). The first call of a tool
// that no hook on a tool event can match is said once per tool (kind "unreached-tool").
//
// PermissionRequest. eino's ADK has no approval mechanism of its own: a tool that wants a
// human's approval raises an interrupt itself (tool.Interrupt), and the adapter passes that
// interrupt on to the caller untouched (no PostToolUseFailure, no PermissionRequest): the
// tool's own approval stays in charge. For hosts with nobody to ask,
// Options.NeedsPermission names the calls that need permission: for them PermissionRequest
// fires after PreToolUse, unless a PreToolUse hook allowed the call (HostStep.Approved, as
// Claude Code then skips its prompt); only its allow runs the tool, and a deny or no
// decision gives the model the step's message as the tool result and Options.OnUserMessage
// the same text (the step's seen_by). Texts the hooks address to the user (a system
// message, a stop reason) go to OnUserMessage and never to the model.
//
// A blocked prompt ends the run with a *PromptBlockedError (errors.As) carrying the text for
// the user, and no model call is made; a deferred tool call with a *DeferredToolCall; a
// hook's continue: false after a tool with a *StoppedError.
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
