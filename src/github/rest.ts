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
