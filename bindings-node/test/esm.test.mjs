// `import { Dispatcher } from 'hookwire'` works from the repository root after
// `npm install ./bindings-node`, shares the addon with require(), and reports the version.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { readFileSync, realpathSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import * as imported from 'hookwire'
import hookwireDefault, { Dispatcher, version } from 'hookwire'
import { ROOT } from './support.mjs'

test('named and default ESM imports expose Dispatcher and version', () => {
  assert.equal(typeof Dispatcher, 'function')
  assert.equal(typeof version, 'string')
  assert.equal(hookwireDefault.Dispatcher, Dispatcher)
  assert.equal(imported.Dispatcher, Dispatcher)
  const r = new Dispatcher({ hooks: {} }).fireSync({ hook_event_name: 'Stop' })
  assert.equal(r.event, 'Stop')
})

test('every export of the CommonJS loader is a named ESM export too', () => {
  const required = createRequire(join(ROOT, 'package.json'))('hookwire')
  const missing = Object.keys(required).filter((k) => !k.startsWith('__') && !(k in imported))
  assert.deepEqual(missing, [], 'add them to bindings-node/index.mjs')
})

test('ESM and CommonJS share one addon instance', () => {
  const required = createRequire(join(ROOT, 'package.json'))('hookwire')
  assert.equal(required.Dispatcher, Dispatcher)
})

test('import resolves from the repository root through node_modules', () => {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { Dispatcher, version } from 'hookwire';" +
        "const r = await new Dispatcher('{}').fire({ hook_event_name: 'Stop' });" +
        'console.log(JSON.stringify([version, r.event, import.meta.resolve("hookwire")]))',
    ],
    { cwd: ROOT, encoding: 'utf8' },
  )
  const [v, event, resolved] = JSON.parse(out)
  assert.equal(v, version)
  assert.equal(event, 'Stop')
  // npm links the folder into node_modules; Node reports the real path behind the link.
  const pkgDir = realpathSync(join(ROOT, 'bindings-node'))
  assert.equal(realpathSync(join(ROOT, 'node_modules', 'hookwire')), pkgDir)
  assert.equal(resolved, pathToFileURL(join(pkgDir, 'index.mjs')).href)
})

test('version equals the crate version and the npm package version', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'bindings-node', 'package.json'), 'utf8'))
  assert.equal(version, pkg.version)
  const cargo = readFileSync(join(ROOT, 'Cargo.toml'), 'utf8')
  const workspaceVersion = cargo.match(/\[workspace\.package\][^[]*?\nversion\s*=\s*"([^"]+)"/)?.[1]
  assert.equal(version, workspaceVersion)
  assert.match(version, /^\d+\.\d+\.\d+$/)
})

test('index.d.ts declares Dispatcher, Config, Event, Result and Outcome with doc comments', () => {
  const dts = readFileSync(join(ROOT, 'bindings-node', 'index.d.ts'), 'utf8')
  for (const decl of [
    'export declare class Dispatcher',
    'export interface Config',
    'export interface Event',
    'export interface Result',
    'export interface Outcome',
    'export declare const version: string',
    'export type HookAnswer',
    'export interface FunctionHookOptions',
    'export interface FireOptions',
    'export interface HostCallbackRequest',
  ]) {
    const at = dts.indexOf(decl)
    assert.ok(at >= 0, `missing: ${decl}`)
    assert.match(dts.slice(0, at).trimEnd(), /\*\/$/, `no doc comment before ${decl}`)
  }
  assert.match(dts, /constructor\(config: Config \| string\)/)
  assert.match(dts, /fire\(event: Event \| string, options\?: FireOptions\): Promise<Result>/)
  assert.match(dts, /addFunctionHook\(event: string, fn: \(event: Event\) => HookAnswer \| Promise<HookAnswer>, options\?: FunctionHookOptions\): string/)
  assert.match(dts, /setHostCallback\(type: HostCallbackType, fn: /)
  assert.match(dts, /fireSync\(event: Event \| string\): Result/)
  assert.match(dts, /static fromFile\(path: string\): Dispatcher/)
})
