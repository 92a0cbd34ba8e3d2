// The real-agent end-to-end suite (issue 34, point 4): the pinned Codex CLI and Gemini CLI, run
// headless against a mock of their model API on 127.0.0.1 that asks for one shell command, with
// `hookwire bridge` as their hook and the user's Claude Code hooks in a scratch HOME's
// `~/.claude/settings.json`. Every assertion is on what the agent did: the command's marker
// file, and the model requests the mock recorded (what the agent told the model).
//
//   node tests/agents/run.mjs --hookwire PATH [--agents codex,gemini] [--scenarios deny,...]
//
// An agent that cannot be installed or started prints `SKIP: <agent> <version>: <reason>` and
// counts as passed, unless HOOKWIRE_REQUIRE_AGENTS=1 (then it fails). Node 20's standard
// library only.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS } from './agents.mjs';
import { SCENARIOS } from './scenarios.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const WORK = resolve(process.env.HOOKWIRE_AGENTS_DIR || join(ROOT, 'target/agents'));
/** Seconds one agent run may take before its process group is killed. */
const AGENT_TIMEOUT_S = positive('HOOKWIRE_AGENT_TIMEOUT_S', 60);
/** Seconds `npm install` of one pinned agent may take. */
const INSTALL_TIMEOUT_S = 150;
const REQUIRE = process.env.HOOKWIRE_REQUIRE_AGENTS === '1';
/** Agent runs at a time (HOOKWIRE_AGENT_JOBS, default 2: the machine's two cores). */
const JOBS = Math.ceil(positive('HOOKWIRE_AGENT_JOBS', 2));

/** A positive number from the environment, or `fallback` when unset; anything else is an error. */
function positive(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (Number.isFinite(n) && n > 0) return n;
  console.error(`tests/agents/run.mjs: ${name}=${raw}: expected a positive number`);
  process.exit(2);
}

function options() {
  const out = { agents: Object.keys(AGENTS), scenarios: SCENARIOS.map((s) => s.name) };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (v === undefined) throw new Error(`${k}: a value is missing`);
    if (k === '--hookwire') out.hookwire = resolve(v);
    else if (k === '--agents') out.agents = v.split(',');
    else if (k === '--scenarios') out.scenarios = v.split(',');
    else throw new Error(`unknown option ${k}`);
  }
  if (!out.hookwire || !existsSync(out.hookwire)) throw new Error('--hookwire PATH: the hookwire binary to bridge with');
  for (const a of out.agents) if (!AGENTS[a]) throw new Error(`unknown agent ${a} (known: ${Object.keys(AGENTS).join(', ')})`);
  for (const s of out.scenarios) if (!SCENARIOS.some((x) => x.name === s)) throw new Error(`unknown scenario ${s}`);
  return out;
}

/**
 * Runs `argv` in its own process group with `opts` (cwd, env, stdout/stderr file paths), killing
 * the whole group with SIGKILL after `timeoutS`; resolves with `{code, signal, timedOut, ms}`.
 * The group is killed on exit too, so nothing an agent started outlives its run.
 */
function runBounded(argv, { cwd, env, stdout, stderr, timeoutS }) {
  return new Promise((done) => {
    const started = Date.now();
    const out = stdout ? openOut(stdout) : 'ignore';
    const err = stderr ? openOut(stderr) : 'ignore';
    const child = spawn(argv[0], argv.slice(1), { cwd, env, detached: true, stdio: ['ignore', out, err] });
    closeFds(out, err);
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutS * 1000);
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ code: null, signal: null, timedOut, ms: Date.now() - started, error: e.message });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      done({ code, signal, timedOut, ms: Date.now() - started });
    });
  });
}

/** The parent's copies of descriptors handed to a child (the child keeps its own). */
function closeFds(...fds) {
  for (const fd of fds) if (typeof fd === 'number') closeSync(fd);
}

function openOut(path) {
  writeFileSync(path, '');
  // A file descriptor the child writes to directly: no pipe for it to block on.
  return openSync(path, 'a');
}

/** Starts a mock (`tests/agents/mock-*.mjs`) and resolves with its port and a stop function. */
function startMock(file, logPath, command, stderrPath, escalate) {
  return new Promise((done, failed) => {
    writeFileSync(logPath, '');
    const err = openOut(stderrPath);
    const extra = escalate ? ['--escalate', '1'] : [];
    const child = spawn(process.execPath, [join(HERE, file), '--log', logPath, '--command', command, ...extra], {
      stdio: ['ignore', 'pipe', err],
    });
    closeFds(err);
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      failed(new Error(`${file} printed no port within 10 s`));
    }, 10_000);
    child.stdout.on('data', (c) => {
      text += c;
      const line = text.split('\n');
      if (line.length > 1) {
        clearTimeout(timer);
        const port = Number(line[0]);
        const stop = () => new Promise((r) => {
          if (child.exitCode !== null) return r();
          child.once('exit', r);
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 2000);
        });
        done({ port, stop });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`${file} exited (${code}) before printing its port`));
    });
  });
}

/** The requests the mock logged, parsed. */
function requests(logPath) {
  const text = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/**
 * Installs the pinned agent under WORK (kept between runs: a matching installed version is
 * reused), and checks that it starts. Resolves with the binary's path, or a reason to skip.
 * A kept install that no longer starts (an interrupted install, a moved Node) is installed
 * again once.
 */
async function install(agent) {
  const dir = join(WORK, `npm-${agent.bin}-${agent.version}`);
  const bin = join(dir, 'node_modules/.bin', agent.bin);
  const pkgJson = join(dir, 'node_modules', agent.pkg, 'package.json');
  const kept = existsSync(pkgJson) && JSON.parse(readFileSync(pkgJson, 'utf8')).version === agent.version;
  if (kept) {
    const started = await starts(agent, dir, bin);
    if (!started.skip) return started;
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'install.log');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = await runBounded(
    [npm, 'install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--no-save', `${agent.pkg}@${agent.version}`],
    { cwd: dir, env: process.env, stdout: log, stderr: log, timeoutS: INSTALL_TIMEOUT_S },
  );
  if (r.code !== 0 || !existsSync(bin)) {
    const why = r.timedOut ? `npm install timed out after ${INSTALL_TIMEOUT_S} s` : `npm install failed (${r.error || `exit ${r.code}`})`;
    return { skip: `${why}: ${npmError(readFileSync(log, 'utf8'))} (log: ${log})` };
  }
  return starts(agent, dir, bin);
}

/** `bin --version` must exit 0 and print the pinned version (an unsupported platform does not). */
async function starts(agent, dir, bin) {
  const log = join(dir, 'version.log');
  const r = await runBounded([bin, '--version'], { cwd: dir, env: process.env, stdout: log, stderr: log, timeoutS: 30 });
  const said = readFileSync(log, 'utf8');
  if (r.code !== 0 || !said.includes(agent.version)) {
    const why = r.timedOut ? 'timed out after 30 s' : r.error || `exit ${r.code}`;
    return { skip: `cannot start (${why}): ${tail(said, 3).replace(/\n/g, ' | ')}` };
  }
  return { bin };
}

/** npm's own one-line account of a failed install: its error code and first message line. */
function npmError(log) {
  const lines = log.split('\n').filter((l) => l.startsWith('npm error ')).map((l) => l.slice(10).trim());
  const code = lines.find((l) => l.startsWith('code '));
  const message = lines.find((l) => l && !/^(code|syscall|errno) /.test(l));
  return [code, message].filter(Boolean).join(': ') || tail(log, 2).replace(/\n/g, ' | ');
}

function tail(text, n) {
  return text.split('\n').filter((l) => l.trim()).slice(-n).join('\n');
}

/**
 * Runs one scenario for one agent; resolves with `{ok, ms, why}`. `bridge` is the hook command
 * the agent runs (hookwire's bridge; the self-check's does nothing).
 */
async function scenario(agent, bin, bridge, s, tag = '') {
  const dir = join(WORK, 'runs', `${tag}${agent.bin}-${s.name}`);
  rmSync(dir, { recursive: true, force: true });
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  for (const d of [home, project, join(home, '.claude'), join(home, 'hooks')]) mkdirSync(d, { recursive: true });
  const files = {
    marker: join(project, 'marker-original'),
    rewritten: join(project, 'marker-rewritten'),
    flag: join(dir, 'stop-once'),
    requests: join(dir, 'requests.jsonl'),
    stdout: join(dir, 'agent.stdout'),
    stderr: join(dir, 'agent.stderr'),
    mockStderr: join(dir, 'mock.stderr'),
  };
  // The user's Claude Code hooks: small sh scripts that the scenario writes.
  const hooks = s.hooks(files);
  const settings = { hooks: {} };
  for (const [event, name, body] of hooks) {
    const path = join(home, 'hooks', `${name}.sh`);
    writeFileSync(path, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
    chmodSync(path, 0o755);
    const group = { hooks: [{ type: 'command', command: `sh ${path}` }] };
    if (event.endsWith('ToolUse')) group.matcher = 'Bash';
    (settings.hooks[event] ||= []).push(group);
  }
  writeFileSync(join(home, '.claude/settings.json'), JSON.stringify(settings, null, 2));
  // The project is a repository of its own, so that neither agent takes the repository around
  // target/ (its AGENTS.md, GEMINI.md, git state) for the project.
  await runBounded(['git', 'init', '-q', project], { cwd: dir, env: process.env, timeoutS: 30 });

  const command = `touch ${files.marker}`;
  let mock;
  try {
    mock = await startMock(agent.mock, files.requests, command, files.mockStderr, Boolean(s.escalate));
  } catch (e) {
    return { ok: false, ms: 0, why: `mock: ${e.message}`, dir, files };
  }
  const { argv, env } = agent.setup({ home, project, port: mock.port, bridge, escalate: Boolean(s.escalate) });
  const baseEnv = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    SHELL: '/bin/sh',
    TMPDIR: join(dir, 'tmp'),
  };
  mkdirSync(baseEnv.TMPDIR, { recursive: true });
  const r = await runBounded([bin, ...argv], {
    cwd: project,
    env: { ...baseEnv, ...env },
    stdout: files.stdout,
    stderr: files.stderr,
    timeoutS: AGENT_TIMEOUT_S,
  });
  await mock.stop();
  const reqs = requests(files.requests);
  const seen = {
    agent: agent.bin,
    exit: r,
    markerRan: existsSync(files.marker),
    rewrittenRan: existsSync(files.rewritten),
    toolResults: [...new Set(reqs.flatMap((q) => agent.toolOutputs(q.body)))],
    afterTool: reqs.filter((q) => agent.toolOutputs(q.body).length).map((q) => JSON.stringify(q.body)),
    requests: reqs,
    output: readFileSync(files.stdout, 'utf8') + readFileSync(files.stderr, 'utf8'),
  };
  let why = null;
  if (r.timedOut) why = `the agent did not finish within ${AGENT_TIMEOUT_S} s (killed)`;
  else if (r.error) why = `the agent did not start: ${r.error}`;
  else why = s.check(seen, files);
  return { ok: !why, ms: r.ms, why, dir, files };
}

/** Keeps a failing run's files under WORK/logs and prints their tails. */
function keepFailure(agent, s, res) {
  const logs = join(WORK, 'logs', `${agent.bin}-${s.name}`);
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  for (const name of ['stdout', 'stderr', 'requests', 'mockStderr']) {
    const from = res.files[name];
    if (existsSync(from)) cpSync(from, join(logs, from.split('/').pop()));
  }
  cpSync(join(res.dir, 'home'), join(logs, 'home'), { recursive: true, dereference: false, filter: (p) => !p.includes('/.cache/') });
  console.log(`     logs: ${logs}`);
  for (const name of ['stdout', 'stderr', 'mockStderr']) {
    const from = res.files[name];
    const text = existsSync(from) ? tail(readFileSync(from, 'utf8'), 15) : '';
    if (text) console.log(`     --- ${name} (tail)\n${text.replace(/^/gm, '     | ')}`);
  }
  const reqs = existsSync(res.files.requests) ? readFileSync(res.files.requests, 'utf8').split('\n').filter(Boolean) : [];
  console.log(`     --- ${reqs.length} model requests (the last 4, each its last 400 characters: the end of the conversation)`);
  for (const l of reqs.slice(-4)) console.log(`     | ${l.slice(-400)}`);
}

/**
 * The checks must be able to fail: with a hook that answers nothing (`true`) in place of the
 * bridge, the scenarios that need the bridge's answer must fail on the same agent. Run on the
 * first installed agent of SELF_CHECK (Codex, the quicker one); returns 1 when a check passed
 * that should not have.
 */
const SELF_CHECK = { agents: ['codex', 'gemini'], scenarios: ['deny', 'rewrite', 'context-after', 'permission-allow', 'permission-deny'] };

async function selfCheck(installed, opt) {
  const found = SELF_CHECK.agents.map((n) => installed.find(([name, got]) => name === n && !got.skip)).find(Boolean);
  if (!found) return 0;
  const [name, got] = found;
  const wanted = SCENARIOS.filter((s) => SELF_CHECK.scenarios.includes(s.name) && opt.scenarios.includes(s.name) && !(s.skip && s.skip[name]));
  if (!wanted.length) return 0;
  const agent = AGENTS[name];
  const results = await pool(JOBS, wanted.map((s) => () => scenario(agent, got.bin, 'true', s, 'self-check-')));
  const passed = wanted.filter((s, i) => results[i].ok).map((s) => s.name);
  if (passed.length) {
    console.log(`  FAIL  self-check: with a hook that answers nothing instead of the bridge, ${name} still passed ${passed.join(', ')}: these checks cannot fail`);
    return 1;
  }
  console.log(`  ok    self-check: with a hook that answers nothing instead of the bridge, ${name} fails ${wanted.map((s) => s.name).join(', ')}`);
  return 0;
}

/** Runs `work` (functions returning promises) at most `n` at a time; resolves with their results in order. */
async function pool(n, work) {
  const results = new Array(work.length);
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const i = next++;
      results[i] = await work[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, work.length) }, worker));
  return results;
}

async function main() {
  const opt = options();
  mkdirSync(WORK, { recursive: true });
  const t0 = Date.now();
  let failed = 0;
  // The agents install side by side; then every (agent, scenario) run goes through one pool:
  // each run has its own HOME, project, mock and port, so runs cannot see each other.
  const installed = await Promise.all(opt.agents.map(async (name) => [name, await install(AGENTS[name])]));
  const runs = [];
  for (const [name, got] of installed) {
    const agent = AGENTS[name];
    const label = `${name} ${agent.version}`;
    if (got.skip) {
      console.log(`SKIP: ${label}: ${got.skip}`);
      if (REQUIRE) {
        console.log(`FAIL: ${label}: HOOKWIRE_REQUIRE_AGENTS=1 and the agent cannot run`);
        failed += 1;
      }
      continue;
    }
    console.log(`${label}: installed and starts`);
    for (const s of SCENARIOS.filter((x) => opt.scenarios.includes(x.name))) {
      runs.push({ name, agent, label, s, bin: got.bin });
    }
  }
  const counted = runs.filter((r) => !(r.s.skip && r.s.skip[r.name])).length;
  console.log(`(installs ${((Date.now() - t0) / 1000).toFixed(1)} s; ${counted} runs, ${JOBS} at a time, each killed after ${AGENT_TIMEOUT_S} s)`);
  const bridgeOf = (agent) => `${opt.hookwire} bridge --agent ${agent.bridge}`;
  const results = await pool(JOBS, runs.map((r) => () => (r.s.skip && r.s.skip[r.name] ? null : scenario(r.agent, r.bin, bridgeOf(r.agent), r.s))));
  runs.forEach(({ name, agent, label, s }, i) => {
    const res = results[i];
    if (!res) return console.log(`  not run  ${label} ${s.name}: ${s.skip[name]}`);
    const secs = (res.ms / 1000).toFixed(1);
    if (res.ok) return console.log(`  ok    ${label} ${s.name} (${secs} s): ${s.says}`);
    failed += 1;
    console.log(`  FAIL  ${label} ${s.name} (${secs} s): ${res.why}`);
    keepFailure(agent, s, res);
  });
  failed += await selfCheck(installed, opt);
  console.log(`${failed ? `${failed} failed` : 'all passed'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (failed) process.exit(1);
}

main().catch((e) => {
  console.error(`tests/agents/run.mjs: ${e.message}`);
  process.exit(2);
});
