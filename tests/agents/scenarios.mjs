import { existsSync } from 'node:fs';

// The scenarios: the user's Claude Code hooks for one run (`[event, name, sh body]`, each with
// matcher `Bash`), and the check on what the agent did (null when it passed, else why not).
// The model always asks for `touch <project>/marker-original`.
//
// `seen` holds: `agent` (its name), `markerRan` / `rewrittenRan` (the marker files exist),
// `toolResults` (the tool results the agent sent back to the model), `afterTool` (the model
// requests sent after a tool result, as JSON text), `requests` (every logged request), `output`
// (the agent's stdout and stderr).

const REASON = 'hookwire-e2e guard: no marker files in this project';
const ASK_REASON = 'hookwire-e2e ask: a person should approve this command';
const BLOCK_AFTER = 'hookwire-e2e block after the tool: look at the marker again';
const STOP_REASON = 'hookwire-e2e stop: one more check before you finish';
const CONTEXT_PROMPT = 'hookwire-e2e context on the prompt: the project is a test';
const STOP_ALL = 'hookwire-e2e continue false: stop the whole run';
const CONTEXT_POST = 'hookwire-e2e context after the tool: the marker is for the test';
const CONTEXT_PRE = 'hookwire-e2e context before the tool: the marker is expected';

/** A hook body printing `value` as JSON on stdout (single-quoted for sh: no `'` in it). */
function says(value) {
  const text = JSON.stringify(value);
  if (text.includes("'")) throw new Error(`a hook's JSON cannot hold a single quote: ${text}`);
  return `printf '%s\\n' '${text}'`;
}

/** Null when the command did not run and `reason` is in a tool result sent to the model. */
function stopped(seen, reason, hook) {
  if (seen.markerRan) return `the command ran (the marker exists) although ${hook}`;
  if (seen.toolResults.some((t) => t.includes(reason))) return null;
  return `the reason is in no tool result sent to the model; results: ${JSON.stringify(seen.toolResults).slice(0, 600)}`;
}

/** Null when the command ran and `context` is in a model request sent after its result. */
function toldAfter(seen, context) {
  if (!seen.markerRan) return 'the command did not run';
  return seen.afterTool.some((t) => t.includes(context)) ? null : 'the context is in no model request after the tool ran';
}

function reached(seen) {
  return seen.toolResults.length > 0 ? null : 'no tool result reached the model (no request after the tool call)';
}

export const SCENARIOS = [
  {
    name: 'control',
    says: 'without a guard the command ran and its result reached the model',
    hooks: () => [],
    check: (seen) => (!seen.markerRan ? 'the command did not run (no marker) although no hook denies it' : reached(seen)),
  },
  {
    name: 'deny',
    says: "the guard's exit 2 stopped the command and its reason reached the model",
    hooks: () => [['PreToolUse', 'guard', `echo '${REASON}' >&2\nexit 2`]],
    check: (seen) => stopped(seen, REASON, 'the guard exits 2'),
  },
  {
    name: 'ask',
    says: "a hook's ask, with nobody to ask, stopped the command and its reason reached the model",
    // Neither agent can ask headless (Codex rejects `ask`, Gemini CLI hangs on it): the bridge
    // answers a deny with the ask's reason (docs/bridge.md).
    hooks: () => [['PreToolUse', 'ask', says({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: ASK_REASON },
    })]],
    check: (seen) => stopped(seen, ASK_REASON, 'the hook asks and nobody can answer'),
  },
  {
    name: 'permission-allow',
    says: "a PermissionRequest hook's allow approved a command that needed approval, and it ran",
    // The model asks to run outside the sandbox; without a hook's decision Codex's review
    // refuses it (the self-check shows the command then does not run).
    escalate: true,
    skip: { gemini: 'Gemini CLI has no PermissionRequest event (docs/agents.md)' },
    hooks: () => [['PermissionRequest', 'approve', says({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    })]],
    check: (seen) => (!seen.markerRan ? 'the command did not run although the hook allowed it' : reached(seen)),
  },
  {
    name: 'permission-deny',
    says: "a PermissionRequest hook's deny refused a command that needed approval, its message reached the model",
    escalate: true,
    skip: { gemini: 'Gemini CLI has no PermissionRequest event (docs/agents.md)' },
    hooks: () => [['PermissionRequest', 'refuse', says({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: REASON } },
    })]],
    check: (seen) => stopped(seen, REASON, 'the PermissionRequest hook denies'),
  },
  {
    name: 'rewrite',
    says: "the hook's updatedInput ran instead of the model's command",
    hooks: (files) => [['PreToolUse', 'rewrite', says({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: `touch ${files.rewritten}` } },
    })]],
    check(seen) {
      if (seen.markerRan) return "the model's own command ran (marker-original exists)";
      if (!seen.rewrittenRan) return 'the rewritten command did not run (no marker-rewritten)';
      return reached(seen);
    },
  },
  {
    name: 'context-after',
    says: "a PostToolUse hook's additionalContext reached the model's next request",
    hooks: () => [['PostToolUse', 'context', says({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: CONTEXT_POST } })]],
    check: (seen) => toldAfter(seen, CONTEXT_POST),
  },
  {
    name: 'context-before',
    says: "a PreToolUse hook's additionalContext reached the model's next request",
    // docs/agents.md §5: Gemini CLI delivers BeforeTool context nowhere, so the bridge drops it
    // with a warning; there is nothing to see in the model's requests.
    skip: { gemini: 'Gemini CLI delivers no BeforeTool context (docs/agents.md §5); the bridge drops it with a warning' },
    hooks: () => [['PreToolUse', 'context', says({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: CONTEXT_PRE } })]],
    check: (seen) => toldAfter(seen, CONTEXT_PRE),
  },
  {
    name: 'block-after',
    says: "a PostToolUse block's reason reached the model with the tool result",
    hooks: () => [['PostToolUse', 'block', says({ decision: 'block', reason: BLOCK_AFTER })]],
    check(seen) {
      if (!seen.markerRan) return 'the command did not run';
      return seen.toolResults.some((t) => t.includes(BLOCK_AFTER)) ? null : `the block's reason is in no tool result; results: ${JSON.stringify(seen.toolResults).slice(0, 600)}`;
    },
  },
  {
    name: 'context-prompt',
    says: "a UserPromptSubmit hook's additionalContext reached the model",
    hooks: () => [['UserPromptSubmit', 'context', says({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: CONTEXT_PROMPT } })]],
    check(seen) {
      if (!seen.markerRan) return 'the command did not run';
      return seen.requests.some((q) => JSON.stringify(q.body).includes(CONTEXT_PROMPT)) ? null : 'the context is in no model request';
    },
  },
  {
    name: 'stop-block',
    says: "a Stop hook's block (once) made the agent go on, its reason in the next model request",
    // Blocks the first Stop only (a flag file), as a Stop hook must, or the agent loops.
    hooks: (files) => [['Stop', 'stop', `if [ -e '${files.flag}' ]; then exit 0; fi\ntouch '${files.flag}'\necho '${STOP_REASON}' >&2\nexit 2`]],
    check(seen, files) {
      if (!seen.markerRan) return 'the command did not run';
      if (!existsSync(files.flag)) return 'the Stop hook never ran (no flag file)';
      const after = seen.requests.filter((q) => JSON.stringify(q.body).includes(STOP_REASON));
      return after.length ? null : "the Stop hook's reason is in no model request (the agent did not go on)";
    },
  },
  {
    name: 'continue-false',
    says: "a PreToolUse `continue: false` kept the command from running (Codex: the bridge's deny, its reason to the model; Gemini: the run stopped)",
    hooks: () => [['PreToolUse', 'stop', says({ continue: false, stopReason: STOP_ALL })]],
    check(seen) {
      if (seen.agent === 'codex') return stopped(seen, STOP_ALL, 'a hook said continue: false');
      if (seen.markerRan) return 'the command ran although a hook said continue: false';
      if (!seen.requests.length) return 'the model was never asked (no tool call to stop)';
      if (seen.afterTool.length) return 'the agent went on with the model after continue: false';
      return seen.output.includes(STOP_ALL) ? null : "the agent's output does not say the stop reason";
    },
  },
];
