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

test('a tool reach has exactly the keys of the tool-reach schema', () => {
  const reachSchema = schema('tool-reach.schema.json')
  const reach = new hookwire.Dispatcher(oneHook('PreToolUse', 'exit 2', 'Bash')).toolReach('bash')
  assert.deepEqual(Object.keys(reach), Object.keys(reachSchema.properties))
  assert.equal(typeof reach.warning, 'string')
})

test('hostEvent reads every key of the host-facts schema and refuses any other', () => {
  const factsSchema = schema('host-facts.schema.json')
  const sample = {
    event: 'PostToolUseFailure', session_id: 's', cwd: '/', transcript_path: '/t', permission_mode: 'plan',
    tool_name: 'bash', tool_names: { bash: 'Bash' }, tool_input: { command: 'ls' }, tool_use_id: 't1',
    tool_response: null, error: 'boom', error_type: 'Error', is_interrupt: true, prompt: 'p', source: 'startup',
    reason: 'other', stop_hook_active: false, last_assistant_message: 'm', fields: { agent_id: 'a' },
  }
  assert.deepEqual(Object.keys(sample), Object.keys(factsSchema.properties))
  const e = hookwire.hostEvent(sample)
  assert.deepEqual([e.tool_name, e.error, e.is_interrupt, e.agent_id], ['Bash', 'Error: boom', true, 'a'])
  assert.throws(() => hookwire.hostEvent({ ...sample, hook_event_name: 'Stop' }), { code: 'INVALID_EVENT' })
})
