// hookwire/openai-agents: Claude Code's hooks for the OpenAI Agents SDK (@openai/agents >= 0.20 < 0.21).
import { Runner } from '@openai/agents'
import type { RunConfig } from '@openai/agents'
import type { AdapterOptions, HookSource } from './_shared.mjs'

export { AdapterOptions, HookSource, ToolCallDeferred, PromptBlocked, WARNING_CODE } from './_shared.mjs'

/**
 * A `Runner` whose `run()` fires SessionStart, UserPromptSubmit, PreToolUse / PostToolUse
 * around each function tool of the agent, Stop (a block runs once more with the reason) and
 * SessionEnd. Streamed runs and RunState resumes run without hooks (with a warning).
 * `run()` rejects with `PromptBlocked` or `ToolCallDeferred`.
 */
export declare class HookwireRunner extends Runner {
  constructor(source: HookSource, options?: AdapterOptions, runConfig?: Partial<RunConfig>)
}

/** `new HookwireRunner(source, options, runConfig)`. */
export declare function hookwireRunner(source: HookSource, options?: AdapterOptions, runConfig?: Partial<RunConfig>): HookwireRunner
