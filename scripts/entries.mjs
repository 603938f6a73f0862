import { readFileSync } from 'node:fs'

/**
 * The bundles users run, one file each: ncc builds `source` into dist/`out`, the file the `action`'s
 * runs.main or runs.post names; licenses.txt, package.json and the chunks of its dynamic import()s go
 * beside it, so every `out` has its own folder.
 */
export const ENTRIES = [
  { source: 'src/agent/index.ts', out: 'index.js', action: 'action.yml' },
  { source: 'src/agent/post/index.ts', out: 'post/index.js', action: 'action.yml' },
  { source: 'src/visitors/index.ts', out: 'visitors/index.js', action: 'visitors/action.yml' },
  { source: 'src/gaps/index.ts', out: 'gaps/index.js', action: 'gaps/action.yml' }
]

/**
 * A string found exactly once in each copy of undici (the Symbol.for key of one of its errors, in
 * lib/core/errors.js), and which bundling leaves as it is.
 */
export const UNDICI_MARKER = 'undici.error.UND_ERR_BPL_MISSING_UPSTREAM'

/** Copies of undici bundled in `file`. */
export function undiciCopies(file) {
  return readFileSync(file, 'utf8').split(UNDICI_MARKER).length - 1
}
