// Logs (issue 16, docs/logging.md): setLogger delivers the engine's records as plain objects on
// the JavaScript thread, at the level asked, after fireSync returns rather than deadlocking,
// and a throwing logger never reaches the fire.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setLogger as esmSetLogger } from 'hookwire'
import { hookwire } from './support.mjs'

const { Dispatcher, setLogger } = hookwire

const DENY = {
  hooks: {
    PreToolUse: [
      { matcher: 'Write', hooks: [{ type: 'command', command: 'exit 0' }] },
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo s3cret >&2; exit 2' }] },
    ],
  },
}
const BASH = { hook_event_name: 'PreToolUse', cwd: '/', tool_name: 'Bash', tool_input: {} }

/** Waits (polling the event loop) until `done()` holds, for at most 5 s. */
async function until(done) {
  const deadline = Date.now() + 5000
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  assert.ok(done(), 'timed out waiting for log records')
}

const events = (records) => records.map((r) => r.fields.event)
const ofEvent = (records, event) => records.filter((r) => r.fields.event === event)

test('ESM and CommonJS export the same setLogger', () => {
  assert.equal(esmSetLogger, setLogger)
})

test('a fire logs every event as a plain object on the JavaScript thread', async (t) => {
  t.after(() => setLogger(null))
  const records = []
  setLogger((r) => records.push(r), 'debug')
  const result = await new Dispatcher(DENY).fire(BASH)
  assert.equal(result.decision, 'deny')
  await until(() => events(records).includes('fire.done'))
  for (const e of ['load.done', 'fire.start', 'hook.skipped', 'hook.selected', 'hook.spawned', 'hook.exited', 'hook.verdict', 'fire.fold']) {
    assert.ok(events(records).includes(e), `${e} missing from ${events(records)}`)
  }
  const skipped = ofEvent(records, 'hook.skipped')[0]
  assert.equal(skipped.level, 'debug')
  assert.equal(skipped.target, 'hookwire::hook')
  assert.equal(skipped.fields.skip_reason, 'matcher')
  assert.ok(ofEvent(records, 'hook.spawned')[0].fields.pid > 0)
  const verdict = ofEvent(records, 'hook.verdict')[0]
  assert.deepEqual([verdict.fields.status, verdict.fields.decision, verdict.fields.exit_code], ['ok', 'deny', 2])
  const done = ofEvent(records, 'fire.done')[0]
  assert.equal(done.level, 'info')
  assert.match(done.message, /^fire PreToolUse: 1 hook\(s\) ran/)
  assert.ok(!JSON.stringify(records).includes('s3cret'), 'no hook output below trace')
})

test('fireSync with a logger does not wait for it: records arrive after it returns', async (t) => {
  t.after(() => setLogger(null))
  const records = []
  setLogger((r) => records.push(r), 'trace')
  const result = new Dispatcher(DENY).fireSync(BASH)
  assert.equal(result.decision, 'deny')
  assert.equal(records.length, 0, 'the JavaScript thread was busy in fireSync')
  await until(() => events(records).includes('fire.done'))
  assert.equal(ofEvent(records, 'hook.output')[0].fields.stderr, 's3cret\n')
})

test('the level filters records, and null turns logging off', async (t) => {
  t.after(() => setLogger(null))
  const records = []
  setLogger((r) => records.push(r)) // default: 'info'
  await new Dispatcher(DENY).fire(BASH)
  await until(() => records.length > 0)
  await new Promise((resolve) => setTimeout(resolve, 50))
  assert.deepEqual(events(records), ['fire.done'])
  setLogger(null)
  records.length = 0
  await new Dispatcher(DENY).fire(BASH)
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.deepEqual(records, [])
})

test('a throwing logger never reaches the fire', async (t) => {
  t.after(() => setLogger(null))
  let calls = 0
  setLogger(() => {
    calls++
    throw new Error('the logger is broken')
  }, 'debug')
  const result = await new Dispatcher(DENY).fire(BASH)
  assert.equal(result.decision, 'deny')
  await until(() => calls > 3)
})

test('an unknown level throws INVALID_CONFIG and changes nothing', () => {
  assert.throws(() => setLogger(() => {}, 'loud'), { code: 'INVALID_CONFIG' })
})
