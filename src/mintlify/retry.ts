import type { Clock } from '../action/clock.js'
import type { CancelledError } from '../action/errors.js'
import { type ApiError, RateLimitError } from './errors.js'

/** Statuses worth retrying for reads, as AWS's standard mode and undici's RetryHandler do. */
export const RETRYABLE_READ_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504])

/**
 * Statuses that prove a write was not acted on: 429 (refused by the rate limiter) and 503
 * (refused before reaching the application). A 500/502/504 may come after the job was created.
 */
export const RETRYABLE_WRITE_STATUSES: ReadonlySet<number> = new Set([429, 503])

export interface BackoffPolicy {
  /** First retry waits up to this long. */
  baseDelayMs: number
  /** No single wait is longer than this. */
  maxDelayMs: number
  /** Attempts in all (first try included) for writes; reads are bounded by the deadline only. */
  maxWriteAttempts: number
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxWriteAttempts: 5
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base·2^(attempt-1))]. */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  return Math.floor(random() * ceiling)
}

/** `Retry-After` as delta-seconds or an HTTP-date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined | null, now: number): number | undefined {
  if (value === undefined || value === null) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
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
  /** Epoch ms after which no attempt starts and no wait is begun. */
  deadline: number
  /** Writes are capped at `policy.maxWriteAttempts`; reads only by the deadline. */
  write: boolean
  policy: BackoffPolicy
  clock: Clock
  random?: () => number
  signal?: AbortSignal
  onRetry?: (info: { attempt: number; delayMs: number; error: ApiError | CancelledError }) => void
}

/** Runs `attempt` until it succeeds, says not to retry, or the next wait would not fit before the deadline. */
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
        const until = new Date(now + outcome.retryAfterMs)
        throw new RateLimitError(
          `The service rate limited the request: rate limited until ${until.toISOString()}, which is past this step's time limit. ` +
            `Try again after that time, or raise 'timeout' to wait it out.`,
          until
        )
      }
      delayMs = outcome.retryAfterMs
    } else {
      delayMs = backoffDelay(n, policy, options.random)
    }
    if (now + delayMs >= deadline) throw error
    options.onRetry?.({ attempt: n, delayMs, error })
    await clock.sleep(delayMs, options.signal)
  }
}
