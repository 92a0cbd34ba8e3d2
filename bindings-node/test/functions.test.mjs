// JavaScript functions as hooks and as host callbacks (issue 8): folded with command hooks in
// one verdict, sync or async, a throw is an outcome, and fireSync refuses rather than deadlock.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { HOOKS, ROOT, bashEvent, hookwire, oneHook, sq } from './support.mjs'

const { Dispatcher } = hookwire
const decide = (d) => `sh ${sq(join(HOOKS, 'decide.sh'))} ${d}`
const pre = (decision, reason, extra = {}) => ({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason, ...extra },
})

test('a function deny beats a command allow, in configuration order', async () => {
  const d = new Dispatcher(oneHook('PreToolUse', decide('allow'), 'Bash'))
  const seen = []
  const id = d.addFunctionHook('PreToolUse', (event) => {
    seen.push(event)
    return event.tool_input.command.includes('rm -rf') ? pre('deny', 'no rm -rf') : undefined
  }, { matcher: 'Bash', name: 'guard' })
  assert.equal(id, 'function(guard):PreToolUse')

  const r = await d.fire(bashEvent('rm -rf /'))
  assert.equal(r.decision, 'deny')
  assert.equal(r.reason, 'no rm -rf')
  assert.deepEqual(r.outcomes.map((o) => [o.type, o.status]), [['command', 'ok'], ['function', 'ok']])
  assert.equal(r.outcomes[1].hook, 'function(guard):PreToolUse')
  assert.equal(seen[0].hook_event_name, 'PreToolUse', 'the function gets the event as an object')
  assert.deepEqual(seen[0].tool_input, { command: 'rm -rf /' })

  const ok = await d.fire(bashEvent('ls'))
  assert.equal(ok.decision, 'allow', 'undefined is no opinion')
  const other = await d.fire(bashEvent('rm -rf /', { tool_name: 'Edit' }))
  assert.equal(other.outcomes.length, 0, 'the matcher applies')
})

test('an async function works, and its rewrite becomes updated_input', async () => {
  const d = new Dispatcher({})
  d.addFunctionHook('PreToolUse', async (event) => {
    await new Promise((resolve) => setTimeout(resolve, 50))
    return pre('allow', 'rewritten', { updatedInput: { command: `${event.tool_input.command} -la` } })
  })
  const r = await d.fire(bashEvent('ls'))
  assert.equal(r.decision, 'allow')
  assert.deepEqual(r.updated_input, { command: 'ls -la' })
  assert.equal(r.outcomes[0].status, 'ok')
})

test('a string answer is read like stdout', async () => {
  const d = new Dispatcher({})
  d.addFunctionHook('PreToolUse', () => JSON.stringify(pre('ask', 'from text')))
  const r = await d.fire(bashEvent('ls'))
  assert.equal(r.decision, 'ask')
  assert.equal(r.reason, 'from text')
})

test('a thrown error is a non-blocking error; failClosed makes it deny', async () => {
  const d = new Dispatcher(oneHook('PreToolUse', decide('allow'), 'Bash'))
  d.addFunctionHook('PreToolUse', () => {
    throw new Error('checker crashed')
  })
  let r = await d.fire(bashEvent('ls'))
  assert.equal(r.decision, 'allow')
  assert.equal(r.outcomes[1].status, 'error')
  assert.match(r.outcomes[1].error, /checker crashed/)

  d.addFunctionHook('PreToolUse', async () => {
    throw new Error('strict checker crashed')
  }, { failClosed: true, first: true })
  r = await d.fire(bashEvent('ls'))
  assert.equal(r.decision, 'deny')
  assert.equal(r.outcomes[0].hook, 'function#1:PreToolUse', 'first runs before the file hooks')
  assert.equal(r.outcomes[0].status, 'error')
  assert.match(r.outcomes[0].error, /strict checker crashed/)
})

test('a rejection with a non-Error and a wrong answer type are error outcomes', async () => {
  const d = new Dispatcher({})
  d.addFunctionHook('PreToolUse', () => Promise.reject('plain string'))
  d.addFunctionHook('PreToolUse', () => 42)
  const r = await d.fire(bashEvent('ls'))
  assert.deepEqual(r.outcomes.map((o) => o.status), ['error', 'error'])
  assert.match(r.outcomes[0].error, /plain string/)
  assert.match(r.outcomes[1].error, /number/)
})

test('a function past its timeout is timed_out and the fire goes on', async () => {
  const d = new Dispatcher({})
  d.addFunctionHook('PreToolUse', () => new Promise(() => {}), { timeout: 0.3 })
  const started = performance.now()
  const r = await d.fire(bashEvent('ls'))
  assert.equal(r.outcomes[0].status, 'timed_out')
  assert.ok(performance.now() - started < 3000)
})

test('bad registrations throw INVALID_CONFIG', () => {
  const d = new Dispatcher({})
  assert.throws(() => d.addFunctionHook('Nope', () => undefined), { code: 'INVALID_CONFIG', pointer: '/event' })
  assert.throws(() => d.addFunctionHook('PreToolUse', () => undefined, { timeout: -1 }), { code: 'INVALID_CONFIG' })
  assert.throws(() => d.setHostCallback('command', () => ({})), { code: 'INVALID_CONFIG' })
  // A failed registration leaves fireSync usable.
  assert.equal(d.fireSync(bashEvent('ls')).decision, null)
})

test('options are read strictly: an unknown key or a wrong type throws INVALID_CONFIG with its pointer', () => {
  const d = new Dispatcher({})
  const noop = () => undefined
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { matcher: 'Bash', colour: 'red' }), { code: 'INVALID_CONFIG', pointer: '/colour' })
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { failclosed: true }), { code: 'INVALID_CONFIG', pointer: '/failclosed' })
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { timeout: '5' }), { code: 'INVALID_CONFIG', pointer: '/timeout_s' })
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { failClosed: 'yes' }), { code: 'INVALID_CONFIG', pointer: '/fail_closed' })
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { first: 1 }), { code: 'INVALID_CONFIG', pointer: '/first' })
  // The C spellings and the event are not options of addFunctionHook.
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { timeout_s: 5 }), { code: 'INVALID_CONFIG', pointer: '/timeout_s' })
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, { event: 'Stop' }), { code: 'INVALID_CONFIG', pointer: '/event' })
  assert.throws(() => d.addFunctionHook('PreToolUse', noop, 'Bash'), { name: 'TypeError' })
  // undefined values are left out, as JSON.stringify leaves them out; null means absent.
  assert.equal(d.addFunctionHook('PreToolUse', noop, { matcher: undefined, name: null, timeout: 2 }), 'function#0:PreToolUse')
  assert.equal(d.addFunctionHook('PreToolUse', noop, null), 'function#1:PreToolUse')
})

test('a host callback answers for prompt and mcp_tool handlers', async () => {
  const d = new Dispatcher({
    hooks: {
      PreToolUse: [{
        hooks: [
          { type: 'prompt', prompt: 'is this safe?', timeout: 5 },
          { type: 'mcp_tool', server: 'guard', tool: 'check' },
        ],
      }],
    },
  })
  const skipped = await d.fire(bashEvent('ls'))
  assert.equal(skipped.outcomes.length, 0)
  assert.ok(skipped.warnings.some((w) => w.includes('no host callback')))

  const asked = []
  d.setHostCallback('prompt', async (request) => {
    asked.push(request)
    return { ok: false, reason: 'the model says no' }
  })
  d.setHostCallback('mcp_tool', () => ({
    text: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'mcp ok' } }),
  }))
  const r = await d.fire(bashEvent('ls'))
  assert.equal(r.decision, 'deny')
  assert.equal(r.reason, 'the model says no')
  assert.equal(r.additional_context, 'mcp ok')
  assert.equal(asked[0].type, 'prompt')
  assert.equal(asked[0].handler.prompt, 'is this safe?')
  assert.equal(JSON.parse(asked[0].event).tool_name, 'Bash', 'the event as a command reads it')
  assert.equal(asked[0].timeout_s, 5)
})

test('a host callback that throws is an error outcome', async () => {
  const d = new Dispatcher({ hooks: { Stop: [{ hooks: [{ type: 'agent', prompt: 'p', timeout: 1 }] }] } })
  d.setHostCallback('agent', () => {
    throw new Error('model unavailable')
  })
  const r = await d.fire({ hook_event_name: 'Stop', session_id: 's', cwd: ROOT })
  assert.equal(r.outcomes[0].status, 'error')
  assert.match(r.outcomes[0].error, /model unavailable/)
})

test('fireSync refuses a dispatcher with JavaScript hooks instead of deadlocking', () => {
  const d = new Dispatcher({})
  assert.equal(d.fireSync(bashEvent('ls')).decision, null)
  d.addFunctionHook('PreToolUse', () => pre('deny', 'x'))
  assert.throws(() => d.fireSync(bashEvent('ls')), (e) => {
    assert.equal(e.code, 'FIRE_SYNC_WITH_JS_HOOKS')
    assert.match(e.message, /fire\(\)/)
    return true
  })
  const c = new Dispatcher({})
  c.setHostCallback('prompt', () => ({ ok: true }))
  assert.throws(() => c.fireSync(bashEvent('ls')), { code: 'FIRE_SYNC_WITH_JS_HOOKS' })
})

test('many concurrent fires call the function for each', async () => {
  const d = new Dispatcher({})
  let calls = 0
  d.addFunctionHook('PreToolUse', async (e) => {
    calls++
    await new Promise((resolve) => setTimeout(resolve, 100))
    return pre(e.tool_input.command === 'rm' ? 'deny' : 'allow', e.tool_input.command)
  })
  const started = performance.now()
  const rs = await Promise.all(Array.from({ length: 16 }, (_, i) => d.fire(bashEvent(i % 2 ? 'rm' : 'ls'))))
  assert.equal(calls, 16)
  rs.forEach((r, i) => assert.equal(r.decision, i % 2 ? 'deny' : 'allow'))
  assert.ok(performance.now() - started < 2000)
})

test('the process exits normally once fires are done: registrations are weak', () => {
  const script = `
    const { Dispatcher } = require('hookwire')
    const d = new Dispatcher({})
    d.addFunctionHook('PreToolUse', () => undefined)
    d.setHostCallback('prompt', () => ({ ok: true }))
    d.fire({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: {} })
      .then((r) => console.log('fired', r.outcomes.length))
  `
  const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 10000 })
  assert.equal(run.signal, null, 'it did not hang')
  assert.equal(run.status, 0, run.stderr)
  assert.equal(run.stdout.trim(), 'fired 1')
})
