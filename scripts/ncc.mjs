// How a bundle is built, shared by the bundle script and the bench's reference bundle: tsc compiles
// the sources, then @vercel/ncc bundles one compiled entry into one ES module, not minified (as
// actions/checkout and actions/cache ship theirs): a reviewer can read it, and start-up is the same.
import { Buffer } from 'node:buffer'
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const ncc = require('@vercel/ncc')

export const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)))

/** The TypeScript project holding every entry, and the folder its files are relative to. */
const TS_PROJECT = 'src/tsconfig.json'
const TS_ROOT = 'src'

/**
 * Where tsc writes the JavaScript that ncc bundles. Always the same folder: webpack derives module
 * ids from module paths, so building from another folder would give different bytes.
 */
export const COMPILED = path.join(ROOT, '.tmp', 'ncc-js')

/** What ncc may write beside a bundle: the licences of what it holds, and {"type":"module"}. */
const ALLOWED_ASSETS = ['licenses.txt', 'package.json']
/**
 * A chunk: what a dynamic import() of a rarely needed module becomes (the YAML parser, loaded only
 * for a YAML OpenAPI spec), so that every start does not parse it. Named by webpack's chunk id.
 */
export const CHUNK = /^\d+\.index\.js$/

/**
 * Compiles the project with the project's own tsc and tsconfig into COMPILED; fails on a type error.
 * ncc could compile TypeScript itself (through its bundled ts-loader and our typescript package),
 * but then the output would depend on ncc's TypeScript integration rather than on `tsc`.
 */
export function compileSources() {
  rmSync(COMPILED, { recursive: true, force: true })
  execFileSync(
    process.execPath,
    [
      require.resolve('typescript/bin/tsc'),
      ...['-p', TS_PROJECT, '--rootDir', TS_ROOT, '--outDir', COMPILED],
      ...['--noEmit', 'false', '--sourceMap', 'false', '--declaration', 'false']
    ],
    { cwd: ROOT, stdio: 'inherit' }
  )
}

/** The compiled file of a source listed in scripts/entries.mjs, e.g. src/visitors/index.ts. */
export function compiledPath(source) {
  const relative = path.relative(TS_ROOT, source)
  if (relative.startsWith('..') || !source.endsWith('.ts'))
    throw new Error(`${source}: entries are .ts files under ${TS_ROOT}/`)
  return path.join(COMPILED, relative.replace(/\.ts$/, '.js'))
}

/**
 * Bundles the JavaScript module `input` with ncc into `outFile`, and writes licenses.txt, package.json
 * and the chunks of its dynamic import()s beside it. Fails when ncc would need any other file (an
 * asset it relocates). `name` is what errors call it. Returns the bundle's
 * size in bytes.
 */
export async function nccBundle(input, outFile, name = path.relative(ROOT, input)) {
  const cwd = process.cwd()
  // Module ids are paths relative to the working directory: build from the root, always.
  process.chdir(ROOT)
  let result
  try {
    result = await ncc(input, {
      esm: true,
      filename: path.basename(outFile),
      minify: false,
      sourceMap: false,
      // One file of licences per chunk (a single name would keep only the last chunk's), joined
      // into licenses.txt below.
      license: '[name].licenses.txt',
      // The cache only saves time on rebuilds; without it every build starts from the same place.
      cache: false,
      quiet: true
    })
  } finally {
    process.chdir(cwd)
  }
  const { code } = result
  const assets = joinLicences(result.assets)
  const extra = Object.keys(assets).filter(
    name => !ALLOWED_ASSETS.includes(name) && !CHUNK.test(name)
  )
  if (extra.length) {
    throw new Error(
      `${name}: ncc emitted ${extra.join(', ')} beside the bundle. A bundle is one file and ` +
        'the chunks of its dynamic import()s: reference no other file.'
    )
  }
  const dir = path.dirname(outFile)
  mkdirSync(dir, { recursive: true })
  writeFileSync(outFile, code)
  for (const [name, asset] of Object.entries(assets))
    writeFileSync(path.join(dir, name), asset.source)
  return Buffer.byteLength(code)
}

/** The chunks' licence files as one licenses.txt: the entry's first, then its chunks' in id order. */
function joinLicences(assets) {
  const isLicences = name => name.endsWith('.licenses.txt')
  const licences = Object.keys(assets)
    .filter(isLicences)
    .sort((a, b) => Number(CHUNK_ID.test(a)) - Number(CHUNK_ID.test(b)) || a.localeCompare(b))
    .map(name => String(assets[name].source).trimEnd())
  const rest = Object.entries(assets).filter(([name]) => !isLicences(name))
  return Object.fromEntries(
    licences.length ? [...rest, ['licenses.txt', { source: `${licences.join('\n\n')}\n` }]] : rest
  )
}
const CHUNK_ID = /^\d+\./
