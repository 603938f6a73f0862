import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The bundles users run: each action.yml's runs.main points at one of these. */
export const ENTRIES = [
  { source: 'src/agent/index.ts', out: 'index.js', action: 'action.yml' },
  { source: 'src/agent/post/index.ts', out: 'post/index.js', action: 'action.yml' },
  { source: 'src/visitors/index.ts', out: 'visitors/index.js', action: 'visitors/action.yml' },
  { source: 'src/gaps/index.ts', out: 'gaps/index.js', action: 'gaps/action.yml' }
]

/** A string found once in each copy of undici; more than one copy bloats the bundle and slows start-up. */
export const UNDICI_MARKER = 'undici.error.UND_ERR_BPL_MISSING_UPSTREAM'

const STATIC_IMPORT =
  /(?:^|[;}\s])(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g
const DYNAMIC_IMPORT = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g

/**
 * The files of dist/ that running `file` loads: its static imports, followed to the end, and with
 * `dynamic` also the chunks it may import later. Read from the built code, not the build's metadata,
 * so it describes exactly what is committed.
 */
export function loadedFiles(file, { dynamic = false } = {}) {
  const seen = new Set()
  const visit = f => {
    if (seen.has(f)) return
    seen.add(f)
    const code = readFileSync(f, 'utf8')
    const patterns = dynamic ? [STATIC_IMPORT, DYNAMIC_IMPORT] : [STATIC_IMPORT]
    for (const pattern of patterns)
      for (const m of code.matchAll(pattern)) visit(path.resolve(path.dirname(f), m[1]))
  }
  visit(path.resolve(file))
  return [...seen]
}

/** Copies of undici in the files `entry` may ever load (static and lazy). */
export function undiciCopies(entry, options = { dynamic: true }) {
  return loadedFiles(entry, options)
    .map(f => readFileSync(f, 'utf8').split(UNDICI_MARKER).length - 1)
    .reduce((a, b) => a + b, 0)
}
