// Load from Node promises on one dispatcher: 16 concurrent lanes x 250 fires of a mixed
// configuration (allow by JSON, deny by exit 2, exec-form /bin/true, no match), then 1000
// fires one after the other. Every fire gives exactly its verdict, and the process ends with
// the descriptors it started with and no child process (zombie or alive).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { hookwire } from './support.mjs'

const { Dispatcher } = hookwire
const LANES = 16
const FIRES_PER_LANE = 250
const SEQUENTIAL_FIRES = 1000

const ALLOW = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'fine' },
})
const sh = (command) => ({ type: 'command', command, timeout: 30 })
const MIXED = {
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [sh('exit 0'), sh(`printf '%s' '${ALLOW}'`)] },
      { matcher: 'Write', hooks: [sh('echo no >&2; exit 2'), sh('exit 0')] },
      { matcher: 'Edit', hooks: [{ type: 'command', command: '/bin/true', args: [] }] },
    ],
  },
}
const TOOLS = ['Bash', 'Write', 'Edit', 'Read']
const EXPECTED = { Bash: ['allow', 'fine', 2], Write: ['deny', 'no', 2], Edit: [null, null, 1], Read: [null, null, 0] }

const event = (tool, session) => ({
  hook_event_name: 'PreToolUse',
  session_id: session,
  cwd: '/',
  tool_name: tool,
  tool_input: { command: 'ls' },
})

function check(tool, r) {
  const [decision, reason, count] = EXPECTED[tool]
  assert.deepEqual([r.decision, r.reason, r.outcomes.length], [decision, reason, count], JSON.stringify(r))
  for (const o of r.outcomes) assert.equal(o.status, 'ok', JSON.stringify(o))
  return count
}

const openFds = () => readdirSync('/proc/self/fd').length

/** [pid, state] of every process whose parent is this one. */
function children() {
  const out = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 1).trim().split(/\s+/)
    if (Number(ppid) === process.pid) out.push([Number(name), state])
  }
  return out
}

async function childrenAfterSettling() {
  const deadline = Date.now() + 2000
  let c = children()
  while (c.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    c = children()
  }
  return c
}

async function warmUp(d) {
  for (const tool of TOOLS) check(tool, await d.fire(event(tool, 'warm-up')))
  // Let the addon's finished fire threads go before the descriptors are counted.
  await new Promise((resolve) => setTimeout(resolve, 100))
}

test(`${LANES} concurrent promise lanes x ${FIRES_PER_LANE} fires lose no verdict and leak nothing`, async () => {
  const d = new Dispatcher(MIXED)
  await warmUp(d)
  const fdsBefore = openFds()
  const started = performance.now()
  const lane = async (l) => {
    let hooks = 0
    for (let i = 0; i < FIRES_PER_LANE; i++) {
      const tool = TOOLS[(l + i) % TOOLS.length]
      hooks += check(tool, await d.fire(event(tool, `node-lane-${l}`)))
    }
    return hooks
  }
  const hooks = (await Promise.all(Array.from({ length: LANES }, (_, l) => lane(l)))).reduce((a, b) => a + b, 0)
  const took = (performance.now() - started) / 1000
  const left = await childrenAfterSettling()
  const fdsAfter = openFds()
  console.log(
    `stress(node): ${LANES} lanes x ${FIRES_PER_LANE} fires, ${hooks} hooks, ${took.toFixed(1)} s; ` +
      `descriptors before ${fdsBefore} after ${fdsAfter}; children after ${left.length}`,
  )
  assert.ok(fdsAfter <= fdsBefore, `descriptors grew: ${fdsBefore} -> ${fdsAfter}`)
  assert.deepEqual(left, [])
  assert.ok(took < 20, `${took} s`)
})

test(`${SEQUENTIAL_FIRES} sequential fires mixing hooks and no match leak nothing`, async () => {
  const d = new Dispatcher(MIXED)
  await warmUp(d)
  const fdsBefore = openFds()
  for (let i = 0; i < SEQUENTIAL_FIRES; i++) {
    const tool = i % 2 === 0 ? 'Read' : TOOLS[Math.floor(i / 2) % 3]
    check(tool, await d.fire(event(tool, 'node-sequential')))
  }
  assert.deepEqual(await childrenAfterSettling(), [])
  assert.ok(openFds() <= fdsBefore, 'descriptors grew')
})
