// fire() runs on threads the addon owns (CONTRIBUTING.md rule 14): 16 concurrent fires of a 200 ms
// hook take about 200 ms, the event loop stays free (timers tick) and libuv's pool stays free
// (fs calls complete) while they run.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { HOOKS, ROOT, bashEvent, hookwire, oneHook, sq } from './support.mjs'

const { Dispatcher } = hookwire
const sleeper = new Dispatcher(oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'emit.sh'))} -s 0.2 slept`, 'Bash'))

test('16 concurrent fires of a 200 ms hook finish in under 600 ms, and timers keep ticking', async () => {
  let ticks = 0
  const timer = setInterval(() => ticks++, 10)
  const started = performance.now()
  const results = await Promise.all(Array.from({ length: 16 }, (_, i) => sleeper.fire(bashEvent(`echo ${i}`))))
  const wall = performance.now() - started
  clearInterval(timer)
  for (const r of results) {
    assert.equal(r.outcomes.length, 1, JSON.stringify(r))
    assert.equal(r.outcomes[0].stdout, 'slept')
  }
  assert.ok(wall >= 190, `the hooks cannot have run: ${wall.toFixed(0)} ms`)
  assert.ok(wall < 600, `16 fires took ${wall.toFixed(0)} ms, expected about 200`)
  assert.ok(ticks >= 5, `the event loop was blocked: ${ticks} ticks of 10 ms in ${wall.toFixed(0)} ms`)
})

test("fires in flight leave libuv's pool free for fs", async () => {
  const fires = Promise.all(Array.from({ length: 16 }, () => sleeper.fire(bashEvent('true'))))
  const started = performance.now()
  await Promise.all(Array.from({ length: 8 }, () => readFile(join(ROOT, 'package.json'))))
  const fsMs = performance.now() - started
  const results = await fires
  assert.equal(results.length, 16)
  assert.ok(fsMs < 150, `fs reads waited ${fsMs.toFixed(0)} ms behind the fires`)
})

test('a fire with no matching hook resolves at once and spawns nothing', async () => {
  const started = performance.now()
  const r = await sleeper.fire(bashEvent('true', { tool_name: 'Read' }))
  assert.deepEqual(r.outcomes, [])
  assert.ok(performance.now() - started < 150)
})

test('a pending fire finishes after its dispatcher is dropped', async () => {
  const pending = new Dispatcher(
    oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'emit.sh'))} -s 0.1 late`, 'Bash'),
  ).fire(bashEvent('true'))
  globalThis.gc?.()
  const r = await pending
  assert.equal(r.outcomes[0]?.stdout, 'late')
})

test('a pending fire keeps the process alive until it settles', () => {
  const hook = `sh ${sq(join(HOOKS, 'emit.sh'))} -s 0.2 kept-alive`
  const script =
    "const { Dispatcher } = require('hookwire');" +
    `const d = new Dispatcher(${JSON.stringify(JSON.stringify(oneHook('PreToolUse', hook, 'Bash')))});` +
    `d.fire(${JSON.stringify(JSON.stringify(bashEvent('true')))}).then((r) => console.log(r.outcomes[0].stdout))`
  const out = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })
  assert.equal(out, 'kept-alive\n')
})
