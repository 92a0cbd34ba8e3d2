// Which runner backend the loaded addon starts hooks with, observed from a hook: under
// HOOKWIRE_EXPECT_BACKEND=linux the host holds a pidfd for the running hook, under =portable
// (an addon built with the `portable-runner` feature) none. CI sets it in both runs of the
// suite; without it the test is skipped (docs/reliability.md, "Runner backends").
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { ROOT, hookwire } from './support.mjs'

const expect = process.env.HOOKWIRE_EXPECT_BACKEND
const SCRIPT = join(ROOT, 'tests', 'hooks', 'parent-pidfds.sh')

test('hooks run on the backend the build names', { skip: expect === undefined && 'HOOKWIRE_EXPECT_BACKEND is not set (CI sets linux or portable)' }, async () => {
  assert.ok(expect === 'linux' || expect === 'portable', expect)
  const handler = { type: 'command', command: '/bin/sh', args: [SCRIPT], timeout: 10 }
  const d = new hookwire.Dispatcher({ hooks: { Stop: [{ hooks: [handler] }] } })
  const r = await d.fire({ hook_event_name: 'Stop', session_id: 'node-backend', cwd: '/' })
  assert.equal(r.outcomes[0]?.status, 'ok', JSON.stringify(r))
  const pidfds = Number.parseInt(r.outcomes[0].stdout, 10)
  if (expect === 'linux') assert.ok(pidfds >= 1, `the Linux backend watches the hook through a pidfd: ${JSON.stringify(r)}`)
  else assert.equal(pidfds, 0, 'the portable backend opens no pidfd')
})
