// Hooks see the host's environment as it is at the moment of the fire, and run in the
// event's cwd (abi.md §1).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HOOKS, bashEvent, hookwire, oneHook, sq } from './support.mjs'

const { Dispatcher } = hookwire
const VAR = 'HOOKWIRE_NODE_TEST_VAR'

test('a change to process.env before a fire reaches the hook', async () => {
  const d = new Dispatcher(oneHook('PreToolUse', `sh ${sq(join(HOOKS, 'env.sh'))} ${VAR}`, 'Bash'))
  try {
    delete process.env[VAR]
    assert.equal((await d.fire(bashEvent('true'))).outcomes[0]?.stdout, `${VAR} unset\n`)
    process.env[VAR] = 'first value'
    assert.equal((await d.fire(bashEvent('true'))).outcomes[0]?.stdout, `${VAR}=first value\n`)
    process.env[VAR] = 'second'
    assert.equal(d.fireSync(bashEvent('true')).outcomes[0]?.stdout, `${VAR}=second\n`)
  } finally {
    delete process.env[VAR]
  }
})

test("the hook runs in the event's cwd, and the host's cwd is unchanged", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hookwire-node-cwd-')))
  const before = process.cwd()
  try {
    const d = new Dispatcher(oneHook('PreToolUse', 'pwd', 'Bash'))
    const r = await d.fire(bashEvent('true', { cwd: dir }))
    assert.equal(r.outcomes[0]?.stdout, `${dir}\n`)
    assert.equal(process.cwd(), before)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
