// Shared helpers of the adapter tests (not a test file itself). Each test gets a temp project
// with a real settings file whose command hooks run one python3 script: it logs every event
// it reads and answers what `rules.json` (rewritten by the test) says for that event.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hookwire, sq } from '../support.mjs'
import { DEFAULT_TOOL_NAMES } from '../../adapters/_shared.mjs'

export { hookwire }

const HOOK_PY = `import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
event = json.load(sys.stdin)
with open(os.path.join(here, "events.jsonl"), "a") as log:
    log.write(json.dumps(event) + "\\n")
rules = json.load(open(os.path.join(here, "rules.json")))
rule = rules.get(event["hook_event_name"])
if isinstance(rule, list):  # one answer per fire of this event, the last one repeated
    n = sum(1 for line in open(os.path.join(here, "events.jsonl")) if json.loads(line)["hook_event_name"] == event["hook_event_name"])
    rule = rule[min(n, len(rule)) - 1]
if not rule:
    sys.exit(0)
if "stdout" in rule:
    out = rule["stdout"]
    print(out if isinstance(out, str) else json.dumps(out))
if "stderr" in rule:
    sys.stderr.write(rule["stderr"])
sys.exit(rule.get("exit", 0))
`

const EVENTS = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop']

/**
 * A temp project: `settings.json` (every event → the hook script), `rules.json` (the answers).
 * Returns { dir, settings, dispatcher, rules(r), events(name?) }. `envelope` adds envelope keys
 * (`limits`, ...) around the settings.
 */
export function hookProject(rules = {}, { envelope } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-adapter-'))
  writeFileSync(join(dir, 'hook.py'), HOOK_PY)
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules))
  const command = `python3 ${sq(join(dir, 'hook.py'))}`
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ matcher: e.includes('Tool') || e === 'PermissionRequest' ? 'Bash' : undefined, hooks: [{ type: 'command', command }] }]]))
  const settings = join(dir, 'settings.json')
  writeFileSync(settings, JSON.stringify({ hooks }, null, 2))
  return {
    dir,
    settings,
    dispatcher: envelope ? new hookwire.Dispatcher({ ...envelope, sources: [{ scope: 'user', path: settings }] }) : hookwire.Dispatcher.fromFile(settings),
    rules: (r) => writeFileSync(join(dir, 'rules.json'), JSON.stringify(r)),
    events(name) {
      const file = join(dir, 'events.jsonl')
      if (!existsSync(file)) return []
      const all = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
      return name ? all.filter((e) => e.hook_event_name === name) : all
    },
  }
}

/** PreToolUse answers. */
export const deny = (reason) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } } })
export const rewrite = (updatedInput) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput } } })
export const defer = () => ({ stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } } })
/** PermissionRequest answers. */
export const permission = (behavior, message) => ({ stdout: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, ...(message ? { message } : {}) } } } })
/** A PreToolUse allow: the call runs without the framework's approval. */
export const allow = () => ({ stdout: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } } })
/** No decision, and a system message for the user. */
export const systemMessage = (text) => ({ stdout: { systemMessage: text } })
/** The denial's text of a PermissionRequest without a decision (the core's words). */
export const NOT_ALLOWED = 'Permission to use this tool was not granted by a hook'
/** PostToolUse answers. */
export const postBlock = (reason, context) => ({ stdout: { decision: 'block', reason, ...(context ? { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: context } } : {}) } })
/** Blocks (Stop, UserPromptSubmit) by exit 2 with the reason on stderr. */
export const block = (reason) => ({ exit: 2, stderr: reason })

/** A temp settings file whose hook on `event` (any tool) writes its stdin to a file: `stdin()` reads it. */
export function rawEventProject(event) {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-adapter-raw-'))
  const raw = join(dir, 'stdin.json')
  const settings = join(dir, 'settings.json')
  writeFileSync(settings, JSON.stringify({ hooks: { [event]: [{ matcher: '*', hooks: [{ type: 'command', command: `cat > ${sq(raw)}` }] }] } }))
  return { dir, dispatcher: hookwire.Dispatcher.fromFile(settings), stdin: () => readFileSync(raw, 'utf8') }
}

/**
 * Checks the PreToolUse event a `rawEventProject` hook read on stdin, after a run whose model
 * called a tool named `bash` with `{ command: 'ls' }` (id `call_1`) in session `sessionId`: it
 * is the core's `hostEvent` of the same facts, key for key and in order, with no
 * `transcript_path`, `permission_mode` `default` and the tool name mapped to `Bash`.
 */
export function assertFiredAsBuilt(raw, sessionId) {
  const fired = JSON.parse(raw.stdin())
  const built = hookwire.hostEvent({ event: 'PreToolUse', session_id: sessionId, cwd: raw.dir, tool_name: 'bash', tool_names: DEFAULT_TOOL_NAMES, tool_input: { command: 'ls' }, tool_use_id: 'call_1' })
  assert.equal(JSON.stringify(fired), JSON.stringify(built))
  assert.deepEqual(['transcript_path' in fired, fired.permission_mode, fired.tool_name], [false, 'default', 'Bash'])
}

/** The reason the guard of `inGuardedProject` denies with. */
export const GUARD_REASON = 'guarded by the project'

/**
 * Runs `fn(dir)` in a fresh project directory whose `.claude/settings.json` has a PreToolUse
 * `Bash` guard that denies with GUARD_REASON, with HOME and XDG_CONFIG_HOME pointed into a temp
 * dir meanwhile (the user settings file and the default trust store are read from there).
 */
export async function inGuardedProject(fn) {
  const root = mkdtempSync(join(tmpdir(), 'hookwire-adapter-trust-'))
  const dir = join(root, 'project')
  mkdirSync(join(dir, '.claude'), { recursive: true })
  const guard = { matcher: 'Bash', hooks: [{ type: 'command', command: `echo ${sq(GUARD_REASON)} >&2; exit 2` }] }
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [guard] } }))
  const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME }
  process.env.HOME = join(root, 'home')
  process.env.XDG_CONFIG_HOME = join(root, 'config')
  try {
    return await fn(dir)
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v
  }
}

/**
 * The warnings of an adapter built on a fresh project whose guard is untrusted: exactly one
 * HOOKWIRE_UNTRUSTED_HOOKS naming the file and both trusted routes, and the engine's own
 * warning about the source not passed on again.
 */
export function assertUntrustedWarnedOnce(warnings) {
  const untrusted = warnings.filter((w) => w.code === 'HOOKWIRE_UNTRUSTED_HOOKS')
  assert.equal(untrusted.length, 1)
  assert.match(untrusted[0].message, /\.claude\/settings\.json/)
  assert.match(untrusted[0].message, /recordTrust\(claudeCodeDefaults\(.*trust: 'trusted'/)
  assert.deepEqual(warnings.filter((w) => w.code !== 'HOOKWIRE_UNTRUSTED_HOOKS' && /not trusted/.test(w.message)), [])
}

/**
 * In a guarded project `dir`: `run(options)` builds the adapter from `dir` with `options`, lets
 * the model call Bash once, and returns { ran, text } (the commands the tool ran, the text the
 * model got for the call). `trust: 'trusted'`, then the store after `recordTrust`, deny with
 * the guard's reason and warn nothing about trust.
 */
export async function assertTrustedRoutesDeny(dir, run) {
  for (const route of [{ trust: 'trusted' }, 'record']) {
    if (route === 'record') hookwire.recordTrust(hookwire.claudeCodeDefaults(dir))
    const { value, warnings } = await collectWarnings(() => run(route === 'record' ? {} : route))
    assert.deepEqual(value.ran, [], `${JSON.stringify(route)}: the guard denies`)
    assert.match(value.text, new RegExp(GUARD_REASON))
    assert.deepEqual(warnings.filter((w) => w.code === 'HOOKWIRE_UNTRUSTED_HOOKS'), [])
  }
}

/** Collects the adapter warnings (codes HOOKWIRE_*) emitted while `fn` runs. */
export async function collectWarnings(fn) {
  const seen = []
  const on = (w) => { if (typeof w.code === 'string' && w.code.startsWith('HOOKWIRE_')) seen.push(w) }
  process.on('warning', on)
  try {
    const value = await fn()
    await new Promise((r) => setImmediate(r)) // warnings are emitted on the next tick
    return { value, warnings: seen }
  } finally {
    process.off('warning', on)
  }
}

/**
 * Runs the documented snippet NAME (docs/frameworks.md, extracted by .ci/readme-snippet) as a module beside the tests,
 * so `hookwire` and the frameworks resolve as in a user's project. The snippet's free names
 * `model`, `tools`, `settingsFile` and `projectDir` are the test's.
 */
export async function runSnippet(name, { model, tools, settingsFile, projectDir }) {
  const { execFileSync } = await import('node:child_process')
  const { rmSync } = await import('node:fs')
  const { ROOT } = await import('../support.mjs')
  const snippet = execFileSync('python3', [join(ROOT, '.ci', 'readme-snippet'), name], { encoding: 'utf8' })
  const file = join(ROOT, 'bindings-node', 'test', 'adapters', `.snippet-${name}-${process.pid}.mjs`)
  writeFileSync(file, `const { model, tools, settingsFile, projectDir } = globalThis.__hookwireSnippet\n${snippet}\n`)
  globalThis.__hookwireSnippet = { model, tools, settingsFile, projectDir }
  try {
    await import(file)
  } finally {
    rmSync(file, { force: true })
    delete globalThis.__hookwireSnippet
  }
}
