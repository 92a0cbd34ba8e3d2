// `require('hookwire')` works from the repository root after `npm install ./bindings-node`.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const { realpathSync } = require('node:fs')
const { join } = require('node:path')

const ROOT = join(__dirname, '..', '..')

test('require() from the repository root loads the installed addon', async () => {
  const hookwire = require(require.resolve('hookwire', { paths: [ROOT] }))
  assert.equal(typeof hookwire.Dispatcher, 'function')
  assert.equal(typeof hookwire.version, 'string')
  const d = new hookwire.Dispatcher({ hooks: {} })
  assert.equal((await d.fire({ hook_event_name: 'Stop' })).event, 'Stop')
  assert.equal(d.fireSync('{"hook_event_name": "Stop"}').event, 'Stop')
})

test('require resolves through node_modules in a plain CommonJS script at the root', () => {
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      "const { Dispatcher, version } = require('hookwire');" +
        "const r = new Dispatcher('{}').fireSync({ hook_event_name: 'Stop' });" +
        "console.log(JSON.stringify([version, r.event, require.resolve('hookwire')]))",
    ],
    { cwd: ROOT, encoding: 'utf8' },
  )
  const [version, event, resolved] = JSON.parse(out)
  assert.match(version, /^\d+\.\d+\.\d+$/)
  assert.equal(event, 'Stop')
  // npm links the folder into node_modules; Node reports the real path behind the link.
  assert.equal(realpathSync(join(ROOT, 'node_modules', 'hookwire')), realpathSync(join(ROOT, 'bindings-node')))
  assert.equal(resolved, join(realpathSync(join(ROOT, 'bindings-node')), 'index.js'))
})
