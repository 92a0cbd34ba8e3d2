// hookwire for the OpenAI Agents SDK (`@openai/agents` 0.20.x): a `Runner` whose `run()`
// fires Claude Code's hooks.
//
//   run()          SessionStart and UserPromptSubmit before the first turn; Stop when the run
//                  ends (block: one more run on the history plus the reason as a user
//                  message); SessionEnd
//   function tools each tool's `invoke` (on a clone of the agent) fires PreToolUse before and
//                  PostToolUse / PostToolUseFailure after the real call; a hook's
//                  `continue: false` switches the clone to `stop_on_first_tool`, so the run
//                  ends after the tool without another model call
//
// What a result means comes from the core's host step (`_shared.mjs`); this file only says
// where each step lands in the SDK's terms. Supported: @openai/agents >= 0.20 < 0.21
// (tested 0.20.0).
import { Runner } from '@openai/agents'
import { HookRunner, PromptBlocked, ToolCallDeferred, asText, joinNotes } from './_shared.mjs'

export { ToolCallDeferred, PromptBlocked, WARNING_CODE } from './_shared.mjs'

/** The text of a user input item's content (a string, or input_text parts joined). */
function userText(content) {
  if (typeof content === 'string') return content
  return (Array.isArray(content) ? content : []).map((p) => (p?.type === 'input_text' ? p.text : '')).join('')
}

/** The tool input as hooks see it: the parsed JSON arguments (the raw text if not JSON). */
function parseArgs(text) {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * A `Runner` with Claude Code's hooks: `new HookwireRunner(dispatcher).run(agent, input)`.
 * Throws `PromptBlocked` when a UserPromptSubmit hook blocked the prompt (no model call),
 * `ToolCallDeferred` when a PreToolUse hook deferred a call (the run ended there). After a
 * Stop block the result is that of the last run; its `history` holds the whole conversation.
 */
export class HookwireRunner extends Runner {
  #hooks

  /**
   * @param source a `Dispatcher`, or a project directory (string or `{ projectDir }`)
   * @param options see `AdapterOptions` in openai-agents.d.ts
   * @param runConfig the SDK's own `Runner` configuration
   */
  constructor(source, options = {}, runConfig) {
    super(runConfig)
    this.#hooks = new HookRunner('openai-agents', source, options)
  }

  async run(agent, input, options = {}) {
    const hooks = this.#hooks
    if (options?.stream) {
      hooks.warnOnce('stream', 'streamed runs fire no hooks (the Stop loop needs the finished run): use a non-streamed run')
      return super.run(agent, input, options)
    }
    if (typeof input !== 'string' && !Array.isArray(input)) {
      hooks.warnOnce('run-state', 'resuming from a RunState fires no hooks: start runs from a string or input items')
      return super.run(agent, input, options)
    }
    const sid = hooks.sessionId(typeof options?.session?.getSessionId === 'function' ? await options.session.getSessionId() : undefined)
    const run = { sessionId: sid, halted: false, deferred: null, agent: null }
    try {
      const start = await hooks.sessionStart(sid)
      let items = typeof input === 'string' ? [{ role: 'user', content: input }] : [...input]
      const at = items.findLastIndex((i) => i?.role === 'user')
      let submit = null
      if (at >= 0) {
        const prompt = userText(items[at].content)
        submit = await hooks.userPromptSubmit(sid, prompt)
        if (submit.action === 'block_prompt' || submit.stop) throw new PromptBlocked({ prompt, userMessage: submit.user_message, sessionId: sid })
        if (submit.prompt !== null) items[at] = { ...items[at], content: submit.prompt }
      }
      // Context goes before the prompt as system input items.
      const contexts = [start.context, submit?.context].filter(Boolean).map((c) => ({ role: 'system', content: c }))
      if (contexts.length) items = at >= 0 ? [...items.slice(0, at), ...contexts, ...items.slice(at)] : [...contexts, ...items]
      run.agent = this.#hooked(agent, run)
      let blocks = 0
      for (;;) {
        const result = await super.run(run.agent, items, options)
        if (run.deferred) throw run.deferred
        if (run.halted) return result
        const stop = await hooks.stop(sid, { active: blocks > 0, lastAssistantMessage: result.finalOutput === undefined ? null : asText(result.finalOutput), blocksSoFar: blocks })
        if (stop.action !== 'continue_turn') return result
        blocks += 1
        items = [...result.history, { role: 'user', content: joinNotes(stop.message ?? '', stop.context) }]
      }
    } finally {
      await hooks.sessionEnd(sid)
    }
  }

  /** A clone of the agent whose function tools fire the tool hooks. */
  #hooked(agent, run) {
    const hooks = this.#hooks
    if (agent.handoffs?.length) hooks.warnOnce('handoffs', 'the tools of agents reached by a handoff fire no hooks: only the starting agent\'s tools are wrapped')
    const tools = agent.tools.map((t) => {
      if (t?.type !== 'function' || typeof t.invoke !== 'function') {
        hooks.warnOnce(`hosted:${t?.name}`, `${t?.name ?? 'a tool'} is not a function tool (hosted or computer tool): its calls fire no tool hooks`)
        return t
      }
      return { ...t, invoke: this.#invoke(t, run) }
    })
    return agent.clone({ tools })
  }

  /** One function tool's wrapped `invoke`. */
  #invoke(t, run) {
    const hooks = this.#hooks
    const name = t.name
    return async (runContext, inputText, details) => {
      const sid = run.sessionId
      const id = details?.toolCall?.callId
      const input = parseArgs(inputText)
      const pre = await hooks.preToolUse(sid, name, input, id)
      if (pre.stop) this.#halt(run)
      if (pre.action === 'defer_tool') {
        run.deferred = new ToolCallDeferred({ toolName: name, toolInput: input, toolUseId: id, sessionId: sid })
        this.#halt(run)
        return run.deferred.message
      }
      if (pre.action === 'deny_tool') {
        hooks.warnOnce('deny-not-error', 'the Agents SDK has no error flag on a function tool result: a denied call\'s reason is its plain output')
        return joinNotes(pre.message ?? '', pre.context)
      }
      const args = pre.tool_input ?? input
      let output
      try {
        output = await t.invoke(runContext, pre.tool_input ? JSON.stringify(pre.tool_input) : inputText, details)
      } catch (error) {
        const post = await hooks.postToolUse(sid, name, args, id, { error: error?.message ?? error })
        if (post.stop) this.#halt(run)
        if (post.feedback || post.context) hooks.warnOnce('failure-notes', 'the tool threw, so PostToolUseFailure feedback and context cannot reach the model')
        throw error
      }
      const post = await hooks.postToolUse(sid, name, args, id, { response: output })
      if (post.stop) this.#halt(run)
      const delivered = hooks.outputAfter(post, name, output)
      const notes = joinNotes(pre.context, post.feedback, post.context)
      if (!notes) return delivered
      hooks.warnOnce('notes-in-tool-result', 'the Agents SDK has no system message beside a tool result: hook context and PostToolUse feedback are appended to the tool output text')
      return joinNotes(asText(delivered), notes)
    }
  }

  /** Ends the run after the current tool: the SDK's own stop-on-first-tool behaviour. */
  #halt(run) {
    run.halted = true
    if (run.agent) run.agent.toolUseBehavior = 'stop_on_first_tool'
  }
}

/** `new HookwireRunner(source, options, runConfig)`. */
export function hookwireRunner(source, options, runConfig) {
  return new HookwireRunner(source, options, runConfig)
}
