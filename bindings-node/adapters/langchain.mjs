// hookwire for LangChain.js agents (`createAgent` from `langchain` 1.x): one agent middleware
// that fires Claude Code's hooks at the framework's own interception points.
//
//   beforeAgent   SessionStart, UserPromptSubmit (block: `PromptBlocked` is thrown, so
//                 `invoke` rejects with it; no model call, and the prompt is removed from the
//                 thread at its next run)
//   wrapToolCall  PreToolUse, then PostToolUse / PostToolUseFailure around the real tool
//   wrapModelCall notes the session of the model's tool calls (for hookwireHumanInTheLoop)
//   beforeModel   ends the run after a tool whose hook said `continue: false`
//   afterAgent    Stop (block: one more model turn with the reason), then SessionEnd
//
// PermissionRequest (Claude Code 2.1.332): LangChain's approval is the human-in-the-loop
// middleware; `hookwireHumanInTheLoop(hooks, { interruptOn })` builds it with a `when` for each
// tool that fires PreToolUse first: a hook's allow runs the call without asking; otherwise
// PermissionRequest fires where the middleware would interrupt: allow runs the call, deny
// denies it (the message is the tool's error result and is shown to the user), and no decision
// lets the middleware interrupt the run for its human (`__interrupt__`; resume with
// `new Command({ resume: { decisions } })`). `permissionTools` names calls that need permission
// where nobody would be asked: PermissionRequest decides, and no decision denies. Every event
// is built by the core's `hostEvent` from the facts here.
//
// What a result means comes from the core's host step (`_shared.mjs`); this file only says
// where each step lands in LangChain's terms. Supported: langchain >= 1.0 < 2 (tested 1.5.14
// with @langchain/core 1.4.0).
import { createMiddleware, humanInTheLoopMiddleware, HumanMessage, SystemMessage, ToolMessage } from 'langchain'
import { RemoveMessage } from '@langchain/core/messages'
import { z } from 'zod'
import { HookRunner, PromptBlocked, ToolCallDeferred, asText, denialText, gateNotes, joinNotes } from './_shared.mjs'

export { ToolCallDeferred, PromptBlocked, WARNING_CODE, UNTRUSTED_HOOKS_CODE, UNMATCHED_TOOL_CODE, DEFAULT_TOOL_NAMES } from './_shared.mjs'

/** Where a hookwire middleware keeps what `hookwireHumanInTheLoop` needs of it. */
const PLUMBING = Symbol('hookwire.langchain')

/** The middleware's own state key: the hook session id of the current run. */
const SESSION_KEY = 'hookwireSessionId'

/** The text of a message's content (a string, or content blocks whose text parts are joined). */
function contentText(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((b) => (typeof b === 'string' ? b : b?.type === 'text' ? b.text ?? '' : '')).join('')
  return asText(content)
}

/** The last message of a type ('human', 'ai') in the state, or undefined. */
function lastOf(messages, type) {
  for (let i = (messages?.length ?? 0) - 1; i >= 0; i--) if (messages[i]?._getType?.() === type || messages[i]?.type === type) return messages[i]
  return undefined
}

/** A tool message's content with notes for the model after it (a text block for block content). */
function withNotes(content, notes) {
  if (!notes) return content
  if (Array.isArray(content)) return [...content, { type: 'text', text: notes }]
  const text = asText(content)
  return text ? `${text}\n\n${notes}` : notes
}

/**
 * Claude Code's hooks for a LangChain agent: `createAgent({ model, tools, middleware:
 * [hookwireMiddleware(dispatcher)] })`.
 *
 * @param source a `Dispatcher`, or a project directory (string or `{ projectDir }`) whose
 *   Claude Code settings files are loaded with the `trust` option
 * @param options see `AdapterOptions` in langchain.d.mts
 */
export function hookwireMiddleware(source, options = {}) {
  const hooks = new HookRunner('langchain', source, options)
  /** Per-run state the graph state need not carry: session id → { halted, stopBlocks }. */
  const runs = new Map()
  const runOf = (sid) => {
    let r = runs.get(sid)
    if (!r) runs.set(sid, (r = { halted: false, stopBlocks: 0 }))
    return r
  }
  /** Ids of blocked prompts by session: a thread's checkpoint keeps its input, the next run removes them. */
  const blockedPrompts = new Map()
  /**
   * The session of each tool call the model made, for `hookwireHumanInTheLoop`'s `when`, which
   * sees only the messages of the state (not this middleware's session key).
   */
  const callSessions = new Map()
  const sessionOf = (state, runtime) => state?.[SESSION_KEY] || hooks.sessionId(runtime?.configurable?.thread_id)
  /** The end of a run: its gates are forgotten and the session ends. */
  const endRun = async (sid) => {
    runs.delete(sid)
    hooks.dropGates(sid)
    for (const [id, owner] of callSessions) if (owner === sid) callSessions.delete(id)
    await hooks.sessionEnd(sid)
  }

  const beforeAgent = async (state, runtime) => {
    const sid = hooks.sessionId(runtime?.configurable?.thread_id)
    runs.set(sid, { halted: false, stopBlocks: 0 })
    const stale = blockedPrompts.get(sid)
    blockedPrompts.delete(sid)
    const dropped = (state.messages ?? []).filter((m) => m?.id && stale?.has(m.id)).map((m) => new RemoveMessage({ id: m.id }))
    const start = await hooks.sessionStart(sid)
    const human = lastOf(state.messages, 'human')
    if (!human) {
      const messages = [...dropped, ...(start.context ? [new SystemMessage(start.context)] : [])]
      return { [SESSION_KEY]: sid, ...(messages.length ? { messages } : {}) }
    }
    const prompt = contentText(human.content)
    const submit = await hooks.userPromptSubmit(sid, prompt)
    if (submit.action === 'block_prompt' || submit.stop) {
      // No model call, and the caller gets PromptBlocked as the other adapters' callers do. A
      // throw leaves the thread's checkpoint holding the prompt: its next run removes it.
      if (human.id) blockedPrompts.set(sid, new Set([...(stale ?? []), human.id]))
      await endRun(sid)
      throw new PromptBlocked({ prompt, userMessage: submit.user_message, sessionId: sid })
    }
    const contexts = [start.context, submit.context].filter(Boolean)
    if (contexts.length === 0 && submit.prompt === null) return { [SESSION_KEY]: sid, ...(dropped.length ? { messages: dropped } : {}) }
    // Context goes before the prompt as system messages; the prompt is re-added after them
    // (rewritten when a hook rewrote it). Without a message id it can only be appended to.
    const rewritten = new HumanMessage(submit.prompt ?? human.content)
    const messages = human.id
      ? [...dropped, new RemoveMessage({ id: human.id }), ...contexts.map((c) => new SystemMessage(c)), rewritten]
      : [...dropped, ...contexts.map((c) => new SystemMessage(c))]
    if (!human.id && submit.prompt !== null) hooks.warnOnce('prompt-no-id', 'the prompt message has no id, so a UserPromptSubmit rewrite cannot replace it; the original prompt is sent')
    return { [SESSION_KEY]: sid, messages }
  }

  const contextWarning = () => hooks.warnOnce('context-in-tool-result', 'LangChain has no system message beside a tool result: hook context and PostToolUse feedback are appended to the tool message')

  const wrapToolCall = async (request, handler) => {
    const sid = sessionOf(request.state, request.runtime)
    const call = request.toolCall
    const name = call.name
    // The gate the human-in-the-loop middleware's `when` computed, else PreToolUse (and
    // PermissionRequest for permissionTools) now.
    const gate = await hooks.takeGate(sid, name, call.args ?? {}, call.id)
    if (gate.stop) runOf(sid).halted = true
    if (gate.verdict === 'defer') {
      throw new ToolCallDeferred({ toolName: name, toolInput: call.args ?? {}, toolUseId: call.id, sessionId: sid })
    }
    if (gate.verdict === 'deny') {
      if (gateNotes(gate)) contextWarning()
      return new ToolMessage({ content: denialText(gate), tool_call_id: call.id, name, status: 'error' })
    }
    // 'run', or 'ask' that the human approved (the args the human saw, or edited, already
    // hold the hooks' rewrite).
    const input = gate.verdict === 'ask' ? call.args ?? {} : gate.input
    const req = input !== call.args ? { ...request, toolCall: { ...call, args: input } } : request
    let message
    try {
      message = await handler(req)
    } catch (error) {
      // LangChain re-raises tool errors through wrapToolCall middleware; the hooks see the
      // failure, and the framework's own error handling (toolErrorMiddleware, ...) goes on.
      const post = await hooks.postToolUse(sid, name, input, call.id, { error })
      if (post.stop) runOf(sid).halted = true
      if (post.feedback || post.context) hooks.warnOnce('failure-notes', 'the tool threw, so PostToolUseFailure feedback and context cannot reach the model (LangChain re-raises the error)')
      throw error
    }
    if (!ToolMessage.isInstance(message)) {
      hooks.warnOnce('command-result', `${name} returned a LangGraph Command, not a tool message: PostToolUse hooks do not run for it`)
      return message
    }
    const failed = message.status === 'error'
    const post = await hooks.postToolUse(sid, name, input, call.id, failed ? { error: contentText(message.content) } : { response: message.content })
    if (post.stop) runOf(sid).halted = true
    const content = hooks.outputAfter(post, name, message.content)
    const notes = joinNotes(gateNotes(gate), post.feedback, post.context)
    if (notes) contextWarning()
    if (content === message.content && !notes) return message
    return new ToolMessage({
      content: withNotes(content, notes),
      tool_call_id: message.tool_call_id,
      name: message.name,
      status: message.status,
      artifact: message.artifact,
      id: message.id,
    })
  }

  // Notes the session of the model's tool calls (see callSessions); the call is the model's.
  const wrapModelCall = async (request, handler) => {
    const response = await handler(request)
    const sid = request.state?.[SESSION_KEY]
    if (sid) for (const call of response?.tool_calls ?? []) if (call?.id) callSessions.set(call.id, sid)
    return response
  }

  // A jump to the end from here skips afterAgent, so the session ends here too.
  const beforeModel = async (state, runtime) => {
    const sid = sessionOf(state, runtime)
    if (!runs.get(sid)?.halted) return undefined
    await endRun(sid)
    return { jumpTo: 'end' }
  }

  const afterAgent = async (state, runtime) => {
    const sid = sessionOf(state, runtime)
    const r = runOf(sid)
    if (!r.halted) {
      const last = lastOf(state.messages, 'ai')
      const stop = await hooks.stop(sid, { active: r.stopBlocks > 0, lastAssistantMessage: last ? contentText(last.content) : null, blocksSoFar: r.stopBlocks })
      if (stop.action === 'continue_turn') {
        r.stopBlocks += 1
        return { messages: [new HumanMessage(joinNotes(stop.message ?? '', stop.context))], jumpTo: 'model' }
      }
    }
    await endRun(sid)
    return undefined
  }

  const middleware = createMiddleware({
    name: 'hookwire',
    stateSchema: z.object({ [SESSION_KEY]: z.string().optional() }),
    beforeAgent: { hook: beforeAgent, canJumpTo: ['end'] },
    wrapToolCall,
    wrapModelCall,
    beforeModel: { hook: beforeModel, canJumpTo: ['end'] },
    afterAgent: { hook: afterAgent, canJumpTo: ['model'] },
  })
  const sessionOfCall = (toolCall, state, runtime) => callSessions.get(toolCall.id) ?? sessionOf(state, runtime)
  Object.defineProperty(middleware, PLUMBING, { value: { hooks, sessionOfCall } })
  return middleware
}

/**
 * LangChain's `humanInTheLoopMiddleware` with Claude Code's permission flow: list it after
 * `hooks` (a `hookwireMiddleware`) in `createAgent`'s middleware, with the options
 * `humanInTheLoopMiddleware` takes. For each call of a tool in `interruptOn`, its `when` fires
 * PreToolUse and then, where the middleware would interrupt (the entry's own `when`, if any,
 * says yes), PermissionRequest: a hook's decision runs or denies the call without asking; with
 * none, the middleware interrupts for its human as it would without hooks, showing the input
 * as the hooks left it. An `interruptOn` passed in the run's `context` replaces these entries
 * and their hooks.
 */
export function hookwireHumanInTheLoop(hooks, options = {}) {
  const plumbing = hooks?.[PLUMBING]
  if (!plumbing) throw new TypeError('hookwireHumanInTheLoop: pass the hookwireMiddleware(...) the agent uses, then the human-in-the-loop options')
  const { hooks: runner, sessionOfCall } = plumbing
  const gated = (entry) => {
    const own = entry === true ? {} : entry
    return {
      allowedDecisions: ['approve', 'edit', 'reject'],
      ...own,
      when: async (request) => {
        const { toolCall, state, runtime } = request
        const sid = sessionOfCall(toolCall, state, runtime)
        const asks = async (input) => (typeof own.when === 'function' ? own.when({ ...request, toolCall: { ...toolCall, args: input } }) : true)
        const gate = await runner.gateOnce(sid, toolCall.name, toolCall.args ?? {}, toolCall.id, asks)
        if (gate.verdict !== 'ask') return false
        // The human approves the input the hooks left (Claude Code asks about the rewritten call).
        if (gate.rewritten) toolCall.args = gate.input
        return true
      },
    }
  }
  const interruptOn = Object.fromEntries(Object.entries(options.interruptOn ?? {}).map(([tool, entry]) => [tool, entry === false || entry === null || entry === undefined ? false : gated(entry)]))
  return humanInTheLoopMiddleware({ ...options, interruptOn })
}
