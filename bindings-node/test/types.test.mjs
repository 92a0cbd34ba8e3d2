// The generated index.d.ts type-checks a typical TypeScript user (test/fixtures/usage.ts)
// under strict settings, with the TypeScript that @napi-rs/cli brings along.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { ROOT } from './support.mjs'

test('index.d.ts type-checks a strict TypeScript user', () => {
  const ts = createRequire(join(ROOT, 'package.json'))('typescript')
  const program = ts.createProgram({
    rootNames: [join(ROOT, 'bindings-node', 'test', 'fixtures', 'usage.ts')],
    options: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    },
  })
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n')
    if (!d.file) return text
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0)
    return `${d.file.fileName}:${line + 1}:${character + 1}: ${text}`
  })
  assert.deepEqual(diagnostics, [])
})
