// Shared helpers of the node:test files (not a test file itself: .ci/node.sh runs only
// *.test.mjs and *.test.cjs).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (bindings-node/test/ is two levels below it). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** tests/hooks: the hook programs the shared vectors run. */
export const HOOKS = join(ROOT, 'tests', 'hooks')

/** The addon as installed at the repository root by `npm install ./bindings-node`. */
export const hookwire = createRequire(join(ROOT, 'package.json'))('hookwire')

/** A settings-shape configuration with one command hook on `event` (shell form). */
export function oneHook(event, command, matcher) {
  const group = { hooks: [{ type: 'command', command }] }
  if (matcher !== undefined) group.matcher = matcher
  return { hooks: { [event]: [group] } }
}

/** A shell-quoted word, for building shell-form commands around paths. */
export function sq(word) {
  return `'${String(word).replaceAll("'", `'\\''`)}'`
}

/** The `error` object of the error JSON (abi.md §1) that a thrown hookwire error stands for. */
export function errorJson(e) {
  const out = { kind: String(e.code).toLowerCase(), message: e.message }
  for (const k of ['line', 'column', 'pointer']) if (e[k] !== undefined) out[k] = e[k]
  return out
}

/** A PreToolUse event for the Bash tool, as an agent would send it. */
export function bashEvent(command, extra = {}) {
  return {
    session_id: 'node-test',
    transcript_path: '/dev/null',
    cwd: ROOT,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    ...extra,
  }
}
