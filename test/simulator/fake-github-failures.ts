/**
 * The failures a test asks the fake GitHub for, answered in GitHub's documented words: statuses,
 * its primary and secondary rate limits, "was submitted too quickly", and GraphQL's errors in an
 * answer of 200.
 */

/** How a route fails, when a test says so (`failures`). */
export type FakeFailure =
  | number
  | {
      status: number
      times: number
      /** Seconds: GitHub's secondary rate limit, its `retry-after` and its documented message. */
      retryAfter?: number
      /** Seconds from the fake's now: GitHub's primary rate limit, its `x-ratelimit-reset`. */
      rateLimitReset?: number
      /** A 422 "was submitted too quickly". */
      tooQuickly?: true
    }

/**
 * GraphQL errors in an answer of 200, as GitHub sends them for the failures it does not answer with
 * a status: its own time-outs ("Something went wrong"), RATE_LIMITED (with the limit's headers),
 * "was submitted too quickly".
 */
export interface FakeGraphQLErrors {
  errors: { type?: string; message: string }[]
  times: number
}

/** An answer of the fake: its status, its JSON body and the headers beside the usual ones. */
export interface FailureAnswer {
  status: number
  body: unknown
  headers: Record<string, string>
}

/** GitHub's answer to a secondary rate limit, in its documented words (REST API, "Rate limits"). */
const SECONDARY_LIMIT = {
  message:
    'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.',
  documentation_url:
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits'
}

/** GitHub's answer to a primary rate limit (REST API, "Rate limits"): 403 with the limit's headers. */
const PRIMARY_LIMIT = {
  message:
    'API rate limit exceeded for installation ID 1. If you reach out to GitHub Support for help, please include the request ID.',
  documentation_url:
    'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-primary-rate-limits'
}

/** GitHub's answer to content created too fast (a secondary limit's other words): 422. */
const TOO_QUICKLY = {
  message: 'Validation Failed',
  errors: [
    { resource: 'Issue', code: 'custom', field: 'body', message: 'was submitted too quickly' }
  ],
  documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
  status: '422'
}

/** The headers of a primary rate limit spent, reset `resetIn` seconds after `now` (ms). */
const limitSpent = (now: number, resetIn: number): Record<string, string> => ({
  'x-ratelimit-limit': '5000',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': String(Math.ceil(now / 1000) + resetIn)
})

/**
 * The failure set for route `name`, answered as GitHub would, once: a failure given `times` is
 * spent by one, and forgotten when spent. Undefined when the route does not fail now.
 */
export function failureAnswer(
  failures: Map<string, FakeFailure>,
  name: string,
  now: number
): FailureAnswer | undefined {
  const failure = failures.get(name)
  const status = typeof failure === 'number' ? failure : failure?.status
  if (typeof failure === 'object' && --failure.times <= 0) failures.delete(name)
  if (!status) return undefined
  if (typeof failure === 'object' && failure.retryAfter !== undefined)
    return {
      status,
      body: SECONDARY_LIMIT,
      headers: { 'retry-after': String(failure.retryAfter) }
    }
  if (typeof failure === 'object' && failure.rateLimitReset !== undefined)
    return { status, body: PRIMARY_LIMIT, headers: limitSpent(now, failure.rateLimitReset) }
  if (typeof failure === 'object' && failure.tooQuickly)
    return { status, body: TOO_QUICKLY, headers: {} }
  return {
    status,
    body: { message: status === 403 ? 'Resource not accessible by integration' : 'Failure' },
    headers: {}
  }
}

/**
 * The GraphQL errors set for `name`, answered as GitHub does (200, no data; RATE_LIMITED with the
 * limit's headers), once. Undefined when there are none.
 */
export function graphqlErrorsAnswer(
  graphqlErrors: Map<string, FakeGraphQLErrors>,
  name: string,
  now: number
): FailureAnswer | undefined {
  const errors = graphqlErrors.get(name)
  if (!errors) return undefined
  if (--errors.times <= 0) graphqlErrors.delete(name)
  const limited = errors.errors.some(e => e.type === 'RATE_LIMITED')
  return {
    status: 200,
    body: { data: null, errors: errors.errors },
    headers: limited ? limitSpent(now, 60) : {}
  }
}
