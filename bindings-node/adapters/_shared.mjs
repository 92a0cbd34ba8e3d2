// The part every framework adapter shares: building Claude-Code-shaped events from what the
// adapter knows, firing them, turning each result into the host step (the core's `hostStep`,
// the one place that says what a result means for the loop), surfacing user messages and
// warnings. Nothing here knows a framework; nothing here decides what a result means.
import { randomUUID } from 'node:crypto'
import hookwire from '../index.js'

const { Dispatcher } = hookwire

/** The warning code of every adapter warning (`process.on('warning')` sees it). */
export const WARNING_CODE = 'HOOKWIRE_ADAPTER'

/** Consecutive Stop blocks an adapter honours at most, whatever the engine's own cap says. */
export const DEFAULT_MAX_STOP_BLOCKS = 16

/**
 * A PreToolUse hook deferred the call: the tool did not run and the run ended. The caller
 * inspects `toolName`, `toolInput` and `toolUseId` and decides (Claude Code's
 * `terminal_reason: tool_deferred`).
 */
export class ToolCallDeferred extends Error {
  constructor({ toolName, toolInput, toolUseId, sessionId }) {
    super(`hookwire: a PreToolUse hook deferred the call of ${toolName} (${toolUseId}); the run ended without running it`)
    this.name = 'ToolCallDeferred'
    this.toolName = toolName
    this.toolInput = toolInput
    this.toolUseId = toolUseId
    this.sessionId = sessionId
  }
}

/**
 * A UserPromptSubmit hook blocked the prompt: no model call was made. `userMessage` is the
 * text for the user (never the model).
 */
export class PromptBlocked extends Error {
  constructor({ prompt, userMessage, sessionId }) {
    super(userMessage || 'hookwire: a UserPromptSubmit hook blocked the prompt')
    this.name = 'PromptBlocked'
    this.prompt = prompt
    this.userMessage = userMessage
    this.sessionId = sessionId
  }
}

/**
 * The one call of the core's host step. Kept in one function so the adapters depend on its
 * contract in one place (protocol: agents.md §5, "Applying a result in a host").
 */
function hostStepOf(result) {
  return hookwire.hostStep(result)
}

/** A Dispatcher from what the user passed: a Dispatcher, or a project dir (Claude Code's files). */
export function toDispatcher(source) {
  if (source instanceof Dispatcher) return source
  if (source && typeof source.fire === 'function') return source // a look-alike (tests, proxies)
  if (typeof source === 'string') return Dispatcher.fromClaudeCodeDefaults(source)
  if (source && typeof source === 'object' && typeof source.projectDir === 'string') {
    return Dispatcher.fromClaudeCodeDefaults(source.projectDir)
  }
  throw new TypeError('hookwire adapter: pass a Dispatcher, or a project directory (string or { projectDir }) to load Claude Code\'s settings files from')
}

/** Text of any value as a model would read it: strings as they are, the rest as JSON. */
export function asText(value) {
  if (typeof value === 'string') return value
  if (value === undefined) return ''
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Whether a replacement tool output has the JSON shape of the tool's real output. */
export function fitsLike(original, replacement) {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
  return replacement !== null && replacement !== undefined && kind(original) === kind(replacement)
}

/** A plain JSON object (what a tool input must be). */
export function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Joins non-empty notes for the model with a blank line. */
export function joinNotes(...notes) {
  return notes.filter((n) => typeof n === 'string' && n.length > 0).join('\n\n')
}

/**
 * One adapter instance's hook runner: the dispatcher, the options, per-session state (started
 * sessions, consecutive Stop blocks) and the once-per-kind warnings.
 */
export class HookRunner {
  /**
   * @param {string} adapter the adapter's name, in warnings
   * @param {*} source a Dispatcher or a project dir
   * @param {object} options AdapterOptions (index of each adapter's .d.ts)
   */
  constructor(adapter, source, options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`hookwire ${adapter} adapter: options must be an object`)
    this.adapter = adapter
    this.dispatcher = toDispatcher(source)
    this.cwd = options.cwd ?? process.cwd()
    this.permissionMode = options.permissionMode ?? 'default'
    this.transcriptPath = options.transcriptPath
    this.fixedSessionId = options.sessionId
    this.onUserMessage = options.onUserMessage
    this.maxStopBlocks = options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS
    this.warned = new Set()
    this.startedSessions = new Set()
  }

  /** The session id of a run: the configured one, the framework's (thread id), else a new one. */
  sessionId(frameworkId) {
    if (typeof this.fixedSessionId === 'string' && this.fixedSessionId) return this.fixedSessionId
    if (typeof frameworkId === 'string' && frameworkId) return frameworkId
    return randomUUID()
  }

  /** Warns once per adapter instance and kind, through Node's warnings (never silently). */
  warnOnce(kind, message) {
    if (this.warned.has(kind)) return
    this.warned.add(kind)
    process.emitWarning(`hookwire ${this.adapter} adapter: ${message}`, { code: WARNING_CODE, detail: kind })
  }

  /** Text for the user: to the `onUserMessage` callback, else as a Node warning. */
  tellUser(text, event) {
    if (typeof text !== 'string' || !text) return
    if (typeof this.onUserMessage === 'function') {
      try {
        this.onUserMessage(text, { event })
      } catch (e) {
        this.warnOnce('onUserMessage-threw', `onUserMessage threw: ${e && e.message}`)
      }
      return
    }
    process.emitWarning(text, { code: 'HOOKWIRE_USER_MESSAGE', detail: event })
  }

  /**
   * Fires one event and returns its host step. The common fields (session id, cwd,
   * permission mode, transcript path) are added here; `fields` has the event's own.
   */
  async fire(hookEventName, sessionId, fields) {
    const event = {
      session_id: sessionId,
      ...(typeof this.transcriptPath === 'string' ? { transcript_path: this.transcriptPath } : {}),
      cwd: this.cwd,
      permission_mode: this.permissionMode,
      hook_event_name: hookEventName,
      ...fields,
    }
    const result = await this.dispatcher.fire(event)
    for (const w of result.warnings ?? []) this.warnOnce(`engine:${w}`, w)
    const step = hostStepOf(result)
    // The step says who sees each text (Claude Code 2.1.332 shows an ask turned deny, and a
    // PermissionRequest denial, to the user as well): never guessed here.
    if (step.message && step.seen_by?.message && step.seen_by.message !== 'model') this.tellUser(step.message, hookEventName)
    this.tellUser(step.user_message, hookEventName)
    return step
  }

  /** SessionStart, once per session id and adapter instance ('resume' when seen before). */
  async sessionStart(sessionId, extra = {}) {
    const source = this.startedSessions.has(sessionId) ? 'resume' : 'startup'
    this.startedSessions.add(sessionId)
    return this.fire('SessionStart', sessionId, { source, ...extra })
  }

  /** SessionEnd at the end of a run (Claude Code headless: one run, one session end). */
  async sessionEnd(sessionId, reason = 'other') {
    return this.fire('SessionEnd', sessionId, { reason })
  }

  /** UserPromptSubmit with the prompt text. */
  async userPromptSubmit(sessionId, prompt) {
    return this.fire('UserPromptSubmit', sessionId, { prompt })
  }

  /** PreToolUse; the step's `tool_input`, when not a plain object, is dropped with a warning. */
  async preToolUse(sessionId, toolName, toolInput, toolUseId) {
    const step = await this.fire('PreToolUse', sessionId, { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId })
    if (step.action === 'run_tool' && step.tool_input !== null && step.tool_input !== undefined && !isPlainObject(step.tool_input)) {
      this.warnOnce('bad-tool-input', `a PreToolUse hook rewrote the input of ${toolName} to a non-object; the call runs with the model's input`)
      return { ...step, tool_input: null }
    }
    return step
  }

  /** PostToolUse (the tool returned) or PostToolUseFailure (it threw: `error` is the text). */
  async postToolUse(sessionId, toolName, toolInput, toolUseId, outcome) {
    const fields = { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId }
    if ('error' in outcome) {
      return this.fire('PostToolUseFailure', sessionId, { ...fields, error: asText(outcome.error), is_interrupt: false })
    }
    return this.fire('PostToolUse', sessionId, { ...fields, tool_response: outcome.response })
  }

  /**
   * The tool output to deliver after a deliver_result step: the replacement when it has the
   * shape of the real output, else the real one (with a warning).
   */
  outputAfter(step, toolName, original) {
    if (step.tool_output === null || step.tool_output === undefined) return original
    if (fitsLike(original, step.tool_output)) return step.tool_output
    this.warnOnce('tool-output-shape', `a PostToolUse hook's updated tool output for ${toolName} does not have the shape of the tool's output; the real output is kept`)
    return original
  }

  /**
   * Stop (or SubagentStop). `active` says a Stop block made the current model turn. Returns
   * the step; on continue_turn past `maxStopBlocks` consecutive blocks, the adapter's own
   * safety bound, an end_turn step with a warning instead.
   */
  async stop(sessionId, { active, lastAssistantMessage, blocksSoFar }) {
    const step = await this.fire('Stop', sessionId, {
      stop_hook_active: Boolean(active),
      last_assistant_message: lastAssistantMessage ?? null,
    })
    if (step.action === 'continue_turn' && blocksSoFar >= this.maxStopBlocks) {
      this.warnOnce('stop-bound', `Stop hooks blocked ${blocksSoFar} times in a row; the adapter's bound (maxStopBlocks ${this.maxStopBlocks}) ends the turn`)
      return { ...step, action: 'end_turn', message: null }
    }
    return step
  }
}
