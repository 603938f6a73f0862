import { InputError } from '../runner/errors.js'
import { type PathFilter, readPathFilter } from './path-filter.js'

/**
 * `code-repositories`: the code repositories one docs project documents, read in the docs
 * repository's workflow. One repository a line, `owner/repo`, optionally followed by `:` and its
 * own path rules (globs separated by commas, `!` taking one back, as `paths` reads them); a
 * repository without its own rules takes `paths` and `paths-ignore`. Blank lines and `#` comments
 * are skipped.
 */
export interface CodeRepository {
  owner: string
  repo: string
  /** `owner/repo` as written in the input. */
  name: string
  /** Its own path rules; undefined: the `paths` and `paths-ignore` inputs. */
  paths?: PathFilter
}

/** One ledger's worth: each repository costs a few requests a run and a line on the dashboard. */
export const MAX_CODE_REPOSITORIES = 50

// GitHub's own limits: a login of 1 to 39 letters, digits and single hyphens; a name of up to 100.
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/
const NAME = /^[A-Za-z0-9_.-]{1,100}$/

/** A repository's key: GitHub's names are case-insensitive. */
export const repositoryKey = (name: string): string => name.toLowerCase()

export function readCodeRepositories(
  input: string,
  raw: string,
  docsRepository: string
): CodeRepository[] {
  const lines = raw
    .split(/\r?\n/)
    .map(line => line.trim())
    .filter(line => line && !line.startsWith('#'))
  if (lines.length > MAX_CODE_REPOSITORIES)
    throw new InputError(
      `Input '${input}' lists ${lines.length} repositories; at most ${MAX_CODE_REPOSITORIES} per docs project.`
    )
  const seen = new Set<string>()
  return lines.map(line => {
    const at = line.indexOf(':')
    const name = (at < 0 ? line : line.slice(0, at)).trim()
    const rules = at < 0 ? '' : line.slice(at + 1).trim()
    const [owner = '', repo = '', ...rest] = name.split('/')
    if (rest.length || !OWNER.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..')
      throw new InputError(
        `Input '${input}' must list one repository a line as owner/repo (optionally followed by ': ' and its path globs); '${line.slice(0, 120)}' is not one.`
      )
    const key = repositoryKey(name)
    if (seen.has(key)) throw new InputError(`Input '${input}' lists ${name} twice.`)
    seen.add(key)
    if (key === repositoryKey(docsRepository))
      throw new InputError(
        `Input '${input}' lists ${name}, the repository this workflow runs in: its merges are the docs themselves, never documented again. List the code repositories only, or leave '${input}' empty to document this repository's own changes.`
      )
    if (at >= 0 && !rules)
      throw new InputError(
        `Input '${input}': ${name} is followed by ':' but no path globs; write them (such as '${name}: src/**, !**/*.test.ts') or drop the ':'.`
      )
    const named = `${input} (${name})`
    const paths = rules ? readPathFilter(named, rules, named, '') : undefined
    return { owner, repo, name, ...(paths ? { paths } : {}) }
  })
}
