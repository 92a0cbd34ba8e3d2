// hookwire for the Vercel AI SDK (`ai` 7.x): Claude Code's hooks around `generateText`.
//
//   wrapTools(tools)   each tool's `execute` fires PreToolUse before and PostToolUse /
//                      PostToolUseFailure after the real call; its `toModelOutput` carries
//                      hook notes for the model beside the result; a tool's own `needsApproval`
//                      is wrapped so that PreToolUse (and PermissionRequest) come first
//   generateText(opts) SessionStart and UserPromptSubmit before the first model call, the
//                      wrapped tools, a `toolApproval` that fires PreToolUse and, where the
//                      SDK's approval (`toolApproval`, `needsApproval`) would ask a human,
//                      PermissionRequest, a `stopWhen` condition that ends the run after a
//                      hook's `continue: false`, and Stop when the run ends (block: one more
//                      `generateText` call with the reason as a user message), then SessionEnd
//
// PermissionRequest (Claude Code 2.1.332): a PreToolUse allow approves the call without asking;
// otherwise, where the SDK would ask for approval, PermissionRequest fires: allow approves it,
// deny denies it (the message is the tool's error result and is shown to the user), and no
// decision leaves the SDK's approval in charge (the result carries its `tool-approval-request`;
// the run is paused: no Stop, no SessionEnd until the caller's next `generateText` with the
// approval response, which fires no SessionStart or UserPromptSubmit). `permissionTools` names
// calls that need permission where nobody would be asked: PermissionRequest decides, and no
// decision denies. Every event is built by the core's `hostEvent` from the facts here.
//
// What a result means comes from the core's host step (`_shared.mjs`); this file only says
// where each step lands in the AI SDK's terms. Supported: ai >= 7.0 < 8 (tested 7.0.173).
import { generateText as aiGenerateText, stepCountIs } from 'ai'
import { HookRunner, PromptBlocked, ToolCallDeferred, asText, denialText, gateNotes, joinNotes } from './_shared.mjs'

export { ToolCallDeferred, PromptBlocked, WARNING_CODE, UNTRUSTED_HOOKS_CODE, UNMATCHED_TOOL_CODE, DEFAULT_TOOL_NAMES } from './_shared.mjs'

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

/** The messages of generateText options (`messages`, or `prompt` given as messages). */
const messagesOf = (options) => (typeof options.prompt === 'string' ? [{ role: 'user', content: options.prompt }] : arrayOf(options.messages ?? options.prompt))

/** The prompt text of generateText options: `prompt`, else the last user message. */
function promptOf(options) {
  const last = messagesOf(options).findLast((m) => m?.role === 'user')
  return last ? userText(last.content) : null
}

/**
 * A call that goes on with a conversation instead of submitting a prompt: its last message is
 * a tool message (the answers to tool approval requests, or tool results), not the user's.
 */
const continues = (options) => messagesOf(options).at(-1)?.role === 'tool'

/**
 * The run stopped for the SDK's tool approval: a human is asked, the turn is not over. (An
 * `approved` status leaves an automatic request in the content, answered already.)
 */
const awaitsApproval = (result) => (result?.content ?? []).some((p) => p?.type === 'tool-approval-request' && !p.isAutomatic)

/** A tool approval status as the SDK normalises it (`undefined` and strings to objects). */
const statusOf = (s) => (s === undefined || s === null ? { type: 'not-applicable' } : typeof s === 'string' ? { type: s } : s)

/**
 * What the SDK's own approval says of a call (its `resolveToolApproval`, for the input as
 * PreToolUse left it): the call's `toolApproval` option (a function of every call, or an entry
 * per tool), else the tool's `needsApproval`.
 */
async function sdkApproval(toolApproval, tool, ctx, input) {
  const { toolCall, toolsContext, messages, runtimeContext } = ctx
  const name = toolCall.toolName
  if (typeof toolApproval === 'function') return statusOf(await toolApproval({ ...ctx, toolCall: { ...toolCall, input } }))
  const own = toolApproval && Object.hasOwn(toolApproval, name) ? toolApproval[name] : undefined
  if (own !== undefined && own !== null) {
    return statusOf(typeof own === 'function' ? await own(input, { toolCallId: toolCall.toolCallId, messages, toolContext: toolsContext?.[name], runtimeContext }) : own)
  }
  const needs = tool?.needsApproval
  if (needs === undefined || needs === null) return statusOf(undefined)
  const asks = typeof needs === 'function' ? await needs(input, { toolCallId: toolCall.toolCallId, messages, context: toolsContext?.[name] }) : needs
  return statusOf(asks ? 'user-approval' : undefined)
}

/**
 * Claude Code's hooks for AI SDK calls. `const hooks = hookwire(dispatcher)`, then
 * `hooks.generateText({ model, tools, prompt, stopWhen })` instead of `generateText(...)`, or
 * `hooks.wrapTools(tools)` for tool hooks alone.
 *
 * @param source a `Dispatcher`, or a project directory (string or `{ projectDir }`) loaded with
 *   the `trust` option
 * @param options see `AdapterOptions` in ai.d.mts
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

  /**
   * One tool's wrapped `execute`: the call's gate (computed when the SDK asked for approval,
   * else here: PreToolUse, and PermissionRequest for `permissionTools`), the real call, then
   * PostToolUse or PostToolUseFailure. `run` carries the run's session id and halt/defer flags.
   */
  const wrapExecute = (name, t, run) => async (input, execOptions) => {
    const id = execOptions?.toolCallId
    const sid = run.sessionId
    const gate = await hooks.takeGate(sid, name, input, id)
    if (gate.stop) halt(run)
    if (gate.verdict === 'defer') {
      // The SDK turns a throw into an error result and goes on; `run` ends the loop and the
      // wrapper throws the deferral to the caller.
      halt(run)
      run.deferred = new ToolCallDeferred({ toolName: name, toolInput: input, toolUseId: id, sessionId: sid })
      throw run.deferred
    }
    if (gate.verdict === 'deny') throw new Error(denialText(gate))
    // 'run', or 'ask' that the SDK's approval let through (the human approved it).
    const args = gate.input
    let output
    try {
      output = await t.execute(args, execOptions)
    } catch (error) {
      const post = await hooks.postToolUse(sid, name, args, id, { error })
      if (post.stop) halt(run)
      const extra = joinNotes(gateNotes(gate), post.feedback, post.context)
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
    const extra = joinNotes(gateNotes(gate), post.feedback, post.context)
    if (extra && id) {
      notes.set(id, extra)
      hooks.warnOnce('notes-in-tool-result', 'the AI SDK has no system message beside a tool result: hook context and PostToolUse feedback go into the tool result as an extra text part')
    }
    return hooks.outputAfter(post, name, output)
  }

  /**
   * A tool's `needsApproval` for `wrapTools` alone: PreToolUse, then PermissionRequest where
   * the tool's own `needsApproval` would ask; `true` (ask the human) only without a decision.
   */
  const wrapNeedsApproval = (name, t, run) => async (input, approvalOptions) => {
    const ask = async (args) => (typeof t.needsApproval === 'function' ? t.needsApproval(args, approvalOptions) : t.needsApproval)
    const gate = await hooks.gateOnce(run.sessionId, name, input, approvalOptions?.toolCallId, ask)
    return gate.verdict === 'ask'
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

  /** Whether the adapter hooks a tool: one the SDK executes here (provider-executed ones pass as they are). */
  const hooked = (t) => Boolean(t) && typeof t.execute === 'function'

  /** The tool set with every executable tool wrapped. */
  const wrapToolsFor = (tools, run) => Object.fromEntries(Object.entries(tools ?? {}).map(([name, t]) => {
    if (!hooked(t)) {
      if (t) hooks.warnOnce(`no-execute:${name}`, `${name} has no execute function (client-side or provider-executed): its calls fire no tool hooks`)
      return [name, t]
    }
    const wrapped = { ...t, execute: wrapExecute(name, t, run), toModelOutput: wrapToModelOutput(t) }
    if (run.standalone && t.needsApproval !== undefined && t.needsApproval !== null) wrapped.needsApproval = wrapNeedsApproval(name, t, run)
    return [name, wrapped]
  }))

  /**
   * The `toolApproval` of a hooked `generateText` call, for every tool call: the call's gate.
   * A hook's allow approves the call (`approved`); a denial or a deferral lets `execute` apply
   * it; a PermissionRequest allow approves it; otherwise the SDK's own approval (`toolApproval`
   * of the call, else the tool's `needsApproval`) stands, `user-approval` asking the human.
   */
  const approvalFor = (toolApproval, tools, run) => async (ctx) => {
    const name = ctx.toolCall.toolName
    const t = tools?.[name]
    if (!hooked(t)) return sdkApproval(toolApproval, t, ctx, ctx.toolCall.input)
    let sdk
    const gate = await hooks.gateOnce(run.sessionId, name, ctx.toolCall.input, ctx.toolCall.toolCallId, async (input) => {
      sdk = await sdkApproval(toolApproval, t, ctx, input)
      return sdk.type === 'user-approval'
    })
    if (gate.verdict === 'ask') return sdk ?? { type: 'user-approval' }
    if (gate.verdict !== 'run') return { type: 'not-applicable' }
    // A hook's allow approves a call the SDK would ask about (the SDK records it as approved
    // automatically); a call without any approval setting stays as it was.
    const configured = sdk ? sdk.type === 'user-approval' : (toolApproval !== undefined && toolApproval !== null) || (t.needsApproval !== undefined && t.needsApproval !== null)
    if (gate.step.approved && configured) return { type: 'approved' }
    return sdk ?? { type: 'not-applicable' }
  }

  /**
   * `generateText` with Claude Code's hooks (same options and result). A Stop block calls
   * `generateText` again with the conversation so far and the reason as a user message; the
   * result is that of the last call. A run the SDK stopped for tool approval is returned as it
   * is, before Stop. Throws `PromptBlocked` when a UserPromptSubmit hook blocked the prompt (no
   * model call), `ToolCallDeferred` when a PreToolUse hook deferred a call (the run ended
   * there).
   */
  async function generateText(callOptions, { sessionId } = {}) {
    const sid = sessionId ?? instanceSession
    const run = { sessionId: sid, halted: false, deferred: null }
    let opts = callOptions
    let contexts = []
    if (!continues(opts)) {
      const start = await hooks.sessionStart(sid)
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
      contexts = [start.context, submit?.context]
    }
    opts = withInstructions(opts, joinNotes(...contexts))
    const userStop = arrayOf(opts.stopWhen ?? stepCountIs(1))
    opts = { ...opts, tools: wrapToolsFor(opts.tools, run), toolApproval: approvalFor(opts.toolApproval, opts.tools, run), stopWhen: [...userStop, () => run.halted] }
    let blocks = 0
    let paused = false
    try {
      for (;;) {
        const result = await aiGenerateText(opts)
        if (run.deferred) throw run.deferred
        if (run.halted) return result
        // The SDK asks a human to approve a call: the turn goes on when the caller answers.
        if (awaitsApproval(result)) {
          paused = true
          return result
        }
        const stop = await hooks.stop(sid, { active: blocks > 0, lastAssistantMessage: result.text ?? null, blocksSoFar: blocks })
        if (stop.action !== 'continue_turn') return result
        blocks += 1
        const { prompt: _p, messages: _m, ...rest } = opts
        opts = { ...rest, messages: [...messagesOf(opts), ...result.response.messages, { role: 'user', content: joinNotes(stop.message ?? '', stop.context) }] }
      }
    } finally {
      if (!paused) {
        hooks.dropGates(sid)
        await hooks.sessionEnd(sid)
      }
    }
  }

  return {
    /** The session id fires use when `generateText` is not given one. */
    sessionId: instanceSession,
    /** Tool hooks alone (PreToolUse, PermissionRequest, PostToolUse): the tool set with each `execute` (and `needsApproval`) wrapped. */
    wrapTools: (tools, { sessionId } = {}) => wrapToolsFor(tools, { sessionId: sessionId ?? instanceSession, halted: false, deferred: null, standalone: true }),
    generateText,
  }
}
