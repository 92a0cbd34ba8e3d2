// hookwire for the Vercel AI SDK (`ai` 7.x): Claude Code's hooks around `generateText`.
//
//   wrapTools(tools)   each tool's `execute` fires PreToolUse before and PostToolUse /
//                      PostToolUseFailure after the real call; its `toModelOutput` carries
//                      hook notes for the model beside the result
//   generateText(opts) SessionStart and UserPromptSubmit before the first model call, the
//                      wrapped tools, a `stopWhen` condition that ends the run after a hook's
//                      `continue: false`, and Stop when the run ends (block: one more
//                      `generateText` call with the reason as a user message), then SessionEnd
//
// What a result means comes from the core's host step (`_shared.mjs`); this file only says
// where each step lands in the AI SDK's terms. Supported: ai >= 7.0 < 8 (tested 7.0.173).
import { generateText as aiGenerateText, stepCountIs } from 'ai'
import { HookRunner, PromptBlocked, ToolCallDeferred, asText, joinNotes } from './_shared.mjs'

export { ToolCallDeferred, PromptBlocked, WARNING_CODE } from './_shared.mjs'

const arrayOf = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])

/** The text of a user message's content (a string, or parts whose text parts are joined). */
function userText(content) {
  if (typeof content === 'string') return content
  return arrayOf(content).map((p) => (p?.type === 'text' ? p.text : '')).join('')
}

/** The parts of a tool result output (ToolResultOutput), as text parts for a 'content' output. */
function outputParts(out) {
  switch (out?.type) {
    case 'content': return out.value
    case 'text': case 'error-text': return [{ type: 'text', text: out.value }]
    default: return [{ type: 'text', text: asText(out?.value) }]
  }
}

/** The options with `text` added as one more system message of the instructions. */
function withInstructions(options, text) {
  if (!text) return options
  const key = options.instructions === undefined && options.system !== undefined ? 'system' : 'instructions'
  const current = arrayOf(options[key]).map((i) => (typeof i === 'string' ? { role: 'system', content: i } : i))
  return { ...options, [key]: [...current, { role: 'system', content: text }] }
}

/** The options with the submitted prompt replaced by `prompt`. */
function withPrompt(options, prompt) {
  if (typeof options.prompt === 'string') return { ...options, prompt }
  const key = Array.isArray(options.messages) ? 'messages' : 'prompt'
  const messages = [...arrayOf(options[key])]
  const i = messages.findLastIndex((m) => m?.role === 'user')
  if (i >= 0) messages[i] = { ...messages[i], content: prompt }
  return { ...options, [key]: messages }
}

/** The prompt text of generateText options: `prompt`, else the last user message. */
function promptOf(options) {
  if (typeof options.prompt === 'string') return options.prompt
  const messages = arrayOf(options.messages ?? options.prompt)
  const last = messages.findLast((m) => m?.role === 'user')
  return last ? userText(last.content) : null
}

/**
 * Claude Code's hooks for AI SDK calls. `const hooks = hookwire(dispatcher)`, then
 * `hooks.generateText({ model, tools, prompt, stopWhen })` instead of `generateText(...)`, or
 * `hooks.wrapTools(tools)` for tool hooks alone.
 *
 * @param source a `Dispatcher`, or a project directory (string or `{ projectDir }`)
 * @param options see `AdapterOptions` in ai.d.ts
 */
export function hookwire(source, options = {}) {
  const hooks = new HookRunner('ai', source, options)
  const instanceSession = hooks.sessionId()
  /** Notes for the model beside a tool result, by tool call id, read by toModelOutput. */
  const notes = new Map()

  /** Marks the run to end after this step; `wrapTools` alone has no loop to end, so it warns. */
  const halt = (run) => {
    run.halted = true
    if (run.standalone) hooks.warnOnce('standalone-halt', 'a hook asked to end the run (continue: false or defer), which wrapTools alone cannot do: use hooks.generateText')
  }

  /** One tool's wrapped `execute`; `run` carries the run's session id and halt/defer flags. */
  const wrapExecute = (name, t, run) => async (input, execOptions) => {
    const id = execOptions?.toolCallId
    const sid = run.sessionId
    const pre = await hooks.preToolUse(sid, name, input, id)
    if (pre.stop) halt(run)
    if (pre.action === 'defer_tool') {
      // The SDK turns a throw into an error result and goes on; `run` ends the loop and the
      // wrapper throws the deferral to the caller.
      halt(run)
      run.deferred = new ToolCallDeferred({ toolName: name, toolInput: input, toolUseId: id, sessionId: sid })
      throw run.deferred
    }
    if (pre.action === 'deny_tool') throw new Error(joinNotes(pre.message ?? '', pre.context))
    const args = pre.tool_input ?? input
    let output
    try {
      output = await t.execute(args, execOptions)
    } catch (error) {
      const post = await hooks.postToolUse(sid, name, args, id, { error: error?.message ?? error })
      if (post.stop) halt(run)
      const extra = joinNotes(pre.context, post.feedback, post.context)
      if (!extra) throw error
      // A tool error reaches the model as its message: the notes go with it.
      const wrapped = new Error(joinNotes(error?.message ?? asText(error), extra), { cause: error })
      throw wrapped
    }
    if (output && typeof output[Symbol.asyncIterator] === 'function') {
      hooks.warnOnce('streaming-tool', `${name} streams its output: PostToolUse hooks do not run for streaming tools`)
      return output
    }
    const post = await hooks.postToolUse(sid, name, args, id, { response: output })
    if (post.stop) halt(run)
    const extra = joinNotes(pre.context, post.feedback, post.context)
    if (extra && id) {
      notes.set(id, extra)
      hooks.warnOnce('notes-in-tool-result', 'the AI SDK has no system message beside a tool result: hook context and PostToolUse feedback go into the tool result as an extra text part')
    }
    return hooks.outputAfter(post, name, output)
  }

  /** The tool's `toModelOutput` with the pending notes of the call appended as a text part. */
  const wrapToModelOutput = (t) => async (arg) => {
    const base = t.toModelOutput
      ? await t.toModelOutput(arg)
      : typeof arg.output === 'string' ? { type: 'text', value: arg.output } : { type: 'json', value: arg.output ?? null }
    const extra = notes.get(arg.toolCallId)
    if (!extra) return base
    notes.delete(arg.toolCallId)
    return { type: 'content', value: [...outputParts(base), { type: 'text', text: extra }] }
  }

  /** The tool set with every executable tool wrapped (provider-executed tools pass as they are). */
  const wrapToolsFor = (tools, run) => Object.fromEntries(Object.entries(tools ?? {}).map(([name, t]) => {
    if (!t || typeof t.execute !== 'function') {
      if (t) hooks.warnOnce(`no-execute:${name}`, `${name} has no execute function (client-side or provider-executed): its calls fire no tool hooks`)
      return [name, t]
    }
    return [name, { ...t, execute: wrapExecute(name, t, run), toModelOutput: wrapToModelOutput(t) }]
  }))

  /**
   * `generateText` with Claude Code's hooks (same options and result). A Stop block calls
   * `generateText` again with the conversation so far and the reason as a user message; the
   * result is that of the last call. Throws `PromptBlocked` when a UserPromptSubmit hook
   * blocked the prompt (no model call), `ToolCallDeferred` when a PreToolUse hook deferred a
   * call (the run ended there).
   */
  async function generateText(callOptions, { sessionId } = {}) {
    const sid = sessionId ?? instanceSession
    const run = { sessionId: sid, halted: false, deferred: null }
    const start = await hooks.sessionStart(sid)
    let opts = callOptions
    const prompt = promptOf(opts)
    let submit = null
    if (prompt !== null) {
      submit = await hooks.userPromptSubmit(sid, prompt)
      if (submit.action === 'block_prompt' || submit.stop) {
        await hooks.sessionEnd(sid)
        throw new PromptBlocked({ prompt, userMessage: submit.user_message, sessionId: sid })
      }
      if (submit.prompt !== null) opts = withPrompt(opts, submit.prompt)
    }
    opts = withInstructions(opts, joinNotes(start.context, submit?.context))
    const userStop = arrayOf(opts.stopWhen ?? stepCountIs(1))
    opts = { ...opts, tools: wrapToolsFor(opts.tools, run), stopWhen: [...userStop, () => run.halted] }
    let blocks = 0
    try {
      for (;;) {
        const result = await aiGenerateText(opts)
        if (run.deferred) throw run.deferred
        if (run.halted) return result
        const stop = await hooks.stop(sid, { active: blocks > 0, lastAssistantMessage: result.text ?? null, blocksSoFar: blocks })
        if (stop.action !== 'continue_turn') return result
        blocks += 1
        const key = Array.isArray(opts.messages) ? 'messages' : 'prompt'
        const before = typeof opts[key] === 'string' ? [{ role: 'user', content: opts[key] }] : arrayOf(opts[key])
        const { prompt: _p, messages: _m, ...rest } = opts
        opts = { ...rest, messages: [...before, ...result.response.messages, { role: 'user', content: joinNotes(stop.message ?? '', stop.context) }] }
      }
    } finally {
      await hooks.sessionEnd(sid)
    }
  }

  return {
    /** The session id fires use when `generateText` is not given one. */
    sessionId: instanceSession,
    /** Tool hooks alone (PreToolUse, PostToolUse): the tool set with each `execute` wrapped. */
    wrapTools: (tools, { sessionId } = {}) => wrapToolsFor(tools, { sessionId: sessionId ?? instanceSession, halted: false, deferred: null, standalone: true }),
    generateText,
  }
}
