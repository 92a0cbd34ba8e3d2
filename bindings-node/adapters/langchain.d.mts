// hookwire/langchain: Claude Code's hooks for LangChain.js agents (langchain >= 1.0 < 2).
import type { AgentMiddleware } from 'langchain'
import type { AdapterOptions, HookSource } from './_shared.mjs'

export { AdapterOptions, HookSource, ToolCallDeferred, PromptBlocked, WARNING_CODE } from './_shared.mjs'

/**
 * An agent middleware for `createAgent({ middleware: [hookwireMiddleware(dispatcher)] })`:
 * SessionStart and UserPromptSubmit at `beforeAgent`, PreToolUse and PostToolUse /
 * PostToolUseFailure around each tool in `wrapToolCall`, Stop and SessionEnd at `afterAgent`.
 * The session id is the run's `thread_id` when there is one.
 */
export declare function hookwireMiddleware(source: HookSource, options?: AdapterOptions): AgentMiddleware
