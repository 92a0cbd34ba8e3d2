// Writes the result, outcome, verdict, trust, host-step, host-facts and tool-reach types of bindings-node/types.d.ts from the JSON
// Schemas in schema/ (themselves generated from the Rust types, core/src/schema.rs), so the
// TypeScript shapes and their doc comments come from Rust instead of being copied by hand.
// Only the part between the two marker lines is written; the rest of types.d.ts is hand-kept.
// `napi build` then copies types.d.ts into index.d.ts (package.json `napi.dtsHeaderFile`).
//
//   node bindings-node/scripts/gen-types.mjs           rewrite types.d.ts
//   node bindings-node/scripts/gen-types.mjs --check   exit 1 if it is stale
//
// test/schema.test.mjs runs the check. Not shipped in the npm package.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const TYPES = join(ROOT, 'bindings-node', 'types.d.ts')
export const REGENERATE = 'node bindings-node/scripts/gen-types.mjs'
const BEGIN = '// ---- generated from schema/ by scripts/gen-types.mjs: do not edit ----'
const END = '// ---- end of the generated types ----'
const WIDTH = 96

/** Every generated declaration: its schema file, and its definition (`null`: the root). */
const DECLARATIONS = [
  ['result.schema.json', 'Decision'],
  ['result.schema.json', 'Status'],
  ['result.schema.json', 'VerdictSource'],
  ['result.schema.json', 'Verdict'],
  ['result.schema.json', 'Rewake'],
  ['result.schema.json', 'Outcome'],
  ['result.schema.json', null],
  ['trust-status.schema.json', 'TrustSource'],
  ['trust-status.schema.json', null],
  ['host-step.schema.json', 'HostAction'],
  ['host-step.schema.json', 'Audience'],
  ['host-step.schema.json', 'SeenBy'],
  ['host-step.schema.json', null],
  ['host-facts.schema.json', null],
  ['tool-reach.schema.json', null],
]

/** A JSDoc comment holding `text` (paragraphs split by blank lines), wrapped to WIDTH. */
function doc(text, indent) {
  if (!text) return []
  const room = WIDTH - indent.length - 3
  if (!text.includes('\n') && text.length + 7 <= WIDTH - indent.length) return [`${indent}/** ${text} */`]
  const lines = []
  for (const [i, paragraph] of text.split('\n\n').entries()) {
    if (i > 0) lines.push('')
    for (const raw of paragraph.split('\n')) {
      let line = ''
      for (const word of raw.split(' ')) {
        if (line && line.length + 1 + word.length > room) {
          lines.push(line)
          line = word
        } else {
          line = line ? `${line} ${word}` : word
        }
      }
      lines.push(line)
    }
  }
  return [`${indent}/**`, ...lines.map((l) => (l ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`]
}

const literal = (v) => (typeof v === 'string' ? `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : JSON.stringify(v))

/** The constants a schema admits when it is an enumeration of them, else null. */
function constants(s) {
  if (Array.isArray(s.enum)) return s.enum
  const branches = s.oneOf ?? s.anyOf
  if (Array.isArray(branches) && branches.every((b) => 'const' in b)) return branches.map((b) => b.const)
  return null
}

/** The TypeScript type of a schema; `$ref`s name the generated declarations. */
function tsType(s) {
  if (s === true || s === undefined) return 'unknown'
  if (s.$ref) return s.$ref.split('/').pop()
  const consts = constants(s)
  if (consts) return consts.map(literal).join(' | ')
  const branches = s.anyOf ?? s.oneOf
  if (branches) return branches.map(tsType).join(' | ')
  if ('const' in s) return literal(s.const)
  const types = s.type === undefined ? [] : [s.type].flat()
  if (types.length === 0) return 'unknown'
  return types
    .map((t) => {
      switch (t) {
        case 'string':
        case 'boolean':
        case 'null':
          return t
        case 'integer':
        case 'number':
          return 'number'
        case 'array': {
          const item = tsType(s.items)
          return item.includes(' ') ? `(${item})[]` : `${item}[]`
        }
        case 'object':
          return `Record<string, ${typeof s.additionalProperties === 'object' ? tsType(s.additionalProperties) : 'unknown'}>`
        default:
          throw new Error(`no TypeScript type for JSON Schema type ${t}`)
      }
    })
    .join(' | ')
}

/**
 * One declaration: a union of string literals, or an interface open to keys added later (one
 * the addon returns), or closed when its schema refuses other keys (one the addon reads, such
 * as HostFacts, where an unknown key is a mistake the compiler should catch).
 */
function declaration(name, s) {
  const consts = constants(s)
  if (consts) {
    const branches = s.oneOf ?? s.anyOf ?? []
    const members = branches
      .filter((b) => b.description)
      .map((b) => `- ${literal(b.const)}: ${b.description}`)
    const text = [s.description, members.join('\n')].filter(Boolean).join('\n\n')
    return [...doc(text, ''), `export type ${name} = ${consts.map(literal).join(' | ')}`]
  }
  if (s.type !== 'object' || !s.properties) throw new Error(`${name}: neither an enumeration nor an object`)
  const required = new Set(s.required ?? [])
  const lines = [...doc(s.description, ''), `export interface ${name} {`]
  for (const [key, prop] of Object.entries(s.properties)) {
    lines.push(...doc(prop.description, '  '))
    const id = /^[A-Za-z_$][\w$]*$/.test(key) ? key : literal(key)
    lines.push(`  ${id}${required.has(key) ? '' : '?'}: ${tsType(prop)}`)
  }
  if (s.additionalProperties !== false) {
    lines.push('  /** Keys added by newer releases; readers ignore keys they do not know. */')
    lines.push('  [key: string]: unknown')
  }
  lines.push('}')
  return lines
}

/** The generated block, from the schema files as `read(name)` returns them (parsed). */
export function generatedBlock(read) {
  const parts = DECLARATIONS.map(([file, def]) => {
    const root = read(file)
    const s = def === null ? root : root.$defs?.[def]
    if (!s) throw new Error(`schema/${file} has no $defs/${def}`)
    return declaration(def ?? root.title, s).join('\n')
  })
  return [BEGIN, '', parts.join('\n\n'), '', END].join('\n')
}

/** types.d.ts with its generated block replaced by `block`. */
export function withBlock(text, block) {
  const start = text.indexOf(BEGIN)
  const end = text.indexOf(END)
  if (start < 0 || end < start) throw new Error(`types.d.ts lacks the marker lines:\n${BEGIN}\n${END}`)
  return text.slice(0, start) + block + text.slice(end + END.length)
}

/** What types.d.ts should hold, given the schema directory. */
export function expectedTypes(schemaDir = join(ROOT, 'schema')) {
  const read = (name) => JSON.parse(readFileSync(join(schemaDir, name), 'utf8'))
  return withBlock(readFileSync(TYPES, 'utf8'), generatedBlock(read))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const fresh = expectedTypes()
  if (process.argv.includes('--check')) {
    if (fresh !== readFileSync(TYPES, 'utf8')) {
      console.error(`bindings-node/types.d.ts is stale; regenerate it with: ${REGENERATE}`)
      process.exit(1)
    }
  } else {
    writeFileSync(TYPES, fresh)
  }
}
