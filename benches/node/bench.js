// Node binding vs what Node users would write instead (issue 10, figure 6).
// Prints one JSON object per line (the format of benches/spawn/spawn.c); each pair is measured
// in this process, interleaved. Run from the repository root, where `npm install
// ./bindings-node` put `hookwire` in node_modules. Without it, prints a "skipped" row.
//
//   node benches/node/bench.js [--quick]
// HOOKWIRE_C_NOMATCH_MEDIAN / _P90 (seconds, from the spawn bench) give the C ABI no-match
// figure the binding's own no-match fire is compared with; Node has no built-in FFI, so that
// baseline comes from a separate process and is not interleaved.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const QUICK = process.argv.includes('--quick');
let hookwire;
try {
  hookwire = require(path.resolve(__dirname, '../../node_modules/hookwire'));
} catch (e) {
  console.log(JSON.stringify({ figure: '6node', name: 'Node binding',
    skipped: `hookwire is not installed (${String(e.message).split('\n')[0]}); npm install ./bindings-node` }));
  process.exit(0);
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.min(s.length - 1, Math.ceil(p * s.length) - 1))];
};
function row(figure, name, baseline, hw, base, extra = {}) {
  const r = { figure, name, baseline, unit: 's', n: hw.length, median: q(hw, 0.5), p90: q(hw, 0.9),
    base_median: Array.isArray(base) ? q(base, 0.5) : base.median,
    base_p90: Array.isArray(base) ? q(base, 0.9) : base.p90, ...extra };
  r.ratio_median = r.median / r.base_median;
  r.ratio_p90 = r.p90 / r.base_p90;
  console.log(JSON.stringify(r));
}
const now = () => Number(process.hrtime.bigint()) / 1e9;
async function timed(f) { const t0 = now(); await f(); return now() - t0; }

const EVENT = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '/tmp', tool_name: 'Bash',
  tool_input: { command: 'ls' } };
const NOMATCH = { hook_event_name: 'Notification', session_id: 's', cwd: '/tmp', message: 'hi' };
const config = (program, args) => ({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: program, args }] }] } });

// What a Node agent writes by hand: spawn, write the event, collect output, settle on close.
function userRun(program, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: 60000 });
    const out = []; const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(EVENT));
  });
}

async function main() {
  const d1 = new hookwire.Dispatcher(config('/bin/true', []));
  const r = await d1.fire(EVENT);
  if (r.outcomes[0].exit_code !== 0) throw new Error(JSON.stringify(r));
  let n = QUICK ? 5 : 40;
  let hw = []; let base = [];
  for (let i = 0; i < n; i++) {
    hw.push(await timed(() => d1.fire(EVENT)));
    base.push(await timed(() => userRun('/bin/true', [])));
  }
  row('6node-1', 'Node await fire(), 1 hook /bin/true', 'child_process.spawn + promise', hw, base);

  const d16 = new hookwire.Dispatcher(config('/bin/sleep', ['0.2']));
  n = QUICK ? 2 : 10;
  hw = []; base = [];
  for (let i = 0; i < n; i++) {
    hw.push(await timed(() => Promise.all(Array.from({ length: 16 }, () => d16.fire(EVENT)))));
    base.push(await timed(() => Promise.all(Array.from({ length: 16 }, () => userRun('/bin/sleep', ['0.2'])))));
  }
  row('6node-16', 'Node 16 concurrent await fire(), hook sleep 0.2', '16 concurrent child_process.spawn promises', hw, base);

  // Bursts of short fires: the pool's reuse of waiting threads and its growth past them.
  n = QUICK ? 5 : 40;
  hw = []; base = [];
  for (let i = 0; i < n; i++) {
    hw.push(await timed(() => Promise.all(Array.from({ length: 8 }, () => d1.fire(EVENT)))));
    base.push(await timed(() => Promise.all(Array.from({ length: 8 }, () => userRun('/bin/true', [])))));
  }
  row('6node-8', 'Node 8 concurrent await fire(), 1 hook /bin/true', '8 concurrent child_process.spawn promises', hw, base);

  const m = QUICK ? 300 : 10000;
  hw = []; const hwSync = [];
  if ((await d1.fire(NOMATCH)).outcomes.length !== 0) throw new Error('no-match event matched');
  for (let i = 0; i < m; i++) {
    hw.push(await timed(() => d1.fire(NOMATCH)));
    const t0 = now(); d1.fireSync(NOMATCH); hwSync.push(now() - t0);
  }
  const GOAL_NOMATCH = 10e-6; // issue 20: a no-match await fire() within 10 µs
  const med = Number(process.env.HOOKWIRE_C_NOMATCH_MEDIAN);
  const p90 = Number(process.env.HOOKWIRE_C_NOMATCH_P90);
  if (med > 0 && p90 > 0) {
    const c = { median: med, p90 };
    const note = { note: 'baseline from the spawn bench process, not interleaved (Node has no built-in FFI)' };
    row('6node-0', 'Node await fire(), no match', 'C ABI no-match fire (separate process)', hw, c, { ...note, goal_abs: GOAL_NOMATCH });
    row('6node-0s', 'Node fireSync(), no match', 'C ABI no-match fire (separate process)', hwSync, c, note);
  } else {
    row('6node-0', 'Node await fire(), no match', 'Node fireSync(), no match (same process)', hw, hwSync, { goal_abs: GOAL_NOMATCH });
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
