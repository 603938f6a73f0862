import { getOctokit } from '@actions/github'
import { type Clock, systemClock } from '../runner/clock.js'
import { USER_AGENT } from '../runner/runner.js'
import { type IssueCalls, issueCalls } from './api-issues.js'
import { type PullCalls, pullCalls } from './api-pulls.js'
import { type RepositoryCalls, repositoryCalls } from './api-repository.js'
import type { GraphQL } from './history.js'
import { eachAttempt } from './each-attempt.js'
import { RateLimitError, limited } from './limits.js'
import { retried } from './retries.js'
import type { RepoRest } from './rest.js'
import { GitHubTransport } from './transport.js'

export { RateLimitError }
export {
  type Advice,
  type GitHubFailure,
  describeGitHubError,
  fromGitHub,
  gitHubFailure,
  isGitHubCallError,
  permissionHint,
  refusedAccess,
  whatToDo
} from './failure.js'
export { PAGE_SIZE, notFound, tooLarge } from './rest.js'
export { type IssueChange, type IssueComment, type IssueRecord, lastPage } from './api-issues.js'
export type { ChangedFile, ReviewComment } from './api-pulls.js'
export { FILES_PER_QUERY, MAX_FILE_BYTES, type RepoFile } from './api-repository.js'

/**
 * The few GitHub operations the action uses, on the run's repository: its issues and comments
 * (api-issues.ts), pull requests and commits (api-pulls.ts), contents and permissions
 * (api-repository.ts).
 */
export interface GitHubApi extends IssueCalls, PullCalls, RepositoryCalls {
  /** GitHub's GraphQL API: history and file lists without patches (history.ts). */
  graphql: GraphQL
}

/** Where the comments go: the run's repository, on the run's GitHub. */
export interface RepoRef {
  owner: string
  repo: string
  /** The REST API's base URL (GITHUB_API_URL; GitHub Enterprise Server has its own). */
  apiUrl: string
}

/** What every request of a client is bounded by: the run's cancel, clock and time limit. */
export interface ClientOptions {
  /** The run's cancel: it ends every wait and every call. */
  cancel?: AbortSignal
  /**
   * The wait before the first retry; the n-th waits n² times as long (@octokit/plugin-retry's
   * schedule and its default, 1 s). For tests.
   */
  retryBaseMs?: number
  /** Times the waits before retries and their deadline (the runner's clock; a virtual one in tests). */
  clock?: Clock
  /** The step's time limit on `clock`, past which no rate limit is waited for. */
  deadline?: number
  /** What to do about a wait past `deadline`, when raising 'timeout' is no answer (the post step). */
  pastDeadline?: string
}

/** One token's client on one GitHub: the toolkit's Octokit over connections the action owns. */
export interface GitHubClient {
  octokit: RepoRest['octokit']
  /** Ends its connections, also one still waiting for a proxy. */
  close(): Promise<void>
}

/** @octokit/plugin-retry's retryAfterBaseValue, the first retry's wait. */
const RETRY_BASE_MS = 1000

/**
 * The toolkit's Octokit (@actions/github's getOctokit) with the same plugins and proxy rules as every
 * other action, but over connections the action owns and closes (transport.ts), retried as
 * @octokit/plugin-retry would (retries.ts): reads and comment updates are retried up to three
 * times when GitHub does not answer or fails (a 5xx, a 429; not 400, 401, 403, 404, 410, 422,
 * 451); creating a comment never is (a retry could post it twice). Every request, its retries
 * included, is bounded by its own time limit and by the run's cancel signal, so a slow GitHub
 * cannot hold a cancelled step. GitHub's rate limits are waited for as it asks
 * (@octokit/plugin-throttling), never past the step's time limit, and writes are paced a second
 * apart (limits.ts; docs/retries-and-rate-limits.md). A run opens one per token and GitHub
 * (session.ts): the pacing and the connections are the token's.
 */
export function openGitHubClient(
  token: string,
  apiUrl: string,
  {
    cancel,
    retryBaseMs = RETRY_BASE_MS,
    clock = systemClock,
    deadline,
    pastDeadline
  }: ClientOptions = {}
): GitHubClient {
  const baseUrl = apiUrl.replace(/\/+$/, '')
  const transport = new GitHubTransport(baseUrl)
  const octokit = getOctokit(
    token,
    {
      baseUrl,
      userAgent: USER_AGENT,
      // Replaces the toolkit's `request` (its fetch over a proxy dispatcher nothing closes).
      request: { fetch: transport.fetch }
    },
    // In this order: `eachAttempt` inside all, `limited` wraps each attempt, inside the retries.
    eachAttempt,
    limited({ cancel, retryBaseMs, clock, deadline, pastDeadline }),
    retried
  )
  return { octokit, close: () => transport.close() }
}

/** One repository's operations over a client: nothing is opened, the client's connections serve it. */
export function repositoryApi(
  octokit: GitHubClient['octokit'],
  { owner, repo }: Omit<RepoRef, 'apiUrl'>
): GitHubApi {
  const rest = { octokit, owner, repo }
  return {
    ...issueCalls(rest),
    ...pullCalls(rest),
    ...repositoryCalls(rest),
    graphql: (query, variables) => octokit.graphql(query, variables)
  }
}
