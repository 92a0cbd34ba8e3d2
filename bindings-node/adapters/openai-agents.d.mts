// hookwire/openai-agents: Claude Code's hooks for the OpenAI Agents SDK (@openai/agents >= 0.20 < 0.21).
import { Runner } from '@openai/agents'
import type { RunConfig } from '@openai/agents'
import type { AdapterOptions, HookSource } from './_shared.mjs'

export { AdapterOptions, HookSource, ToolCallDeferred, PromptBlocked, WARNING_CODE, UNTRUSTED_HOOKS_CODE, UNMATCHED_TOOL_CODE, DEFAULT_TOOL_NAMES } from './_shared.mjs'

/**
 * A `Runner` whose `run()` fires SessionStart, UserPromptSubmit, PreToolUse / PostToolUse
 * around each function tool of the agent (PreToolUse and PermissionRequest inside the tool's
 * `needsApproval` where it has one), Stop (a block runs once more with the reason) and
 * SessionEnd. A run interrupted for approval (no hook decided) is returned with its
 * `interruptions`; `run(agent, result.state)` on this runner resumes it with the hooks.
 * Streamed runs, and RunStates another runner started, run without hooks (with a warning).
 * `run()` rejects with `PromptBlocked` or `ToolCallDeferred`.
 */
export declare class HookwireRunner extends Runner {
  constructor(source: HookSource, options?: AdapterOptions, runConfig?: Partial<RunConfig>)
}

/** `new HookwireRunner(source, options, runConfig)`. */
export declare function hookwireRunner(source: HookSource, options?: AdapterOptions, runConfig?: Partial<RunConfig>): HookwireRunner
