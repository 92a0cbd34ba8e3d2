// Which threads fire() uses (CONTRIBUTING.md rule 14, issue 20): a fire that matches nothing is
// answered on the JavaScript thread with a promise that is already settled; a fire that runs
// hooks runs on a thread of the addon's pool, which reuses threads for sequential fires, gives
// every fire of a burst a thread of its own, and keeps at most a few waiting afterwards.
// Threads are counted by name in /proc/self/task (the pool names them 'hookwire-fire'), so
// this file needs Linux, where hookwire runs. No timing is asserted beyond wide margins.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { getEventListeners } from 'node:events'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { HOOKS, ROOT, bashEvent, hookwire, oneHook, sq } from './support.mjs'

const { Dispatcher } = hookwire

/** This process's threads named `name` (their ids). */
function threadsNamed(name) {
  const ids = []
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === name) ids.push(tid)
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ids
}
const fireThreads = () => threadsNamed('hookwire-fire')

/** How many pids (process and thread ids) this pid namespace handed out while `f` ran. */
function pidsTakenBy(f) {
  const last = () => Number(readFileSync('/proc/sys/kernel/ns_last_pid', 'utf8'))
  const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'))
  const before = last()
  f()
  return (last() - before + max) % max
}

async function eventually(what, cond, ms = 5000) {
  const end = performance.now() + ms
  while (!cond()) {
    assert.ok(performance.now() < end, `never happened within ${ms} ms: ${what}`)
    await sleep(10)
  }
}

const readEvent = (extra = {}) => bashEvent('cat x', { tool_name: 'Read', ...extra })
const fast = new Dispatcher(oneHook('PreToolUse', 'true', 'Bash'))

// First in this file (its own process under node --test): no fire thread exists yet.
test('fires that match nothing start no thread, even hundreds at once', async () => {
  assert.deepEqual(fireThreads(), [])
  await fast.fire(readEvent())
  // Every thread started takes a pid (its thread id) from the kernel, and a thread that
  // answers a no-match fire would have ended by the time threads are listed: count pids.
  let pending
  const pids = pidsTakenBy(() => {
    pending = Array.from({ length: 500 }, (_, i) => fast.fire(readEvent({ session_id: `s${i}` })))
  })
  // Other processes on the machine may take a few pids meanwhile.
  assert.ok(pids < 250, `500 no-match fires took ${pids} pids`)
  for (const r of await Promise.all(pending)) assert.deepEqual(r.outcomes, [])
  for (let i = 0; i < 500; i++) await fast.fire(readEvent())
  assert.deepEqual(fireThreads(), [])
})

test('a fire that matches nothing returns a promise that is already resolved', async () => {
  let resolved = false
  fast.fire(readEvent()).then(() => {
    resolved = true
  })
  // The reaction of an already-resolved promise runs in the first microtask turn; a promise
  // settled from another thread would need a turn of the event loop.
  await Promise.resolve()
  assert.ok(resolved, 'the promise was still pending after one microtask turn')
})

test('a fire that matches nothing resolves with what fireSync returns, as a fresh object each time', async () => {
  const events = [
    readEvent(),
    JSON.stringify(readEvent()),
    { hook_event_name: 'Notification', session_id: 's', cwd: ROOT, message: 'hi' },
    { hook_event_name: 'UserPromptSubmit', session_id: 's', cwd: ROOT, prompt: 'p' },
  ]
  for (const event of events) {
    const first = await fast.fire(event)
    assert.deepEqual(first, fast.fireSync(event))
    first.outcomes.push('changed by the caller')
    first.warnings.push('changed by the caller')
    assert.deepEqual(await fast.fire(event), fast.fireSync(event))
  }
})

test('an already-aborted signal rejects a fire that would match nothing, with its reason', async () => {
  const controller = new AbortController()
  const reason = new Error('stop')
  controller.abort(reason)
  await assert.rejects(fast.fire(readEvent(), { signal: controller.signal }), (e) => e === reason)
})

test('a fire that matches nothing adds no listener to its signal', async () => {
  const { signal } = new AbortController()
  const r = await fast.fire(readEvent(), { signal })
  assert.deepEqual(r.outcomes, [])
  assert.equal(getEventListeners(signal, 'abort').length, 0)
})

test('sequential fires that run hooks reuse the same few threads', async () => {
  const brief = new Dispatcher(oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'emit.sh'))} -s 0.05 done`, 'Bash'))
  const seen = new Set()
  for (let i = 0; i < 30; i++) {
    const fired = brief.fire(bashEvent('ls'))
    // A thread names itself once it runs: look while the hook sleeps.
    await sleep(20)
    for (const tid of fireThreads()) seen.add(tid)
    assert.equal((await fired).outcomes[0].stdout, 'done')
  }
  // One thread per fire would be 30; the pool keeps up to 4 waiting and reuses them.
  assert.ok(seen.size <= 5, `30 sequential fires ran on ${seen.size} threads`)
  assert.ok(seen.size >= 1)
})

test('every fire of a burst gets a thread at once, and at most four wait afterwards', async () => {
  const slow = new Dispatcher(oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'emit.sh'))} -s 0.3 slept`, 'Bash'))
  const waiting = fireThreads().length
  const threadsBefore = readdirSync('/proc/self/task').length
  const started = performance.now()
  const fired = Array.from({ length: 24 }, (_, i) => slow.fire(bashEvent(`echo ${i}`)))
  // The waiting threads take the first fires; every other fire started a thread (which may
  // not have named itself yet, so all of this process's threads are counted).
  const added = readdirSync('/proc/self/task').length - threadsBefore
  assert.ok(added >= 24 - waiting, `24 fires in flight added ${added} threads to ${waiting} waiting`)
  for (const r of await Promise.all(fired)) assert.equal(r.outcomes[0].stdout, 'slept')
  const wall = performance.now() - started
  // Serially 7.2 s; behind 4 threads 1.8 s; all at once about 0.3 s.
  assert.ok(wall < 1500, `24 fires of a 0.3 s hook took ${wall.toFixed(0)} ms`)
  await eventually('the burst\'s extra threads exit', () => fireThreads().length <= 4)
})

test('a process whose fires are done exits without waiting for its idle fire threads', () => {
  const script =
    "const { Dispatcher } = require('hookwire');" +
    `const d = new Dispatcher(${JSON.stringify(JSON.stringify(oneHook('PreToolUse', 'true', 'Bash')))});` +
    `const ev = ${JSON.stringify(JSON.stringify(bashEvent('true')))};` +
    'Promise.all([1, 2, 3].map(() => d.fire(ev))).then((rs) => console.log(rs.length))'
  const started = performance.now()
  const out = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30000 })
  assert.equal(out, '3\n')
  // Idle threads wait 10 s for the next fire; the process must not wait for them.
  const ms = performance.now() - started
  assert.ok(ms < 8000, `the process took ${ms.toFixed(0)} ms to exit`)
})

test('a process that exits while fires run exits at once', () => {
  const hook = `sh ${sq(join(HOOKS, 'emit.sh'))} -s 10 late`
  const script =
    "const { Dispatcher } = require('hookwire');" +
    `const d = new Dispatcher(${JSON.stringify(JSON.stringify(oneHook('PreToolUse', hook, 'Bash')))});` +
    `const ev = ${JSON.stringify(JSON.stringify(bashEvent('true')))};` +
    'for (let i = 0; i < 4; i++) d.fire(ev);' +
    "setTimeout(() => { console.log('exiting'); process.exit(0) }, 200)"
  const started = performance.now()
  const out = execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30000 })
  assert.equal(out, 'exiting\n')
  const ms = performance.now() - started
  assert.ok(ms < 8000, `the process took ${ms.toFixed(0)} ms to exit with 10 s hooks running`)
})
