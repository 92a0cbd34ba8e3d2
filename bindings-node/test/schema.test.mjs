// The TypeScript shapes come from the JSON Schemas in schema/, which come from the Rust types:
// types.d.ts must hold what scripts/gen-types.mjs generates from them, and the objects the
// addon returns must have exactly the schemas' keys, in their order.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expectedTypes, REGENERATE, TYPES } from '../scripts/gen-types.mjs'
import { hookwire, oneHook, ROOT } from './support.mjs'

const schema = (name) => JSON.parse(readFileSync(join(ROOT, 'schema', name), 'utf8'))

test('types.d.ts holds the types generated from schema/', () => {
  assert.equal(
    readFileSync(TYPES, 'utf8'),
    expectedTypes(),
    `bindings-node/types.d.ts is stale: regenerate it with \`${REGENERATE}\`, then rebuild index.d.ts`,
  )
})

test('a real result, its outcomes and verdicts have exactly the keys of the schemas', () => {
  const result = schema('result.schema.json')
  const d = new hookwire.Dispatcher(oneHook('Stop', 'exit 0'))
  const r = d.fireSync({ hook_event_name: 'Stop', cwd: '/' })
  assert.equal(r.outcomes.length, 1)
  assert.deepEqual(Object.keys(r), Object.keys(result.properties))
  assert.deepEqual(Object.keys(r.outcomes[0]), Object.keys(result.$defs.Outcome.properties))
  assert.deepEqual(Object.keys(r.outcomes[0].verdict), Object.keys(result.$defs.Verdict.properties))
})

test('a trust status has exactly the keys of the trust-status schema', () => {
  const status = schema('trust-status.schema.json')
  const config = { project_dir: '/', sources: [{ scope: 'project', settings: { hooks: {} } }] }
  const s = new hookwire.Dispatcher(config).trustStatus()
  assert.equal(s.sources.length, 1)
  assert.deepEqual(Object.keys(s), Object.keys(status.properties))
  assert.deepEqual(Object.keys(s.sources[0]), Object.keys(status.$defs.TrustSource.properties))
})

test('a host step has exactly the keys of the host-step schema and one of its actions', () => {
  const stepSchema = schema('host-step.schema.json')
  const d = new hookwire.Dispatcher(oneHook('Stop', 'echo "tests fail" >&2; exit 2'))
  const step = hookwire.hostStep(d.fireSync({ hook_event_name: 'Stop', cwd: '/', session_id: 'schema-step' }))
  assert.deepEqual(Object.keys(step), Object.keys(stepSchema.properties))
  assert.ok(stepSchema.$defs.HostAction.oneOf.some((v) => v.const === step.action), step.action)
  assert.equal(step.action, 'continue_turn')
  assert.equal(step.message, 'Stop hook feedback:\ntests fail')
})
