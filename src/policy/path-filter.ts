import picomatch from 'picomatch'
import { InputError } from '../runner/errors.js'
import { v1List } from './v1-lists.js'

/**
 * `paths` and `paths-ignore`, read as GitHub reads a workflow's: `*` stays within a folder, `**`
 * crosses folders, a `!` pattern in `paths` takes back what an earlier one matched, and the last
 * pattern that matches a file decides.
 */
export interface PathFilter {
  /** Whether a changed file is one the docs may need to follow. */
  counts(path: string): boolean
  /** True when no pattern was given: every file counts. */
  readonly all: boolean
}

/** Patterns a list at most: each is tried on every changed file. */
export const MAX_PATTERNS = 200

/** Whether picomatch reads a pattern (a leading `!` aside) as a glob; `src/[abc` it does not. */
export function isGlob(pattern: string): boolean {
  try {
    picomatch.makeRe(pattern.replace(/^!/, ''), { dot: true, strictBrackets: true })
    return true
  } catch {
    return false
  }
}

/** The filter of checked globs (`isGlob`): `paths` with its `!` patterns, and `paths-ignore`. */
export function pathFilter(paths: readonly string[], ignore: readonly string[]): PathFilter {
  const include = paths.map(p => ({
    negated: p.startsWith('!'),
    match: picomatch(p.replace(/^!/, ''), { dot: true })
  }))
  const excluded = ignore.map(p => picomatch(p, { dot: true }))
  return {
    all: include.length === 0 && excluded.length === 0,
    counts(path) {
      let counted = include.length === 0 || include.every(p => p.negated)
      for (const pattern of include) if (pattern.match(path)) counted = !pattern.negated
      return counted && !excluded.some(match => match(path))
    }
  }
}

/** A v1 input's patterns, one a line or a comma (src/policy/v1-lists.ts), each checked. */
function v1Patterns(name: string, raw: string): string[] {
  const list = v1List(raw)
  if (list.length > MAX_PATTERNS)
    throw new InputError(`Input '${name}' lists ${list.length} patterns; at most ${MAX_PATTERNS}.`)
  const wrong = list.find(pattern => !isGlob(pattern))
  if (wrong !== undefined)
    throw new InputError(
      `Input '${name}' has a pattern that is not a glob: '${wrong}'. Write one glob a line, such as src/** or docs/*.md.`
    )
  return list
}

/** v1's `paths` and `paths-ignore` inputs; the policy file's lists go to `pathFilter`. */
export function readPathFilter(
  pathsName: string,
  paths: string,
  ignoreName: string,
  ignore: string
): PathFilter {
  return pathFilter(v1Patterns(pathsName, paths), v1Patterns(ignoreName, ignore))
}
