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
 * Bundles the JavaScript module `input` with ncc into `outFile`, and writes licenses.txt and
 * package.json beside it. Fails when ncc would need any other file (a chunk for a dynamic import(),
 * an asset it relocates): a bundle is one file. `name` is what errors call it. Returns the bundle's
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
      license: 'licenses.txt',
      // The cache only saves time on rebuilds; without it every build starts from the same place.
      cache: false,
      quiet: true
    })
  } finally {
    process.chdir(cwd)
  }
  const { code, assets } = result
  const extra = Object.keys(assets).filter(name => !ALLOWED_ASSETS.includes(name))
  if (extra.length) {
    throw new Error(
      `${name}: ncc emitted ${extra.join(', ')} beside the bundle. A bundle must be ` +
        'one file: import modules statically (a dynamic import() becomes a separate chunk).'
    )
  }
  const dir = path.dirname(outFile)
  mkdirSync(dir, { recursive: true })
  writeFileSync(outFile, code)
  for (const [name, asset] of Object.entries(assets))
    writeFileSync(path.join(dir, name), asset.source)
  return Buffer.byteLength(code)
}
