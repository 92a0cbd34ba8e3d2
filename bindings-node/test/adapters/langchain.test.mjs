// The LangChain adapter against the real `langchain` package: createAgent with its fake model
// (`fakeModel()` from @langchain/core/testing), a Bash-style tool, and hooks from a settings
// file run as real command hooks.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { createAgent, tool, AIMessage, HumanMessage } from 'langchain'
import { fakeModel } from '@langchain/core/testing'
import { Command, MemorySaver } from '@langchain/langgraph'
import { z } from 'zod'
import { hookwireMiddleware, hookwireHumanInTheLoop, ToolCallDeferred, PromptBlocked } from '../../adapters/langchain.mjs'
import {
  hookwire, runSnippet, hookProject, rawEventProject, assertFiredAsBuilt, inGuardedProject, assertUntrustedWarnedOnce, assertTrustedRoutesDeny, GUARD_REASON, deny, allow, rewrite, defer, postBlock, block, permission,
  systemMessage, NOT_ALLOWED, collectWarnings,
} from './support.mjs'

/** A shell-style tool named `name` that records what it ran instead of running it. */
function shellTool(name = 'Bash') {
  const ran = []
  const shell = tool(async ({ command }) => { ran.push(command); return `ran: ${command}` }, {
    name, description: 'Run a shell command', schema: z.object({ command: z.string() }),
  })
  return { shell, ran }
}

/** The `Bash` tool of most tests. */
function bashTool() {
  const { shell, ran } = shellTool('Bash')
  return { bash: shell, ran }
}

/** A fake model that calls `name` once per command (ids call_1, call_2, ...), then answers `final` to everything. */
function callsThenText(name, commands, final = 'done', extra = 6) {
  const model = fakeModel()
  commands.forEach((command, i) => model.respondWithTools([{ name, args: { command }, id: `call_${i + 1}` }]))
  for (let i = 0; i < extra; i++) model.respond(new AIMessage(final))
  return model
}

/** A fake model that calls Bash once with `command`, then answers `final` to everything. */
const bashThenText = (command, final = 'done', extra = 6) => callsThenText('Bash', [command], final, extra)

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

test('a UserPromptSubmit block rejects invoke with PromptBlocked, makes no model call, and leaves the thread', async () => {
  const p = hookProject({ UserPromptSubmit: [block('not that prompt'), {}] })
  const model = fakeModel().respond(new AIMessage('later'))
  const told = []
  const agent = createAgent({ model, tools: [], checkpointer: new MemorySaver(), middleware: [hookwireMiddleware(p.dispatcher, { onUserMessage: (t) => told.push(t) })] })
  const thread = { configurable: { thread_id: 'thread-blocked' } }
  await assert.rejects(agent.invoke({ messages: [new HumanMessage('secret stuff')] }, thread),
    (e) => e instanceof PromptBlocked && /not that prompt/.test(e.userMessage) && e.prompt === 'secret stuff' && e.sessionId === 'thread-blocked')
  assert.equal(model.callCount, 0)
  assert.ok(told.some((t) => /not that prompt/.test(t)))
  assert.equal(p.events('Stop').length, 0)
  assert.equal(p.events('SessionEnd').length, 1)
  // The thread's checkpoint kept the blocked prompt; its next run removes it before any model call.
  const out = await agent.invoke({ messages: [new HumanMessage('hello')] }, thread)
  assert.equal(model.callCount, 1)
  assert.doesNotMatch(JSON.stringify(model.calls[0].messages.map(textOf)), /secret stuff/)
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

// One event builder (the core's hostEvent), tool names, trust, the continuation bound.

test('the fired event is hostEvent\'s for the same facts: no transcript_path, permission_mode default', async () => {
  const r = rawEventProject('PreToolUse')
  const { shell } = shellTool('bash')
  const agent = createAgent({ model: callsThenText('bash', ['ls']), tools: [shell], middleware: [hookwireMiddleware(r.dispatcher, { sessionId: 's-shape', cwd: r.dir })] })
  await agent.invoke({ messages: [new HumanMessage('list')] })
  assertFiredAsBuilt(r, 's-shape')
})

test('a framework tool named bash is denied by a Bash guard through the default tool-name map', async () => {
  const p = hookProject({ PreToolUse: deny('no shell here') })
  const { shell, ran } = shellTool('bash')
  const model = callsThenText('bash', ['rm -rf /'])
  await createAgent({ model, tools: [shell], middleware: [hookwireMiddleware(p.dispatcher)] }).invoke({ messages: [new HumanMessage('go')] })
  assert.deepEqual(ran, [])
  assert.match(textOf(toolMessages(model, 1)[0]), /no shell here/)
  assert.equal(p.events('PreToolUse')[0].tool_name, 'Bash')
})

test('an unmapped tool no Bash guard can reach warns once; toolNames maps it, null turns the defaults off', async () => {
  const p = hookProject({ PreToolUse: deny('no shell here') })
  const { shell, ran } = shellTool('run_it')
  const { warnings } = await collectWarnings(() => createAgent({ model: callsThenText('run_it', ['a', 'b']), tools: [shell], middleware: [hookwireMiddleware(p.dispatcher)] })
    .invoke({ messages: [new HumanMessage('go')] }))
  assert.deepEqual(ran, ['a', 'b'])
  const unmatched = warnings.filter((w) => w.code === 'HOOKWIRE_UNMATCHED_TOOL')
  assert.equal(unmatched.length, 1)
  assert.match(unmatched[0].message, /"run_it".*Bash/)
  const mapped = shellTool('run_it')
  await createAgent({ model: callsThenText('run_it', ['c']), tools: [mapped.shell], middleware: [hookwireMiddleware(p.dispatcher, { toolNames: { run_it: 'Bash' } })] })
    .invoke({ messages: [new HumanMessage('go')] })
  assert.deepEqual(mapped.ran, [])
  const plain = shellTool('bash')
  const off = await collectWarnings(() => createAgent({ model: callsThenText('bash', ['d']), tools: [plain.shell], middleware: [hookwireMiddleware(p.dispatcher, { toolNames: null })] })
    .invoke({ messages: [new HumanMessage('go')] }))
  assert.deepEqual(plain.ran, ['d'])
  assert.equal(off.warnings.filter((w) => w.code === 'HOOKWIRE_UNMATCHED_TOOL').length, 1)
})

test('a fresh project\'s untrusted Bash guard warns once, naming recordTrust and trust: \'trusted\'; the tool runs', () => inGuardedProject(async (dir) => {
  const { bash, ran } = bashTool()
  const { warnings } = await collectWarnings(() => createAgent({ model: bashThenText('ls'), tools: [bash], middleware: [hookwireMiddleware(dir)] })
    .invoke({ messages: [new HumanMessage('go')] }))
  assert.deepEqual(ran, ['ls'])
  assertUntrustedWarnedOnce(warnings)
  // A Dispatcher built from the project says so too; a project without hook files says nothing.
  const built = await collectWarnings(() => hookwireMiddleware(hookwire.Dispatcher.fromClaudeCodeDefaults(dir)))
  assert.match(built.warnings.find((w) => w.code === 'HOOKWIRE_UNTRUSTED_HOOKS')?.message ?? '', /recordTrust\(config\)/)
  const bare = await collectWarnings(() => hookwireMiddleware(join(dir, '.claude')))
  assert.deepEqual(bare.warnings.filter((w) => w.code === 'HOOKWIRE_UNTRUSTED_HOOKS'), [])
}))

test('the trusted routes deny: trust: \'trusted\', and recordTrust; \'untrusted\' skips them quietly', () => inGuardedProject(async (dir) => {
  const run = async (options) => {
    const { bash, ran } = bashTool()
    const model = bashThenText('ls')
    await createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(dir, options)] }).invoke({ messages: [new HumanMessage('go')] })
    return { ran, text: textOf(toolMessages(model, 1)[0]) }
  }
  const skipped = await collectWarnings(() => run({ trust: 'untrusted' }))
  assert.deepEqual([skipped.value.ran, skipped.warnings.filter((w) => w.code === 'HOOKWIRE_UNTRUSTED_HOOKS')], [['ls'], []])
  await assertTrustedRoutesDeny(dir, run)
  assert.throws(() => hookwireMiddleware(hookwire.Dispatcher.fromClaudeCodeDefaults(dir), { trust: 'trusted' }), TypeError)
  assert.throws(() => hookwireMiddleware(dir, { trust: 'yes' }), TypeError)
}))

test('without a cap in the engine, the adapter ends a Stop loop at the core\'s maxStopContinuations', async () => {
  const p = hookProject({ Stop: block('never done') }, { envelope: { limits: { stop_block_cap: 0 } } })
  const model = fakeModel()
  for (let i = 0; i < 20; i++) model.respond(new AIMessage(`answer ${i}`))
  const agent = createAgent({ model, tools: [], middleware: [hookwireMiddleware(p.dispatcher)] })
  const { warnings } = await collectWarnings(() => agent.invoke({ messages: [new HumanMessage('hi')] }, { recursionLimit: 200 }))
  assert.ok(warnings.some((w) => /maxStopBlocks 16/.test(w.message)))
  assert.equal(hookwire.maxStopContinuations, 16)
  assert.equal(p.events('Stop').length, hookwire.maxStopContinuations + 1)
  assert.equal(model.callCount, hookwire.maxStopContinuations + 1)
})

// PermissionRequest (Claude Code 2.1.332): LangChain's approval is the human-in-the-loop
// middleware; hookwireHumanInTheLoop builds it with the hooks' permission flow.

/** An agent with a checkpointer, the hookwire middleware and its human-in-the-loop for Bash. */
function approvalAgent(p, options = {}) {
  const { bash, ran } = bashTool()
  const model = bashThenText('ls')
  const told = []
  const hooks = hookwireMiddleware(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]), ...options })
  const agent = createAgent({ model, tools: [bash], checkpointer: new MemorySaver(), middleware: [hooks, hookwireHumanInTheLoop(hooks, { interruptOn: { Bash: true } })] })
  return { agent, ran, told, model }
}
const thread = (id) => ({ configurable: { thread_id: id } })

test('PermissionRequest allow runs the call without asking the human', async () => {
  const p = hookProject({ PermissionRequest: permission('allow') })
  const { agent, ran, told, model } = approvalAgent(p)
  const out = await agent.invoke({ messages: [new HumanMessage('list')] }, thread('perm-allow'))
  assert.equal(out.__interrupt__, undefined)
  assert.deepEqual(ran, ['ls'])
  assert.deepEqual(p.events('PermissionRequest').map((e) => [e.tool_name, e.tool_input]), [['Bash', { command: 'ls' }]])
  assert.match(textOf(toolMessages(model, 1)[0]), /ran: ls/)
  assert.deepEqual(told, [])
})

test('PermissionRequest deny: the call does not run; the model and the user get the message', async () => {
  const p = hookProject({ PermissionRequest: permission('deny', 'no shell today') })
  const { agent, ran, told, model } = approvalAgent(p)
  const out = await agent.invoke({ messages: [new HumanMessage('list')] }, thread('perm-deny'))
  assert.equal(out.__interrupt__, undefined)
  assert.deepEqual(ran, [])
  const [result] = toolMessages(model, 1)
  assert.deepEqual([result.status, textOf(result)], ['error', 'no shell today'])
  assert.deepEqual(told, [['no shell today', 'PermissionRequest']])
})

test('PermissionRequest without a decision leaves the human-in-the-loop interrupt, and the resumed run goes on', async () => {
  const p = hookProject({})
  const { agent, ran, told } = approvalAgent(p)
  const out = await agent.invoke({ messages: [new HumanMessage('list')] }, thread('perm-ask'))
  assert.ok(out.__interrupt__?.length, 'the human is asked')
  assert.deepEqual(out.__interrupt__[0].value.actionRequests.map((a) => [a.name, a.args]), [['Bash', { command: 'ls' }]])
  assert.deepEqual([ran, p.events('Stop'), p.events('SessionEnd'), told], [[], [], [], []])
  await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), thread('perm-ask'))
  assert.deepEqual(ran, ['ls'])
  assert.deepEqual([p.events('PreToolUse').length, p.events('PermissionRequest').length, p.events('Stop').length, p.events('SessionEnd').length], [1, 1, 1, 1])
})

test('a PreToolUse allow runs the call without asking, and fires no PermissionRequest', async () => {
  const p = hookProject({ PreToolUse: allow() })
  const { agent, ran } = approvalAgent(p)
  const out = await agent.invoke({ messages: [new HumanMessage('list')] }, thread('pre-allow'))
  assert.equal(out.__interrupt__, undefined)
  assert.deepEqual([ran, p.events('PermissionRequest')], [['ls'], []])
})

test('a PreToolUse deny denies without asking the human', async () => {
  const p = hookProject({ PreToolUse: deny('not this one') })
  const { agent, ran, model } = approvalAgent(p)
  const out = await agent.invoke({ messages: [new HumanMessage('list')] }, thread('pre-deny'))
  assert.equal(out.__interrupt__, undefined)
  assert.deepEqual([ran, p.events('PermissionRequest')], [[], []])
  assert.match(textOf(toolMessages(model, 1)[0]), /not this one/)
})

test('permissionTools: PermissionRequest decides where nobody is asked, and no decision denies', async () => {
  const p = hookProject({})
  const runWith = async (options) => {
    const { bash, ran } = bashTool()
    const model = bashThenText('ls')
    await createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher, { onUserMessage: () => {}, ...options })] }).invoke({ messages: [new HumanMessage('list')] })
    return { ran, model }
  }
  const denied = await runWith({ permissionTools: ['Bash'] })
  assert.deepEqual(denied.ran, [])
  assert.equal(textOf(toolMessages(denied.model, 1)[0]), NOT_ALLOWED)
  const free = await runWith({})
  assert.deepEqual(free.ran, ['ls'])
  assert.equal(p.events('PermissionRequest').length, 1)
  p.rules({ PermissionRequest: permission('allow') })
  const allowed = await runWith({ permissionTools: (name) => name === 'Bash' })
  assert.deepEqual(allowed.ran, ['ls'])
})

test('a PreToolUse system message reaches the user, never the model', async () => {
  const p = hookProject({ PreToolUse: systemMessage('heads up: a shell command') })
  const { bash, ran } = bashTool()
  const model = bashThenText('ls')
  const told = []
  await createAgent({ model, tools: [bash], middleware: [hookwireMiddleware(p.dispatcher, { onUserMessage: (t, i) => told.push([t, i.event]) })] })
    .invoke({ messages: [new HumanMessage('list')] })
  assert.deepEqual(ran, ['ls'])
  assert.deepEqual(told, [['heads up: a shell command', 'PreToolUse']])
  assert.doesNotMatch(JSON.stringify(model.calls.map((c) => c.messages.map(textOf))), /heads up/)
})

test('without a thread id, the human-in-the-loop gate and the tool share one PreToolUse and one session', async () => {
  const p = hookProject({ PermissionRequest: permission('allow') })
  const { bash, ran } = bashTool()
  const hooks = hookwireMiddleware(p.dispatcher)
  await createAgent({ model: bashThenText('ls'), tools: [bash], middleware: [hooks, hookwireHumanInTheLoop(hooks, { interruptOn: { Bash: true } })] })
    .invoke({ messages: [new HumanMessage('list')] })
  assert.deepEqual(ran, ['ls'])
  assert.deepEqual([p.events('PreToolUse').length, p.events('PermissionRequest').length], [1, 1])
  assert.equal(new Set(p.events().map((e) => e.session_id)).size, 1)
  assert.throws(() => hookwireHumanInTheLoop(fakeModel(), { interruptOn: { Bash: true } }), TypeError)
})

test('the README project snippet runs: trust recorded, the default map, the human-in-the-loop asking the hooks first', () => inGuardedProject(async (dir) => {
  const { shell, ran } = shellTool('bash')
  const model = callsThenText('bash', ['rm x'])
  const { warnings } = await collectWarnings(() => runSnippet('node-adapter-project', { model, tools: [shell], projectDir: dir }))
  assert.deepEqual(ran, [])
  assert.match(textOf(toolMessages(model, 1)[0]), new RegExp(GUARD_REASON))
  assert.deepEqual(warnings.filter((w) => w.code === 'HOOKWIRE_UNTRUSTED_HOOKS'), [])
}))
