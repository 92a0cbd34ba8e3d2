// The OpenAI Agents SDK adapter against the real `@openai/agents` package: an Agent with a
// scripted `Model` (the SDK's Model interface, no network), a Bash-style function tool, and
// hooks from a settings file run as real command hooks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Agent, tool, Usage, setTracingDisabled } from '@openai/agents'
import { z } from 'zod'
import { HookwireRunner, ToolCallDeferred, PromptBlocked } from '../../adapters/openai-agents.mjs'
import { runSnippet, hookProject, deny, rewrite, defer, postBlock, block, collectWarnings } from './support.mjs'

setTracingDisabled(true)

const text = (t) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: t }] })
const bashCall = (command) => ({ type: 'function_call', callId: 'call_1', name: 'Bash', arguments: JSON.stringify({ command }), status: 'completed' })

/** A scripted Model: answers `turns` in order (the last one repeated); records each input. */
function scripted(...turns) {
  const inputs = []
  const model = {
    async getResponse(request) {
      inputs.push(request.input)
      return { usage: new Usage(), output: [turns[Math.min(inputs.length, turns.length) - 1]], responseId: `r${inputs.length}` }
    },
    async *getStreamedResponse() { throw new Error('not scripted') },
  }
  return { model, inputs }
}

function bashAgent(model) {
  const ran = []
  const Bash = tool({ name: 'Bash', description: 'Run a shell command', parameters: z.object({ command: z.string() }), execute: async ({ command }) => { ran.push(command); return `ran: ${command}` } })
  return { agent: new Agent({ name: 'dev', instructions: 'help', model, tools: [Bash] }), ran }
}

const flat = (v) => JSON.stringify(v)
const toolOutputs = (inputs, i) => inputs[i].filter((item) => item.type === 'function_call_result')

test('a PreToolUse deny keeps the tool from running and gives the model the reason', async () => {
  const p = hookProject({ PreToolUse: deny('no rm here') })
  const { model, inputs } = scripted(bashCall('rm -rf /'), text('ok'))
  const { agent, ran } = bashAgent(model)
  await new HookwireRunner(p.dispatcher).run(agent, 'clean up')
  assert.deepEqual(ran, [])
  assert.match(flat(toolOutputs(inputs, 1)), /no rm here/)
  const pre = p.events('PreToolUse')[0]
  assert.deepEqual([pre.tool_name, pre.tool_input, pre.tool_use_id], ['Bash', { command: 'rm -rf /' }, 'call_1'])
})

test('a PreToolUse updatedInput changes the call that runs and PostToolUse sees it', async () => {
  const p = hookProject({ PreToolUse: rewrite({ command: 'ls -la' }) })
  const { model } = scripted(bashCall('ls'), text('ok'))
  const { agent, ran } = bashAgent(model)
  await new HookwireRunner(p.dispatcher).run(agent, 'list')
  assert.deepEqual(ran, ['ls -la'])
  const post = p.events('PostToolUse')[0]
  assert.deepEqual(post.tool_input, { command: 'ls -la' })
  assert.equal(post.tool_response, 'ran: ls -la')
})

test('a Stop block makes one more model turn with the reason, then the run ends', async () => {
  const p = hookProject({ Stop: [block('run the tests first'), {}] })
  const { model, inputs } = scripted(text('first answer'), text('second answer'))
  const { agent } = bashAgent(model)
  const result = await new HookwireRunner(p.dispatcher).run(agent, 'hi')
  assert.equal(inputs.length, 2)
  assert.match(flat(inputs[1].at(-1)), /run the tests first/)
  assert.match(flat(inputs[1]), /first answer/)
  assert.equal(result.finalOutput, 'second answer')
  assert.deepEqual(p.events('Stop').map((e) => e.stop_hook_active), [false, true])
  assert.equal(new Set(p.events().map((e) => e.session_id)).size, 1)
})

test('an endless Stop block is ended by the engine cap (8 blocks, 9 Stop fires)', async () => {
  const p = hookProject({ Stop: block('never done') })
  const { model, inputs } = scripted(text('again'))
  const { agent } = bashAgent(model)
  await new HookwireRunner(p.dispatcher).run(agent, 'hi')
  assert.equal(p.events('Stop').length, 9)
  assert.equal(inputs.length, 9)
})

test('PostToolUse block and context reach the model beside the tool result, with a warning', async () => {
  const p = hookProject({ PostToolUse: postBlock('output looks wrong', 'remember the style guide') })
  const { model, inputs } = scripted(bashCall('make'), text('ok'))
  const { agent, ran } = bashAgent(model)
  const { warnings } = await collectWarnings(() => new HookwireRunner(p.dispatcher).run(agent, 'build'))
  assert.deepEqual(ran, ['make'])
  const out = flat(toolOutputs(inputs, 1))
  assert.match(out, /ran: make/)
  assert.match(out, /output looks wrong/)
  assert.match(out, /remember the style guide/)
  assert.equal(warnings.filter((w) => /appended to the tool output/.test(w.message)).length, 1)
})

test('a UserPromptSubmit block makes no model call and throws PromptBlocked for the user', async () => {
  const p = hookProject({ UserPromptSubmit: block('not that prompt') })
  const { model, inputs } = scripted(text('never'))
  const { agent } = bashAgent(model)
  await assert.rejects(new HookwireRunner(p.dispatcher).run(agent, 'secret'), (e) => e instanceof PromptBlocked && /not that prompt/.test(e.userMessage))
  assert.equal(inputs.length, 0)
  assert.equal(p.events('SessionEnd').length, 1)
})

test('UserPromptSubmit and SessionStart context reach the model as system items before the prompt', async () => {
  const p = hookProject({ UserPromptSubmit: { stdout: 'branch is main' }, SessionStart: { stdout: 'project uses pnpm' } })
  const { model, inputs } = scripted(text('ok'))
  const { agent } = bashAgent(model)
  await new HookwireRunner(p.dispatcher).run(agent, 'hello')
  const items = inputs[0]
  const user = items.findLastIndex((i) => i.role === 'user')
  const system = flat(items.slice(0, user).filter((i) => i.role === 'system'))
  assert.match(system, /branch is main/)
  assert.match(system, /project uses pnpm/)
  assert.match(flat(items[user]), /hello/)
})

test('a PreToolUse defer ends the run and throws the pending call to the caller', async () => {
  const p = hookProject({ PreToolUse: defer() })
  const { model, inputs } = scripted(bashCall('deploy'), text('never'))
  const { agent, ran } = bashAgent(model)
  await assert.rejects(new HookwireRunner(p.dispatcher).run(agent, 'ship'),
    (e) => e instanceof ToolCallDeferred && e.toolInput.command === 'deploy' && e.toolUseId === 'call_1')
  assert.deepEqual(ran, [])
  assert.equal(inputs.length, 1)
})

test('continue:false on PreToolUse runs the tool, then ends the run without another model call', async () => {
  const p = hookProject({ PreToolUse: { stdout: { continue: false, stopReason: 'enough' } } })
  const { model, inputs } = scripted(bashCall('ls'), text('never'))
  const { agent, ran } = bashAgent(model)
  await new HookwireRunner(p.dispatcher, { onUserMessage: () => {} }).run(agent, 'list')
  assert.deepEqual(ran, ['ls'])
  assert.equal(inputs.length, 1)
  assert.equal(p.events('Stop').length, 0)
})

test('the README snippet runs with a scripted model and tool', async () => {
  const p = hookProject({ PreToolUse: deny('not from README') })
  const { model, inputs } = scripted(bashCall('rm x'), text('ok'))
  const { agent, ran } = bashAgent(model)
  await runSnippet('node-adapter-openai-agents', { model, tools: agent.tools, settingsFile: p.settings })
  assert.deepEqual(ran, [])
  assert.match(flat(toolOutputs(inputs, 1)), /not from README/)
})
