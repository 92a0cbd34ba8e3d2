// The pinned agents: how each is installed, configured in a scratch HOME (its model API pointed
// at the mock, `hookwire bridge` as its hook), run headless, and how its model requests show
// what a tool returned. The pins are the versions hookwire's dialects were recorded from
// (docs/agents.md: Codex CLI 0.169.0, Gemini CLI 0.61.0).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROMPT = 'Run the shell command you are asked for, then say done.';

/** Every text a value holds, for searching a tool result whatever its shape. */
function text(v) {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export const AGENTS = {
  codex: {
    pkg: '@openai/codex',
    version: '0.169.0',
    bin: 'codex',
    bridge: 'codex',
    mock: 'mock-responses.mjs',
    /**
     * `$CODEX_HOME/config.toml` names the mock as a Responses API provider (no key: a custom
     * provider sends none); `$CODEX_HOME/hooks.json` holds the bridge lines of docs/bridge.md.
     * Codex runs a hook only once its hash is reviewed in Codex's own state; a scratch HOME has
     * none, so the run passes `--dangerously-bypass-hook-trust` (the flag meant for automation
     * that vets its hooks itself). The sandbox is off so that the command's marker file
     * is written by the command itself, not refused by Codex's sandbox.
     */
    setup({ home, port, bridge }) {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(join(codexHome, 'config.toml'), [
        'model = "mock-model"',
        'model_provider = "mock"',
        'check_for_update_on_startup = false',
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
        argv: ['exec', '--skip-git-repo-check', '--ephemeral', '--dangerously-bypass-approvals-and-sandbox',
          '--dangerously-bypass-hook-trust', '--color', 'never', PROMPT],
        env: { CODEX_HOME: codexHome },
      };
    },
    /** The outputs of tool calls that Codex sent back to the model. */
    toolResults(reqs) {
      const out = new Set();
      for (const q of reqs) {
        for (const i of (q.body && q.body.input) || []) {
          if (typeof i.type === 'string' && i.type.endsWith('_output')) out.add(text(i.output));
        }
      }
      return [...out];
    },
    requestsAfterTool(reqs) {
      return reqs.filter((q) => ((q.body && q.body.input) || []).some((i) => typeof i.type === 'string' && i.type.endsWith('_output')));
    },
  },
  gemini: {
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'gemini',
    bridge: 'gemini',
    mock: 'mock-gemini.mjs',
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
    /** The function responses Gemini CLI sent back to the model. */
    toolResults(reqs) {
      const out = new Set();
      for (const q of reqs) {
        for (const c of (q.body && q.body.contents) || []) {
          for (const p of c.parts || []) if (p.functionResponse) out.add(text(p.functionResponse.response));
        }
      }
      return [...out];
    },
    requestsAfterTool(reqs) {
      return reqs.filter((q) => ((q.body && q.body.contents) || []).some((c) => (c.parts || []).some((p) => p.functionResponse)));
    },
  },
};
