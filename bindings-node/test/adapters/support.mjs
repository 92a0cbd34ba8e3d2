// Shared helpers of the adapter tests (not a test file itself). Each test gets a temp project
// with a real settings file whose command hooks run one python3 script: it logs every event
// it reads and answers what `rules.json` (rewritten by the test) says for that event.
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hookwire, sq } from '../support.mjs'

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

const EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop']

/**
 * A temp project: `settings.json` (every event → the hook script), `rules.json` (the answers).
 * Returns { dir, settings, dispatcher, rules(r), events(name?) }.
 */
export function hookProject(rules = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hookwire-adapter-'))
  writeFileSync(join(dir, 'hook.py'), HOOK_PY)
  writeFileSync(join(dir, 'rules.json'), JSON.stringify(rules))
  const command = `python3 ${sq(join(dir, 'hook.py'))}`
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ matcher: e.includes('Tool') ? 'Bash' : undefined, hooks: [{ type: 'command', command }] }]]))
  const settings = join(dir, 'settings.json')
  writeFileSync(settings, JSON.stringify({ hooks }, null, 2))
  return {
    dir,
    settings,
    dispatcher: hookwire.Dispatcher.fromFile(settings),
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
/** PostToolUse answers. */
export const postBlock = (reason, context) => ({ stdout: { decision: 'block', reason, ...(context ? { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: context } } : {}) } })
/** Blocks (Stop, UserPromptSubmit) by exit 2 with the reason on stderr. */
export const block = (reason) => ({ exit: 2, stderr: reason })

/** Collects the adapter warnings (code HOOKWIRE_ADAPTER) emitted while `fn` runs. */
export async function collectWarnings(fn) {
  const seen = []
  const on = (w) => { if (w.code === 'HOOKWIRE_ADAPTER' || w.code === 'HOOKWIRE_USER_MESSAGE') seen.push(w) }
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
 * Runs README's snippet NAME (extracted by .ci/readme-snippet) as a module beside the tests,
 * so `hookwire` and the frameworks resolve as in a user's project. The snippet's free names
 * `model`, `tools` and `settingsFile` are the test's.
 */
export async function runSnippet(name, { model, tools, settingsFile }) {
  const { execFileSync } = await import('node:child_process')
  const { rmSync } = await import('node:fs')
  const { ROOT } = await import('../support.mjs')
  const snippet = execFileSync('python3', [join(ROOT, '.ci', 'readme-snippet'), name], { encoding: 'utf8' })
  const file = join(ROOT, 'bindings-node', 'test', 'adapters', `.snippet-${name}-${process.pid}.mjs`)
  writeFileSync(file, `const { model, tools, settingsFile } = globalThis.__hookwireSnippet\n${snippet}\n`)
  globalThis.__hookwireSnippet = { model, tools, settingsFile }
  try {
    await import(file)
  } finally {
    rmSync(file, { force: true })
    delete globalThis.__hookwireSnippet
  }
}
