import type { Octokit } from '@octokit/core'
import { throttling } from '@octokit/plugin-throttling'
import type { Clock } from '../runner/clock.js'
import { formatDuration } from '../runner/duration.js'
import { ExplainedError } from '../runner/errors.js'

// How long a GitHub call may take, and what it waits for: its own time limit, the run's cancel,
// the retry plugin's schedule, and GitHub's rate limits (@octokit/plugin-throttling), the waits all
// on the run's clock and none past the step's time limit.

/** What a rate-limit handler is told of the request. */
interface Options {
  method: string
  url: string
}

/** One attempt's time limit: its retries (not a rate limit's) included. */
const TIMEOUT_MS = 15_000
/** Short enough that a cancelled step still ends within 2 s, long enough for a healthy GitHub. */
const GRACE_MS = 1_500
/** The longest rate-limit wait when the step names no time limit: GitHub's own default for a secondary limit. */
const UNBOUNDED_WAIT_MS = 60_000
/** Retries after a rate limit, for requests that are safe to send again (reads, edits). */
const LIMIT_RETRIES = 3

/** GitHub's rate limit asked for a wait the run cannot give. */
export class RateLimitError extends ExplainedError {}

export interface LimitOptions {
  /** The run's cancel: it ends every wait and every call. */
  cancel?: AbortSignal
  /** The first retry's wait (the retry plugin's schedule: the n-th waits n² times as long). */
  retryBaseMs: number
  clock: Clock
  /** The step's time limit on `clock`: no rate-limit wait goes past it. */
  deadline?: number
}

/**
 * The plugin that bounds every request and waits on GitHub's rate limits. Registered before
 * @octokit/plugin-retry: the hooks it adds sit inside the retry plugin's, so each attempt is
 * bounded, and a rate limit the run cannot wait for never reaches the retry plugin as a 429 to
 * retry on its own schedule.
 */
export function limited({ cancel, retryBaseMs, clock, deadline }: LimitOptions) {
  return (octokit: Pick<Octokit, 'hook'>, octokitOptions: object): void => {
    /** A rate limit's wait before the next attempt, by request. */
    const waits = new WeakMap<object, number>()
    /** Why a rate-limited request is not sent again, by request. */
    const refusals = new WeakMap<object, RateLimitError>()
    bounded(octokit, { cancel, retryBaseMs, clock }, waits)
    const decide =
      (kind: 'primary' | 'secondary') =>
      (retryAfter: number, options: Options, _octokit: unknown, retryCount: number): boolean => {
        if (cancel?.aborted) return false
        const wait = Math.max(0, retryAfter) * 1000
        const refusal = refuse(kind, wait, options, retryCount, clock.now(), deadline)
        if (refusal) {
          refusals.set(options, new RateLimitError(refusal))
          return false
        }
        waits.set(options, wait)
        return true
      }
    // The plugin paces writes and GraphQL queries (one a second) and queues the rest on real
    // timers, which the run's clock cannot see; a run makes its few requests one after another.
    // Its rate-limit answers are what is wanted: the waits are the clock's, in `bounded`.
    const unpaced = {
      key: () => ({
        schedule: (_job: unknown, task: (...args: unknown[]) => unknown, ...args: unknown[]) =>
          Promise.resolve(task(...args))
      })
    }
    throttling(
      octokit as never,
      {
        ...octokitOptions,
        throttle: {
          onRateLimit: decide('primary'),
          onSecondaryRateLimit: decide('secondary'),
          retryAfterBaseValue: 0,
          global: unpaced,
          auth: unpaced,
          write: unpaced,
          search: unpaced,
          notifications: unpaced
        }
      } as never
    )
    octokit.hook.wrap('request', async (request, options) => {
      try {
        return await request(options)
      } catch (error) {
        throw refusals.get(options) ?? error
      }
    })
  }
}

/**
 * Why a rate-limited request is not sent again, or nothing when it is, after `wait`.
 *
 * GitHub answers a rate limit (403 or 429) before acting on the request, so the answer itself
 * proves that a POST creating a comment or an issue created nothing, and sending it once more
 * cannot make two. It is sent once more at most: a second limit on the same creation says the
 * writes come too fast for this run, and each further attempt is one more chance of an answer
 * that never comes (a time-out), after which the run could no longer tell whether it was made.
 */
function refuse(
  kind: 'primary' | 'secondary',
  wait: number,
  options: Options,
  retryCount: number,
  now: number,
  deadline: number | undefined
): string | undefined {
  const what = `GitHub's ${kind} rate limit stopped ${options.method} ${options.url.replace(/^https?:\/\/[^/]+/, '')}`
  const creates = options.method === 'POST' && !/\/graphql$/.test(options.url)
  if (retryCount >= (creates ? 1 : LIMIT_RETRIES))
    return `${what} ${retryCount + 1} times${creates ? ' (a creation is sent again once at most)' : ''}. Run the workflow again later, or space its runs out (e.g. a concurrency group).`
  if (deadline === undefined && wait > UNBOUNDED_WAIT_MS)
    return `${what}, asking to wait ${formatDuration(wait)}: longer than this step waits (${formatDuration(UNBOUNDED_WAIT_MS)}). Run the workflow again later.`
  if (deadline !== undefined && now + wait > deadline)
    return `${what}, asking to wait ${formatDuration(wait)}: past the step's time limit ('timeout', ${formatDuration(Math.max(0, deadline - now))} left). Run the workflow again later, or raise 'timeout'.`
  return undefined
}

/** What `bounded` knows of one request across its attempts. */
interface Bound {
  signal: AbortSignal
  deadline: number
  attempts: number
  last?: unknown
}

/**
 * Bounds each request, its retries included, by TIMEOUT_MS (GRACE_MS when made after the cancel)
 * and by the cancel signal, and waits before each retry. Hand-written beside
 * @octokit/plugin-retry because the plugin's own wait is a timer no signal can end: a cancel
 * during it would keep the step alive for up to 9 s. A rate limit's wait (`waits`) is the run's
 * cancel alone can end, and the attempt after it has its own time limit. Registered first, so it
 * wraps each attempt, and the retry plugin's request options are the same object every time.
 */
function bounded(
  octokit: Pick<Octokit, 'hook'>,
  { cancel, retryBaseMs, clock }: Omit<LimitOptions, 'deadline'>,
  waits: WeakMap<object, number>
): void {
  const bounds = new WeakMap<object, Bound>()
  const waitBefore = (attempt: number): number => attempt ** 2 * retryBaseMs
  const fresh = (): Bound => {
    // A request made before the cancel stops at it; one made after (the comment's last
    // word) gets a short grace.
    const ms = cancel?.aborted ? GRACE_MS : TIMEOUT_MS
    const timeout = clock.timeout(ms)
    const signal = cancel && !cancel.aborted ? AbortSignal.any([cancel, timeout]) : timeout
    return { signal, deadline: clock.now() + ms, attempts: 0 }
  }
  octokit.hook.wrap('request', async (request, options) => {
    let bound = bounds.get(options)
    // No retry after this one: the retry plugin reads `retries` from these options.
    const last = (): void => void (options.request = { ...options.request, retries: 0 })
    const limit = waits.get(options)
    if (limit !== undefined && bound) {
      waits.delete(options)
      try {
        await clock.sleep(limit, cancel)
      } catch {
        last()
        throw bound.last
      }
      bound = undefined
    }
    if (!bound) bounds.set(options, (bound = fresh()))
    const attempt = bound.attempts++
    if (attempt > 0) {
      try {
        await clock.sleep(waitBefore(attempt), bound.signal)
      } catch {
        last()
        throw bound.last
      }
    }
    try {
      // Set on these options, not on a copy: the hooks inside this one (authentication) read them.
      options.request = { ...options.request, signal: bound.signal }
      return await request(options)
    } catch (error) {
      bound.last = error
      if (bound.signal.aborted || clock.now() + waitBefore(attempt + 1) >= bound.deadline) last()
      throw error
    }
  })
}
