// The AI SDK adapter against the real `ai` package: generateText with the SDK's own mock
// model (MockLanguageModelV4 from ai/test), a Bash-style tool, and hooks from a settings file
// run as real command hooks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { tool, stepCountIs, generateText } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { z } from 'zod'
import { hookwire, ToolCallDeferred, PromptBlocked } from '../../adapters/ai.mjs'
import { runSnippet, hookProject, deny, rewrite, defer, postBlock, block, collectWarnings } from './support.mjs'

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } }
const text = (t) => ({ content: [{ type: 'text', text: t }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] })
const bashCall = (command) => ({ content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'Bash', input: JSON.stringify({ command }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] })

/** A mock model answering `turns` in order (the last one repeated); records each prompt. */
function scripted(...turns) {
  const prompts = []
  const model = new MockLanguageModelV4({ doGenerate: async (o) => { prompts.push(o.prompt); return turns[Math.min(prompts.length, turns.length) - 1] } })
  return { model, prompts }
}

function bashTool() {
  const ran = []
  const Bash = tool({ description: 'Run a shell command', inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => { ran.push(command); return `ran: ${command}` } })
  return { tools: { Bash }, ran }
}

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
