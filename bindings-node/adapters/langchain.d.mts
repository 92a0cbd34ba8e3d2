// hookwire/langchain: Claude Code's hooks for LangChain.js agents (langchain >= 1.0 < 2).
import type { AgentMiddleware, HumanInTheLoopMiddlewareConfig, humanInTheLoopMiddleware } from 'langchain'
import type { AdapterOptions, HookSource } from './_shared.mjs'

export { AdapterOptions, HookSource, ToolCallDeferred, PromptBlocked, WARNING_CODE, UNTRUSTED_HOOKS_CODE, UNMATCHED_TOOL_CODE, DEFAULT_TOOL_NAMES } from './_shared.mjs'

/**
 * An agent middleware for `createAgent({ middleware: [hookwireMiddleware(dispatcher)] })`:
 * SessionStart and UserPromptSubmit at `beforeAgent` (a blocked prompt makes `invoke` reject
 * with `PromptBlocked`), PreToolUse and PostToolUse / PostToolUseFailure around each tool in
 * `wrapToolCall`, Stop and SessionEnd at `afterAgent`. The session id is the run's `thread_id`
 * when there is one.
 */
export declare function hookwireMiddleware(source: HookSource, options?: AdapterOptions): AgentMiddleware

/**
 * LangChain's `humanInTheLoopMiddleware` (same options) whose approval follows Claude Code's
 * permission flow: PreToolUse first (an allow runs the call without asking), then
 * PermissionRequest where it would interrupt (allow runs, deny denies, no decision interrupts
 * for the human). List it after `hooks` in `createAgent`'s middleware.
 */
export declare function hookwireHumanInTheLoop(hooks: AgentMiddleware, options: HumanInTheLoopMiddlewareConfig): ReturnType<typeof humanInTheLoopMiddleware>
