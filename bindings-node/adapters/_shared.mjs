// The part every framework adapter shares: the dispatcher and its trust decision, the facts of
// each event (the core's `hostEvent` builds the event from them: no adapter composes one), the
// tool-name map and its reach check, Claude Code's order for one tool call (PreToolUse, then
// PermissionRequest where someone would be asked), the host step of each result (the core's
// `hostStep`, the one place that says what a result means for the loop), and the texts for the
// user. Nothing here knows a framework; nothing here decides what a result means.
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import hookwire from '../index.js'

const { Dispatcher } = hookwire

/** The warning code of every adapter warning (`process.on('warning')` sees it). */
export const WARNING_CODE = 'HOOKWIRE_ADAPTER'

/** The warning code of project hooks skipped for want of trust (said once per adapter). */
export const UNTRUSTED_HOOKS_CODE = 'HOOKWIRE_UNTRUSTED_HOOKS'

/** The warning code of a tool no hook on a tool event can match (said once per tool). */
export const UNMATCHED_TOOL_CODE = 'HOOKWIRE_UNMATCHED_TOOL'

/**
 * The framework tool names every Node adapter maps to Claude Code's by default, so that a
 * user's `Bash` guard reaches a framework's shell tool. The frameworks name no tools of their
 * own for function tools (the user does), so the map holds the names their prebuilt and
 * provider tools use: `bash` (Anthropic's bash tool), `shell` and `local_shell` (OpenAI's shell
 * tools, in the AI SDK and the Agents SDK), `terminal` (LangChain's ShellTool),
 * `run_shell_command`, `read_file`, `write_file`, `glob`, `grep` (Gemini CLI, MCP servers and
 * deepagents), `edit_file`, `glob_search` and `grep_search` (LangChain's file-search
 * middleware), `web_fetch`, `fetch`, `web_search`. Names another tool of the same name would
 * take (`execute`, `ls`, `str_replace_based_edit_tool`, `apply_patch`) are not mapped.
 */
export const DEFAULT_TOOL_NAMES = Object.freeze({
  bash: 'Bash',
  shell: 'Bash',
  local_shell: 'Bash',
  terminal: 'Bash',
  run_shell_command: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  glob: 'Glob',
  glob_search: 'Glob',
  grep: 'Grep',
  grep_search: 'Grep',
  web_fetch: 'WebFetch',
  fetch: 'WebFetch',
  web_search: 'WebSearch',
})

const TRUST_CHOICES = ['store', 'trusted', 'untrusted']

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
function hostStepOf(result, event) {
  // A PostToolUse replacement output is the core's to accept: it must fit what the tool returned.
  if (event?.hook_event_name !== 'PostToolUse') return hookwire.hostStep(result)
  const step = hookwire.hostStepFor(result, JSON.stringify(event.tool_response ?? null))
  const replaced = result.updated_tool_output !== null && result.updated_tool_output !== undefined
  step.tool_output_refused = replaced && (step.tool_output === null || step.tool_output === undefined)
  return step
}

/** The project directory of a hook source given as one (a string or `{ projectDir }`), else null. */
function projectDirOf(source) {
  if (typeof source === 'string') return source
  if (source && typeof source === 'object' && !(source instanceof Dispatcher) && typeof source.projectDir === 'string') return source.projectDir
  return null
}

/**
 * A Dispatcher from what the user passed: a Dispatcher (its trust was decided when it was
 * built), or a project directory, whose Claude Code settings files are loaded with the host's
 * trust choice: `store` (the trust store decides, as `Dispatcher.fromClaudeCodeDefaults`),
 * `trusted` (the host vouches for the project's files: the envelope's `trust.project`) or
 * `untrusted` (the project and local files are skipped).
 */
export function toDispatcher(source, trust) {
  const dir = projectDirOf(source)
  if (dir !== null) {
    const envelope = hookwire.claudeCodeDefaults(dir)
    if (trust !== 'store') envelope.trust = { ...envelope.trust, project: trust }
    return new Dispatcher(envelope)
  }
  if (source instanceof Dispatcher || (source && typeof source.fire === 'function')) return source // or a look-alike (tests, proxies)
  throw new TypeError('hookwire adapter: pass a Dispatcher, or a project directory (string or { projectDir }) to load Claude Code\'s settings files from')
}

/**
 * The tool-name map of the `toolNames` option: `undefined` gives `DEFAULT_TOOL_NAMES`; an
 * object adds its entries to them (an entry wins over a default of the same name); `null` or
 * `{}` turns the map off.
 */
export function toolNameMap(option) {
  if (option === undefined) return { ...DEFAULT_TOOL_NAMES }
  if (option === null) return {}
  const entries = option instanceof Map ? [...option] : typeof option === 'object' && !Array.isArray(option) ? Object.entries(option) : null
  if (entries === null || entries.some(([k, v]) => typeof k !== 'string' || typeof v !== 'string')) {
    throw new TypeError('hookwire adapter: toolNames must map framework tool names to hook tool names ({ bash: \'Bash\' }), or be null')
  }
  return entries.length === 0 ? {} : { ...DEFAULT_TOOL_NAMES, ...Object.fromEntries(entries) }
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

/** A plain JSON object (what a tool input must be). */
export function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** Joins non-empty notes for the model with a blank line. */
export function joinNotes(...notes) {
  return notes.filter((n) => typeof n === 'string' && n.length > 0).join('\n\n')
}

/** The message and type of what a tool threw, as PostToolUseFailure's facts. */
function errorFacts(error) {
  if (error instanceof Error) return { error: error.message ?? '', error_type: error.name || undefined }
  return { error: asText(error) }
}

/**
 * One adapter instance's hook runner: the dispatcher, the options, per-session state (started
 * sessions), the tool gates of calls the framework's approval saw first, and the once-only
 * warnings.
 */
export class HookRunner {
  /**
   * @param {string} adapter the adapter's name, in warnings
   * @param {*} source a Dispatcher or a project dir
   * @param {object} options AdapterOptions (_shared.d.mts)
   */
  constructor(adapter, source, options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError(`hookwire ${adapter} adapter: options must be an object`)
    this.adapter = adapter
    const trust = options.trust ?? 'store'
    if (!TRUST_CHOICES.includes(trust)) throw new TypeError(`hookwire ${adapter} adapter: trust must be 'store', 'trusted' or 'untrusted', not ${JSON.stringify(trust)}`)
    const projectDir = projectDirOf(source)
    if (options.trust !== undefined && projectDir === null) {
      throw new TypeError(`hookwire ${adapter} adapter: trust applies to a project directory; a Dispatcher's trust was decided when it was built (its configuration's trust.project)`)
    }
    this.dispatcher = toDispatcher(source, trust)
    this.toolNames = toolNameMap(options.toolNames)
    const permissionTools = options.permissionTools
    if (permissionTools !== undefined && permissionTools !== null && typeof permissionTools !== 'function' && typeof permissionTools[Symbol.iterator] !== 'function') {
      throw new TypeError(`hookwire ${adapter} adapter: permissionTools must be tool names or a function (toolName, toolInput) => boolean`)
    }
    this.permissionTools = typeof permissionTools === 'string' ? [permissionTools] : permissionTools
    this.cwd = options.cwd ?? process.cwd()
    this.permissionMode = options.permissionMode
    this.transcriptPath = options.transcriptPath
    this.fixedSessionId = options.sessionId
    this.onUserMessage = options.onUserMessage
    this.maxStopBlocks = options.maxStopBlocks ?? hookwire.maxStopContinuations
    this.warned = new Set()
    this.startedSessions = new Set()
    this.reachChecked = new Set()
    /** Gates of tool calls, by session and call id (see `gateOnce`). */
    this.gates = new Map()
    /** Labels of the sources the trust check reported: the engine's own warning for them is not repeated. */
    this.untrustedLabels = []
    this.checkTrust(projectDir, trust)
  }

  /**
   * Says once, with code `HOOKWIRE_UNTRUSTED_HOOKS`, which project and local hook files exist
   * but do not run for want of trust, and the call that trusts them. Quiet when the host chose
   * `trust: 'untrusted'`, and for a file that does not exist.
   */
  checkTrust(projectDir, trust) {
    if (typeof this.dispatcher.trustStatus !== 'function') return
    const status = this.dispatcher.trustStatus()
    const skipped = status.sources.filter((s) => !s.trusted && (s.scope === 'project' || s.scope === 'local'))
    this.untrustedLabels = skipped.map((s) => s.label)
    if (trust === 'untrusted') return
    const present = skipped.filter((s) => typeof s.resolved === 'string' && existsSync(s.resolved))
    if (present.length === 0) return
    const files = present.map((s) => s.resolved).join(', ')
    const how = projectDir !== null
      ? `review them, then trust them with recordTrust(claudeCodeDefaults(${JSON.stringify(projectDir)})) from 'hookwire' and build the adapter again, or pass { trust: 'trusted' } if this host vouches for the project's files`
      : 'review them, then trust them with recordTrust(config) from \'hookwire\' (config: what this Dispatcher was built from) and build a new Dispatcher, or build it with trust.project \'trusted\' if this host vouches for the project\'s files'
    process.emitWarning(`hookwire ${this.adapter} adapter: the project's hooks in ${files} are not trusted, so they do not run (a tool they guard runs unguarded); ${how}`, { code: UNTRUSTED_HOOKS_CODE })
  }

  /** The session id of a run: the configured one, the framework's (thread id), else a new one. */
  sessionId(frameworkId) {
    if (typeof this.fixedSessionId === 'string' && this.fixedSessionId) return this.fixedSessionId
    if (typeof frameworkId === 'string' && frameworkId) return frameworkId
    return randomUUID()
  }

  /** Warns once per adapter instance and kind, through Node's warnings (never silently). */
  warnOnce(kind, message, code = WARNING_CODE) {
    if (this.warned.has(kind)) return
    this.warned.add(kind)
    process.emitWarning(`hookwire ${this.adapter} adapter: ${message}`, { code, detail: kind })
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

  /** The name hooks see for a framework tool: through the tool-name map. */
  hookName(toolName) {
    return Object.hasOwn(this.toolNames, toolName) ? this.toolNames[toolName] : toolName
  }

  /**
   * The first time a tool is called: whether any hook on a tool event can match its mapped
   * name (the core's `toolReach`); if none can while such hooks exist, says so once.
   */
  checkReach(toolName) {
    const name = this.hookName(toolName)
    if (this.reachChecked.has(name) || typeof this.dispatcher.toolReach !== 'function') return
    this.reachChecked.add(name)
    const reach = this.dispatcher.toolReach(name)
    if (reach.warning) process.emitWarning(`hookwire ${this.adapter} adapter: ${reach.warning}`, { code: UNMATCHED_TOOL_CODE, detail: toolName })
  }

  /** Whether an engine warning is the trust gate's about a source `checkTrust` accounted for. */
  isTrustWarning(w) {
    return this.untrustedLabels.some((label) => w.startsWith(`${label}: `)) && w.includes('are not trusted; skipped')
  }

  /**
   * Fires one event, built by the core's `hostEvent` from the facts (`facts` has the event's
   * own), and returns its host step. The user is shown `user_message`, and `message` when the
   * step's `seen_by` gives it to them, unless `tellMessage` is false: then the caller shows
   * it once it applies the step (a PermissionRequest left to the framework's approval is not a
   * denial).
   */
  async fire(event, sessionId, facts = {}, { tellMessage = true } = {}) {
    const built = hookwire.hostEvent({
      event,
      session_id: sessionId,
      cwd: this.cwd,
      ...(typeof this.transcriptPath === 'string' ? { transcript_path: this.transcriptPath } : {}),
      ...(typeof this.permissionMode === 'string' ? { permission_mode: this.permissionMode } : {}),
      tool_names: this.toolNames,
      ...facts,
    })
    const result = await this.dispatcher.fire(built)
    for (const w of result.warnings ?? []) if (!this.isTrustWarning(w)) this.warnOnce(`engine:${w}`, w)
    const step = hostStepOf(result, built)
    step.decided = result.decision !== null && result.decision !== undefined
    if (tellMessage) this.tellMessage(step)
    this.tellUser(step.user_message, event)
    return step
  }

  /**
   * Shows the user a step's `message` when its `seen_by` gives it to them (Claude Code 2.1.332
   * shows an ask turned deny, and a PermissionRequest denial, to the user as well): never guessed here.
   */
  tellMessage(step) {
    if (step.message && step.seen_by?.message && step.seen_by.message !== 'model') this.tellUser(step.message, step.event)
  }

  /** SessionStart, once per session id and adapter instance ('resume' when seen before). */
  async sessionStart(sessionId) {
    const source = this.startedSessions.has(sessionId) ? 'resume' : 'startup'
    this.startedSessions.add(sessionId)
    return this.fire('SessionStart', sessionId, { source })
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
    this.checkReach(toolName)
    const step = await this.fire('PreToolUse', sessionId, { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId })
    return this.objectInput(step, 'PreToolUse', toolName)
  }

  /** PermissionRequest for a call someone would be asked about; its message is told by the caller. */
  async permissionRequest(sessionId, toolName, toolInput) {
    const step = await this.fire('PermissionRequest', sessionId, { tool_name: toolName, tool_input: toolInput, fields: { permission_suggestions: [] } }, { tellMessage: false })
    return this.objectInput(step, 'PermissionRequest', toolName)
  }

  /** A run_tool step whose rewritten input is not a plain object runs the input it was given. */
  objectInput(step, event, toolName) {
    if (step.action === 'run_tool' && step.tool_input !== null && step.tool_input !== undefined && !isPlainObject(step.tool_input)) {
      this.warnOnce('bad-tool-input', `a ${event} hook rewrote the input of ${toolName} to a non-object; the call runs with the input it had`)
      return { ...step, tool_input: null }
    }
    return step
  }

  /** Whether the `permissionTools` option says a call needs permission. */
  listedForPermission(toolName, toolInput) {
    const needs = this.permissionTools
    if (typeof needs === 'function') return Boolean(needs(toolName, toolInput))
    if (needs && typeof needs[Symbol.iterator] === 'function') return [...needs].includes(toolName)
    return false
  }

  /**
   * Claude Code's order for one tool call (2.1.332): PreToolUse; a hook's allow (the step's
   * `approved`) runs the call without asking anyone, and PermissionRequest does not fire;
   * otherwise, where someone would be asked, PermissionRequest: an allow runs the call (with
   * its input), a deny denies it, and without a decision the framework's own approval asks
   * its human (`frameworkAsks`, the framework's approval for the input as PreToolUse left
   * it), while a `permissionTools` call, which nobody would be asked about, is denied.
   *
   * Returns the gate: `{ verdict, step, pre, input, rewritten, stop }`, where `verdict` is
   * `'run'` (run the tool with `input`), `'ask'` (leave the call to the framework's approval,
   * with `input`), `'deny'` (do not run it: `denialText(gate)` is the tool result; the user
   * has been shown what `seen_by` gives them) or `'defer'`; `step` is the deciding step, `pre`
   * the PreToolUse one (its `context` goes beside the result), `rewritten` says a hook changed
   * the input, and `stop` ends the run after this call.
   */
  async gate(sessionId, toolName, toolInput, toolUseId, frameworkAsks) {
    const pre = await this.preToolUse(sessionId, toolName, toolInput, toolUseId)
    const gate = (verdict, step, input, stop) => ({ verdict, step, pre, input, rewritten: input !== toolInput, stop })
    if (pre.action === 'defer_tool') return gate('defer', pre, toolInput, true)
    if (pre.action !== 'run_tool') return gate('deny', pre, toolInput, pre.stop)
    const input = pre.tool_input ?? toolInput
    if (pre.approved) return gate('run', pre, input, pre.stop)
    const asks = frameworkAsks ? Boolean(await frameworkAsks(input)) : false
    if (!asks && !this.listedForPermission(toolName, input)) return gate('run', pre, input, pre.stop)
    const perm = await this.permissionRequest(sessionId, toolName, input)
    const stop = pre.stop || perm.stop
    if (perm.action === 'run_tool') return gate('run', perm, perm.tool_input ?? input, stop)
    if (asks && !perm.decided) return gate('ask', perm, input, stop)
    this.tellMessage(perm)
    return gate('deny', perm, input, stop)
  }

  /**
   * The gate of a call the framework's approval sees before the tool runs: computed once per
   * session and call id (the framework may ask again for the same call, and the tool, run
   * later, takes it with `takeGate`).
   */
  async gateOnce(sessionId, toolName, toolInput, toolUseId, frameworkAsks) {
    const key = `${sessionId}\u0000${toolUseId}`
    let pending = this.gates.get(key)
    if (!pending) {
      pending = this.gate(sessionId, toolName, toolInput, toolUseId, frameworkAsks)
      this.gates.set(key, pending)
      pending.catch(() => this.gates.delete(key))
    }
    return pending
  }

  /**
   * The gate of a call about to run: the one its approval computed, else a new one (a call no
   * approval saw: PreToolUse, and PermissionRequest for `permissionTools`).
   */
  async takeGate(sessionId, toolName, toolInput, toolUseId) {
    const key = `${sessionId}\u0000${toolUseId}`
    const pending = toolUseId !== undefined ? this.gates.get(key) : undefined
    if (pending) {
      this.gates.delete(key)
      return pending
    }
    return this.gate(sessionId, toolName, toolInput, toolUseId, null)
  }

  /** Forgets the gates of a session (its run ended; a call approved later gets a new gate). */
  dropGates(sessionId) {
    for (const key of this.gates.keys()) if (key.startsWith(`${sessionId}\u0000`)) this.gates.delete(key)
  }

  /** PostToolUse (the tool returned) or PostToolUseFailure (it threw: `error` is what it threw). */
  async postToolUse(sessionId, toolName, toolInput, toolUseId, outcome) {
    const facts = { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId }
    if ('error' in outcome) return this.fire('PostToolUseFailure', sessionId, { ...facts, ...errorFacts(outcome.error) })
    return this.fire('PostToolUse', sessionId, { ...facts, tool_response: outcome.response ?? null })
  }

  /**
   * The tool output to deliver after a deliver_result step: the replacement when it has the
   * shape of the real output, else the real one (with a warning).
   */
  outputAfter(step, toolName, original) {
    if (step.tool_output !== null && step.tool_output !== undefined) return step.tool_output
    if (!step.tool_output_refused) return original
    this.warnOnce('tool-output-shape', `a PostToolUse hook's updated tool output for ${toolName} does not have the shape of the tool's output; the real output is kept`)
    return original
  }

  /**
   * Stop (or SubagentStop). `active` says a Stop block made the current model turn. Returns
   * the step; on continue_turn past `maxStopBlocks` consecutive blocks, the adapter's own
   * safety bound (the core's `maxStopContinuations` by default), an end_turn step with a
   * warning instead.
   */
  async stop(sessionId, { active, lastAssistantMessage, blocksSoFar }) {
    const step = await this.fire('Stop', sessionId, {
      stop_hook_active: Boolean(active),
      ...(typeof lastAssistantMessage === 'string' ? { last_assistant_message: lastAssistantMessage } : {}),
    })
    if (step.action === 'continue_turn' && blocksSoFar >= this.maxStopBlocks) {
      this.warnOnce('stop-bound', `Stop hooks blocked ${blocksSoFar} times in a row; the adapter's bound (maxStopBlocks ${this.maxStopBlocks}) ends the turn`)
      return { ...step, action: 'end_turn', message: null }
    }
    return step
  }
}

/** The notes for the model beside a gated call's result: PreToolUse's context, then PermissionRequest's. */
export function gateNotes(gate) {
  return joinNotes(gate.pre.context, gate.step !== gate.pre ? gate.step.context : null)
}

/** The tool result text of a denied call: the denial's message, then the notes. */
export function denialText(gate) {
  return joinNotes(gate.step.message ?? '', gateNotes(gate))
}
