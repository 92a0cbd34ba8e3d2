// The LangChain adapter against the real `langchain` package: createAgent with its fake model
// (`fakeModel()` from @langchain/core/testing), a Bash-style tool, and hooks from a settings
// file run as real command hooks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createAgent, tool, AIMessage, HumanMessage } from 'langchain'
import { fakeModel } from '@langchain/core/testing'
import { z } from 'zod'
import { hookwireMiddleware, ToolCallDeferred } from '../../adapters/langchain.mjs'
import { runSnippet, hookProject, deny, rewrite, defer, postBlock, block, collectWarnings } from './support.mjs'

/** A Bash-style tool that records what it ran instead of running it. */
function bashTool() {
  const ran = []
  const bash = tool(async ({ command }) => { ran.push(command); return `ran: ${command}` }, {
    name: 'Bash', description: 'Run a shell command', schema: z.object({ command: z.string() }),
  })
  return { bash, ran }
}

/** A fake model that calls Bash once with `command`, then answers `final` to everything. */
function bashThenText(command, final = 'done', extra = 6) {
  const model = fakeModel().respondWithTools([{ name: 'Bash', args: { command }, id: 'call_1' }])
  for (let i = 0; i < extra; i++) model.respond(new AIMessage(final))
  return model
}

const textOf = (m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))
const toolMessages = (model, callIndex) => model.calls[callIndex].messages.filter((m) => m._getType() === 'tool')

test('a PreToolUse deny keeps the tool from running and gives the model the reason', async () => {
  const p = hookProject({ PreToolUse: deny('no rm here') })
  const { bash, ran } = bashTool()
  const model = bashThenText('rm -rf /')
  const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
  await agent.invoke({ messages: [new HumanMessage('clean up')] })
  assert.deepEqual(ran, [])
  const [result] = toolMessages(model, 1)
  assert.equal(result.status, 'error')
  assert.match(textOf(result), /no rm here/)
  const pre = p.events('PreToolUse')[0]
  assert.equal(pre.tool_name, 'Bash')
  assert.deepEqual(pre.tool_input, { command: 'rm -rf /' })
  assert.equal(pre.tool_use_id, 'call_1')
  assert.equal(pre.permission_mode, 'default')
})

test('a PreToolUse updatedInput changes the call that runs and PostToolUse sees it', async () => {
  const p = hookProject({ PreToolUse: rewrite({ command: 'ls -la' }) })
  const { bash, ran } = bashTool()
  const model = bashThenText('ls')
  const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
  await agent.invoke({ messages: [new HumanMessage('list')] })
  assert.deepEqual(ran, ['ls -la'])
  const post = p.events('PostToolUse')[0]
  assert.deepEqual(post.tool_input, { command: 'ls -la' })
  assert.equal(post.tool_response, 'ran: ls -la')
})

test('a Stop block makes one more model turn with the reason, then the run ends', async () => {
  const p = hookProject({ Stop: [block('run the tests first'), {}] })
  const { bash } = bashTool()
  const model = fakeModel().respond(new AIMessage('first answer')).respond(new AIMessage('second answer'))
  const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
  const out = await agent.invoke({ messages: [new HumanMessage('hi')] })
  assert.equal(model.callCount, 2)
  const lastHuman = model.calls[1].messages.filter((m) => m._getType() === 'human').at(-1)
  assert.match(textOf(lastHuman), /run the tests first/)
  assert.equal(textOf(out.messages.at(-1)), 'second answer')
  const stops = p.events('Stop')
  assert.deepEqual(stops.map((e) => e.stop_hook_active), [false, true])
  assert.equal(stops[0].last_assistant_message, 'first answer')
  assert.equal(new Set(p.events().map((e) => e.session_id)).size, 1)
})

test('an endless Stop block is ended by the engine cap (8 blocks, 9 Stop fires)', async () => {
  const p = hookProject({ Stop: block('never done') })
  const { bash } = bashTool()
  const model = fakeModel()
  for (let i = 0; i < 20; i++) model.respond(new AIMessage(`answer ${i}`))
  const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
  await agent.invoke({ messages: [new HumanMessage('hi')] })
  assert.equal(p.events('Stop').length, 9)
  assert.equal(model.callCount, 9)
})

test('the adapter bound ends a Stop loop before the engine cap when set lower', async () => {
  const p = hookProject({ Stop: block('never done') })
  const model = fakeModel()
  for (let i = 0; i < 20; i++) model.respond(new AIMessage(`answer ${i}`))
  const { warnings } = await collectWarnings(async () => {
    const agent = createAgent({ model, tools: [], middleware: [hookwireMiddleware(p.dispatcher, { maxStopBlocks: 2 })] })
    await agent.invoke({ messages: [new HumanMessage('hi')] })
  })
  assert.equal(model.callCount, 3)
  assert.ok(warnings.some((w) => /maxStopBlocks 2/.test(w.message)))
})

test('PostToolUse block and context reach the model beside the tool result, with a warning', async () => {
  const p = hookProject({ PostToolUse: postBlock('output looks wrong', 'remember the style guide') })
  const { bash, ran } = bashTool()
  const model = bashThenText('make')
  const { warnings } = await collectWarnings(async () => {
    const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
    await agent.invoke({ messages: [new HumanMessage('build')] })
  })
  assert.deepEqual(ran, ['make'])
  const text = textOf(toolMessages(model, 1)[0])
  assert.match(text, /^ran: make/)
  assert.match(text, /output looks wrong/)
  assert.match(text, /remember the style guide/)
  assert.equal(warnings.filter((w) => /appended to the tool message/.test(w.message)).length, 1)
})

test('a UserPromptSubmit block makes no model call and tells the user', async () => {
  const p = hookProject({ UserPromptSubmit: block('not that prompt') })
  const model = fakeModel().respond(new AIMessage('never'))
  const told = []
  const agent = createAgent({ model, tools: [], middleware: [hookwireMiddleware(p.dispatcher, { onUserMessage: (t) => told.push(t) })] })
  const out = await agent.invoke({ messages: [new HumanMessage('secret stuff')] })
  assert.equal(model.callCount, 0)
  assert.ok(told.some((t) => /not that prompt/.test(t)))
  assert.equal(p.events('Stop').length, 0)
  assert.equal(p.events('SessionEnd').length, 1)
  assert.ok(!out.messages.some((m) => textOf(m) === 'secret stuff'))
})

test('UserPromptSubmit and SessionStart context reach the model as system messages before the prompt', async () => {
  const p = hookProject({ UserPromptSubmit: { stdout: 'branch is main' }, SessionStart: { stdout: 'project uses pnpm' } })
  const model = fakeModel().respond(new AIMessage('ok'))
  const agent = createAgent({ model, tools: [], middleware: [hookwireMiddleware(p.dispatcher)] })
  await agent.invoke({ messages: [new HumanMessage('hello')] })
  const sent = model.calls[0].messages
  const types = sent.map((m) => m._getType())
  const human = types.lastIndexOf('human')
  const systems = sent.filter((m, i) => types[i] === 'system' && i < human).map(textOf).join('\n')
  assert.match(systems, /branch is main/)
  assert.match(systems, /project uses pnpm/)
  assert.equal(textOf(sent[human]), 'hello')
  assert.equal(p.events('SessionStart')[0].source, 'startup')
  assert.equal(p.events('UserPromptSubmit')[0].prompt, 'hello')
})

test('a PreToolUse defer ends the run with the pending call for the caller', async () => {
  const p = hookProject({ PreToolUse: defer() })
  const { bash, ran } = bashTool()
  const model = bashThenText('deploy')
  const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
  const err = await agent.invoke({ messages: [new HumanMessage('ship it')] }).then(() => null, (e) => e)
  let deferred = err
  while (deferred && !(deferred instanceof ToolCallDeferred)) deferred = deferred.cause
  assert.ok(deferred instanceof ToolCallDeferred, `got ${err}`)
  assert.deepEqual(deferred.toolInput, { command: 'deploy' })
  assert.equal(deferred.toolUseId, 'call_1')
  assert.deepEqual(ran, [])
  assert.equal(model.callCount, 1)
})

test('continue:false on PreToolUse runs the tool, then ends the run without another model call', async () => {
  const p = hookProject({ PreToolUse: { stdout: { continue: false, stopReason: 'enough' } } })
  const { bash, ran } = bashTool()
  const model = bashThenText('ls')
  const told = []
  const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher, { onUserMessage: (t) => told.push(t) })] })
  await agent.invoke({ messages: [new HumanMessage('list')] })
  assert.deepEqual(ran, ['ls'])
  assert.equal(model.callCount, 1)
  assert.equal(p.events('Stop').length, 0)
  assert.equal(p.events('SessionEnd').length, 1)
})

test('the thread id is the session id, and a second run of the thread resumes the session', async () => {
  const { MemorySaver } = await import('@langchain/langgraph')
  const p = hookProject({})
  const model = fakeModel().respond(new AIMessage('one')).respond(new AIMessage('two'))
  const agent = createAgent({ model, tools: [], checkpointer: new MemorySaver(), middleware: [hookwireMiddleware(p.dispatcher)] })
  const config = { configurable: { thread_id: 'thread-7' } }
  await agent.invoke({ messages: [new HumanMessage('a')] }, config)
  await agent.invoke({ messages: [new HumanMessage('b')] }, config)
  assert.deepEqual(p.events('SessionStart').map((e) => [e.session_id, e.source]), [['thread-7', 'startup'], ['thread-7', 'resume']])
})

test('a non-object updatedInput is not applied (with a warning) and the model input runs', async () => {
  const p = hookProject({ PreToolUse: { stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: 'rm -rf /' } } } })
  const { bash, ran } = bashTool()
  const model = bashThenText('ls')
  await collectWarnings(async () => {
    const agent = createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher)] })
    await agent.invoke({ messages: [new HumanMessage('list')] })
  })
  assert.deepEqual(ran, ['ls'])
})

test('the README snippet runs with a fake model and tool', async () => {
  const p = hookProject({ PreToolUse: deny('not from README') })
  const { bash, ran } = bashTool()
  const model = bashThenText('rm x')
  await runSnippet('node-adapter-langchain', { model, tools: [bash], settingsFile: p.settings })
  assert.deepEqual(ran, [])
  assert.match(textOf(toolMessages(model, 1)[0]), /not from README/)
})
