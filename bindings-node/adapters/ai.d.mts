// hookwire/ai: Claude Code's hooks for the Vercel AI SDK (ai >= 7.0 < 8).
import type { generateText, ToolSet } from 'ai'
import type { AdapterOptions, HookSource } from './_shared.mjs'

export { AdapterOptions, HookSource, ToolCallDeferred, PromptBlocked, WARNING_CODE, UNTRUSTED_HOOKS_CODE, UNMATCHED_TOOL_CODE, DEFAULT_TOOL_NAMES } from './_shared.mjs'

/** Per-call options of the adapter. */
export interface HookCallOptions {
  /** The session id of this call's events; default: the adapter instance's. */
  sessionId?: string
}

export interface AiHooks {
  /** The session id used when a call names none (one per adapter instance). */
  readonly sessionId: string
  /** The tool set with each `execute` wrapped: PreToolUse before, PostToolUse after; a tool's
   * own `needsApproval` asks PreToolUse and PermissionRequest first (unless the call passes its
   * own `toolApproval`, which the SDK asks instead). Alone it cannot end the run
   * (`continue: false`, defer): use `generateText` for that. */
  wrapTools<T extends ToolSet>(tools: T, options?: HookCallOptions): T
  /** `generateText` with every hook: same options, same result (the last call's after a Stop
   * block). Its `toolApproval` fires PreToolUse and, where the call's `toolApproval` or the
   * tool's `needsApproval` would ask a human, PermissionRequest; without a decision the result
   * carries the SDK's `tool-approval-request` and the run is paused (no Stop, no SessionEnd):
   * call `generateText` again with the `tool-approval-response` message to go on. Rejects with
   * `PromptBlocked` or `ToolCallDeferred`. */
  generateText: (<O extends Parameters<typeof generateText>[0]>(options: O, call?: HookCallOptions) => ReturnType<typeof generateText>)
}

/** Claude Code's hooks for AI SDK calls: `hookwire(dispatcher).generateText({ model, tools, prompt })`. */
export declare function hookwire(source: HookSource, options?: AdapterOptions): AiHooks
