import type { Octokit } from '@octokit/core'
import type { PaginateInterface } from '@octokit/plugin-paginate-rest'
import type { Api } from '@octokit/plugin-rest-endpoint-methods'
import { RequestError } from '@octokit/request-error'

/**
 * One repository's REST client, as the operations of api.ts share it: the toolkit's Octokit (its
 * REST methods and paging) and the repository every call names.
 */
export interface RepoRest {
  octokit: Octokit & Api & { paginate: PaginateInterface }
  owner: string
  repo: string
}

/** Pages of 100: the most GitHub serves per request. */
export const PAGE_SIZE = 100

/**
 * GitHub's answer a failed call carries, with its status; undefined when GitHub did not answer (or
 * the error is no failed call). Told by its shape, not by `instanceof`: the class is the
 * @octokit/request-error copy of whichever Octokit made the call, and @github/local-action's
 * stand-in for @actions/github brings its own.
 */
export function answerOf(
  error: unknown
): { status: number; response: NonNullable<RequestError['response']> } | undefined {
  if (!(error instanceof Error) || (error.name !== 'HttpError' && !(error instanceof RequestError)))
    return undefined
  const { status, response } = error as Partial<RequestError>
  if (typeof status !== 'number' || !response || typeof response !== 'object') return undefined
  return { status, response }
}

/** A failed call of Octokit's (answered or not), of any copy of it: see answerOf. */
export const isRequestError = (error: unknown): boolean =>
  error instanceof RequestError ||
  (error instanceof Error &&
    error.name === 'HttpError' &&
    typeof (error as { status?: unknown }).status === 'number')

/**
 * How long GitHub asks to wait after a rate limit (ms), when it says: `retry-after` (seconds), or,
 * with no request left, until `x-ratelimit-reset` (epoch seconds) by GitHub's own clock (its
 * `date`) and one second after it, as GitHub advises. A runner whose clock is off still waits what GitHub asked.
 */
export function waitAsked(headers: Record<string, unknown> | undefined): number | undefined {
  const after = Number(headers?.['retry-after'])
  if (headers?.['retry-after'] !== undefined && Number.isFinite(after))
    return Math.max(0, after) * 1000
  // The reset is the primary limit's: it says nothing while requests remain.
  if (headers?.['x-ratelimit-remaining'] !== '0') return undefined
  const reset = Number(headers?.['x-ratelimit-reset'])
  const now = Date.parse(String(headers?.date ?? ''))
  if (!Number.isFinite(reset) || !Number.isFinite(now)) return undefined
  return Math.max(0, reset * 1000 - now) + 1000
}

/** GitHub answered 404: no such thing, or none this token may see. */
export const notFound = (error: unknown): boolean => answerOf(error)?.status === 404

/**
 * GitHub answered 403 because the file is too large for the way it was asked for (`errors` of code
 * `too_large`: over 1 MB in the contents API's JSON, over 100 MB raw): no permission would help.
 */
export function tooLarge(error: unknown): boolean {
  const answer = answerOf(error)
  if (answer?.status !== 403) return false
  const errors = (answer.response.data as { errors?: unknown } | undefined)?.errors
  return (
    Array.isArray(errors) &&
    errors.some(e => (e as { code?: unknown } | null)?.code === 'too_large')
  )
}
