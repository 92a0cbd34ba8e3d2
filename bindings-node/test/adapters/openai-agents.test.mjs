// The OpenAI Agents SDK adapter against the real `@openai/agents` package: an Agent with a
// scripted `Model` (the SDK's Model interface, no network), a Bash-style function tool, and
// hooks from a settings file run as real command hooks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Agent, tool, Usage, setTracingDisabled } from '@openai/agents'
import { z } from 'zod'
import { HookwireRunner, ToolCallDeferred, PromptBlocked } from '../../adapters/openai-agents.mjs'
import {
  runSnippet, hookProject, rawEventProject, assertFiredAsBuilt, inGuardedProject, assertUntrustedWarnedOnce, assertTrustedRoutesDeny, deny, allow, rewrite, defer, postBlock, block, permission,
  systemMessage, NOT_ALLOWED, collectWarnings,
} from './support.mjs'

setTracingDisabled(true)

const text = (t) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: t }] })
const toolCall = (name, command, callId = 'call_1') => ({ type: 'function_call', callId, name, arguments: JSON.stringify({ command }), status: 'completed' })
const bashCall = (command) => toolCall('Bash', command)

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

/** An agent with one shell-style function tool named `name` (with `extra` settings, e.g. needsApproval) that records what it ran. */
function shellAgent(model, name, extra = {}) {
  const ran = []
  const shell = tool({ name, description: 'Run a shell command', parameters: z.object({ command: z.string() }), ...extra, execute: async ({ command }) => { ran.push(command); return `ran: ${command}` } })
  return { agent: new Agent({ name: 'dev', instructions: 'help', model, tools: [shell] }), ran }
}

const bashAgent = (model) => shellAgent(model, 'Bash')

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

// One event builder (the core's hostEvent), tool names, trust, the continuation bound.

test('the fired event is hostEvent\'s for the same facts: no transcript_path, permission_mode default', async () => {
  const r = rawEventProject('PreToolUse')
  const { model } = scripted(toolCall('bash', 'ls'), text('ok'))
  const { agent } = shellAgent(model, 'bash')
  await new HookwireRunner(r.dispatcher, { sessionId: 's-shape', cwd: r.dir }).run(agent, 'list')
  assertFiredAsBuilt(r, 's-shape')
})

test('a framework tool named bash is denied by a Bash guard through the default tool-name map', async () => {
  const p = hookProject({ PreToolUse: deny('no shell here') })
  const { model, inputs } = scripted(toolCall('bash', 'rm -rf /'), text('ok'))
  const { agent, ran } = shellAgent(model, 'bash')
  await new HookwireRunner(p.dispatcher).run(agent, 'go')
  assert.deepEqual(ran, [])
  assert.match(flat(toolOutputs(inputs, 1)), /no shell here/)
  assert.equal(p.events('PreToolUse')[0].tool_name, 'Bash')
})

test('an unmapped tool no Bash guard can reach warns once; toolNames maps it, null turns the defaults off', async () => {
  const p = hookProject({ PreToolUse: deny('no shell here') })
  const first = scripted(toolCall('run_it', 'a', 'call_1'), toolCall('run_it', 'b', 'call_2'), text('ok'))
  const unmapped = shellAgent(first.model, 'run_it')
  const { warnings } = await collectWarnings(() => new HookwireRunner(p.dispatcher).run(unmapped.agent, 'go'))
  assert.deepEqual(unmapped.ran, ['a', 'b'])
  const unmatched = warnings.filter((w) => w.code === 'HOOKWIRE_UNMATCHED_TOOL')
  assert.equal(unmatched.length, 1)
  assert.match(unmatched[0].message, /"run_it".*Bash/)
  const mapped = shellAgent(scripted(toolCall('run_it', 'c'), text('ok')).model, 'run_it')
  await new HookwireRunner(p.dispatcher, { toolNames: new Map([['run_it', 'Bash']]) }).run(mapped.agent, 'go')
  assert.deepEqual(mapped.ran, [])
  const plain = shellAgent(scripted(toolCall('bash', 'd'), text('ok')).model, 'bash')
  const off = await collectWarnings(() => new HookwireRunner(p.dispatcher, { toolNames: null }).run(plain.agent, 'go'))
  assert.deepEqual(plain.ran, ['d'])
  assert.equal(off.warnings.filter((w) => w.code === 'HOOKWIRE_UNMATCHED_TOOL').length, 1)
})

test('a fresh project\'s untrusted Bash guard warns once, naming recordTrust and trust: \'trusted\'; the tool runs', () => inGuardedProject(async (dir) => {
  const { model } = scripted(bashCall('ls'), text('ok'))
  const { agent, ran } = bashAgent(model)
  const { warnings } = await collectWarnings(() => new HookwireRunner(dir).run(agent, 'go'))
  assert.deepEqual(ran, ['ls'])
  assertUntrustedWarnedOnce(warnings)
}))

test('the trusted routes deny: trust: \'trusted\', and recordTrust', () => inGuardedProject((dir) => assertTrustedRoutesDeny(dir, async (options) => {
  const { model, inputs } = scripted(bashCall('ls'), text('ok'))
  const { agent, ran } = bashAgent(model)
  await new HookwireRunner(dir, options).run(agent, 'go')
  return { ran, text: flat(toolOutputs(inputs, 1)) }
})))

// PermissionRequest (Claude Code 2.1.332) where the SDK's own approval (needsApproval) would
// ask a human.

test('PermissionRequest allow approves a needsApproval call: it runs without an interruption', async () => {
  const p = hookProject({ PermissionRequest: permission('allow') })
  const { model, inputs } = scripted(bashCall('ls'), text('done'))
  const { agent, ran } = shellAgent(model, 'Bash', { needsApproval: true })
  const told = []
  const result = await new HookwireRunner(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) }).run(agent, 'list')
  assert.deepEqual([ran, result.interruptions ?? [], result.finalOutput], [['ls'], [], 'done'])
  assert.deepEqual(p.events('PermissionRequest').map((e) => [e.tool_name, e.tool_input]), [['Bash', { command: 'ls' }]])
  assert.match(flat(toolOutputs(inputs, 1)), /ran: ls/)
  assert.deepEqual(told, [])
})

test('PermissionRequest deny: the call does not run; the model and the user get the message', async () => {
  const p = hookProject({ PermissionRequest: permission('deny', 'no shell today') })
  const { model, inputs } = scripted(bashCall('ls'), text('done'))
  const { agent, ran } = shellAgent(model, 'Bash', { needsApproval: async () => true })
  const told = []
  const result = await new HookwireRunner(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) }).run(agent, 'list')
  assert.deepEqual([ran, result.interruptions ?? []], [[], []])
  assert.match(flat(toolOutputs(inputs, 1)), /no shell today/)
  assert.deepEqual(told, [['no shell today', 'PermissionRequest']])
})

test('PermissionRequest without a decision leaves the SDK\'s interruption to the caller; the approved state resumes', async () => {
  const p = hookProject({})
  const { model } = scripted(bashCall('ls'), text('done'))
  const { agent, ran } = shellAgent(model, 'Bash', { needsApproval: true })
  const told = []
  const runner = new HookwireRunner(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) })
  const paused = await runner.run(agent, 'list')
  assert.deepEqual(paused.interruptions.map((i) => [i.name, i.arguments]), [['Bash', JSON.stringify({ command: 'ls' })]])
  assert.deepEqual([ran, p.events('Stop'), p.events('SessionEnd'), told], [[], [], [], []])
  paused.state.approve(paused.interruptions[0])
  const done = await runner.run(agent, paused.state)
  assert.deepEqual([ran, done.finalOutput], [['ls'], 'done'])
  const count = (e) => p.events(e).length
  assert.deepEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd'].map(count), [1, 1, 1, 1, 1, 1, 1])
})

test('a PreToolUse allow approves a needsApproval call without asking, and fires no PermissionRequest', async () => {
  const p = hookProject({ PreToolUse: allow() })
  const { model } = scripted(bashCall('ls'), text('done'))
  const { agent, ran } = shellAgent(model, 'Bash', { needsApproval: true })
  const result = await new HookwireRunner(p.dispatcher).run(agent, 'list')
  assert.deepEqual([ran, result.interruptions ?? [], p.events('PermissionRequest')], [['ls'], [], []])
})

test('permissionTools: PermissionRequest decides where nobody is asked, and no decision denies', async () => {
  const p = hookProject({})
  const { model, inputs } = scripted(bashCall('ls'), text('done'))
  const { agent, ran } = bashAgent(model)
  await new HookwireRunner(p.dispatcher, { permissionTools: (name) => name === 'Bash', onUserMessage: () => {} }).run(agent, 'list')
  assert.deepEqual(ran, [])
  assert.match(flat(toolOutputs(inputs, 1)), new RegExp(NOT_ALLOWED))
})

test('a PreToolUse system message reaches the user, never the model', async () => {
  const p = hookProject({ PreToolUse: systemMessage('heads up: a shell command') })
  const { model, inputs } = scripted(bashCall('ls'), text('done'))
  const { agent, ran } = bashAgent(model)
  const told = []
  await new HookwireRunner(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) }).run(agent, 'list')
  assert.deepEqual([ran, p.events('PermissionRequest')], [['ls'], []])
  assert.deepEqual(told, [['heads up: a shell command', 'PreToolUse']])
  assert.doesNotMatch(flat(inputs), /heads up/)
})
