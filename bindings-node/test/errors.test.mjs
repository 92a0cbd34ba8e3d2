// Every error path of the Node API (abi.md §4, §6): engine errors are Errors with `code` (and
// line, column, pointer when known), wrong argument types are TypeErrors, and a panic inside
// hookwire rejects with 'PANIC' without crashing Node.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bashEvent, hookwire } from './support.mjs'

const { Dispatcher } = hookwire
const d = new Dispatcher({})
const NOT_OBJECT_OR_STRING = [42, true, null, undefined, Symbol('s'), () => {}, 10n]

/** An assert.throws / rejects validator: an Error (not a TypeError) with this code. */
const engineError = (code, extra = {}) => (e) => {
  assert.ok(e instanceof Error, `not an Error: ${e}`)
  assert.ok(!(e instanceof TypeError), `an engine error must not be a TypeError: ${e}`)
  assert.equal(e.code, code, `${e.code}: ${e.message}`)
  assert.equal(typeof e.message, 'string')
  assert.ok(e.message.length > 0)
  for (const [k, v] of Object.entries(extra)) {
    if (typeof v === 'function') v(e[k])
    else assert.equal(e[k], v, `${k} of ${e.message}`)
  }
  return true
}
const typeError = (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE'

test('config: invalid JSON text throws INVALID_JSON with line and column', () => {
  assert.throws(() => new Dispatcher('{\n  "hooks": {,\n}'), engineError('INVALID_JSON', { line: 2, column: 13 }))
  assert.throws(() => new Dispatcher(''), engineError('INVALID_JSON', { line: 1 }))
})

test('config: JSON that is not a configuration throws INVALID_CONFIG', () => {
  for (const text of ['[]', '42', '"hooks"', 'null']) {
    assert.throws(() => new Dispatcher(text), engineError('INVALID_CONFIG'), text)
  }
  assert.throws(() => new Dispatcher([]), engineError('INVALID_CONFIG'))
})

test('config: a wrong type in one place throws INVALID_CONFIG with its JSON pointer', () => {
  const pointer = (p) => assert.ok(typeof p === 'string' && p.startsWith('/hooks'), `pointer: ${p}`)
  assert.throws(() => new Dispatcher({ hooks: 'nope' }), engineError('INVALID_CONFIG', { pointer }))
  assert.throws(
    () => new Dispatcher({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: 'x' }] }] } }),
    engineError('INVALID_CONFIG', { pointer }),
  )
})

test('config: an object JSON cannot represent throws INVALID_CONFIG', () => {
  const cyclic = { hooks: {} }
  cyclic.hooks.self = cyclic
  assert.throws(() => new Dispatcher(cyclic), engineError('INVALID_CONFIG'))
  assert.throws(() => new Dispatcher({ hooks: {}, n: 1n }), engineError('INVALID_CONFIG'))
})

test('config: an argument that is neither an object nor a string is a TypeError', () => {
  for (const bad of NOT_OBJECT_OR_STRING) assert.throws(() => new Dispatcher(bad), typeError, String(bad))
  assert.throws(() => new Dispatcher(), typeError)
})

test('config: objects convert exactly as JSON.stringify converts them', () => {
  const d2 = new Dispatcher({ hooks: {}, skipped: undefined, toJSON: undefined, when: new Date(0) })
  assert.equal(d2.fireSync({ hook_event_name: 'Stop' }).event, 'Stop')
})

test('fromFile: reads a JSON file, and refuses unreadable or bad files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-node-err-'))
  try {
    writeFileSync(join(dir, 'ok.json'), '{"hooks": {}}')
    assert.equal(Dispatcher.fromFile(join(dir, 'ok.json')).fireSync({ hook_event_name: 'Stop' }).event, 'Stop')
    writeFileSync(join(dir, 'bad.json'), '{\n\n  "hooks": ]')
    assert.throws(() => Dispatcher.fromFile(join(dir, 'bad.json')), engineError('INVALID_JSON', { line: 3 }))
    writeFileSync(join(dir, 'latin1.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]))
    assert.throws(() => Dispatcher.fromFile(join(dir, 'latin1.json')), engineError('INVALID_UTF8'))
    const missing = join(dir, 'missing.json')
    assert.throws(() => Dispatcher.fromFile(missing), engineError('ENOENT', { path: missing }))
    assert.throws(() => Dispatcher.fromFile(dir), engineError('EISDIR', { path: dir }))
    assert.throws(() => Dispatcher.fromFile(42), (e) => e instanceof Error)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('fire: invalid event JSON rejects with INVALID_JSON, line and column', async () => {
  await assert.rejects(d.fire('{"hook_event_name": "Stop",\n  oops}'), engineError('INVALID_JSON', { line: 2, column: 3 }))
  assert.throws(() => d.fireSync('{"hook_event_name":'), engineError('INVALID_JSON', { line: 1 }))
})

test('fire: JSON that is not an event rejects with INVALID_EVENT', async () => {
  const bad = [{}, [], '[]', '"Stop"', '42', { hook_event_name: 5 }, { hook_event_name: null }, { tool_name: 'Bash' }]
  for (const event of bad) {
    await assert.rejects(d.fire(event), engineError('INVALID_EVENT'), JSON.stringify(event))
    assert.throws(() => d.fireSync(event), engineError('INVALID_EVENT'), JSON.stringify(event))
  }
})

test('fire: an object JSON cannot represent rejects with INVALID_EVENT', async () => {
  const cyclic = bashEvent('true')
  cyclic.tool_input.self = cyclic
  await assert.rejects(d.fire(cyclic), engineError('INVALID_EVENT'))
  assert.throws(() => d.fireSync(cyclic), engineError('INVALID_EVENT'))
})

test('fire: an argument that is neither an object nor a string rejects with a TypeError, never throws', async () => {
  for (const bad of NOT_OBJECT_OR_STRING) {
    let promise
    assert.doesNotThrow(() => {
      promise = d.fire(bad)
    })
    await assert.rejects(promise, typeError, String(bad))
    assert.throws(() => d.fireSync(bad), typeError, String(bad))
  }
})

test('a panic inside hookwire rejects with PANIC, throws PANIC from fireSync, and leaves the dispatcher usable', async () => {
  const panicky = { hook_event_name: '__hookwire_test_panic__' }
  process.env.HOOKWIRE_TEST_PANIC = '1'
  try {
    const many = await Promise.allSettled(Array.from({ length: 4 }, () => d.fire(panicky)))
    for (const s of many) {
      assert.equal(s.status, 'rejected')
      engineError('PANIC', { message: (m) => assert.match(m, /panic/) })(s.reason)
    }
    assert.throws(() => d.fireSync(panicky), engineError('PANIC'))
  } finally {
    delete process.env.HOOKWIRE_TEST_PANIC
  }
  assert.equal((await d.fire({ hook_event_name: 'Stop' })).event, 'Stop')
})

test('errors carry no line, column or pointer when they are not known', () => {
  try {
    new Dispatcher('[]')
    assert.fail('no error')
  } catch (e) {
    assert.equal(e.line, undefined)
    assert.equal(e.column, undefined)
  }
})
