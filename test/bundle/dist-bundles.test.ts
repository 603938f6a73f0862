import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENTRIES, UNDICI_MARKER, undiciCopies } from '../../scripts/entries.mjs'
import { CHUNK } from '../../scripts/ncc.mjs'
import { DIST, ROOT } from '../support/run-action.js'

// dist/ as scripts/bundle.mjs builds it with ncc: per entry one file, and beside it its licences, the
// package.json that makes it an ES module, and the chunks of its dynamic import()s (a module only a
// rare path needs, which every start would otherwise parse).
const dist = DIST
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter(f => statSync(path.join(dir, f)).isFile())
    .map(f => f.split(path.sep).join('/'))
    .sort()

type Pkg = { name: string; version: string; dependencies?: Record<string, string> }
const readPkg = (dir: string): Pkg =>
  JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Pkg

/** The folder of package `name` as Node (and so ncc's resolver) finds it from `dir`. */
function installed(name: string, dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules', name)
    if (existsSync(path.join(candidate, 'package.json'))) return candidate
    if (d === path.dirname(d)) throw new Error(`${name} is not installed where ${dir} finds it`)
  }
}

/**
 * Every copy of package `name` that the bundles can hold: the lockfile's entries not marked dev (a
 * dev tool such as @github/local-action brings older toolkit copies that no entry ever imports).
 */
function runtimeCopiesOf(name: string): string[] {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>
  }
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key.endsWith(`node_modules/${name}`) && !entry.dev)
    .map(([key]) => path.join(ROOT, key))
}

const major = (versionOrRange: string): number => Number(/\d+/.exec(versionOrRange)?.[0])

describe('dist/', () => {
  it('holds one file per entry, with its licences, package.json and chunks, and nothing else', () => {
    const folderOf = (file: string): string =>
      path.posix.dirname(file) === '.' ? '' : `${path.posix.dirname(file)}/`
    const expected = ENTRIES.flatMap(({ out }) => {
      const dir = folderOf(out)
      return [out, `${dir}licenses.txt`, `${dir}package.json`]
    })
    const entryFolders = new Set(ENTRIES.map(({ out }) => folderOf(out)))
    const chunks = filesUnder(dist).filter(
      f => CHUNK.test(path.posix.basename(f)) && entryFolders.has(folderOf(f))
    )
    expect(filesUnder(dist)).toEqual([...expected, ...chunks].sort())
  })
})

describe.each(ENTRIES)('dist/$out', ({ out }) => {
  const file = path.join(dist, out)
  const code = readFileSync(file, 'utf8')

  it('is an ES module and loads no other file of dist/ than its chunks beside it', () => {
    expect(JSON.parse(readFileSync(path.join(path.dirname(file), 'package.json'), 'utf8'))).toEqual(
      { type: 'module' }
    )
    // Not minified, the bundle keeps its packages' comments, whose JSDoc types say import('./x').
    const statements = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
    // The one relative import() allowed is webpack's chunk loader, and the chunks it names are there.
    const loader = 'import("./" + __nccwpck_require__.u(chunkId))'
    expect(statements.split(loader).join('')).not.toMatch(/\bimport\(\s*["']\.{1,2}\//)
    expect(statements).not.toMatch(/\bfrom\s*["']\.{1,2}\//)
    for (const [, id] of code.matchAll(/__nccwpck_require__\.e\(\/\* import\(\) \*\/ (\d+)\)/g))
      expect(existsSync(path.join(path.dirname(file), `${id}.index.js`))).toBe(true)
  })

  it('holds exactly one copy of undici', () => {
    expect(undiciCopies(file)).toBe(1)
  })

  it('has the licences of what it bundles beside it', () => {
    const licences = readFileSync(path.join(path.dirname(file), 'licenses.txt'), 'utf8')
    for (const name of ['@actions/core', '@actions/http-client', 'undici'])
      expect(licences).toMatch(new RegExp(`^${name}\\nMIT\\n`, 'm'))
  })
})

describe('undici', () => {
  it('has the marker exactly once in its code, so that counting it counts copies', () => {
    const dir = installed('undici', ROOT)
    const count = filesUnder(dir)
      .filter(f => f.endsWith('.js') && !f.startsWith('types/'))
      .map(f => readFileSync(path.join(dir, f), 'utf8').split(UNDICI_MARKER).length - 1)
      .reduce((a, b) => a + b, 0)
    expect(count).toBe(1)
  })

  it('bundled has the major version that @actions/http-client depends on', () => {
    const clients = runtimeCopiesOf('@actions/http-client')
    expect(clients.length).toBeGreaterThan(0)
    // What the bundles hold: the undici each http-client resolves; one copy (see above), so one package.
    const bundled = new Set(clients.map(dir => installed('undici', dir)))
    expect(bundled.size).toBe(1)
    const version = readPkg([...bundled][0] as string).version
    for (const dir of clients) {
      const range = readPkg(dir).dependencies?.undici
      expect(range, `${dir} depends on undici`).toBeDefined()
      expect(major(version), `undici ${version} for ${dir} (wants ${range})`).toBe(
        major(range ?? '')
      )
    }
  })
})
