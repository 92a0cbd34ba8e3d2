// Types shared by the framework adapters (hookwire/langchain, hookwire/ai, hookwire/openai-agents).
import type { Dispatcher } from '../index.js'

/** Where an adapter's hooks come from: a Dispatcher, or a project directory whose Claude Code
 * settings files (user, project, local; project ones behind the trust gate) are loaded. */
export type HookSource = Dispatcher | string | { projectDir: string }

/** Options every adapter takes. */
export interface AdapterOptions {
  /** The events' `cwd` (where command hooks run). Default: `process.cwd()`. */
  cwd?: string
  /** The events' `permission_mode`: `'default'` (the default) or `'bypassPermissions'`, ... */
  permissionMode?: string
  /** A transcript file to name in the events; none is sent by default (frameworks keep none). */
  transcriptPath?: string
  /** One session id for every run; default: the framework's own (thread id, session) or a new one per run. */
  sessionId?: string
  /** Text for the user, never the model (a blocked prompt's text, stop reasons, system messages).
   * Default: a Node warning with code `HOOKWIRE_USER_MESSAGE`. */
  onUserMessage?: (text: string, info: { event: string }) => void
  /** The adapter's own bound on consecutive Stop blocks (the engine caps at 8 first). Default 16. */
  maxStopBlocks?: number
}

/** The warning code of adapter warnings (`process.on('warning', w => w.code === WARNING_CODE)`). */
export declare const WARNING_CODE: 'HOOKWIRE_ADAPTER'

/** A PreToolUse hook deferred a call: the tool did not run and the run ended. */
export declare class ToolCallDeferred extends Error {
  name: 'ToolCallDeferred'
  toolName: string
  toolInput: unknown
  toolUseId: string | undefined
  sessionId: string
}

/** A UserPromptSubmit hook blocked the prompt: no model call was made. */
export declare class PromptBlocked extends Error {
  name: 'PromptBlocked'
  prompt: string
  /** The text for the user (never the model). */
  userMessage: string | null
  sessionId: string
}
