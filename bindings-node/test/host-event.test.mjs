// hostEvent(facts), dispatcher.toolReach(name) and maxStopContinuations: the core's host event
// builder, tool-reach check and Stop-continuation bound as the Node binding exposes them (the
// rules themselves are pinned in core/src/host_event.rs and core/src/inspect.rs). The framework
// adapters build every event with hostEvent and ask toolReach once per tool.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Dispatcher, hostEvent, hostStep, maxStopContinuations } from 'hookwire'
import { oneHook } from './support.mjs'

test('a host event has Claude Code\'s key order, no transcript_path and permission_mode default', () => {
  const e = hostEvent({ event: 'Stop', session_id: 's', cwd: '/p' })
  assert.deepEqual(Object.keys(e), ['session_id', 'cwd', 'permission_mode', 'hook_event_name', 'stop_hook_active'])
  assert.deepEqual([e.permission_mode, e.hook_event_name, e.stop_hook_active], ['default', 'Stop', false])
  const given = hostEvent({ event: 'Stop', session_id: 's', cwd: '/p', transcript_path: '/t.jsonl', permission_mode: 'plan' })
  assert.deepEqual([given.transcript_path, given.permission_mode], ['/t.jsonl', 'plan'])
})

test('a framework tool name goes through tool_names, and the input is always an object', () => {
  const facts = { event: 'PreToolUse', session_id: 's', cwd: '/', tool_names: { bash: 'Bash' } }
  const e = hostEvent({ ...facts, tool_name: 'bash', tool_input: { command: 'ls' }, tool_use_id: 't1' })
  assert.deepEqual([e.tool_name, e.tool_input, e.tool_use_id], ['Bash', { command: 'ls' }, 't1'])
  assert.equal(hostEvent({ ...facts, tool_name: 'run_it' }).tool_name, 'run_it')
  assert.deepEqual(hostEvent({ ...facts, tool_name: 'x', tool_input: 'a.txt' }).tool_input, { input: 'a.txt' })
  assert.deepEqual(hostEvent({ ...facts, tool_name: 'x' }).tool_input, {})
})

test('a failure names its error type once, and fields never overwrite the rule', () => {
  const failed = hostEvent({ event: 'PostToolUseFailure', session_id: 's', cwd: '/', tool_name: 'x', error: 'boom', error_type: 'TypeError' })
  assert.deepEqual([failed.error, failed.is_interrupt], ['TypeError: boom', false])
  const asked = hostEvent({ event: 'PermissionRequest', session_id: 's', cwd: '/', tool_name: 'x', fields: { permission_suggestions: [], hook_event_name: 'Stop' } })
  assert.deepEqual([asked.hook_event_name, asked.permission_suggestions], ['PermissionRequest', []])
})

test('JSON text gives the same event as the object, and the event fires', async () => {
  const facts = { event: 'PreToolUse', session_id: 's', cwd: '/', tool_name: 'bash', tool_names: { bash: 'Bash' }, tool_input: { command: 'ls' } }
  assert.deepEqual(hostEvent(JSON.stringify(facts)), hostEvent(facts))
  const d = new Dispatcher(oneHook('PreToolUse', "echo 'not here' >&2; exit 2", 'Bash'))
  assert.equal((await d.fire(hostEvent(facts))).decision, 'deny')
})

test('facts missing what their event needs, or not facts at all, throw coded errors', () => {
  assert.throws(() => hostEvent({ event: 'PreToolUse', session_id: 's', cwd: '/' }), { code: 'INVALID_EVENT', pointer: '/tool_name' })
  assert.throws(() => hostEvent({ event: 'UserPromptSubmit', session_id: 's', cwd: '/' }), { code: 'INVALID_EVENT', pointer: '/prompt' })
  assert.throws(() => hostEvent({ event: 'Nope', session_id: 's', cwd: '/' }), { code: 'INVALID_EVENT', pointer: '/event' })
  assert.throws(() => hostEvent({ event: 'Stop', session_id: 's', cwd: '/', tool_nmae: 'x' }), (e) => e.code === 'INVALID_EVENT' && /tool_nmae/.test(e.message))
  assert.throws(() => hostEvent('{'), { code: 'INVALID_JSON' })
  assert.throws(() => hostEvent(42), TypeError)
})

test('toolReach warns for a name no tool matcher can match, and only then', () => {
  const d = new Dispatcher(oneHook('PreToolUse', 'exit 2', 'Bash'))
  const missed = d.toolReach('bash')
  assert.deepEqual([missed.tool_name, missed.hooked, missed.reached], ['bash', true, false])
  assert.match(missed.warning, /"bash".*Bash/)
  assert.deepEqual(d.toolReach('Bash'), { tool_name: 'Bash', hooked: true, reached: true, warning: null })
  const stopOnly = new Dispatcher(oneHook('Stop', 'true')).toolReach('bash')
  assert.deepEqual([stopOnly.hooked, stopOnly.reached, stopOnly.warning], [false, false, null])
  assert.throws(() => d.toolReach(42), TypeError)
})

test('maxStopContinuations is the core\'s bound, 16', () => {
  assert.equal(maxStopContinuations, 16)
})

test('a host step says approved only when a hook allowed the call', () => {
  const step = (event, decision) => hostStep({ event, decision, continue: true })
  assert.deepEqual([step('PreToolUse', 'allow').action, step('PreToolUse', 'allow').approved], ['run_tool', true])
  assert.deepEqual([step('PreToolUse', null).action, step('PreToolUse', null).approved], ['run_tool', false])
  assert.equal(step('PermissionRequest', 'allow').approved, true)
  assert.deepEqual([step('PermissionRequest', null).action, step('PermissionRequest', null).approved], ['deny_tool', false])
  assert.equal(step('PreToolUse', 'deny').approved, false)
})
