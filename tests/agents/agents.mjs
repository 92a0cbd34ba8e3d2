// The pinned agents: how each is installed, configured in a scratch HOME (its model API pointed
// at the mock, `hookwire bridge` as its hook), run headless, and how its model requests show
// what a tool returned (`toolOutputs`: the tool results one logged request body carries). The pins are the versions hookwire's dialects were recorded from
// (docs/agents.md: Codex CLI 0.169.0, Gemini CLI 0.61.0).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROMPT = 'Run the shell command you are asked for, then say done.';

/** Every text a value holds, for searching a tool result whatever its shape. */
function text(v) {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * An agent's pin: its npm package at an exact version, its command (also its name for
 * `hookwire bridge --agent`), and the mock of its model API.
 */
function pin(spec, bin, mock) {
  const at = spec.lastIndexOf('@');
  return { pkg: spec.slice(0, at), version: spec.slice(at + 1), bin, bridge: bin, mock };
}

export const AGENTS = {
  codex: {
    ...pin('@openai/codex@0.169.0', 'codex', 'mock-responses.mjs'),
    /**
     * `$CODEX_HOME/config.toml` names the mock as a Responses API provider (no key: a custom
     * provider sends none); `$CODEX_HOME/hooks.json` holds the bridge lines of docs/bridge.md.
     * Codex runs a hook only once its hash is reviewed in Codex's own state; a scratch HOME has
     * none, so the run passes `--dangerously-bypass-hook-trust` (the flag meant for automation
     * that vets its hooks itself). The sandbox is off so that the command's marker file
     * is written by the command itself, not refused by Codex's sandbox.
     */
    setup({ home, port, bridge, escalate }) {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(join(codexHome, 'config.toml'), [
        'model = "mock-model"',
        'model_provider = "mock"',
        'check_for_update_on_startup = false',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[features]',
        'hooks = true',
        '',
        '[model_providers.mock]',
        'name = "hookwire mock"',
        `base_url = "http://127.0.0.1:${port}/v1"`,
        'wire_api = "responses"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
      ].join('\n'));
      const line = [{ hooks: [{ type: 'command', command: bridge, timeout: 30 }] }];
      const events = ['PreToolUse', 'PermissionRequest', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'];
      writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, line])) }, null, 2));
      return {
        // `escalate` (the PermissionRequest scenarios): the sandbox stays on and approvals go
        // to Codex's automatic review (`--approve-for-me`), the only approval path `exec` has;
        // Codex asks its PermissionRequest hooks first, and without their decision the review
        // (which asks the mock model, whose answer is no review) refuses the command.
        argv: ['exec', '--skip-git-repo-check', '--ephemeral',
          ...(escalate ? ['--approve-for-me'] : ['--dangerously-bypass-approvals-and-sandbox']),
          '--dangerously-bypass-hook-trust', '--color', 'never', PROMPT],
        env: { CODEX_HOME: codexHome },
      };
    },
    /** The tool outputs one Responses API request carries (Codex's answers to tool calls). */
    toolOutputs(body) {
      return ((body && body.input) || []).filter((i) => typeof i.type === 'string' && i.type.endsWith('_output')).map((i) => text(i.output));
    },
  },
  gemini: {
    ...pin('@google/gemini-cli@0.61.0', 'gemini', 'mock-gemini.mjs'),
    /**
     * `GOOGLE_GEMINI_BASE_URL` points the Gemini API client at the mock (plain http is allowed
     * for 127.0.0.1) with an API key; `~/.gemini/settings.json` holds the bridge lines of
     * docs/bridge.md (Gemini's timeout in milliseconds) and turns off what would reach out to
     * the network. `--skip-trust` trusts the scratch project for this run (headless Gemini
     * refuses an untrusted folder); `--approval-mode yolo` lets the tool run without a prompt.
     * `GEMINI_CLI_NO_RELAUNCH` keeps Gemini CLI from starting itself a second time with a
     * larger heap, which doubled its start-up time here.
     */
    setup({ home, port, bridge }) {
      const dir = join(home, '.gemini');
      mkdirSync(dir, { recursive: true });
      const line = [{ hooks: [{ type: 'command', command: bridge, timeout: 30000 }] }];
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        hooksConfig: { enabled: true },
        hooks: Object.fromEntries(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'SessionStart'].map((e) => [e, line])),
      }, null, 2));
      return {
        argv: ['-p', PROMPT, '--skip-trust', '--approval-mode', 'yolo', '-m', 'gemini-2.5-flash', '--output-format', 'json'],
        env: { GEMINI_API_KEY: 'mock-key', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`, GEMINI_CLI_NO_RELAUNCH: 'true' },
      };
    },
    /** The function responses one Gemini API request carries (Gemini CLI's tool results). */
    toolOutputs(body) {
      const parts = ((body && body.contents) || []).flatMap((c) => c.parts || []);
      return parts.filter((p) => p.functionResponse).map((p) => text(p.functionResponse.response));
    },
  },
};
