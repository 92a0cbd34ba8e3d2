// fire(event, { signal }) (issue 8): aborting kills the running hooks' process groups and
// rejects with signal.reason at once; an aborted signal runs nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { bashEvent, hookwire, oneHook, sq } from './support.mjs'

const { Dispatcher } = hookwire
const alive = (pid) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
  } catch {
    return false
  }
}
const waitFor = async (cond, ms) => {
  const end = performance.now() + ms
  while (!cond() && performance.now() < end) await sleep(10)
  return cond()
}

test('aborting kills a sleep 30 hook promptly and rejects with the AbortError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-abort-'))
  try {
    const pidFile = join(dir, 'pid')
    // exec: the shell becomes `sleep`, so the pid written is the sleeping process.
    const d = new Dispatcher(oneHook('PreToolUse', `echo $$ > ${sq(pidFile)}; exec sleep 30`, 'Bash'))
    const controller = new AbortController()
    const fired = d.fire(bashEvent('ls'), { signal: controller.signal })
    assert.ok(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 5000))
    const pid = Number(readFileSync(pidFile, 'utf8').trim())
    assert.ok(alive(pid), 'the hook is running')

    const started = performance.now()
    controller.abort()
    await assert.rejects(fired, (e) => {
      assert.equal(e, controller.signal.reason, 'rejects with signal.reason itself')
      assert.equal(e.name, 'AbortError')
      return true
    })
    const ms = performance.now() - started
    assert.ok(ms < 500, `rejected after ${ms.toFixed(0)} ms`)
    assert.ok(await waitFor(() => !alive(pid), 1000), `pid ${pid} survived the abort`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('an already-aborted signal rejects at once without running anything', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-abort-'))
  try {
    const marker = join(dir, 'ran')
    const d = new Dispatcher(oneHook('PreToolUse', `touch ${sq(marker)}`, 'Bash'))
    let called = false
    d.addFunctionHook('PreToolUse', () => {
      called = true
    })
    const reason = new Error('stop now')
    await assert.rejects(d.fire(bashEvent('ls'), { signal: AbortSignal.abort(reason) }), (e) => e === reason)
    await sleep(200)
    assert.equal(existsSync(marker), false)
    assert.equal(called, false)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('aborting a fire waiting on a JS function rejects at once', async () => {
  const d = new Dispatcher({})
  d.addFunctionHook('PreToolUse', () => new Promise(() => {}))
  const controller = new AbortController()
  const fired = d.fire(bashEvent('ls'), { signal: controller.signal })
  await sleep(100)
  controller.abort('why not')
  await assert.rejects(fired, (e) => e === 'why not')
})

test('a signal that never aborts changes nothing, and its listener is removed', async () => {
  const d = new Dispatcher(oneHook('PreToolUse', `sh -c 'exit 0'`, 'Bash'))
  const controller = new AbortController()
  const warnings = []
  const onWarning = (w) => warnings.push(w)
  process.on('warning', onWarning)
  try {
    // More fires than the EventTarget leak warning allows listeners, one after another.
    for (let i = 0; i < 15; i++) {
      const r = await d.fire(bashEvent('ls'), { signal: controller.signal })
      assert.equal(r.outcomes[0].status, 'ok')
    }
    await sleep(50)
  } finally {
    process.off('warning', onWarning)
  }
  assert.deepEqual(warnings.map(String), [])
  controller.abort()
})

test('options and signal of the wrong type reject with a TypeError', async () => {
  const d = new Dispatcher({})
  await assert.rejects(d.fire(bashEvent('ls'), 42), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  await assert.rejects(d.fire(bashEvent('ls'), { signal: 'soon' }), { name: 'TypeError' })
  const r = await d.fire(bashEvent('ls'), { signal: undefined })
  assert.equal(r.decision, null)
})
