// Types shared by the framework adapters (hookwire/langchain, hookwire/ai, hookwire/openai-agents).
import type { Dispatcher } from '../index.js'

/** Where an adapter's hooks come from: a Dispatcher, or a project directory whose Claude Code
 * settings files (user, project, local; project ones behind the trust gate, see `trust`) are loaded. */
export type HookSource = Dispatcher | string | { projectDir: string }

/** Options every adapter takes. */
export interface AdapterOptions {
  /**
   * Whether the project's own hook files (`.claude/settings.json`, `.claude/settings.local.json`)
   * run, when the source is a project directory (a `Dispatcher`'s trust was decided when it was
   * built; passing `trust` with one throws a `TypeError`):
   * - `'store'` (the default): when the trust store holds them as they are now, after
   *   `recordTrust(claudeCodeDefaults(projectDir))` from `'hookwire'`;
   * - `'trusted'`: the host vouches for the project's files (the envelope's `trust.project`);
   * - `'untrusted'`: never.
   * Project hook files that exist but do not run for want of trust are said once, by a Node
   * warning with code `HOOKWIRE_UNTRUSTED_HOOKS` (not with `'untrusted'`): the tools they guard
   * run unguarded.
   */
  trust?: 'store' | 'trusted' | 'untrusted'
  /**
   * Framework tool name → the name hooks match (`{ run_it: 'Bash' }`), added to
   * `DEFAULT_TOOL_NAMES` (an entry wins over a default); `null` or `{}` sends every tool name as
   * the framework spells it. The first call of a tool that no hook on a tool event can match,
   * while such hooks exist, is said once by a Node warning with code `HOOKWIRE_UNMATCHED_TOOL`.
   */
  toolNames?: Record<string, string> | Map<string, string> | null
  /**
   * Calls that need permission where the framework would ask nobody: for them PermissionRequest
   * fires after PreToolUse (unless a PreToolUse hook allowed the call), and only a hook's allow
   * runs them (no decision denies). Tool names as the framework spells them, or
   * `(toolName, toolInput) => boolean`. Calls the framework's own approval would ask a human
   * about fire PermissionRequest without this option.
   */
  permissionTools?: Iterable<string> | ((toolName: string, toolInput: unknown) => boolean)
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
  /** The adapter's own bound on consecutive Stop blocks (the engine caps at 8 first). Default
   * `maxStopContinuations` (16) from `'hookwire'`. */
  maxStopBlocks?: number
}

/** The warning code of adapter warnings (`process.on('warning', w => w.code === WARNING_CODE)`). */
export declare const WARNING_CODE: 'HOOKWIRE_ADAPTER'

/** The warning code of project hook files that exist but do not run for want of trust. */
export declare const UNTRUSTED_HOOKS_CODE: 'HOOKWIRE_UNTRUSTED_HOOKS'

/** The warning code of a tool no hook on a tool event can match (said once per tool). */
export declare const UNMATCHED_TOOL_CODE: 'HOOKWIRE_UNMATCHED_TOOL'

/** The framework tool names mapped to Claude Code's by default (`bash`, `shell`, `local_shell`,
 * `terminal`, `run_shell_command` → `Bash`; `read_file` → `Read`; `write_file` → `Write`;
 * `edit_file` → `Edit`; `glob`, `glob_search` → `Glob`; `grep`, `grep_search` → `Grep`;
 * `web_fetch`, `fetch` → `WebFetch`; `web_search` → `WebSearch`). */
export declare const DEFAULT_TOOL_NAMES: Readonly<Record<string, string>>

/** A PreToolUse hook deferred a call: the tool did not run and the run ended. */
export declare class ToolCallDeferred extends Error {
  name: 'ToolCallDeferred'
  toolName: string
  toolInput: unknown
  toolUseId: string | undefined
  sessionId: string
}

/** A UserPromptSubmit hook blocked the prompt: no model call was made. Every adapter's run
 * rejects with it (LangChain's `invoke` too). */
export declare class PromptBlocked extends Error {
  name: 'PromptBlocked'
  prompt: string
  /** The text for the user (never the model). */
  userMessage: string | null
  sessionId: string
}
