// Hostile hooks and untrusted configurations, from Node (issue 11). The hooks are the shared
// scripts of tests/hostile/; each test checks the outcome of protocol.md §5 and §8 and, where
// processes are involved, that none survives. Wide time bounds (CONTRIBUTING.md rule 22).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, bashEvent, hookwire, sq } from './support.mjs'

const { Dispatcher } = hookwire
const HOSTILE = join(ROOT, 'tests', 'hostile')

/** A shell-form command running tests/hostile/NAME with ARGS. */
const script = (name, ...args) => ['sh', sq(join(HOSTILE, name)), ...args.map(sq)].join(' ')

/** A PreToolUse configuration with one handler (every tool), plus envelope keys. */
function withHandler(handler, extra = {}) {
  return { ...extra, hooks: { PreToolUse: [{ hooks: [handler] }] } }
}
const sh = (command, timeout = 20) => ({ type: 'command', command, timeout })

function scratch(t) {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-node-hostile-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function onlyOutcome(r) {
  assert.equal(r.outcomes.length, 1, JSON.stringify(r))
  return r.outcomes[0]
}

/** The /proc state letter of PID, null when it no longer exists. */
function procState(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)[0]
  } catch {
    return null
  }
}
const alive = (pid) => {
  const s = procState(pid)
  return s !== null && s !== 'Z'
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function readPids(path, want) {
  const deadline = Date.now() + 2000
  for (;;) {
    const pids = existsSync(path)
      ? readFileSync(path, 'utf8').split(/\s+/).filter((s) => /^\d+$/.test(s)).map(Number)
      : []
    if (pids.length >= want || Date.now() > deadline) {
      assert.equal(pids.length, want, `${path}: ${pids}`)
      return pids
    }
    await sleep(20)
  }
}

function killStray(pid) {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {}
}

test('a deny is kept and returned at once while a sleeper holds stdout', async (t) => {
  const dir = scratch(t)
  const pidfile = join(dir, 'sleeper.pid')
  const d = new Dispatcher(withHandler(sh(script('deny-and-linger.sh', pidfile))))
  const started = performance.now()
  const r = await d.fire(bashEvent('ls', { cwd: dir }))
  const took = performance.now() - started
  const [sleeper] = await readPids(pidfile, 1)
  killStray(sleeper)
  assert.ok(took < 2000, `fire took ${took.toFixed(0)} ms while a sleeper held stdout`)
  assert.equal(r.decision, 'deny')
  assert.equal(r.reason, 'lingering deny')
  const o = onlyOutcome(r)
  assert.deepEqual([o.status, o.exit_code, o.timed_out], ['ok', 0, false])
})

test('a hung hook is killed at its timeout with no survivor', async (t) => {
  const dir = scratch(t)
  const pidfile = join(dir, 'pids')
  const d = new Dispatcher(withHandler(sh(script('hang.sh', pidfile), 1)))
  const started = performance.now()
  const r = await d.fire(bashEvent('ls', { cwd: dir }))
  const took = performance.now() - started
  assert.ok(took < 5000, `a 1 s timeout took ${took.toFixed(0)} ms`)
  const o = onlyOutcome(r)
  assert.deepEqual([o.status, o.timed_out, o.exit_code], ['timed_out', true, null])
  assert.equal(r.decision, null)
  const pids = await readPids(pidfile, 2)
  await sleep(1000)
  const survivors = pids.filter(alive)
  survivors.forEach(killStray)
  assert.deepEqual(survivors, [], `alive one second after the group kill (of ${pids})`)
})

test('a flood on both streams is capped and flagged', async (t) => {
  const dir = scratch(t)
  const cap = 65536
  const d = new Dispatcher(
    withHandler(sh(script('flood.sh', String(20 * 1024 * 1024)), 60), { limits: { max_output_bytes: cap } }),
  )
  const o = onlyOutcome(await d.fire(bashEvent('ls', { cwd: dir })))
  assert.deepEqual([o.status, o.exit_code], ['ok', 0], o.error)
  assert.equal(o.stdout_truncated, true)
  assert.equal(o.stderr_truncated, true)
  assert.ok(o.stdout.length > 0 && o.stdout.length <= cap && /^o+$/.test(o.stdout))
  assert.ok(o.stderr.length > 0 && o.stderr.length <= cap && /^e+$/.test(o.stderr))
})

test('a missing program is spawn_failed, not a rejection', async (t) => {
  const dir = scratch(t)
  const d = new Dispatcher(withHandler({ type: 'command', command: '/nonexistent/hookwire-missing-program', args: [] }))
  const o = onlyOutcome(await d.fire(bashEvent('ls', { cwd: dir })))
  assert.equal(o.status, 'spawn_failed')
  assert.equal(o.exit_code, null)
  assert.ok(typeof o.error === 'string' && o.error.length > 0)
})

test('invalid UTF-8 output is replaced and flagged lossy', async (t) => {
  const dir = scratch(t)
  const d = new Dispatcher(withHandler(sh(script('invalid-utf8.sh'))))
  const o = onlyOutcome(await d.fire(bashEvent('ls', { cwd: dir })))
  assert.equal(o.status, 'ok')
  assert.equal(o.stdout_lossy, true)
  assert.equal(o.stderr_lossy, true)
  assert.match(o.stdout, /^a\uFFFD+b$/)
  assert.ok(o.stderr.includes('\uFFFD'))
})

test('untrusted project and local sources never run', async (t) => {
  const dir = scratch(t)
  const marker = join(dir, 'ran')
  const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: `touch ${sq(marker)}` }] }] } }
  mkdirSync(join(dir, '.claude'))
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(settings))
  const d = new Dispatcher({
    project_dir: dir,
    sources: [
      { scope: 'project', settings },
      { scope: 'project', path: '.claude/settings.json' },
      { scope: 'local', settings },
    ],
  })
  const r = await d.fire({ hook_event_name: 'Stop', session_id: 'node-trust', cwd: dir })
  assert.deepEqual(r.outcomes, [])
  assert.ok(
    r.warnings.some((w) => w.includes('not trusted')),
    JSON.stringify(r.warnings),
  )
  assert.equal(existsSync(marker), false)
})

test('calling a method on something that is not a Dispatcher throws, never crashes', () => {
  // Node has no close(): a Dispatcher cannot be used after it is gone. The misuse left is a
  // method borrowed onto another object, or a missing argument.
  assert.throws(() => Dispatcher.prototype.fireSync.call({}, { hook_event_name: 'Stop' }), TypeError)
  assert.throws(() => Dispatcher.prototype.fire.call(null, { hook_event_name: 'Stop' }), TypeError)
  const d = new Dispatcher({ hooks: {} })
  assert.throws(() => d.fireSync(), TypeError)
  assert.throws(() => d.fireSync(42), TypeError)
})
