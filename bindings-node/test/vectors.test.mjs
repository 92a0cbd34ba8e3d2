// The node:test runner of the shared conformance corpus: every tests/vectors/*.json, in sorted
// order, one test each, with exactly the format and matching rules of tests/README.md.
// The vectors that may run concurrently form one suite, run HOOKWIRE_VECTOR_WORKERS (default 4)
// at a time (the addon fires off the main thread); then the serial ones (tests/README.md:
// "serial": true, or host_env, which is process-wide) run one after another, alone.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { HOOKS, ROOT, errorJson, hookwire } from './support.mjs'

const { Dispatcher } = hookwire
const VECTORS = join(ROOT, 'tests', 'vectors')
const files = existsSync(VECTORS) ? readdirSync(VECTORS).filter((f) => f.endsWith('.json')).sort() : []

test('the conformance corpus is not empty', () => {
  assert.ok(files.length > 0, `no vector found in ${VECTORS}`)
})

const workersText = process.env.HOOKWIRE_VECTOR_WORKERS ?? '4'
const workers = Number(workersText)
if (!Number.isInteger(workers) || workers < 1) {
  throw new Error(`HOOKWIRE_VECTOR_WORKERS=${JSON.stringify(workersText)}: expected a whole number >= 1`)
}
const vectors = files.map((file) => {
  let vector
  try {
    vector = JSON.parse(readFileSync(join(VECTORS, file), 'utf8'))
  } catch (e) {
    vector = { parseError: e }
  }
  const serial = vector.serial === true || vector.host_env !== undefined
  return { file, vector, serial }
})

function vectorTest({ file, vector }) {
  if (vector.parseError) return test(file, () => assert.fail(`not JSON: ${vector.parseError.message}`))
  const skip = Array.isArray(vector.skip) && vector.skip.includes('node')
  test(file, { skip: skip ? vector.skip_reason || 'skipped for node' : false }, () => runVector(vector))
}

describe(`vectors, ${workers} at a time`, { concurrency: workers }, () => {
  for (const v of vectors) if (!v.serial) vectorTest(v)
})
describe('serial vectors, one at a time', { concurrency: 1 }, () => {
  for (const v of vectors) if (v.serial) vectorTest(v)
})

/** Replaces ${HOOKS} and ${TMP} in every string value (never in keys), recursively. */
function substitute(value, tmp) {
  if (typeof value === 'string') return value.replaceAll('${HOOKS}', HOOKS).replaceAll('${TMP}', tmp)
  if (Array.isArray(value)) return value.map((v) => substitute(v, tmp))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, tmp)]))
  }
  return value
}

async function runVector(raw) {
  const tmp = mkdtempSync(join(tmpdir(), 'hookwire-node-vec-'))
  const saved = new Map()
  const failures = []
  try {
    for (const [k, v] of Object.entries(substitute(raw.host_env ?? {}, tmp))) {
      saved.set(k, process.env[k])
      process.env[k] = v
    }
    const config = substitute(raw.config ?? {}, tmp)
    const fires = raw.fires
      ? raw.fires.map((f) => substitute(f, tmp))
      : [substitute({ event: raw.event, event_text: raw.event_text, expect: raw.expect }, tmp)]

    let dispatcher
    try {
      dispatcher = new Dispatcher(JSON.stringify(config))
    } catch (e) {
      // A refused configuration: the (single) expectation must be config_error or error.
      const expect = fires[0]?.expect ?? {}
      const want = expect.config_error ?? expect.error
      if (want === undefined) {
        failures.push(`$: building the dispatcher failed: ${e.code}: ${e.message}`)
      } else {
        match(errorJson(e), want, expect.config_error !== undefined ? '$.config_error' : '$.error', failures)
      }
      return
    }

    for (const [i, fire] of fires.entries()) {
      const where = raw.fires ? `fires[${i}]` : '$'
      const expect = fire.expect ?? {}
      if (expect.config_error !== undefined) {
        failures.push(`${where}: expected the dispatcher build to fail, but it succeeded`)
        continue
      }
      if (fire.sleep_ms) await sleep(fire.sleep_ms)
      const input = fire.event_text !== undefined ? fire.event_text : JSON.stringify(fire.event)
      const started = performance.now()
      let result
      let error
      try {
        result = await dispatcher.fire(input)
      } catch (e) {
        error = e
      }
      const ms = performance.now() - started
      checkFire(where, expect, result, error, ms, failures)
    }
  } finally {
    for (const [k, old] of saved) {
      if (old === undefined) delete process.env[k]
      else process.env[k] = old
    }
    rmSync(tmp, { recursive: true, force: true })
    if (failures.length) assert.fail(failures.join('\n'))
  }
}

function checkFire(where, expect, result, error, ms, failures) {
  if (expect.error !== undefined) {
    if (error === undefined) failures.push(`${where}.error: the fire succeeded: ${JSON.stringify(result)}`)
    else match(errorJson(error), expect.error, `${where}.error`, failures)
    return
  }
  if (error !== undefined) {
    failures.push(`${where}: the fire failed: ${error.code}: ${error.message}`)
    return
  }
  if (expect.result !== undefined) match(result, expect.result, `${where}.result`, failures)
  for (const key of ['outcomes', 'async_outcomes', 'warnings']) {
    if (expect[key] === undefined) continue
    if (!(key in result)) failures.push(`${where}.${key}: missing from the result`)
    else match(result[key], expect[key], `${where}.${key}`, failures)
  }
  if (expect.max_ms !== undefined && !(ms < expect.max_ms)) {
    failures.push(`${where}.max_ms: the fire took ${ms.toFixed(1)} ms, not below ${expect.max_ms}`)
  }
  if (expect.min_ms !== undefined && !(ms >= expect.min_ms)) {
    failures.push(`${where}.min_ms: the fire took ${ms.toFixed(1)} ms, less than ${expect.min_ms}`)
  }
  for (const p of expect.files_absent ?? []) if (existsSync(p)) failures.push(`${where}.files_absent: ${p} exists`)
  for (const p of expect.files_present ?? []) if (!existsSync(p)) failures.push(`${where}.files_present: ${p} is missing`)
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
const show = (v) => (v === undefined ? '<missing>' : JSON.stringify(v))

function isOperator(expected) {
  if (!isObject(expected)) return false
  const keys = Object.keys(expected)
  return keys.length === 1 && keys[0].startsWith('$')
}

function deepEqual(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
  }
  return a === b
}

/** Matches `actual` against `expected` by the rules of tests/README.md, collecting failures. */
function match(actual, expected, path, failures) {
  const fail = (what) => failures.push(`${path}: ${what}`)
  if (isOperator(expected)) {
    const [op, arg] = Object.entries(expected)[0]
    switch (op) {
      case '$eq':
        if (!deepEqual(actual, arg)) fail(`expected exactly ${show(arg)}, got ${show(actual)}`)
        return
      case '$contains':
      case '$not_contains': {
        if (typeof actual !== 'string') return fail(`${op}: expected a string, got ${show(actual)}`)
        if (actual.includes(arg) !== (op === '$contains')) {
          fail(`${op} ${show(arg)}: got ${show(actual)}`)
        }
        return
      }
      case '$some_contains':
      case '$none_contains': {
        if (!Array.isArray(actual)) return fail(`${op}: expected an array, got ${show(actual)}`)
        const some = actual.some((x) => typeof x === 'string' && x.includes(arg))
        if (some !== (op === '$some_contains')) fail(`${op} ${show(arg)}: got ${show(actual)}`)
        return
      }
      case '$lt':
      case '$gt': {
        if (typeof actual !== 'number') return fail(`${op}: expected a number, got ${show(actual)}`)
        if (op === '$lt' ? !(actual < arg) : !(actual > arg)) fail(`expected ${op} ${arg}, got ${actual}`)
        return
      }
      case '$len': {
        const n = Array.isArray(actual) ? actual.length : typeof actual === 'string' ? [...actual].length : undefined
        if (n === undefined) return fail(`$len: expected an array or a string, got ${show(actual)}`)
        if (n !== arg) fail(`expected length ${arg}, got ${n}: ${show(actual)}`)
        return
      }
      case '$any':
        if (actual === undefined) fail('expected the key to be present')
        return
      default:
        return fail(`unknown operator ${op}`)
    }
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return fail(`expected an array, got ${show(actual)}`)
    if (actual.length !== expected.length) {
      return fail(`expected ${expected.length} elements, got ${actual.length}: ${show(actual)}`)
    }
    expected.forEach((e, i) => match(actual[i], e, `${path}[${i}]`, failures))
    return
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return fail(`expected an object, got ${show(actual)}`)
    for (const [k, e] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, k)) failures.push(`${path}.${k}: missing (expected ${show(e)})`)
      else match(actual[k], e, `${path}.${k}`, failures)
    }
    return
  }
  if (actual !== expected) fail(`expected ${show(expected)}, got ${show(actual)}`)
}
