// Project trust (protocol.md §2.8) through the Node API: `dispatcher.trustStatus()` lists what
// needs trust, `recordTrust(config)` records it, a new dispatcher then runs the project hooks,
// and any edit of the file untrusts it again.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as esm from 'hookwire'
import { hookwire, ROOT } from './support.mjs'

const { Dispatcher, claudeCodeDefaults, recordTrust } = hookwire
const SETTINGS = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ran' }] }] } }
const STOP = { hook_event_name: 'Stop', cwd: '/' }

/** A temporary project with one Stop hook in .claude/settings.json, and a config naming it. */
function project(t) {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-node-trust-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(join(dir, '.claude'))
  const settings = join(dir, '.claude', 'settings.json')
  writeFileSync(settings, JSON.stringify(SETTINGS))
  const store = join(dir, 'trust.json')
  const config = {
    project_dir: dir,
    trust: { store },
    sources: [{ scope: 'project', path: '.claude/settings.json' }],
  }
  return { dir, settings, store, config }
}

const stopOutcomes = (config) => new Dispatcher(config).fireSync(STOP).outcomes.length

test('recorded project hooks run, and an edit untrusts them', async (t) => {
  const { settings, store, config } = project(t)

  const before = new Dispatcher(config)
  assert.deepEqual((await before.fire(STOP)).outcomes, [])
  const status = before.trustStatus()
  assert.equal(status.store, store)
  assert.equal(status.project_dir, config.project_dir)
  assert.equal(status.sources.length, 1)
  const [source] = status.sources
  assert.equal(source.trusted, false)
  assert.equal(source.scope, 'project')
  assert.equal(source.key, '.claude/settings.json')
  assert.match(source.digest, /^sha256:[0-9a-f]{64}$/)
  assert.equal(typeof source.why, 'string')

  const after = recordTrust(config)
  assert.equal(after.sources[0].trusted, true)
  assert.equal(after.sources[0].digest, source.digest)
  assert.equal(statSync(store).mode & 0o777, 0o600)
  const fresh = new Dispatcher(config)
  assert.equal(fresh.trustStatus().sources[0].trusted, true)
  const { outcomes } = await fresh.fire(STOP)
  assert.equal(outcomes.length, 1)
  assert.equal(outcomes[0].stdout, 'ran\n')

  writeFileSync(settings, JSON.stringify(SETTINGS).replace('ran', 'edited'))
  const edited = new Dispatcher(config)
  assert.equal(edited.fireSync(STOP).outcomes.length, 0)
  assert.equal(edited.trustStatus().sources[0].trusted, false)
})

test('recordTrust takes JSON text like the constructor', (t) => {
  const { config, store } = project(t)
  assert.equal(recordTrust(JSON.stringify(config)).sources[0].trusted, true)
  assert.equal(JSON.parse(readFileSync(store, 'utf8')).version, 1)
  assert.equal(stopOutcomes(config), 1)
})

test('a configuration without project sources has nothing to trust', () => {
  const status = new Dispatcher({ hooks: {} }).trustStatus()
  assert.deepEqual(status.sources, [])
  assert.equal(status.project_dir, null)
})

test('recordTrust throws Errors with code like the constructor', (t) => {
  const { dir, config } = project(t)
  assert.throws(
    () => recordTrust({ sources: [{ scope: 'project', settings: {} }], trust: { store: join(dir, 't.json') } }),
    (e) => e instanceof Error && e.code === 'INVALID_CONFIG' && e.pointer === '/project_dir',
  )
  assert.throws(() => recordTrust('{\n ,}'), (e) => e.code === 'INVALID_JSON' && e.line === 2)
  assert.throws(() => recordTrust('[]'), (e) => e.code === 'INVALID_CONFIG')
  for (const bad of [42, null, undefined]) {
    assert.throws(() => recordTrust(bad), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE')
  }
  writeFileSync(join(dir, 'blocker'), 'a file, not a directory')
  const unwritable = { ...config, trust: { store: join(dir, 'blocker', 'trust.json') } }
  assert.throws(() => recordTrust(unwritable), (e) => e.code === 'INTERNAL' && !(e instanceof TypeError))
})

test('recordTrust is exported to CommonJS and ESM, and typed in index.d.ts', () => {
  assert.equal(typeof recordTrust, 'function')
  assert.equal(esm.recordTrust, recordTrust)
  const dts = readFileSync(join(ROOT, 'bindings-node', 'index.d.ts'), 'utf8')
  assert.match(dts, /trustStatus\(\): TrustStatus/)
  assert.match(dts, /export declare function recordTrust\(config: Config \| string\): TrustStatus/)
  for (const decl of ['export interface TrustStatus', 'export interface TrustSource']) {
    const at = dts.indexOf(decl)
    assert.ok(at >= 0, `missing: ${decl}`)
    assert.match(dts.slice(0, at).trimEnd(), /\*\/$/, `no doc comment before ${decl}`)
  }
})

test('claudeCodeDefaults layers the user, project and local files, project ones gated on the default store', (t) => {
  const { dir, config } = project(t)
  const home = join(dir, 'home')
  mkdirSync(join(home, '.claude'), { recursive: true })
  const user = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } }
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify(user))
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME }
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
    }
  })
  process.env.HOME = home
  process.env.XDG_CONFIG_HOME = join(dir, 'xdg')

  const envelope = claudeCodeDefaults(join(dir, '.claude', '..'))
  assert.equal(envelope.project_dir, dir)
  assert.deepEqual(envelope.sources.map((s) => s.scope), ['user', 'project', 'local'])
  assert.deepEqual(envelope.trust, { store: join(dir, 'xdg', 'hookwire', 'trust.json'), project: 'store' })
  assert.equal(Dispatcher.fromClaudeCodeDefaults(dir).fireSync(STOP).outcomes.length, 1, 'the user hook only')
  recordTrust(envelope)
  assert.equal(Dispatcher.fromClaudeCodeDefaults(dir).fireSync(STOP).outcomes.length, 2)
  assert.equal(esm.claudeCodeDefaults, claudeCodeDefaults)
  assert.equal(config.project_dir, dir)

  const missing = join(dir, 'missing')
  assert.throws(() => claudeCodeDefaults(missing), (e) => e.code === 'ENOENT' && e.path === missing)
  assert.throws(() => Dispatcher.fromClaudeCodeDefaults(missing), (e) => e.code === 'ENOENT')
})
