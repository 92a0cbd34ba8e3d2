// hostStep(result): the binding hands a result to the core's host step and back as an object
// (the rules themselves are pinned in core/src/host_step/tests.rs). It takes what fire()
// resolved to, or its JSON text, and refuses what is not a result with a coded Error.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Dispatcher, hostStep, hostStepFor } from 'hookwire'

test('a fired deny becomes a denied tool with the hook\'s reason', async () => {
  const d = new Dispatcher({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "echo 'not here' >&2; exit 2" }] }] } })
  const r = await d.fire({ hook_event_name: 'PreToolUse', cwd: '/', tool_name: 'Bash', tool_input: { command: 'ls' } })
  const step = hostStep(r)
  assert.deepEqual([step.action, step.message, step.stop], ['deny_tool', 'not here', false])
})

test('JSON text gives the same step as the object', () => {
  const result = { event: 'PreToolUse', decision: null, continue: true, updated_input: { command: 'ls -la' } }
  assert.deepEqual(hostStep(JSON.stringify(result)), hostStep(result))
  assert.deepEqual(hostStep(result).tool_input, { command: 'ls -la' })
})

test('something that is not a result throws INVALID_EVENT or INVALID_JSON, another type a TypeError', () => {
  assert.throws(() => hostStep({ decision: 'deny' }), { code: 'INVALID_EVENT' })
  assert.throws(() => hostStep('{'), { code: 'INVALID_JSON' })
  assert.throws(() => hostStep(42), TypeError)
})

test('hostStepFor refuses a replacement output of another kind than the tool returned', () => {
  const result = { event: 'PostToolUse', updated_tool_output: { lines: 3 } }
  assert.deepEqual(hostStepFor(result, '{"lines":9}').tool_output, { lines: 3 })
  assert.equal(hostStepFor(result, '"nine lines"').tool_output, null)
  assert.deepEqual(hostStep(result).tool_output, { lines: 3 })
  assert.throws(() => hostStepFor(result, '{'), (e) => e.code === 'INVALID_JSON')
})
