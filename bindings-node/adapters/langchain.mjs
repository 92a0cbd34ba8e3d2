// hookwire for LangChain.js agents (`createAgent` from `langchain` 1.x): one agent middleware
// that fires Claude Code's hooks at the framework's own interception points.
//
//   beforeAgent   SessionStart, UserPromptSubmit (block: jump to the end, no model call)
//   wrapToolCall  PreToolUse, then PostToolUse / PostToolUseFailure around the real tool
//   beforeModel   ends the run after a tool whose hook said `continue: false`
//   afterAgent    Stop (block: one more model turn with the reason), then SessionEnd
//
// What a result means comes from the core's host step (`_shared.mjs`); this file only says
// where each step lands in LangChain's terms. Supported: langchain >= 1.0 < 2 (tested 1.5.14
// with @langchain/core 1.4.0).
import { createMiddleware, HumanMessage, SystemMessage, ToolMessage } from 'langchain'
import { RemoveMessage } from '@langchain/core/messages'
import { z } from 'zod'
import { HookRunner, PromptBlocked, ToolCallDeferred, asText, joinNotes } from './_shared.mjs'

export { ToolCallDeferred, PromptBlocked, WARNING_CODE } from './_shared.mjs'

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
 *   Claude Code settings files are loaded with `Dispatcher.fromClaudeCodeDefaults`
 * @param options see `AdapterOptions` in langchain.d.ts
 */
export function hookwireMiddleware(source, options = {}) {
  const hooks = new HookRunner('langchain', source, options)
  /** Per-run state the graph state need not carry: session id → { halted, blocked, stopBlocks }. */
  const runs = new Map()
  const runOf = (sid) => {
    let r = runs.get(sid)
    if (!r) runs.set(sid, (r = { halted: false, blocked: false, stopBlocks: 0 }))
    return r
  }
  const sessionOf = (state, runtime) => state?.[SESSION_KEY] || hooks.sessionId(runtime?.configurable?.thread_id)

  const beforeAgent = async (state, runtime) => {
    const sid = hooks.sessionId(runtime?.configurable?.thread_id)
    runs.set(sid, { halted: false, blocked: false, stopBlocks: 0 })
    const start = await hooks.sessionStart(sid)
    const human = lastOf(state.messages, 'human')
    if (!human) return { [SESSION_KEY]: sid, ...(start.context ? { messages: [new SystemMessage(start.context)] } : {}) }
    const prompt = contentText(human.content)
    const submit = await hooks.userPromptSubmit(sid, prompt)
    if (submit.action === 'block_prompt' || submit.stop) {
      // No model call; the blocked prompt leaves the conversation (it never reached the model).
      runOf(sid).blocked = true
      return { [SESSION_KEY]: sid, jumpTo: 'end', ...(human.id ? { messages: [new RemoveMessage({ id: human.id })] } : {}) }
    }
    const contexts = [start.context, submit.context].filter(Boolean)
    if (contexts.length === 0 && submit.prompt === null) return { [SESSION_KEY]: sid }
    // Context goes before the prompt as system messages; the prompt is re-added after them
    // (rewritten when a hook rewrote it). Without a message id it can only be appended to.
    const rewritten = new HumanMessage(submit.prompt ?? human.content)
    const messages = human.id
      ? [new RemoveMessage({ id: human.id }), ...contexts.map((c) => new SystemMessage(c)), rewritten]
      : contexts.map((c) => new SystemMessage(c))
    if (!human.id && submit.prompt !== null) hooks.warnOnce('prompt-no-id', 'the prompt message has no id, so a UserPromptSubmit rewrite cannot replace it; the original prompt is sent')
    return { [SESSION_KEY]: sid, messages }
  }

  const wrapToolCall = async (request, handler) => {
    const sid = sessionOf(request.state, request.runtime)
    const call = request.toolCall
    const name = call.name
    const pre = await hooks.preToolUse(sid, name, call.args ?? {}, call.id)
    if (pre.stop) runOf(sid).halted = true
    if (pre.action === 'defer_tool') {
      throw new ToolCallDeferred({ toolName: name, toolInput: call.args ?? {}, toolUseId: call.id, sessionId: sid })
    }
    if (pre.action === 'deny_tool') {
      if (pre.context) hooks.warnOnce('context-in-tool-result', 'LangChain has no system message beside a tool result: hook context and PostToolUse feedback are appended to the tool message')
      return new ToolMessage({ content: joinNotes(pre.message ?? '', pre.context), tool_call_id: call.id, name, status: 'error' })
    }
    const input = pre.tool_input ?? call.args ?? {}
    const req = pre.tool_input ? { ...request, toolCall: { ...call, args: pre.tool_input } } : request
    let message
    try {
      message = await handler(req)
    } catch (error) {
      // LangChain re-raises tool errors through wrapToolCall middleware; the hooks see the
      // failure, and the framework's own error handling (toolErrorMiddleware, ...) goes on.
      const post = await hooks.postToolUse(sid, name, input, call.id, { error: error?.message ?? error })
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
    const notes = joinNotes(pre.context, post.feedback, post.context)
    if (notes) hooks.warnOnce('context-in-tool-result', 'LangChain has no system message beside a tool result: hook context and PostToolUse feedback are appended to the tool message')
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

  // A jump to the end from here skips afterAgent, so the session ends here too.
  const beforeModel = async (state, runtime) => {
    const sid = sessionOf(state, runtime)
    if (!runs.get(sid)?.halted) return undefined
    runs.delete(sid)
    await hooks.sessionEnd(sid)
    return { jumpTo: 'end' }
  }

  const afterAgent = async (state, runtime) => {
    const sid = sessionOf(state, runtime)
    const r = runOf(sid)
    if (!r.blocked && !r.halted) {
      const last = lastOf(state.messages, 'ai')
      const stop = await hooks.stop(sid, { active: r.stopBlocks > 0, lastAssistantMessage: last ? contentText(last.content) : null, blocksSoFar: r.stopBlocks })
      if (stop.action === 'continue_turn') {
        r.stopBlocks += 1
        return { messages: [new HumanMessage(joinNotes(stop.message ?? '', stop.context))], jumpTo: 'model' }
      }
    }
    runs.delete(sid)
    await hooks.sessionEnd(sid)
    return undefined
  }

  return createMiddleware({
    name: 'hookwire',
    stateSchema: z.object({ [SESSION_KEY]: z.string().optional() }),
    beforeAgent: { hook: beforeAgent, canJumpTo: ['end'] },
    wrapToolCall,
    beforeModel: { hook: beforeModel, canJumpTo: ['end'] },
    afterAgent: { hook: afterAgent, canJumpTo: ['model'] },
  })
}
