import { type Clock } from '../runner/clock.js'
import type { CancelledError } from '../runner/errors.js'
import { type ApiError, RateLimitError } from './errors.js'
import { HOUR_MS } from '../runner/duration.js'

/** Statuses worth retrying for reads, as AWS's standard mode and undici's RetryHandler do. */
export const RETRYABLE_READ_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504])

/**
 * Statuses that prove a write was not acted on: 429 (refused by the rate limiter) and 503
 * (refused before reaching the application). A 500/502/504 may come after the job was created.
 */
export const RETRYABLE_WRITE_STATUSES: ReadonlySet<number> = new Set([429, 503])

export interface BackoffPolicy {
  /** No retry comes sooner than this, whatever the jitter or a `Retry-After` of 0 says. */
  minDelayMs: number
  /** First retry waits up to this long. */
  baseDelayMs: number
  /** No single wait is longer than this. */
  maxDelayMs: number
  /** Attempts in all (first try included) for writes; reads are bounded by the deadline only. */
  maxWriteAttempts: number
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  minDelayMs: 1000,
  baseDelayMs: 2000,
  maxDelayMs: 20_000,
  maxWriteAttempts: 5
}

/**
 * Exponential backoff with full jitter above a floor: uniform in
 * [min, max(min, min(max, base·2^(attempt-1)))].
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  const floor = policy.minDelayMs
  return floor + Math.floor(random() * Math.max(0, ceiling - floor))
}

/** An HTTP-date (RFC 9110): IMF-fixdate, the obsolete RFC 850 form, or asctime. */
const HTTP_DATE =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/

/**
 * `Retry-After` as whole delta-seconds or an HTTP-date, in milliseconds from `wallNow` (the wall
 * clock: the date is the server's); undefined when absent or in any other form. `1.5` is neither
 * (Date.parse would read it as a date in 2001).
 */
export function parseRetryAfter(
  value: string | undefined | null,
  wallNow: number
): number | undefined {
  const text = value?.trim() ?? ''
  if (/^\d{1,12}$/.test(text)) return Number(text) * 1000
  if (!HTTP_DATE.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - wallNow)
}

/** "at 2026-11-22T10:00:00.000Z", or "in N hours" for a wait no date can show. */
function whenText(waitMs: number): string {
  const at = Date.now() + waitMs
  return Number.isFinite(at) && at < 8.64e15
    ? `until ${new Date(at).toISOString()}`
    : `for ${Math.round(waitMs / HOUR_MS)} hours`
}

/** What one attempt came to: a value, or an error and whether another attempt may help. */
export type Attempt<T> =
  | { ok: true; value: T }
  | {
      ok: false
      error: ApiError | CancelledError
      retry: boolean
      retryAfterMs?: number
    }

export interface RetryOptions {
  /** Monotonic ms (Clock.now) after which no attempt starts and no wait is begun. */
  deadline: number
  /** Writes are capped at `policy.maxWriteAttempts`; reads only by the deadline. */
  write: boolean
  policy: BackoffPolicy
  clock: Clock
  random?: () => number
  signal?: AbortSignal
  onRetry?: (info: { attempt: number; delayMs: number; error: ApiError | CancelledError }) => void
  /** What to do when a wait is past the deadline; by default, raise the step's 'timeout'. */
  pastDeadline?: string
}

/** The advice for a wait past the deadline, where the step's 'timeout' input sets it. */
export const RAISE_TIMEOUT = "Try again after that time, or raise 'timeout' to wait it out."

/**
 * Runs `attempt` until it succeeds, says not to retry, or the next wait would not fit before the deadline.
 * Hand-written beside undici's RetryHandler, which decides by method, status and error code and
 * cannot tell a write that never left from one the service may have acted on: here a write goes
 * again only when it provably never reached the service, so a job is never created twice.
 */
export async function withRetries<T>(
  attempt: (n: number) => Promise<Attempt<T>>,
  options: RetryOptions
): Promise<T> {
  const { deadline, policy, clock } = options
  for (let n = 1; ; n++) {
    const outcome = await attempt(n)
    if (outcome.ok) return outcome.value
    const { error } = outcome
    if (!outcome.retry || (options.write && n >= policy.maxWriteAttempts)) throw error
    const now = clock.now()
    let delayMs: number
    if (outcome.retryAfterMs !== undefined) {
      if (now + outcome.retryAfterMs > deadline) {
        throw new RateLimitError(
          `The service rate limited the request: rate limited ${whenText(outcome.retryAfterMs)}, which is past this step's time limit. ` +
            (options.pastDeadline ?? RAISE_TIMEOUT)
        )
      }
      // The service's wait is a minimum: a Retry-After of 0 must not turn into a storm.
      delayMs = Math.max(outcome.retryAfterMs, backoffDelay(n, policy, options.random))
    } else {
      delayMs = backoffDelay(n, policy, options.random)
    }
    if (now + delayMs >= deadline) throw error
    options.onRetry?.({ attempt: n, delayMs, error })
    await clock.sleep(delayMs, options.signal)
  }
}
