import { readFileSync } from 'node:fs'

/**
 * The bundles users run, one file each: ncc builds `source` into dist/`out`, the file the
 * `actions`' runs.main or runs.post names; licenses.txt, package.json and the chunks of its dynamic
 * import()s go beside it, so every `out` has its own folder. The post step is one bundle, shared by
 * the actions that keep a comment.
 */
export const ENTRIES = [
  { source: 'src/prompt/index.ts', out: 'index.js', actions: ['action.yml'] },
  { source: 'src/changes/index.ts', out: 'changes/index.js', actions: ['changes/action.yml'] },
  { source: 'src/review/index.ts', out: 'review/index.js', actions: ['review/action.yml'] },
  { source: 'src/impact/index.ts', out: 'impact/index.js', actions: ['impact/action.yml'] },
  {
    source: 'src/post/index.ts',
    out: 'post/index.js',
    actions: ['action.yml', 'changes/action.yml', 'review/action.yml']
  },
  { source: 'src/visitors/index.ts', out: 'visitors/index.js', actions: ['visitors/action.yml'] },
  { source: 'src/gaps/index.ts', out: 'gaps/index.js', actions: ['gaps/action.yml'] }
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
