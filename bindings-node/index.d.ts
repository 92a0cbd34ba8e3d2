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

/**
 * Which binding artifact the generated loader actually loaded: `'native'` for
 * a native addon, otherwise the `platformArchABI` of the WASI flavor. Every
 * flavor napi-rs can build is listed, because `NAPI_RS_NATIVE_LIBRARY_PATH`
 * can point the loader at a WASI artifact this package does not build itself.
 */
export declare const __napiBindingTarget: 'native' | 'wasm32-wasi' | 'wasm32-wasip1'

/**
 * A loaded hook configuration, ready to fire events.
 *
 * Safe to share: any number of `fire()` calls may be in flight on one dispatcher at once,
 * each that runs hooks on a native thread of its own with its own hook processes. A pending
 * fire keeps the process alive and finishes even if the dispatcher is collected. Its
 * configuration never changes; `addFunctionHook` and `setHostCallback` add to it, and apply
 * to fires started afterwards.
 */
export declare class Dispatcher {
  /**
   * Builds a dispatcher from a configuration: a JSON-representable object (settings shape
   * or envelope) or its JSON text.
   *
   * Throws an `Error` with `code` `'INVALID_JSON'` (with `line` and `column`),
   * `'INVALID_CONFIG'` (with `pointer` when known), `'PANIC'` or `'INTERNAL'`, and a
   * `TypeError` when `config` is neither an object nor a string.
   */
  constructor(config: Config | string)
  /**
   * Builds a dispatcher from a UTF-8 JSON file, whose content is checked exactly as by the
   * constructor. A file that cannot be read throws an `Error` with a system `code`
   * (`'ENOENT'`, `'EACCES'`, `'EISDIR'`, else `'EIO'`) and `path`, as Node's `fs` would;
   * content that is not UTF-8 throws `code` `'INVALID_UTF8'`.
   */
  static fromFile(path: string): Dispatcher
  /**
   * Builds a dispatcher from Claude Code's default sources for the project at `projectDir`
   * (see `claudeCodeDefaults`): the user, project and local settings files, the project
   * ones gated on the default trust store. A directory that cannot be resolved throws as
   * `claudeCodeDefaults` does.
   */
  static fromClaudeCodeDefaults(projectDir: string): Dispatcher
  /**
   * Fires one event and resolves with the result once every matching hook has ended.
   *
   * The event is converted on the calling thread. A fire that runs nothing (no hook matches)
   * is answered there too, and its promise is already resolved; any other fire runs on a
   * native thread of the addon's own (a pool that grows on demand, so concurrent fires never
   * wait for each other), so it never blocks the event loop nor occupies libuv's pool.
   * Rejects with an `Error` whose `code` is `'INVALID_JSON'`, `'INVALID_EVENT'`, `'PANIC'`
   * or `'INTERNAL'` (a hook's own failure is an outcome, never a rejection), and with a
   * `TypeError` when `event` is neither an object nor a string; it never throws.
   *
   * With `options.signal`, aborting the signal cancels the fire: the running hooks' process
   * groups are killed (`SIGTERM`, then `SIGKILL` 200 ms later), no further hook starts, and
   * the promise rejects at once with `signal.reason` (an `AbortError` `DOMException` unless
   * `abort()` was given another reason). A signal that is already aborted rejects without
   * running anything. The fire removes its listener from the signal when it ends.
   */
  fire(event: Event | string, options?: FireOptions): Promise<Result>
  /**
   * The same fire as `fire()`, blocking the calling thread until it is over; for scripts.
   * Throws what `fire()` rejects with.
   *
   * Refused on a dispatcher with a JavaScript function hook or host callback registered:
   * those run on this very thread, which `fireSync` would be blocking, so it throws an
   * `Error` with `code` `'FIRE_SYNC_WITH_JS_HOOKS'` (before converting the event) instead of
   * deadlocking. Use `await fire()` there.
   */
  fireSync(event: Event | string): Result
  /**
   * Registers a JavaScript function as a hook of `event` (a canonical event name such as
   * `'PreToolUse'`), folded with the configured hooks in configuration order: after them,
   * or before them with `first: true`. Returns its hook id, which its outcomes carry
   * (`type` `'function'`).
   *
   * The function gets the event as a plain object and answers what a command hook would
   * print: an object (its JSON, for example `{ hookSpecificOutput: { ... } }` or
   * `{ decision: 'block', reason }`), a string (read like stdout), or `undefined` (no
   * opinion); or a promise of one of these. A throw or a rejection is a non-blocking error
   * outcome, unless `failClosed`, when it denies. It is called on the JavaScript thread, once
   * per matching fire; calls of concurrent fires interleave at `await`. The registration does
   * not keep the process alive. Once a function is registered, `fireSync` refuses this
   * dispatcher.
   *
   * Throws an `Error` with `code` `'INVALID_CONFIG'` (and `pointer` `'/event'`, `'/matcher'`
   * or `'/timeout_s'`) for an unknown event, a bad matcher or a timeout that is not
   * seconds ≥ 0.001, and for an option of the wrong type or one `FunctionHookOptions` does
   * not have (with `pointer` naming it); a `TypeError` when `options` is not an object.
   */
  addFunctionHook(event: string, fn: (event: Event) => HookAnswer | Promise<HookAnswer>, options?: FunctionHookOptions): string
  /**
   * Registers the host's callback for the `prompt`, `agent` or `mcp_tool` handlers of the
   * configuration, replacing an earlier one for that type. hookwire cannot call a model or
   * an MCP server; the callback does, and answers for the handler. Without a callback such
   * handlers are skipped with a warning.
   *
   * The callback gets `{ type, handler, event, timeout_s }` (the handler as configured, and
   * the event payload as the JSON text a command would read on stdin) and answers an
   * object, or a promise of one: `{ ok: true }` or `{ ok: false, reason, impossible? }` for
   * `prompt` and `agent`, `{ text }` (the tool's output, read like a command's stdout) for
   * `mcp_tool`. A throw or a rejection is an error outcome, and the handler's timeout
   * applies. Once a callback is registered,
   * `fireSync` refuses this dispatcher. Throws an `Error` with `code` `'INVALID_CONFIG'`
   * for another `type`.
   */
  setHostCallback(type: HostCallbackType, fn: (request: HostCallbackRequest) => HostCallbackAnswer | Promise<HostCallbackAnswer>): void
  /**
   * The trust state of every project and local source of this configuration, and of any
   * other source marked `trusted: false` (protocol.md §2.8): the store, the default store,
   * the project directory, and one `TrustSource` per source saying whether it is trusted
   * and why. Nothing is spawned, read or written.
   * After the user approves the untrusted sources, call `recordTrust(config)` and build a
   * new dispatcher. Throws only for a bug in hookwire (`code` `'PANIC'`).
   */
  trustStatus(): TrustStatus
  /**
   * Whether a tool named `toolName` (as the hooks would see it: after the adapter's tool-name
   * map) can reach the hooks configured on tool events: `{ tool_name, hooked, reached,
   * warning }`. `warning` is set when hooks are configured on tool events and no matcher
   * can match the name (a user's `Bash` guard and a framework tool named `bash`), the text
   * to show the user once. Nothing is run. Throws only for a bug in hookwire (`code`
   * `'PANIC'`); a `TypeError` when `toolName` is not a string.
   */
  toolReach(toolName: string): ToolReach
}

/**
 * The configuration Claude Code itself would load for the project at `projectDir`: an
 * envelope with the user file `~/.claude/settings.json`, then the project's
 * `.claude/settings.json` and `.claude/settings.local.json`, the project ones gated on the
 * default trust store (`$XDG_CONFIG_HOME/hookwire/trust.json`, else
 * `~/.config/hookwire/trust.json`). `projectDir` is resolved to its canonical path; one that
 * cannot be resolved throws an `Error` with a system `code` (`'ENOENT'`, ...) and `path`, as
 * Node's `fs` would. Pass the result to `new Dispatcher()`, or use
 * `Dispatcher.fromClaudeCodeDefaults(projectDir)`.
 */
export declare function claudeCodeDefaults(projectDir: string): Config

/**
 * The Claude Code release (`2.1.332`) whose events hookwire knows and whose loop `hostStep`
 * and the adapters reproduce: equal to the C library's `hooks_claude_code_version()` and
 * Python's `hookwire.CLAUDE_CODE_VERSION`, so that a host can tell which behaviour it gets.
 */
export declare const claudeCodeVersion: string

/**
 * Options of `dispatcher.addFunctionHook()`. Read strictly: a key that is not one of these
 * throws `'INVALID_CONFIG'`, as a C host's options would.
 */
export interface FunctionHookOptions {
  /**
   * A Claude Code matcher on the event's matcher field (the tool name for tool events):
   * `'Bash'`, `'Edit|Write'`, a regular expression, `'*'`. Default: every occurrence.
   */
  matcher?: string
  /**
   * Seconds the function may take before its outcome is `'timed_out'`; default as for a
   * command hook of the event.
   */
  timeout?: number
  /**
   * A throw, a rejection or a timeout blocks (denies) where the event can block, instead of
   * being a non-blocking error. Default `false`.
   */
  failClosed?: boolean
  /** Names the hook id `function(<name>):<Event>`; default `function#<n>:<Event>`. */
  name?: string
  /** Runs before the configured hooks in configuration order; default after them. */
  first?: boolean
}

/**
 * The event a host fires, built from what its framework knows (`HostFacts`) by the core's one
 * rule, the same in every language: Claude Code's key order, `transcript_path` only when
 * given, `permission_mode` `'default'` unless given, `tool_name` through the `tool_names` map,
 * `tool_input` always an object, a PostToolUseFailure `error` as `'<error_type>: <error>'`,
 * then `fields`, which never overwrite a key of the rule. The framework adapters build every
 * event they fire with it. Takes the facts as an object or their JSON text; throws an `Error`
 * with `code` `'INVALID_JSON'`, or `'INVALID_EVENT'` (with `pointer` at the fact at fault)
 * for facts of the wrong shape, an unknown key, or an event missing what it needs (a tool
 * event its `tool_name`, UserPromptSubmit its `prompt`), and a `TypeError` for an argument
 * that is neither an object nor a string. Nothing is run.
 */
export declare function hostEvent(facts: HostFacts | string): Event

/**
 * What an agent loop does next with a result (agents.md §5, "Applying a result in a host"):
 * run the tool (with `tool_input` when a hook rewrote it), deny it with `message` as the error
 * tool result, call the model once more with `message`, block the prompt, ... as Claude
 * Code's own loop would. The framework adapters (`hookwire/langchain`, `hookwire/ai`,
 * `hookwire/openai-agents`) are built on it. Takes a `Result` (what `fire()` resolved to) or
 * its JSON text; throws an `Error` with `code` `'INVALID_JSON'` or `'INVALID_EVENT'` for
 * something that is not a result, and a `TypeError` for an argument that is neither an
 * object nor a string.
 */
export declare function hostStep(result: Result | string): HostStep

/**
 * As `hostStep`, for a PostToolUse result of a tool whose output, as JSON text, was
 * `toolResponse`: the step's `tool_output` is kept only when it has the JSON kind of that
 * output, else it is `null` (keep the real output). Throws as `hostStep` does, and an `Error`
 * with `code` `'INVALID_JSON'` for `toolResponse` text that is not JSON.
 */
export declare function hostStepFor(result: Result | string, toolResponse: string): HostStep

/**
 * How many consecutive Stop continuations a framework adapter allows in one run before it
 * ends the turn itself (16): a safety net above the engine's own cap (8 per session), equal to
 * the C library's `HOOKS_MAX_STOP_CONTINUATIONS`. The adapters' `maxStopBlocks` defaults to it.
 */
export declare const maxStopContinuations: number

/**
 * Records trust in every project and local file source of a configuration (the same
 * argument as the `Dispatcher` constructor), as the files read now: their SHA-256 goes to
 * the trust store, `trust.store`, else `$XDG_CONFIG_HOME/hookwire/trust.json` or
 * `~/.config/hookwire/trust.json` (written atomically, mode 0600). Dispatchers built
 * afterwards run those sources until a file changes. Returns the new trust status.
 *
 * Call it only after the user approved what `trustStatus()` showed. Blocks while it reads
 * the files and writes the store. Throws an `Error` with `code` `'INVALID_JSON'`,
 * `'INVALID_CONFIG'` (`pointer` `'/project_dir'` when the project directory is missing),
 * `'PANIC'` or `'INTERNAL'` (the store could not be written), and a `TypeError` when
 * `config` is neither an object nor a string.
 */
export declare function recordTrust(config: Config | string): TrustStatus

/**
 * Sends hookwire's events (docs/logging.md) to `logger`, at `level` and above (default
 * `'info'`), or stops them with `null` (the default; logging off costs nothing).
 *
 * Process-wide: it replaces an earlier logger, and every dispatcher's events go to it. Each
 * record is a plain object `{ level, target, message, fields }`: `fields.event` names the
 * event (`'hook.spawned'`, ...) and the field names are stable. The logger is called on the
 * JavaScript thread, after the engine queued the record without waiting: a record from a
 * `fireSync()` arrives after it returns, one from `fire()` about when its promise settles.
 * A throw in the logger is ignored. The registration does not keep the process alive. Hook
 * stdin, stdout and stderr appear only at `'trace'`.
 *
 * Throws an `Error` with `code` `'INVALID_CONFIG'` for a level that is not `'off'`,
 * `'error'`, `'warn'`, `'info'`, `'debug'` or `'trace'`.
 */
export declare function setLogger(logger: ((record: LogRecord) => void) | null, level?: LogLevel): void

/**
 * The version of hookwire (`MAJOR.MINOR.PATCH`): the crate version, equal to the C
 * library's `hooks_version()` and Python's `hookwire.__version__`.
 *
 * Named in lower case because napi-derive registers a const under its Rust name.
 */
export declare const version: string
