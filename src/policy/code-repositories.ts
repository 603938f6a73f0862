import { type PathFilter, pathFilter } from './path-filter.js'

/**
 * `code-repositories`: the code repositories one docs project documents, read in the docs
 * repository's workflow. Each may have its own path rules (`paths` with its `!` patterns, and
 * `paths-ignore`); a repository without them takes the policy's `paths` and `paths-ignore`.
 */
export interface CodeRepository {
  owner: string
  repo: string
  /** `owner/repo` as written. */
  name: string
  /** Its own path rules; undefined: the policy's `paths` and `paths-ignore`. */
  paths?: PathFilter
}

/** One ledger's worth: each repository costs a few requests a run and a line on the dashboard. */
export const MAX_CODE_REPOSITORIES = 50

/**
 * `owner/repo` within GitHub's own limits: a login of 1 to 39 letters, digits and single hyphens;
 * a name of up to 100 letters, digits, `_`, `.` and `-`, but not `.` or `..`.
 */
export const REPOSITORY_PATTERN =
  /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)\/((?!\.\.?$)[A-Za-z0-9_.-]{1,100})$/

/** `owner/repo` split, or undefined when it is not a repository's name. */
export function repositoryParts(name: string): { owner: string; repo: string } | undefined {
  const m = REPOSITORY_PATTERN.exec(name)
  return m ? { owner: m[1] as string, repo: m[2] as string } : undefined
}

/** A repository's key: GitHub's names are case-insensitive. */
export const repositoryKey = (name: string): string => name.toLowerCase()

/**
 * A checked repository name (`repositoryParts`) and its own globs, if it has any (checked with
 * `isGlob`): one of the policy file's `code-repositories`.
 */
export function codeRepository(
  name: string,
  own?: { paths: readonly string[]; ignore: readonly string[] }
): CodeRepository {
  const { owner, repo } = repositoryParts(name) ?? { owner: '', repo: '' }
  return { owner, repo, name, ...(own ? { paths: pathFilter(own.paths, own.ignore) } : {}) }
}
