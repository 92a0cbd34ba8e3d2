// A sandbox set from Node confines the hook (docs/sandbox.md): the same configuration key as
// every language, checked with a planted key and the same hook unsandboxed as the control.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hookwire } from './support.mjs'

const { Dispatcher } = hookwire
const READ_KEY = 'if cat "$HOME/.ssh/id_ed25519" >/dev/null 2>&1; then echo ok; else echo refused; fi'

async function fire (root, sandbox) {
  const home = join(root, 'home')
  const project = join(root, 'project')
  mkdirSync(join(home, '.ssh'), { recursive: true })
  mkdirSync(project, { recursive: true })
  writeFileSync(join(home, '.ssh', 'id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\n')
  const handler = { type: 'command', command: READ_KEY }
  if (sandbox !== undefined) handler.sandbox = sandbox
  const d = new Dispatcher({
    project_dir: project,
    env: { HOME: home },
    sources: [{ scope: 'user', settings: { hooks: { PreToolUse: [{ hooks: [handler] }] } } }]
  })
  const r = await d.fire({
    hook_event_name: 'PreToolUse', session_id: 's', cwd: project, tool_name: 'Bash', tool_input: { command: 'true' }
  })
  return r.outcomes[0]?.stdout.trim()
}

test('a strict sandbox keeps a planted key unreadable', async () => {
  const root = mkdtempSync(join(tmpdir(), 'hookwire-node-sandbox-'))
  try {
    assert.equal(await fire(join(root, 'control')), 'ok')
    assert.equal(await fire(join(root, 'boxed'), 'strict'), 'refused')
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
