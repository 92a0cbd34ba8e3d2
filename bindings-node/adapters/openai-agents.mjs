// hookwire for the OpenAI Agents SDK (`@openai/agents` 0.20.x): a `Runner` whose `run()`
// fires Claude Code's hooks.
//
//   run()          SessionStart and UserPromptSubmit before the first turn; Stop when the run
//                  ends (block: one more run on the history plus the reason as a user
//                  message); SessionEnd
//   function tools each tool's `invoke` (on a clone of the agent) fires PreToolUse before and
//                  PostToolUse / PostToolUseFailure after the real call; a hook's
//                  `continue: false` switches the clone to `stop_on_first_tool`, so the run
//                  ends after the tool without another model call; a tool with the SDK's
//                  `needsApproval` gets it wrapped, so that PreToolUse comes first
//
// PermissionRequest (Claude Code 2.1.332): a PreToolUse allow approves the call without asking
// (the tool's `needsApproval` is not consulted); otherwise, where `needsApproval` says a human
// must approve, PermissionRequest fires: allow runs the call, deny denies it (the message is
// the tool's output and is shown to the user), and no decision leaves the SDK's approval in
// charge: the run ends with the call in `result.interruptions`, with no Stop and no
// SessionEnd; `state.approve(item)` or `state.reject(item)` and `runner.run(agent, state)` on
// this runner resume it, and the session's Stop and SessionEnd come when that run ends.
// `permissionTools` names calls that need permission where nobody would be asked:
// PermissionRequest decides, and no decision denies. Every event is built by the core's
// `hostEvent` from the facts here.
//
// What a result means comes from the core's host step (`_shared.mjs`); this file only says
// where each step lands in the SDK's terms. Supported: @openai/agents >= 0.20 < 0.21
// (tested 0.20.0).
import { Runner, RunState } from '@openai/agents'
import { HookRunner, PromptBlocked, ToolCallDeferred, asText, denialText, gateNotes, joinNotes } from './_shared.mjs'

export { ToolCallDeferred, PromptBlocked, WARNING_CODE, UNTRUSTED_HOOKS_CODE, UNMATCHED_TOOL_CODE, DEFAULT_TOOL_NAMES } from './_shared.mjs'

/**
 * Whether a function tool's approval policy is one of the SDK's constants (`needsApproval:
 * true` or `false`, or none): the SDK treats those otherwise than a function, so a tool that
 * never asks keeps its constant. From the SDK's internal utilities; when they cannot be
 * loaded, every policy counts as a function (each tool's approval is then wrapped).
 */
let staticPolicy = () => false
try {
  const internal = await import('@openai/agents-core/utils/internal')
  if (typeof internal.hasDynamicFunctionToolApprovalPolicy === 'function') staticPolicy = (t) => !internal.hasDynamicFunctionToolApprovalPolicy(t)
} catch {
  // Another layout of the SDK: wrap every tool's approval.
}

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
 * A run interrupted for tool approval is returned as is; resume its state with this runner.
 */
export class HookwireRunner extends Runner {
  #hooks
  /** The run of each hooked agent clone, so that a resumed RunState finds its session. */
  #runs = new WeakMap()

  /**
   * @param source a `Dispatcher`, or a project directory (string or `{ projectDir }`) loaded
   *   with the `trust` option
   * @param options see `AdapterOptions` in openai-agents.d.mts
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
    if (input instanceof RunState) {
      const run = this.#runs.get(input.currentAgent)
      if (run) return this.#turns(run, input, options)
      hooks.warnOnce('run-state', 'resuming a RunState this runner did not start fires no hooks: start runs from a string or input items')
      return super.run(agent, input, options)
    }
    if (typeof input !== 'string' && !Array.isArray(input)) {
      hooks.warnOnce('run-state', 'resuming a RunState this runner did not start fires no hooks: start runs from a string or input items')
      return super.run(agent, input, options)
    }
    const sid = hooks.sessionId(typeof options?.session?.getSessionId === 'function' ? await options.session.getSessionId() : undefined)
    const run = { sessionId: sid, halted: false, deferred: null, agent: null, blocks: 0 }
    let items
    try {
      const start = await hooks.sessionStart(sid)
      items = typeof input === 'string' ? [{ role: 'user', content: input }] : [...input]
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
      run.agent = await this.#hooked(agent, run)
      this.#runs.set(run.agent, run)
    } catch (error) {
      await hooks.sessionEnd(sid)
      throw error
    }
    return this.#turns(run, items, options)
  }

  /**
   * The SDK's runs of one hooked run: Stop after each, once more on a block; SessionEnd at the
   * end, unless the SDK stopped for tool approval (the turn is not over: no Stop yet).
   */
  async #turns(run, input, options) {
    const hooks = this.#hooks
    const sid = run.sessionId
    let paused = false
    try {
      for (;;) {
        const result = await super.run(run.agent, input, options)
        if (run.deferred) throw run.deferred
        if (run.halted) return result
        if (result.interruptions?.length) {
          paused = true
          return result
        }
        const stop = await hooks.stop(sid, { active: run.blocks > 0, lastAssistantMessage: result.finalOutput === undefined ? null : asText(result.finalOutput), blocksSoFar: run.blocks })
        if (stop.action !== 'continue_turn') return result
        run.blocks += 1
        input = [...result.history, { role: 'user', content: joinNotes(stop.message ?? '', stop.context) }]
      }
    } finally {
      if (!paused) {
        hooks.dropGates(sid)
        await hooks.sessionEnd(sid)
      }
    }
  }

  /** A clone of the agent whose function tools fire the tool hooks. */
  async #hooked(agent, run) {
    const hooks = this.#hooks
    if (agent.handoffs?.length) hooks.warnOnce('handoffs', 'the tools of agents reached by a handoff fire no hooks: only the starting agent\'s tools are wrapped')
    const tools = await Promise.all(agent.tools.map(async (t) => {
      if (t?.type !== 'function' || typeof t.invoke !== 'function') {
        hooks.warnOnce(`hosted:${t?.name}`, `${t?.name ?? 'a tool'} is not a function tool (hosted, shell or computer tool): its calls fire no tool hooks`)
        return t
      }
      const hooked = { ...t, invoke: this.#invoke(t, run) }
      // A tool that never asks keeps the SDK's constant policy; the others ask the hooks first.
      if (!staticPolicy(t) || (await t.needsApproval())) hooked.needsApproval = this.#needsApproval(t, run)
      return hooked
    }))
    return agent.clone({ tools })
  }

  /**
   * A function tool's `needsApproval`: the call's gate (PreToolUse, then PermissionRequest
   * where the tool's own policy asks); `true`, the SDK's approval request, only when no hook
   * decided. The tool's `invoke` applies the rest of the gate.
   */
  #needsApproval(t, run) {
    return async (runContext, args, callId) => {
      const gate = await this.#hooks.gateOnce(run.sessionId, t.name, args, callId, (input) => t.needsApproval(runContext, input, callId))
      return gate.verdict === 'ask'
    }
  }

  /** One function tool's wrapped `invoke`. */
  #invoke(t, run) {
    const hooks = this.#hooks
    const name = t.name
    return async (runContext, inputText, details) => {
      const sid = run.sessionId
      const id = details?.toolCall?.callId
      const input = parseArgs(inputText)
      const gate = await hooks.takeGate(sid, name, input, id)
      if (gate.stop) this.#halt(run)
      if (gate.verdict === 'defer') {
        run.deferred = new ToolCallDeferred({ toolName: name, toolInput: input, toolUseId: id, sessionId: sid })
        this.#halt(run)
        return run.deferred.message
      }
      if (gate.verdict === 'deny') {
        hooks.warnOnce('deny-not-error', 'the Agents SDK has no error flag on a function tool result: a denied call\'s reason is its plain output')
        return denialText(gate)
      }
      // 'run', or 'ask' that the SDK's approval let through (the human approved it).
      const args = gate.input
      let output
      try {
        output = await t.invoke(runContext, gate.rewritten ? JSON.stringify(args) : inputText, details)
      } catch (error) {
        const post = await hooks.postToolUse(sid, name, args, id, { error })
        if (post.stop) this.#halt(run)
        if (post.feedback || post.context) hooks.warnOnce('failure-notes', 'the tool threw, so PostToolUseFailure feedback and context cannot reach the model')
        throw error
      }
      const post = await hooks.postToolUse(sid, name, args, id, { response: output })
      if (post.stop) this.#halt(run)
      const delivered = hooks.outputAfter(post, name, output)
      const notes = joinNotes(gateNotes(gate), post.feedback, post.context)
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
