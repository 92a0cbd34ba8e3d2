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

// ---- generated from schema/ by scripts/gen-types.mjs: do not edit ----

/**
 * A hook's decision, or the folded decision of a fire (protocol.md §7): `deny` and `block` stop
 * the action, `ask` and `defer` hand it to the user or the host, `allow` lets it go on. Which
 * values an event can produce is in protocol.md §3.2.
 */
export type Decision = 'allow' | 'deny' | 'ask' | 'defer' | 'block'

/**
 * How one hook ended, as the result JSON reports it (§8).
 *
 * - 'ok': The hook ran and its output was read (whatever it decided).
 * - 'error': The hook failed: a non-zero exit with no verdict, a signal, unreadable output.
 * - 'timed_out': The hook reached its deadline, or never got a slot.
 * - 'spawn_failed': The hook's program could not be started.
 * - 'async': The hook runs in the background; its outcome comes in a later fire's
 * `async_outcomes`.
 * - 'cancelled': The host cancelled the fire before this hook ended.
 * - 'deferred': The hook runs at the session's turn end (its next `Stop`), once, with this
 * event and every other one deferred to it since (Kiro CLI's `only_when_turn_complete`); its
 * outcome is that `Stop` fire's.
 */
export type Status = 'ok' | 'error' | 'timed_out' | 'spawn_failed' | 'async' | 'cancelled' | 'deferred'

/**
 * Where a hook's verdict was read from (protocol.md §6.7).
 *
 * - 'json': A JSON object the hook printed on stdout.
 * - 'text': Plain text on stdout.
 * - 'exit_code': The exit code (and stderr).
 * - 'failure': A fail-closed block: the hook failed and its handler has `onFailure: "block"`.
 * - 'none': The hook contributed nothing.
 */
export type VerdictSource = 'json' | 'text' | 'exit_code' | 'failure' | 'none'

/**
 * One hook's exit status and output read as a decision (§6.7). An outcome that contributes
 * nothing has `source: "none"`, nulls, `continue: true`, `false` and `{}`.
 */
export interface Verdict {
  /** Where the verdict was read from. */
  source: VerdictSource
  /** The hook's decision; `null` when it expressed none. */
  decision: Decision | null
  /** Why, for the model or the user. */
  reason: string | null
  /** The decision is `deny` or `block`. */
  blocking: boolean
  /** `false`: the hook asked to stop the agent. */
  continue: boolean
  /** For the user, with `continue: false`. */
  stop_reason: string | null
  /** Text for the model. */
  additional_context: string | null
  /** Text for the user. */
  system_message: string | null
  /** The hook's replacement tool input (or `{"prompt": ...}`). */
  updated_input: Record<string, unknown> | null
  /** The hook's replacement tool output: any JSON value. */
  updated_tool_output: unknown
  /** The hook asked to hide the tool output (`suppressOutput`). */
  suppress_output: boolean
  /** Event- and dialect-specific outputs of this hook (protocol.md §7, §9). */
  extra: Record<string, unknown>
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * An `asyncRewake` hook's texts for the exit 2 that wakes the agent (protocol.md §2.4): the
 * model's system reminder starts with `message` and the hook's output follows; the user sees
 * `summary`. Claude Code 2.1.332 reads both; the official security-guidance plugin sets both.
 */
export interface Rewake {
  /**
   * `rewakeMessage`: the prefix of the model's reminder; `null` when not configured (the hook's
   * output alone reaches the model, as before 2.1.332).
   */
  message: string | null
  /**
   * `rewakeSummary`, or `Stop hook feedback` when not configured: the one line the user sees.
   */
  summary: string
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * What happened to one hook in one fire (protocol.md §8, "Outcome keys"). A hook that fails,
 * hangs or floods its output is an outcome, never an error.
 */
export interface Outcome {
  /** The hook id (protocol.md §2.6), for example `user:PreToolUse[0].hooks[0]`. */
  hook: string
  /** The handler type: `command`, `http`, `prompt`, `agent`, `mcp_tool` or `function`. */
  type: string
  /**
   * Shell form: the string as configured; exec form: the program and arguments as run; http:
   * `POST <url>`; delegated handlers: `prompt`, `agent`, `mcp_tool <server>/<tool>`.
   */
  command: string
  /** How the hook ended. */
  status: Status
  /** The exit code; `null` when killed by a signal, not started, http, or still running. */
  exit_code: number | null
  /** The signal that ended the hook. */
  signal: number | null
  /** The HTTP status code (http handlers only). */
  http_status: number | null
  /** The hook reached its deadline (or never got a slot). */
  timed_out: boolean
  /** From spawn to the end of the drain, in milliseconds at 0.1 ms resolution. */
  duration_ms: number
  /** Captured stdout, at most `max_output_bytes`, lossily decoded. */
  stdout: string
  /** Captured stderr, at most `max_output_bytes`, lossily decoded. */
  stderr: string
  /** stdout hit the `max_output_bytes` cap. */
  stdout_truncated: boolean
  /** stderr hit the `max_output_bytes` cap. */
  stderr_truncated: boolean
  /** stdout held invalid UTF-8, replaced with U+FFFD. */
  stdout_lossy: boolean
  /** stderr held invalid UTF-8, replaced with U+FFFD. */
  stderr_lossy: boolean
  /** The handler's `statusMessage`. */
  status_message: string | null
  /**
   * An `asyncRewake` hook that exited 2 (an async outcome only): the texts its handler
   * configured for waking the agent, so that a host shows `summary` to the user; `null`
   * otherwise.
   */
  rewake: Rewake | null
  /** The hook's exit status and output read as a decision (protocol.md §6.7). */
  verdict: Verdict
  /**
   * Why `status` is not `ok` (`exit 1: ...`, `timed out after 1 s`), or a JSON or schema
   * problem in the hook's output.
   */
  error: string | null
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * The result JSON of one fire (protocol.md §8). Every key is always present (`null`, `false`,
 * `{}` or `[]` when empty), in this order. Newer libraries may add keys: readers ignore keys
 * they do not know.
 */
export interface Result {
  /** `hook_event_name` as fired. */
  event: string
  /**
   * The folded decision (protocol.md §7); `null` when no hook decided. Which values an event
   * can produce is in protocol.md §3.2.
   */
  decision: Decision | null
  /** The reason of the first hook, in configuration order, whose decision is the result's. */
  reason: string | null
  /** `false`: a hook asked to stop the agent. It beats every decision. */
  continue: boolean
  /** For the user, with `continue: false`: the first hook's `stopReason`. */
  stop_reason: string | null
  /**
   * The replacement tool input (PreToolUse, PermissionRequest), or `{"prompt": ...}` on
   * UserPromptSubmit; `null` when the decision is deny or defer, or no hook rewrote it.
   */
  updated_input: Record<string, unknown> | null
  /** The replacement tool output (PostToolUse): any JSON value; `null` when none. */
  updated_tool_output: unknown
  /** Text for the model: every hook's non-empty context, joined with a blank line. */
  additional_context: string | null
  /** Text for the user: every hook's non-empty message, joined with a newline. */
  system_message: string | null
  /** Whether any hook asked to hide the tool output (`suppressOutput`). */
  suppress_output: boolean
  /**
   * Variables the hooks wrote through `CLAUDE_ENV_FILE` (protocol.md §3.4), merged in
   * configuration order.
   */
  env: Record<string, string>
  /**
   * Event- and dialect-specific outputs (`sessionTitle`, `watchPaths`, `worktreePath`, ...;
   * protocol.md §7, §9).
   */
  extra: Record<string, unknown>
  /** The context of this session's async hooks that finished since its previous fire. */
  pending_context: string | null
  /** Load warnings, then per-hook warnings in configuration order, then fire notices. */
  warnings: string[]
  /**
   * One per hook run or attempted in this fire, in configuration order; `[]` when nothing
   * matched.
   */
  outcomes: Outcome[]
  /** The completed outcomes of this session's async hooks, in completion order. */
  async_outcomes: Outcome[]
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * One source as the trust gate saw it (protocol.md §2.8), an entry of the trust status's
 * `sources`: every project or local source, and a source of any other scope that the host
 * marked `"trusted": false`.
 */
export interface TrustSource {
  /**
   * `project` or `local`, the scopes whose hooks run only when trusted; or another scope whose
   * source says `"trusted": false`.
   */
  scope: 'project' | 'local' | 'managed' | 'user' | 'plugin' | 'session'
  /** The source as warnings name it, for example `project .claude/settings.json`. */
  label: string
  /** The file as configured; `null` for inline settings. */
  path: string | null
  /** The file resolved against `project_dir`; `null` for inline settings. */
  resolved: string | null
  /**
   * The file's key in the trust store (relative to the project root when inside it); `null` for
   * inline settings, without a readable `project_dir`, or for a scope the store does not govern
   * (neither project nor local).
   */
  key: string | null
  /** `sha256:<64 hex digits>` of the bytes read; `null` for inline settings. */
  digest: string | null
  /** Whether this source's hooks run. */
  trusted: boolean
  /** Why it is (not) trusted, for people. */
  why: string
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * The trust state of a configuration's project and local sources, and of any other source
 * marked `"trusted": false` (protocol.md §2.8): what a host shows the user before it records
 * trust. Every key is always present, in this order.
 */
export interface TrustStatus {
  /** The configured `trust.store`; `null` when the configuration consults no store. */
  store: string | null
  /**
   * Where trust is recorded when no `trust.store` is given:
   * `$XDG_CONFIG_HOME/hookwire/trust.json`, else `~/.config/hookwire/trust.json`; `null` when
   * neither `XDG_CONFIG_HOME` nor `HOME` is set.
   */
  default_store: string | null
  /** The configured `project_dir`, the project's key in the store; `null` when unset. */
  project_dir: string | null
  /**
   * One entry per project or local source, and per other source marked `"trusted": false`, in
   * configuration order.
   */
  sources: TrustSource[]
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * What the loop does next. Each variant belongs to one point of the loop; the event decides
 * which variants can occur, so an adapter handles only the ones of the point it sits at.
 *
 * - 'run_tool': PreToolUse: run the tool, with `tool_input` when a hook rewrote it.
 * - 'deny_tool': PreToolUse `deny`, or `ask` (a host with nobody to ask denies): do not run the
 * tool; the model gets an error tool result whose text is `message`.
 * - 'defer_tool': PreToolUse `defer`: do not run the tool and give no tool result; the run ends
 * and the pending call is handed back to the caller.
 * - 'deliver_result': PostToolUse, PostToolUseFailure: the model gets the real result,
 * `feedback` beside it, and `tool_output` instead of it when that fits the tool's output.
 * - 'call_model': UserPromptSubmit: call the model, with `prompt` when a hook rewrote it.
 * - 'block_prompt': UserPromptSubmit `block` or `continue: false`: no model call; the prompt is
 * dropped and `user_message` is shown to the user, never to the model.
 * - 'continue_turn': Stop, SubagentStop `block` (or additional context): one more model call
 * with `message` as its user message; the next Stop event carries `stop_hook_active: true`.
 * - 'end_turn': Stop, SubagentStop: let the turn end.
 * - 'switch_model': PreModelSwitch `allow` or no decision: switch the model.
 * - 'keep_model': PreModelSwitch `deny`, or `ask` (nobody to ask): keep the current model;
 * `user_message` says why.
 * - 'proceed': Any other event: go on; deliver `context` if there is any.
 */
export type HostAction = 'run_tool' | 'deny_tool' | 'defer_tool' | 'deliver_result' | 'call_model' | 'block_prompt' | 'continue_turn' | 'end_turn' | 'switch_model' | 'keep_model' | 'proceed'

/**
 * Who sees a text of the step.
 *
 * - 'model': The model only (a tool result, a system message, a user message of an extra call).
 * - 'user': The user only, never the model.
 * - 'both': The model, as the step's slot says, and the user as well.
 */
export type Audience = 'model' | 'user' | 'both'

/** For each text key of the step, who sees it: `null` exactly when the text is `null`. */
export interface SeenBy {
  message: Audience | null
  feedback: Audience | null
  prompt: Audience | null
  context: Audience | null
  user_message: Audience | null
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/** The host step of one result: every key always present, as in the result JSON. */
export interface HostStep {
  /** The result's `event`. */
  event: string
  action: HostAction
  /** `run_tool`: the replacement tool input; `null` runs the call as the model made it. */
  tool_input: Record<string, unknown> | null
  /**
   * `deny_tool`: the error tool result's text; `continue_turn`: the extra call's user message.
   */
  message: string | null
  /** `deliver_result`: text for the model beside the real tool result (a PostToolUse block). */
  feedback: string | null
  /**
   * `deliver_result`: the replacement tool output. Apply it only when it fits what the tool
   * returns (Claude Code drops a string for Bash); otherwise keep the original.
   */
  tool_output: unknown
  /** `call_model`: the rewritten prompt; `null` keeps the prompt as submitted. */
  prompt: string | null
  /**
   * Text for the model, labelled with the event: beside the tool result (also on `deny_tool`),
   * before the prompt, at session start. Includes the context of async hooks that finished
   * since the session's previous fire.
   */
  context: string | null
  /**
   * Text for the user and never the model: a blocked prompt's text, the stop reason, the hooks'
   * system messages.
   */
  user_message: string | null
  /**
   * End the run after this step: PreToolUse after the tool ran (it still runs), PostToolUse
   * after this tool, UserPromptSubmit without a model call, Stop without another call.
   */
  stop: boolean
  /**
   * Who sees each text above. `message` can be `both` (an `ask` with nobody to ask, a
   * PermissionRequest or PreSkillShellCommand denial): show it to the user too, once.
   */
  seen_by: SeenBy
  /**
   * `run_tool` because a hook decided `allow` (PreToolUse, PermissionRequest): the host's own
   * approval of the call is not asked, as Claude Code skips its permission prompt, and
   * PermissionRequest is not fired. `false` on `run_tool` without a decision: the host's own
   * approval (and PermissionRequest where it would ask someone) still stands.
   */
  approved: boolean
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

/**
 * What a framework knows at one point of its loop. Only `event`, `session_id` and `cwd` are
 * always required; each event needs the facts its rule reads (a tool event its `tool_name`,
 * UserPromptSubmit its `prompt`, PostToolUseFailure its `error`).
 */
export interface HostFacts {
  /** The Claude Code event to build (`PreToolUse`, `Stop`, …). */
  event: string
  session_id: string
  /** The working directory the hooks see. */
  cwd: string
  /** Left out of the event when the host keeps no transcript file. */
  transcript_path?: string | null
  /** `default` when not given. */
  permission_mode?: string | null
  /** The tool as the framework names it. */
  tool_name?: string | null
  /**
   * Framework tool name → the name hooks match (`{"bash": "Bash"}`); a name not in the map is
   * sent as the framework spells it.
   */
  tool_names?: Record<string, string>
  /** The tool's arguments as the model gave them; any JSON. */
  tool_input?: unknown
  tool_use_id?: string | null
  /** PostToolUse: what the tool returned, any JSON. */
  tool_response?: unknown
  /** PostToolUseFailure: the error's message. */
  error?: string | null
  /** PostToolUseFailure: the error's type (an exception class), put before the message. */
  error_type?: string | null
  is_interrupt?: boolean | null
  /** UserPromptSubmit: the prompt's text. */
  prompt?: string | null
  /** SessionStart: `startup` when not given. */
  source?: string | null
  /** SessionEnd: `other` when not given. */
  reason?: string | null
  /** Stop, SubagentStop: a hook already continued this turn. */
  stop_hook_active?: boolean | null
  /** Stop, SubagentStop: the model's last text. */
  last_assistant_message?: string | null
  /** The event's other keys, as the host gives them (`agent_id`, `permission_suggestions`…). */
  fields?: Record<string, unknown>
}

/**
 * Whether a framework's tool can reach the hooks configured for tool events, as a host asks it
 * the first time the tool is called: a user's `Bash` guard never runs on a framework tool named
 * `bash` unless the name is mapped, and nothing else would say so.
 */
export interface ToolReach {
  /** The tool name as the hooks would see it. */
  tool_name: string
  /** Hooks are configured on tool events (PreToolUse, PermissionRequest, PostToolUse, …). */
  hooked: boolean
  /** The matcher of at least one of those hooks matches this name (its `if` rule aside). */
  reached: boolean
  /**
   * When hooks are configured on tool events and none can match this name: the text to show the
   * user once, naming the matchers it missed. `null` otherwise.
   */
  warning: string | null
  /** Keys added by newer releases; readers ignore keys they do not know. */
  [key: string]: unknown
}

// ---- end of the generated types ----

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

/** How much `setLogger()` delivers; each level includes those before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/**
 * One event of the engine, as `setLogger()` delivers it (docs/logging.md lists every event,
 * its level and its fields).
 */
export interface LogRecord {
  /** The record's level (never `'off'`). */
  level: Exclude<LogLevel, 'off'>
  /** `'hookwire::load'`, `'hookwire::fire'` or `'hookwire::hook'`. */
  target: string
  /** A sentence for people; programs read `fields`. */
  message: string
  /**
   * The event's fields by their stable names: `event` (`'fire.start'`, `'hook.skipped'`,
   * `'hook.spawned'`, `'hook.verdict'`, `'fire.done'`, ...), `fire_id`, `hook_id`,
   * `skip_reason`, `pid`, `exit_code`, `status`, `decision`, `duration_ms`, ... A field with no
   * value is absent.
   */
  fields: { event: string; [key: string]: unknown }
}

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
