import { HttpError } from '../runner/connections.js'
import { formatDuration } from '../runner/duration.js'
import { InputError } from '../runner/errors.js'
import { RateLimitError } from './limits.js'
import { answerOf, isRequestError, tooLarge, waitAsked } from './rest.js'

/**
 * A failed GitHub call told apart by what GitHub documents, in one place, so that every message
 * names the real cause and what would help:
 * - `outage`: GitHub did not answer, answered 5xx (a GraphQL 502 too), or answered 200 with only
 *   GraphQL errors: nothing the workflow grants would help, a later run may;
 * - `rate-limit`: a primary or secondary rate limit (403 or 429, GraphQL's RATE_LIMITED, "was
 *   submitted too quickly"), with when GitHub says to try again;
 * - `refused`: 401, 403 or 404 (a private repository answers 404 to a token that cannot see it),
 *   or GraphQL's FORBIDDEN or NOT_FOUND on the repository: a permission would help;
 * - `disabled`: 410, a feature turned off in the repository (Issues): turning it on would help;
 * - `too-large`: a file GitHub will not serve this way (403 `too_large`): no permission would help;
 * - `rejected`: GitHub answered and refused the request itself (400, 422);
 * - `unusable`: the call could not be made (a token that is an unexpanded expression).
 */
export type GitHubFailureKind =
  'outage' | 'rate-limit' | 'refused' | 'disabled' | 'too-large' | 'rejected' | 'unusable'

export interface GitHubFailure {
  kind: GitHubFailureKind
  /** What GitHub answered, in a few words: `HTTP 503`, `no answer from GitHub (ECONNRESET)`. */
  why: string
  /** With a rate limit: how long GitHub asked to wait, when it said (ms). */
  retryAfterMs?: number
}

/** GitHub's words for a secondary rate limit, and for writes that come too fast. */
const SECONDARY = /\bsecondary rate limit\b|\bsubmitted too quickly\b|\babuse detection\b/i
/** GitHub's words for a primary rate limit. */
const PRIMARY = /\bAPI rate limit exceeded\b/i
/** A connection's system error code, not a bug's (ERR_INVALID_ARG_TYPE). */
const SYSTEM_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/
/** GitHub's message cut to what a log line holds. */
const MESSAGE_CHARS = 200

/** What kind of failure a GitHub call met, and its answer in a few words. */
export function gitHubFailure(error: unknown): GitHubFailure {
  // Not a call that failed but one that could not be made (an unusable token), or a rate limit too
  // long to wait for: their own words.
  if (error instanceof RateLimitError) return { kind: 'rate-limit', why: error.message }
  if (error instanceof InputError) return { kind: 'unusable', why: error.message }
  const graphql = graphqlErrors(error)
  if (graphql) return graphqlFailure(graphql)
  const answer = answerOf(error)
  if (answer) return answeredFailure(error, answer)
  return { kind: 'outage', why: `no answer from GitHub (${unanswered(error)})` }
}

/** A failed GitHub call in a few words: see gitHubFailure. */
export const describeGitHubError = (error: unknown): string => gitHubFailure(error).why

/** GitHub refused for want of access: a permission (or a token that can see it) would help. */
export const refusedAccess = (error: unknown): boolean => gitHubFailure(error).kind === 'refused'

/** The error is a GitHub call that failed (answered or not), rather than a wrong answer or a bug. */
export const isGitHubCallError = (error: unknown): boolean =>
  isRequestError(error) || graphqlErrors(error) !== undefined

/**
 * The error came from GitHub or the way to it: a call that failed (answered or not), a rate limit,
 * a token that could not be used, or a connection's own failure (a code such as ECONNRESET). Any
 * other error (a bug, a cancel) is not GitHub's and is never described as its outage.
 */
export const fromGitHub = (error: unknown): boolean =>
  error instanceof RateLimitError ||
  error instanceof InputError ||
  isGitHubCallError(error) ||
  networkCode(error) !== undefined

/** What to grant, as one sentence: `grant` is what the workflow's `permissions:` block needs. */
export const permissionHint = (grant: string): string =>
  `Give the workflow ${grant} (a permissions block that sets any permission sets the others to none).`

/** What the flow says for each kind it can help with; the others have their own words. */
export interface Advice {
  /** A refusal: the permission to grant (a sentence). */
  refused: string
  /** A feature turned off: where to turn it on (a sentence); GitHub's own words otherwise. */
  disabled?: string
}

/**
 * What to do about a failed call, as one sentence (with no leading space): the flow's grant for a
 * refusal, its words for a disabled feature, when to run again for a rate limit or an outage.
 */
export function whatToDo(error: unknown, advice: Advice): string {
  const failure = gitHubFailure(error)
  switch (failure.kind) {
    case 'refused':
      return advice.refused
    case 'disabled':
      return (
        advice.disabled ??
        'The feature is turned off in the repository: turn it on in its settings.'
      )
    case 'rate-limit':
      return failure.retryAfterMs !== undefined
        ? `GitHub asks to wait ${formatDuration(failure.retryAfterMs)}: run the workflow again after that, or space its runs out.`
        : 'Run the workflow again later, or space its runs out (a concurrency group).'
    case 'outage':
      return 'GitHub did not answer or failed, which no permission changes: run the workflow again later (https://www.githubstatus.com says when GitHub is failing).'
    default:
      return ''
  }
}

function answeredFailure(
  error: unknown,
  answer: NonNullable<ReturnType<typeof answerOf>>
): GitHubFailure {
  const { status, response } = answer
  const message = messageOf(response.data)
  const headers = (response.headers ?? {}) as Record<string, unknown>
  const retryAfterMs = waitAsked(headers)
  if (
    (status === 403 || status === 429) &&
    (SECONDARY.test(message) || PRIMARY.test(message) || headers['x-ratelimit-remaining'] === '0')
  )
    return {
      kind: 'rate-limit',
      why: `HTTP ${status}: GitHub's ${PRIMARY.test(message) || headers['x-ratelimit-remaining'] === '0' ? 'primary' : 'secondary'} rate limit`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
    }
  if (status === 422 && SECONDARY.test(`${message} ${fieldMessages(response.data)}`))
    return { kind: 'rate-limit', why: 'HTTP 422: submitted too quickly (a secondary rate limit)' }
  if (tooLarge(error))
    return {
      kind: 'too-large',
      why: `HTTP ${status}: the file is too large for GitHub to serve this way`
    }
  if ([401, 403, 404].includes(status)) return { kind: 'refused', why: `HTTP ${status}` }
  if (status === 410) return { kind: 'disabled', why: 'HTTP 410' }
  if (status >= 500) return { kind: 'outage', why: `HTTP ${status}` }
  return { kind: 'rejected', why: `HTTP ${status}` }
}

/** GitHub's GraphQL errors in an answer of 200, as Octokit's GraphqlResponseError carries them. */
interface GraphQLError {
  type?: unknown
  message?: unknown
  path?: unknown
}

/**
 * The GraphQL errors of an answer of 200: Octokit's GraphqlResponseError, or the error a plugin
 * makes of such an answer (`retried`'s "status 500" (retries.ts) for GitHub's "Something went
 * wrong", after its retries; @octokit/plugin-throttling's for RATE_LIMITED), which GitHub answered
 * with 200 all the same.
 */
function graphqlErrors(error: unknown): GraphQLError[] | undefined {
  const failure = error as
    | { name?: unknown; errors?: unknown; response?: { status?: unknown; data?: unknown } }
    | undefined
  const errors =
    failure?.name === 'GraphqlResponseError'
      ? failure.errors
      : failure?.response?.status === 200
        ? (failure.response.data as { errors?: unknown } | undefined)?.errors
        : undefined
  return Array.isArray(errors) ? errors.map(e => (e ?? {}) as GraphQLError) : undefined
}

function graphqlFailure(errors: GraphQLError[]): GitHubFailure {
  const text = (e: GraphQLError): string => (typeof e.message === 'string' ? e.message : '')
  const first = clip(errors.map(text).find(Boolean) ?? 'no message')
  if (
    errors.some(e => e.type === 'RATE_LIMITED' || SECONDARY.test(text(e)) || PRIMARY.test(text(e)))
  )
    return { kind: 'rate-limit', why: `GitHub's GraphQL API: ${first}` }
  // A token that cannot see the repository gets it named as not there or not allowed.
  if (
    errors.some(
      e =>
        (e.type === 'NOT_FOUND' || e.type === 'FORBIDDEN') &&
        Array.isArray(e.path) &&
        e.path[0] === 'repository'
    )
  )
    return { kind: 'refused', why: `GitHub's GraphQL API: ${first}` }
  // Errors in place of the data (a time-out of GitHub's own, "Something went wrong"): GitHub failed.
  return { kind: 'outage', why: `GitHub's GraphQL API answered with errors only: ${first}` }
}

function messageOf(data: unknown): string {
  const message = (data as { message?: unknown } | null | undefined)?.message
  return typeof message === 'string' ? clip(message) : ''
}

/** The messages of a 422's `errors` (where "was submitted too quickly" is said). */
function fieldMessages(data: unknown): string {
  const errors = (data as { errors?: unknown } | null | undefined)?.errors
  if (!Array.isArray(errors)) return ''
  return errors
    .map(e => {
      const m = (e as { message?: unknown } | null)?.message
      return typeof m === 'string' ? m : typeof e === 'string' ? e : ''
    })
    .join(' ')
}

/** Why a call got no answer, from the connection's own account. */
function unanswered(error: unknown): string {
  const failure = error as { message?: unknown } | undefined
  const code = networkCode(error)
  if (code !== undefined) return code
  return typeof failure?.message === 'string' ? failure.message : String(error)
}

/**
 * The connection's own account of a failure: a proxy that refused the tunnel or asks for
 * credentials, or a system code (ECONNRESET) of the error, its cause or the cause's cause.
 */
function networkCode(error: unknown): string | undefined {
  const failure = error as { code?: unknown; cause?: unknown } | undefined
  const cause = failure?.cause as
    { code?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined
  if (cause?.cause instanceof HttpError) return cause.cause.message
  if (error instanceof HttpError) return error.message
  const code = cause?.code ?? cause?.cause?.code
  if (typeof code === 'string') return code
  // A system error thrown as itself: ECONNRESET, or undici's UND_ERR_SOCKET.
  const own = failure?.code
  return typeof own === 'string' && SYSTEM_CODE.test(own) ? own : undefined
}

const clip = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > MESSAGE_CHARS ? `${line.slice(0, MESSAGE_CHARS - 1)}…` : line
}
