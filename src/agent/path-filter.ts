import picomatch from 'picomatch'
import { InputError } from '../runner/errors.js'

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

const MAX_PATTERNS = 200

/** One pattern a line (or comma), blank lines and `#` comments skipped, as multi-line inputs are. */
function patterns(name: string, raw: string): string[] {
  const list = raw
    .split(/\r?\n|,/)
    .map(line => line.trim())
    .filter(line => line && !line.startsWith('#'))
  if (list.length > MAX_PATTERNS)
    throw new InputError(`Input '${name}' lists ${list.length} patterns; at most ${MAX_PATTERNS}.`)
  for (const pattern of list) {
    try {
      picomatch.makeRe(pattern.replace(/^!/, ''), { dot: true, strictBrackets: true })
    } catch {
      throw new InputError(
        `Input '${name}' has a pattern that is not a glob: '${pattern}'. Write one glob a line, such as src/** or docs/*.md.`
      )
    }
  }
  return list
}

export function readPathFilter(
  pathsName: string,
  paths: string,
  ignoreName: string,
  ignore: string
): PathFilter {
  const include = patterns(pathsName, paths).map(p => ({
    negated: p.startsWith('!'),
    match: picomatch(p.replace(/^!/, ''), { dot: true })
  }))
  const excluded = patterns(ignoreName, ignore).map(p => picomatch(p, { dot: true }))
  return {
    all: include.length === 0 && excluded.length === 0,
    counts(path) {
      let counted = include.length === 0 || include.every(p => p.negated)
      for (const pattern of include) if (pattern.match(path)) counted = !pattern.negated
      return counted && !excluded.some(match => match(path))
    }
  }
}
