#!/usr/bin/env node
// The install script of the source package (a checkout's bindings-node/, installed with
// `npm install /path/to/hookwire/bindings-node`). The published packages never run it: the
// main package `hookwire` made by dist/build has no install script, and its prebuilt addon
// comes in the platform package (hookwire-linux-x64-gnu) that npm picks by os/cpu/libc.
//
// - In a source checkout (Cargo.toml beside this package.json) it builds the addon with
//   `napi build --platform --release`, using the @napi-rs/cli pinned in this package's own
//   devDependencies. When npm installs this folder from outside the repository it only links
//   it and installs none of its dependencies, so the CLI is installed here first
//   (`npm install --include=dev --ignore-scripts` inside this folder, registry packages only).
// - Anywhere else (a packed copy) it builds nothing: it checks that a prebuilt addon loads
//   and says what to do when none matches this platform.
'use strict'

const { spawnSync } = require('node:child_process')
const { existsSync } = require('node:fs')
const { join } = require('node:path')

const pkgDir = join(__dirname, '..')
const say = (msg) => console.error(`hookwire: ${msg}`)

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: pkgDir, stdio: 'inherit', env })
  if (r.error) throw r.error
  if (r.status !== 0) process.exit(r.status === null ? 1 : r.status)
}

function prebuiltLoads() {
  try {
    require(join(pkgDir, 'index.js'))
    return true
  } catch (e) {
    return e
  }
}

// The outer `npm install` passes its own settings down as npm_config_* variables; those that
// say where or what to install (global, prefix, omit=dev, ...) must not steer the inner one.
function innerNpmEnv() {
  const env = { ...process.env }
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig',
    'npm_config_offline', 'npm_config_prefer_offline', 'npm_config_loglevel', 'npm_config_proxy', 'npm_config_https_proxy',
    'npm_config_noproxy', 'npm_config_cafile', 'npm_config_strict_ssl'])
  for (const k of Object.keys(env)) {
    if (k.toLowerCase().startsWith('npm_config_') && !keep.has(k.toLowerCase())) delete env[k]
  }
  return env
}

function napiCli() {
  const resolve = () => {
    try {
      return require.resolve('@napi-rs/cli/package.json', { paths: [pkgDir] })
    } catch {
      return null
    }
  }
  let manifest = resolve()
  if (!manifest) {
    say('installing the pinned @napi-rs/cli into bindings-node/node_modules (a dependency of this package)')
    const npm = process.env.npm_execpath
    const args = ['install', '--include=dev', '--ignore-scripts', '--no-save', '--no-package-lock', '--no-audit', '--no-fund']
    if (npm && npm.endsWith('.js')) run(process.execPath, [npm, ...args], innerNpmEnv())
    else run(npm || 'npm', args, innerNpmEnv())
    manifest = resolve()
    if (!manifest) throw new Error('@napi-rs/cli is still not resolvable after installing it')
  }
  const bin = require(manifest).bin
  return join(manifest, '..', typeof bin === 'string' ? bin : bin.napi)
}

if (existsSync(join(pkgDir, 'Cargo.toml')) && !process.env.HOOKWIRE_SKIP_BUILD) {
  say('building the addon from source (cargo, through napi build --platform --release)')
  run(process.execPath, [napiCli(), 'build', '--platform', '--release'], process.env)
  const loaded = prebuiltLoads()
  if (loaded !== true) throw loaded
} else {
  const loaded = prebuiltLoads()
  if (loaded !== true) {
    say(`no prebuilt addon for ${process.platform}-${process.arch} loads here, and this copy has no Rust source.`)
    say('Install the platform package from the same release (e.g. hookwire-linux-x64-gnu), or build from a')
    say('checkout: npm install /path/to/hookwire/bindings-node (needs a Rust toolchain).')
    console.error(loaded && loaded.message)
    process.exit(1)
  }
}
