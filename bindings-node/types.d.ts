/**
 * A hook configuration, in the settings shape (`{"hooks": {...}}`) or the envelope
 * (protocol.md §2). Passed to `new Dispatcher()` as an object or as its JSON text; an object
 * is converted exactly as `JSON.stringify` would convert it.
 */
export interface Config {
  /** Event name → matcher groups, as in a Claude Code settings file. */
  hooks?: Record<string, unknown>
  [key: string]: unknown
}

/**
 * One event, as the agent would send it (protocol.md §3). Only `hook_event_name` is
 * required; every other key is passed on to the hooks as given.
 */
export interface Event {
  /** The lifecycle event: `'PreToolUse'`, `'PostToolUse'`, `'Stop'`, ... */
  hook_event_name: string
  /** Session the event belongs to. */
  session_id?: string
  /** Working directory the hooks run in. */
  cwd?: string
  /** Tool name, for tool events (the field PreToolUse and PostToolUse match on). */
  tool_name?: string
  /** Tool input, for tool events. */
  tool_input?: unknown
  [key: string]: unknown
}

/** The folded decision of a fire, or of one hook's verdict. */
export type Decision = 'allow' | 'deny' | 'ask' | 'defer' | 'block'

/** What one hook's exit status and output said (protocol.md §6.7). */
export interface Verdict {
  /** Where the verdict was read from (`'exit_code'`, `'json'`, ...). */
  source: string
  decision: Decision | null
  reason: string | null
  blocking: boolean
  continue: boolean
  stop_reason: string | null
  additional_context: string | null
  system_message: string | null
  updated_input: Record<string, unknown> | null
  updated_tool_output: unknown
  suppress_output: boolean
  extra: Record<string, unknown>
  [key: string]: unknown
}

/**
 * One hook run or attempted in a fire (protocol.md §8). A hook that fails, hangs or floods
 * its output is an outcome, never an error. Keys are the result JSON's, in snake_case.
 */
export interface Outcome {
  /** Hook id, for example `'user:PreToolUse[0].hooks[0]'`. */
  hook: string
  /** Handler type: `'command'`, `'http'`, `'prompt'`, `'agent'`, `'mcp_tool'` or `'function'`. */
  type: string
  /** The command as configured (shell form) or as run (exec form). */
  command: string
  /** How it ended. */
  status: 'ok' | 'error' | 'timed_out' | 'spawn_failed' | 'async' | 'cancelled'
  /** `null` when killed by a signal, not started, http, or still running. */
  exit_code: number | null
  /** The signal that ended it. */
  signal: number | null
  /** HTTP handlers only. */
  http_status: number | null
  /** Reached its deadline (or never got a slot). */
  timed_out: boolean
  /** From spawn to the end of the drain, 0.1 ms resolution. */
  duration_ms: number
  stdout: string
  stderr: string
  stdout_truncated: boolean
  stderr_truncated: boolean
  stdout_lossy: boolean
  stderr_lossy: boolean
  /** The handler's `statusMessage`. */
  status_message: string | null
  verdict: Verdict
  /** Why `status` is not `'ok'`, or a JSON/schema problem in the hook's output. */
  error: string | null
  [key: string]: unknown
}

/**
 * The result of a fire: the result JSON of protocol.md §8 as a plain object, so
 * `JSON.stringify(result)` gives the same JSON the C ABI returns. Every key is present;
 * readers must ignore keys they do not know.
 */
export interface Result {
  /** `hook_event_name` as fired. */
  event: string
  /** The folded decision; `null` when no hook decided. */
  decision: Decision | null
  /** Reason of the deciding hook. */
  reason: string | null
  /** `false`: a hook asked to stop the agent. */
  continue: boolean
  /** For the user, with `continue: false`. */
  stop_reason: string | null
  /** The replacement tool input (or `{prompt}` on UserPromptSubmit). */
  updated_input: Record<string, unknown> | null
  /** Replacement tool output (PostToolUse). */
  updated_tool_output: unknown
  /** Text for the model. */
  additional_context: string | null
  /** Text for the user. */
  system_message: string | null
  /** OR of the hooks' `suppressOutput`. */
  suppress_output: boolean
  /** Variables written through `CLAUDE_ENV_FILE`. */
  env: Record<string, string>
  /** Event- and dialect-specific outputs. */
  extra: Record<string, unknown>
  /** Context of this session's async hooks finished since its previous fire. */
  pending_context: string | null
  /** Load warnings, per-hook warnings, then fire notices. */
  warnings: string[]
  /** One per hook run or attempted, in configuration order; `[]` when nothing matched. */
  outcomes: Outcome[]
  /** Completed outcomes of this session's async hooks, in completion order. */
  async_outcomes: Outcome[]
  [key: string]: unknown
}

/**
 * One project or local source as the trust gate saw it (protocol.md §2.8), an entry of
 * `TrustStatus.sources`. Keys are the status JSON's, in snake_case.
 */
export interface TrustSource {
  /** `'project'` or `'local'`: the scopes that run only when trusted. */
  scope: string
  /** The source as warnings name it, for example `'.claude/settings.json'`. */
  label: string
  /** The file as configured; `null` for inline `settings`. */
  path: string | null
  /** The file as resolved against `project_dir`; `null` for inline `settings`. */
  resolved: string | null
  /** The file's key in the trust store (relative to the project root when inside it). */
  key: string | null
  /** `'sha256:<64 hex>'` of the bytes read; `null` for inline settings or a missing file. */
  digest: string | null
  /** Whether this source's hooks run. */
  trusted: boolean
  /** Why it is (not) trusted, for people. */
  why: string
  [key: string]: unknown
}

/**
 * The trust state of a configuration's project and local sources, from
 * `dispatcher.trustStatus()` or `recordTrust(config)` (protocol.md §2.8). Readers must ignore
 * keys they do not know.
 */
export interface TrustStatus {
  /** The configured `trust.store`; `null` when none is given. */
  store: string | null
  /** Where `recordTrust` writes without `trust.store`: `$XDG_CONFIG_HOME/hookwire/trust.json`
   * or `~/.config/hookwire/trust.json`; `null` when neither `XDG_CONFIG_HOME` nor `HOME` is set. */
  default_store: string | null
  /** The configured `project_dir`, the key of the store; `null` when unset. */
  project_dir: string | null
  /** One entry per project or local source, in configuration order. */
  sources: TrustSource[]
  [key: string]: unknown
}

/**
 * The `code` of an error hookwire throws or rejects with (abi.md §6). The error also has
 * `line` and `column` for `'INVALID_JSON'`, and `pointer` when one place is at fault.
 * `'FIRE_SYNC_WITH_JS_HOOKS'` is the Node binding's own: `fireSync()` on a dispatcher with a
 * JavaScript function hook or host callback registered (they need the thread it would block).
 */
export type ErrorCode =
  | 'INVALID_JSON'
  | 'INVALID_CONFIG'
  | 'INVALID_EVENT'
  | 'INVALID_UTF8'
  | 'PANIC'
  | 'INTERNAL'
  | 'FIRE_SYNC_WITH_JS_HOOKS'

/** An error from hookwire itself (never a hook's failure, which is an outcome). */
export interface HookwireError extends Error {
  code: ErrorCode
  /** 1-based line of a JSON syntax error. */
  line?: number
  /** 1-based column (in bytes) of a JSON syntax error. */
  column?: number
  /** JSON pointer to the one place a well-formed document is wrong. */
  pointer?: string
}

/**
 * What a hook prints as JSON (protocol.md §6), as a JavaScript function hook returns it. Every
 * key is optional; keys hookwire does not know are kept in the result's `extra`.
 */
export interface HookOutput {
  /** `false` asks the agent to stop, with `stopReason` for the user. */
  continue?: boolean
  stopReason?: string
  suppressOutput?: boolean
  /** Text for the user. */
  systemMessage?: string
  /** `'block'` blocks events that can block (Stop, PostToolUse, UserPromptSubmit, ...). */
  decision?: 'approve' | 'block'
  reason?: string
  /** Event-specific output; `hookEventName` names the event it answers. */
  hookSpecificOutput?: {
    hookEventName: string
    /** PreToolUse: `'allow'`, `'deny'`, `'ask'` or `'defer'`. */
    permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer'
    permissionDecisionReason?: string
    /** PreToolUse: the replacement tool input; it becomes the result's `updated_input`. */
    updatedInput?: Record<string, unknown>
    /** Text for the model. */
    additionalContext?: string
    [key: string]: unknown
  }
  [key: string]: unknown
}

/**
 * What a function hook registered with `dispatcher.addFunctionHook()` answers: what a
 * command hook would print. An object is taken as its JSON (`HookOutput`), a string is read
 * exactly like a command's stdout (JSON or plain text), and `undefined` or `null` print
 * nothing (no opinion). Any other value, a throw or a rejection is an error outcome:
 * non-blocking, unless the hook was registered with `failClosed: true`.
 */
export type HookAnswer = HookOutput | string | undefined | null | void

/** The handler types the host answers for through `dispatcher.setHostCallback()`. */
export type HostCallbackType = 'prompt' | 'agent' | 'mcp_tool'

/** What a host callback receives: one configured `prompt`, `agent` or `mcp_tool` handler to run. */
export interface HostCallbackRequest {
  /** The handler type. */
  type: HostCallbackType
  /** The handler as configured (`prompt`, `model`, `server`, `tool`, `input`, ...). */
  handler: Record<string, unknown>
  /** The event payload as JSON text: exactly what a command hook reads on stdin. */
  event: string
  /** The handler's timeout in seconds: the answer must come before it. */
  timeout_s: number
  [key: string]: unknown
}

/**
 * A host callback's answer. For `prompt` and `agent`: `{ ok: true }` lets the action go on,
 * `{ ok: false, reason }` blocks it (`impossible: true` says the condition can never be met).
 * For `mcp_tool`: `{ text }`, the tool's output, read like a command's stdout.
 */
export type HostCallbackAnswer =
  | { ok: boolean; reason?: string; impossible?: boolean; [key: string]: unknown }
  | { text: string; [key: string]: unknown }

/**
 * The part of an `AbortSignal` hookwire uses (declared here so the types need neither the DOM
 * library nor `@types/node`); a real `AbortSignal` fits it.
 */
export interface AbortSignalLike {
  readonly aborted: boolean
  readonly reason?: unknown
  addEventListener(type: 'abort', listener: (this: AbortSignalLike, event: unknown) => void, options?: { once?: boolean }): void
  removeEventListener(type: 'abort', listener: (this: AbortSignalLike, event: unknown) => void): void
}

/** Options of `dispatcher.fire()`. */
export interface FireOptions {
  /**
   * Cancels the fire when aborted: the running hooks' process groups are killed, no further
   * hook starts, and the promise rejects at once with `signal.reason` (an `AbortError`
   * `DOMException` by default). An already-aborted signal rejects without running anything.
   */
  signal?: AbortSignalLike
}
