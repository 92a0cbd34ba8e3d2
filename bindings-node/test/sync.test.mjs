// fireSync(): the same fire as fire(), blocking, for scripts.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { HOOKS, bashEvent, hookwire, oneHook, sq } from './support.mjs'

const { Dispatcher } = hookwire
const RESULT_KEYS = [
  'event', 'decision', 'reason', 'continue', 'stop_reason', 'updated_input', 'updated_tool_output',
  'additional_context', 'system_message', 'suppress_output', 'env', 'extra', 'pending_context',
  'warnings', 'outcomes', 'async_outcomes',
]
const denier = new Dispatcher(
  oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'decide.sh'))} deny 'no rm here'`, 'Bash'),
)

test('fireSync returns the result JSON as a plain object, keys in protocol order', () => {
  const r = denier.fireSync(bashEvent('rm -rf /'))
  assert.equal(Object.getPrototypeOf(r), Object.prototype)
  assert.deepEqual(Object.keys(r).slice(0, RESULT_KEYS.length), RESULT_KEYS)
  assert.equal(r.event, 'PreToolUse')
  assert.equal(r.decision, 'deny')
  assert.equal(r.reason, 'no rm here')
  assert.equal(r.outcomes.length, 1)
  assert.equal(r.outcomes[0].status, 'ok')
  assert.equal(r.outcomes[0].exit_code, 0)
})

test('fireSync and fire give the same result', async () => {
  const event = bashEvent('rm -rf /')
  const strip = (r) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'duration_ms' ? 0 : v)))
  assert.deepEqual(strip(denier.fireSync(event)), strip(await denier.fire(event)))
})

test('fireSync accepts JSON text as well as an object', () => {
  const r = denier.fireSync(JSON.stringify(bashEvent('ls')))
  assert.equal(r.decision, 'deny')
})

test('fireSync blocks until the hook has ended', () => {
  const d = new Dispatcher(oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'emit.sh'))} -s 0.2 done`, 'Bash'))
  const started = performance.now()
  const r = d.fireSync(bashEvent('true'))
  const ms = performance.now() - started
  assert.equal(r.outcomes[0]?.stdout, 'done')
  assert.ok(ms >= 190 && ms < 5000, `took ${ms.toFixed(0)} ms`)
})

test('a fire that matches nothing has empty outcomes and no decision', () => {
  const r = denier.fireSync({ hook_event_name: 'Stop', session_id: 's', cwd: '/' })
  assert.equal(r.event, 'Stop')
  assert.equal(r.decision, null)
  assert.deepEqual(r.outcomes, [])
})
