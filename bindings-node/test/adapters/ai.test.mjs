// The AI SDK adapter against the real `ai` package: generateText with the SDK's own mock
// model (MockLanguageModelV4 from ai/test), a Bash-style tool, and hooks from a settings file
// run as real command hooks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { tool, stepCountIs, generateText } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { z } from 'zod'
import { hookwire, ToolCallDeferred, PromptBlocked } from '../../adapters/ai.mjs'
import {
  runSnippet, hookProject, rawEventProject, assertFiredAsBuilt, inGuardedProject, assertUntrustedWarnedOnce, assertTrustedRoutesDeny, deny, allow, rewrite, defer, postBlock, block, permission,
  systemMessage, NOT_ALLOWED, collectWarnings,
} from './support.mjs'

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } }
const text = (t) => ({ content: [{ type: 'text', text: t }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] })
const toolCall = (toolName, command, toolCallId = 'call_1') => ({ content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify({ command }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] })
const bashCall = (command) => toolCall('Bash', command)

/** A mock model answering `turns` in order (the last one repeated); records each prompt. */
function scripted(...turns) {
  const prompts = []
  const model = new MockLanguageModelV4({ doGenerate: async (o) => { prompts.push(o.prompt); return turns[Math.min(prompts.length, turns.length) - 1] } })
  return { model, prompts }
}

/** A tool set with one shell-style tool named `name` (with `extra` settings, e.g. needsApproval) that records what it ran. */
function shellTools(name, extra = {}) {
  const ran = []
  const shell = tool({ description: 'Run a shell command', inputSchema: z.object({ command: z.string() }), ...extra, execute: async ({ command }) => { ran.push(command); return `ran: ${command}` } })
  return { tools: { [name]: shell }, ran }
}

const bashTool = () => shellTools('Bash')

/** The tool-result parts of the prompt of model call `i`. */
const toolResults = (prompts, i) => prompts[i].filter((m) => m.role === 'tool').flatMap((m) => m.content)
const flat = (v) => JSON.stringify(v)

test('a PreToolUse deny keeps the tool from running and gives the model the reason', async () => {
  const p = hookProject({ PreToolUse: deny('no rm here') })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('rm -rf /'), text('ok'))
  await hookwire(p.dispatcher).generateText({ model, tools, prompt: 'clean up', stopWhen: stepCountIs(5) })
  assert.deepEqual(ran, [])
  const [result] = toolResults(prompts, 1)
  assert.equal(result.output.type, 'error-text')
  assert.match(result.output.value, /no rm here/)
  const pre = p.events('PreToolUse')[0]
  assert.deepEqual([pre.tool_name, pre.tool_input, pre.tool_use_id], ['Bash', { command: 'rm -rf /' }, 'call_1'])
})

test('a PreToolUse updatedInput changes the call that runs and PostToolUse sees it', async () => {
  const p = hookProject({ PreToolUse: rewrite({ command: 'ls -la' }) })
  const { tools, ran } = bashTool()
  const { model } = scripted(bashCall('ls'), text('ok'))
  await hookwire(p.dispatcher).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual(ran, ['ls -la'])
  const post = p.events('PostToolUse')[0]
  assert.deepEqual(post.tool_input, { command: 'ls -la' })
  assert.equal(post.tool_response, 'ran: ls -la')
})

test('a Stop block makes one more model turn with the reason, then the run ends', async () => {
  const p = hookProject({ Stop: [block('run the tests first'), {}] })
  const { model, prompts } = scripted(text('first answer'), text('second answer'))
  const result = await hookwire(p.dispatcher).generateText({ model, prompt: 'hi' })
  assert.equal(prompts.length, 2)
  assert.match(flat(prompts[1].at(-1)), /run the tests first/)
  assert.equal(prompts[1].at(-1).role, 'user')
  assert.match(flat(prompts[1]), /first answer/)
  assert.equal(result.text, 'second answer')
  assert.deepEqual(p.events('Stop').map((e) => e.stop_hook_active), [false, true])
  assert.equal(new Set(p.events().map((e) => e.session_id)).size, 1)
})

test('an endless Stop block is ended by the engine cap (8 blocks, 9 Stop fires)', async () => {
  const p = hookProject({ Stop: block('never done') })
  const { model, prompts } = scripted(text('again'))
  await hookwire(p.dispatcher).generateText({ model, prompt: 'hi' })
  assert.equal(p.events('Stop').length, 9)
  assert.equal(prompts.length, 9)
})

test('PostToolUse block and context reach the model beside the tool result, with a warning', async () => {
  const p = hookProject({ PostToolUse: postBlock('output looks wrong', 'remember the style guide') })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('make'), text('ok'))
  const { warnings } = await collectWarnings(() => hookwire(p.dispatcher).generateText({ model, tools, prompt: 'build', stopWhen: stepCountIs(5) }))
  assert.deepEqual(ran, ['make'])
  const out = flat(toolResults(prompts, 1)[0].output)
  assert.match(out, /ran: make/)
  assert.match(out, /output looks wrong/)
  assert.match(out, /remember the style guide/)
  assert.equal(warnings.filter((w) => /extra text part/.test(w.message)).length, 1)
})

test('a UserPromptSubmit block makes no model call and throws PromptBlocked for the user', async () => {
  const p = hookProject({ UserPromptSubmit: block('not that prompt') })
  const { model, prompts } = scripted(text('never'))
  await assert.rejects(hookwire(p.dispatcher).generateText({ model, prompt: 'secret' }), (e) => e instanceof PromptBlocked && /not that prompt/.test(e.userMessage))
  assert.equal(prompts.length, 0)
  assert.equal(p.events('SessionEnd').length, 1)
})

test('UserPromptSubmit and SessionStart context reach the model as system messages', async () => {
  const p = hookProject({ UserPromptSubmit: { stdout: 'branch is main' }, SessionStart: { stdout: 'project uses pnpm' } })
  const { model, prompts } = scripted(text('ok'))
  await hookwire(p.dispatcher).generateText({ model, instructions: 'be brief', prompt: 'hello' })
  const system = prompts[0].filter((m) => m.role === 'system').map((m) => m.content).join('\n')
  assert.match(system, /be brief/)
  assert.match(system, /branch is main/)
  assert.match(system, /project uses pnpm/)
  assert.equal(flat(prompts[0].at(-1).content).includes('hello'), true)
})

test('a PreToolUse defer ends the run and throws the pending call to the caller', async () => {
  const p = hookProject({ PreToolUse: defer() })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('deploy'), text('never'))
  await assert.rejects(hookwire(p.dispatcher).generateText({ model, tools, prompt: 'ship', stopWhen: stepCountIs(5) }),
    (e) => e instanceof ToolCallDeferred && e.toolInput.command === 'deploy' && e.toolUseId === 'call_1')
  assert.deepEqual(ran, [])
  assert.equal(prompts.length, 1)
})

test('continue:false on PreToolUse runs the tool, then ends the run without another model call', async () => {
  const p = hookProject({ PreToolUse: { stdout: { continue: false, stopReason: 'enough' } } })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('ls'), text('never'))
  await hookwire(p.dispatcher, { onUserMessage: () => {} }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual(ran, ['ls'])
  assert.equal(prompts.length, 1)
  assert.equal(p.events('Stop').length, 0)
})

test('an updated tool output of another shape is not applied, with a warning', async () => {
  const p = hookProject({ PostToolUse: { stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: { stdout: 'x' } } } } })
  const { tools } = bashTool()
  const { model, prompts } = scripted(bashCall('ls'), text('ok'))
  const { warnings } = await collectWarnings(() => hookwire(p.dispatcher).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) }))
  assert.match(flat(toolResults(prompts, 1)[0].output), /ran: ls/)
  assert.ok(warnings.some((w) => /does not have the shape/.test(w.message)))
})

test('wrapTools alone guards the tools of a plain generateText call, and warns it cannot end the run', async () => {
  const p = hookProject({ PreToolUse: [deny('no rm here'), { stdout: { continue: false } }] })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('rm -rf /'), bashCall('ls'), text('ok'))
  const { warnings } = await collectWarnings(() => generateText({ model, tools: hookwire(p.dispatcher).wrapTools(tools), prompt: 'go', stopWhen: stepCountIs(5) }))
  assert.deepEqual(ran, ['ls'])
  assert.match(flat(toolResults(prompts, 1)), /no rm here/)
  assert.equal(prompts.length, 3)
  assert.ok(warnings.some((w) => /wrapTools alone cannot/.test(w.message)))
})

test('the README snippet runs with a mock model and tool', async () => {
  const p = hookProject({ PreToolUse: deny('not from README') })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('rm x'), text('ok'))
  await runSnippet('node-adapter-ai', { model, tools, settingsFile: p.settings })
  assert.deepEqual(ran, [])
  assert.match(flat(toolResults(prompts, 1)), /not from README/)
})

// One event builder (the core's hostEvent), tool names, trust, the continuation bound.

test('the fired event is hostEvent\'s for the same facts: no transcript_path, permission_mode default', async () => {
  const r = rawEventProject('PreToolUse')
  const { tools } = shellTools('bash')
  const { model } = scripted(toolCall('bash', 'ls'), text('ok'))
  await hookwire(r.dispatcher, { sessionId: 's-shape', cwd: r.dir }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assertFiredAsBuilt(r, 's-shape')
})

test('a framework tool named bash is denied by a Bash guard through the default tool-name map', async () => {
  const p = hookProject({ PreToolUse: deny('no shell here') })
  const { tools, ran } = shellTools('bash')
  const { model, prompts } = scripted(toolCall('bash', 'rm -rf /'), text('ok'))
  await hookwire(p.dispatcher).generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(5) })
  assert.deepEqual(ran, [])
  assert.match(flat(toolResults(prompts, 1)), /no shell here/)
  assert.equal(p.events('PreToolUse')[0].tool_name, 'Bash')
})

test('an unmapped tool no Bash guard can reach warns once; toolNames maps it, null turns the defaults off', async () => {
  const p = hookProject({ PreToolUse: deny('no shell here') })
  const unmapped = shellTools('run_it')
  const first = scripted(toolCall('run_it', 'a', 'call_1'), toolCall('run_it', 'b', 'call_2'), text('ok'))
  const { warnings } = await collectWarnings(() => hookwire(p.dispatcher).generateText({ model: first.model, tools: unmapped.tools, prompt: 'go', stopWhen: stepCountIs(5) }))
  assert.deepEqual(unmapped.ran, ['a', 'b'])
  const unmatched = warnings.filter((w) => w.code === 'HOOKWIRE_UNMATCHED_TOOL')
  assert.equal(unmatched.length, 1)
  assert.match(unmatched[0].message, /"run_it".*Bash/)
  const mapped = shellTools('run_it')
  await hookwire(p.dispatcher, { toolNames: { run_it: 'Bash' } }).generateText({ model: scripted(toolCall('run_it', 'c'), text('ok')).model, tools: mapped.tools, prompt: 'go', stopWhen: stepCountIs(5) })
  assert.deepEqual(mapped.ran, [])
  const plain = shellTools('bash')
  const off = await collectWarnings(() => hookwire(p.dispatcher, { toolNames: {} }).generateText({ model: scripted(toolCall('bash', 'd'), text('ok')).model, tools: plain.tools, prompt: 'go', stopWhen: stepCountIs(5) }))
  assert.deepEqual(plain.ran, ['d'])
  assert.equal(off.warnings.filter((w) => w.code === 'HOOKWIRE_UNMATCHED_TOOL').length, 1)
})

test('a fresh project\'s untrusted Bash guard warns once, naming recordTrust and trust: \'trusted\'; the tool runs', () => inGuardedProject(async (dir) => {
  const { tools, ran } = bashTool()
  const { model } = scripted(bashCall('ls'), text('ok'))
  const { warnings } = await collectWarnings(() => hookwire(dir).generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(5) }))
  assert.deepEqual(ran, ['ls'])
  assertUntrustedWarnedOnce(warnings)
}))

test('the trusted routes deny: trust: \'trusted\', and recordTrust', () => inGuardedProject((dir) => assertTrustedRoutesDeny(dir, async (options) => {
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('ls'), text('ok'))
  await hookwire({ projectDir: dir }, options).generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(5) })
  return { ran, text: flat(toolResults(prompts, 1)) }
})))

// PermissionRequest (Claude Code 2.1.332) where the SDK's own approval (needsApproval,
// toolApproval) would ask a human.

/** The continuation a caller sends after the human answered every approval request of `result`. */
function answered(result, approved, prompt = 'list') {
  const responses = approvalRequests(result).map((p) => ({ type: 'tool-approval-response', approvalId: p.approvalId, approved }))
  return [{ role: 'user', content: prompt }, ...result.response.messages, { role: 'tool', content: responses }]
}

/** The approval requests of a result that wait for the human (an `approved` status leaves automatic ones). */
const approvalRequests = (result) => result.content.filter((p) => p.type === 'tool-approval-request' && !p.isAutomatic)

test('PermissionRequest allow approves a needsApproval call: it runs without asking', async () => {
  const p = hookProject({ PermissionRequest: permission('allow') })
  const { tools, ran } = shellTools('Bash', { needsApproval: true })
  const { model, prompts } = scripted(bashCall('ls'), text('done'))
  const told = []
  const result = await hookwire(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual([ran, approvalRequests(result), result.text], [['ls'], [], 'done'])
  assert.deepEqual(p.events('PermissionRequest').map((e) => [e.tool_name, e.tool_input]), [['Bash', { command: 'ls' }]])
  assert.match(flat(toolResults(prompts, 1)), /ran: ls/)
  assert.deepEqual(told, [])
})

test('PermissionRequest deny: the call does not run; the model and the user get the message', async () => {
  const p = hookProject({ PermissionRequest: permission('deny', 'no shell today') })
  const { tools, ran } = shellTools('Bash', { needsApproval: async () => true })
  const { model, prompts } = scripted(bashCall('ls'), text('done'))
  const told = []
  const result = await hookwire(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual([ran, approvalRequests(result)], [[], []])
  const [denied] = toolResults(prompts, 1)
  assert.equal(denied.output.type, 'error-text')
  assert.match(denied.output.value, /no shell today/)
  assert.deepEqual(told, [['no shell today', 'PermissionRequest']])
})

test('PermissionRequest without a decision leaves the SDK\'s approval request to the caller; the answered call runs', async () => {
  const p = hookProject({})
  const { tools, ran } = shellTools('Bash', { needsApproval: true })
  const { model } = scripted(bashCall('ls'), text('done'))
  const told = []
  const hooks = hookwire(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) })
  const paused = await hooks.generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual(approvalRequests(paused).map((r) => [r.toolCall.toolName, r.toolCall.input]), [['Bash', { command: 'ls' }]])
  assert.deepEqual([ran, p.events('Stop'), p.events('SessionEnd'), told], [[], [], [], []])
  const done = await hooks.generateText({ model, tools, messages: answered(paused, true), stopWhen: stepCountIs(5) })
  assert.deepEqual([ran, done.text], [['ls'], 'done'])
  const count = (e) => p.events(e).length
  assert.deepEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd'].map(count), [1, 1, 1, 1, 1, 1, 1])
})

test('a call\'s toolApproval option is the SDK\'s approval too: user-approval asks PermissionRequest, denied stays denied', async () => {
  const p = hookProject({ PermissionRequest: permission('deny', 'no shell today') })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('ls'), text('done'))
  await hookwire(p.dispatcher, { onUserMessage: () => {} }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5), toolApproval: { Bash: 'user-approval' } })
  assert.deepEqual(ran, [])
  assert.match(flat(toolResults(prompts, 1)), /no shell today/)
  const q = hookProject({})
  const other = bashTool()
  await hookwire(q.dispatcher).generateText({ model: scripted(bashCall('ls'), text('done')).model, tools: other.tools, prompt: 'list', stopWhen: stepCountIs(5), toolApproval: () => 'denied' })
  assert.deepEqual([other.ran, q.events('PermissionRequest')], [[], []])
})

test('a PreToolUse allow approves a needsApproval call without asking, and fires no PermissionRequest', async () => {
  const p = hookProject({ PreToolUse: allow() })
  const { tools, ran } = shellTools('Bash', { needsApproval: true })
  const { model } = scripted(bashCall('ls'), text('done'))
  const result = await hookwire(p.dispatcher).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual([ran, approvalRequests(result), p.events('PermissionRequest')], [['ls'], [], []])
  // A tool without any approval setting gets no approval parts in the conversation.
  const plain = bashTool()
  const again = await hookwire(p.dispatcher).generateText({ model: scripted(bashCall('pwd'), text('done')).model, tools: plain.tools, prompt: 'where', stopWhen: stepCountIs(5) })
  assert.deepEqual(plain.ran, ['pwd'])
  assert.doesNotMatch(flat([again.content, again.steps.map((s) => s.content), again.response.messages]), /tool-approval/)
})

test('wrapTools alone: PreToolUse comes before the tool\'s own needsApproval', async () => {
  const p = hookProject({ PreToolUse: [allow(), {}], PermissionRequest: permission('deny', 'no shell today') })
  const { tools, ran } = shellTools('Bash', { needsApproval: true })
  const wrapped = hookwire(p.dispatcher, { onUserMessage: () => {} }).wrapTools(tools)
  const first = await generateText({ model: scripted(bashCall('ls'), text('done')).model, tools: wrapped, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual([ran, approvalRequests(first)], [['ls'], []])
  const { model, prompts } = scripted(toolCall('Bash', 'rm x', 'call_2'), text('done'))
  await generateText({ model, tools: wrapped, prompt: 'clean', stopWhen: stepCountIs(5) })
  assert.deepEqual(ran, ['ls'])
  assert.match(flat(toolResults(prompts, 1)), /no shell today/)
})

test('permissionTools: PermissionRequest decides where nobody is asked, and no decision denies', async () => {
  const p = hookProject({})
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('ls'), text('done'))
  await hookwire(p.dispatcher, { permissionTools: ['Bash'], onUserMessage: () => {} }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual(ran, [])
  assert.match(toolResults(prompts, 1)[0].output.value, new RegExp(NOT_ALLOWED))
})

test('a PreToolUse system message reaches the user, never the model', async () => {
  const p = hookProject({ PreToolUse: systemMessage('heads up: a shell command') })
  const { tools, ran } = bashTool()
  const { model, prompts } = scripted(bashCall('ls'), text('done'))
  const told = []
  await hookwire(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) }).generateText({ model, tools, prompt: 'list', stopWhen: stepCountIs(5) })
  assert.deepEqual([ran, p.events('PermissionRequest')], [['ls'], []])
  assert.deepEqual(told, [['heads up: a shell command', 'PreToolUse']])
  assert.doesNotMatch(flat(prompts), /heads up/)
})
