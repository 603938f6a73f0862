import { InputError } from '../runner/errors.js'

/** One thing wrong in a policy file, where it is. */
export interface PolicyProblem {
  /** 1-based; undefined for the file as a whole (its size, or a file the action could not read). */
  line?: number
  column?: number
  /** The key, as a path: `max-jobs`, `code-repositories[1].paths[0]`. */
  key?: string
  /** What is wrong and what is right. */
  message: string
}

/** Problems a message lists; a file with more has them named once these are fixed. */
const MAX_LISTED = 10

/**
 * A policy file the action cannot use: each problem with the file, its line and column and the
 * key, what is wrong and an example of what is right, so an annotation can point at the line.
 */
export class PolicyError extends InputError {
  constructor(
    readonly file: string,
    readonly problems: readonly PolicyProblem[]
  ) {
    super(describeProblems(file, problems))
  }
}

/** `file:line:column: key: message`, the form editors and GitHub's log link to. */
export function problemLine(file: string, problem: PolicyProblem): string {
  const where =
    problem.line === undefined
      ? file
      : `${file}:${problem.line}${problem.column === undefined ? '' : `:${problem.column}`}`
  return `${where}: ${problem.key ? `${problem.key}: ` : ''}${problem.message}`
}

function describeProblems(file: string, problems: readonly PolicyProblem[]): string {
  if (problems.length === 1) return problemLine(file, problems[0] as PolicyProblem)
  const listed = problems.slice(0, MAX_LISTED).map(p => `- ${problemLine(file, p)}`)
  const more = problems.length - listed.length
  return [
    `The policy file ${file} has ${problems.length} problems:`,
    ...listed,
    ...(more > 0 ? [`- and ${more} more, named once these are fixed.`] : [])
  ].join('\n')
}

/**
 * Text that may be a key or a token: a known prefix, or a long run of letters and digits with
 * nothing to read in it. Such a value written in the wrong place is never shown in a message.
 */
export const looksSecret = (text: string): boolean =>
  /(?:mint_|gh[opsur]_|github_pat_|sk-|xox[abpr]-)[\w-]{6,}/i.test(text) ||
  /[A-Za-z0-9+_=-]{32,}/.test(text.replace(/[/.]/g, ' '))

/** A value as a message shows it: one line, quoted, short, a secret never. */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  if (typeof value !== 'string') return String(value)
  if (looksSecret(value)) return 'a value that looks like a secret (not shown)'
  const short = value.length > 60 ? `${value.slice(0, 57)}…` : value
  return JSON.stringify(short)
}

/** A key as a message names it: as written when it is a word, quoted otherwise, a secret never. */
export const keyName = (key: string): string =>
  looksSecret(key)
    ? '(a key that looks like a secret, not shown)'
    : /^[\w-]{1,60}$/.test(key)
      ? key
      : JSON.stringify(key.slice(0, 60))
