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

/** GitHub answered 404: no such thing, or none this token may see. */
export const notFound = (error: unknown): boolean =>
  error instanceof RequestError && error.response !== undefined && error.status === 404

/**
 * GitHub answered 403 because the file is too large for the way it was asked for (`errors` of code
 * `too_large`: over 1 MB in the contents API's JSON, over 100 MB raw): no permission would help.
 */
export function tooLarge(error: unknown): boolean {
  if (!(error instanceof RequestError) || error.response === undefined || error.status !== 403)
    return false
  const errors = (error.response.data as { errors?: unknown } | undefined)?.errors
  return (
    Array.isArray(errors) &&
    errors.some(e => (e as { code?: unknown } | null)?.code === 'too_large')
  )
}
