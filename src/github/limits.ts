import type { Octokit } from '@octokit/core'
import { type ThrottlingOptions, throttling } from '@octokit/plugin-throttling'
import type { Clock } from '../runner/clock.js'
import { MINUTE_MS, formatDuration } from '../runner/duration.js'
import { ExplainedError } from '../runner/errors.js'
import { answerOf, waitAsked } from './rest.js'
import { retryQueue } from './retries.js'

// How long a GitHub call may take, and what it waits for: its own time limit, the run's cancel,
// the waits before retries (retries.ts), GitHub's rate limits (@octokit/plugin-throttling) and a
// second between writes, the waits all on the run's clock and none past the step's time limit.

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
const UNBOUNDED_WAIT_MS = MINUTE_MS
/** Retries after a rate limit, for requests that are safe to send again (reads, edits). */
const LIMIT_RETRIES = 3
/**
 * Between two writes of one token (comments, issues, review requests): GitHub's best practices
 * ask for at least a second, and its secondary limits punish bursts of content creation.
 */
export const WRITE_GAP_MS = 1000

/** GitHub's rate limit asked for a wait the run cannot give. */
export class RateLimitError extends ExplainedError {}

export interface LimitOptions {
  /** The run's cancel: it ends every wait and every call. */
  cancel?: AbortSignal
  /** The first retry's wait (as @octokit/plugin-retry schedules: the n-th waits n² times as long). */
  retryBaseMs: number
  clock: Clock
  /** The step's time limit on `clock`: no rate-limit wait goes past it. */
  deadline?: number
  /** What to do about a wait past `deadline`, when raising 'timeout' is no answer (the post step). */
  pastDeadline?: string
}

/**
 * The plugin that bounds every request, paces writes and waits on GitHub's rate limits. Registered
 * before `retried` (retries.ts): the hooks it adds sit inside the retries, so each attempt is
 * bounded, and a rate limit the run cannot wait for never reaches them as a 429 to send again.
 * One client (one token on one GitHub) paces its own writes.
 */
export function limited({ cancel, retryBaseMs, clock, deadline, pastDeadline }: LimitOptions) {
  return (octokit: Octokit, octokitOptions: object): void => {
    /** A rate limit's wait before the next attempt, by request. */
    const waits = new WeakMap<object, number>()
    /** What GitHub asked to wait, by its own clock, as the last attempt of a request was answered. */
    const asked = new WeakMap<object, number>()
    /** Why a rate-limited request is not sent again, by request. */
    const refusals = new WeakMap<object, RateLimitError>()
    bounded(octokit, { cancel, retryBaseMs, clock }, waits, asked)
    const decide =
      (kind: 'primary' | 'secondary') =>
      (retryAfter: number, options: Options, _octokit: unknown, retryCount: number): boolean => {
        if (cancel?.aborted) return false
        // The plugin dates a primary limit's reset by the runner's clock: GitHub's own `date` is
        // what the reset is counted from.
        const wait = asked.get(options) ?? Math.max(0, retryAfter) * 1000
        const refusal = refuse(kind, wait, options, retryCount, clock.now(), {
          deadline,
          pastDeadline
        })
        if (refusal) {
          refusals.set(options, new RateLimitError(refusal))
          return false
        }
        waits.set(options, wait)
        return true
      }
    // The documented options: the handlers decide, and the plugin retries at once (a base of 0
    // ms), since the wait is the run's clock's, in `bounded`.
    const throttle: ThrottlingOptions = {
      onRateLimit: decide('primary'),
      onSecondaryRateLimit: decide('secondary'),
      retryAfterBaseValue: 0,
      ...unqueued()
    }
    throttling(octokit, { ...octokitOptions, throttle })
    octokit.hook.wrap('request', async (request, options) => {
      try {
        return await request(options)
      } catch (error) {
        throw refusals.get(options) ?? error
      }
    })
    paced(octokit, { cancel, clock })
  }
}

/**
 * The plugin's own queues, made to run each request at once. It paces writes and GraphQL queries
 * (a second apart) and searches on real timers, which the run's clock cannot see, shared by every
 * client of the process; `paced` spaces this client's writes on the run's clock instead. Its
 * retries go through `retryQueue` (retries.ts) rather than a Bottleneck's timers. The queues are
 * not among the plugin's documented options: test/unit/throttling-contract.test.ts fails when the
 * plugin stops reading them (a burst of writes would take real seconds, each request a timer's
 * turn) or changes major.
 */
function unqueued(): Partial<ThrottlingOptions> {
  const unpaced = {
    key: () => ({
      schedule: (_job: unknown, task: (...args: unknown[]) => unknown, ...args: unknown[]) =>
        Promise.resolve(task(...args))
    })
  }
  const groups = ['global', 'auth', 'write', 'search', 'notifications'] as const
  return {
    ...Object.fromEntries(groups.map(g => [g, unpaced])),
    retryLimiter: retryQueue()
  } as Partial<ThrottlingOptions>
}

/** A write that creates or changes content: every REST call but a read (GraphQL queries only read). */
const isWrite = (options: { method?: string; url?: string }): boolean =>
  options.method !== 'GET' && options.method !== 'HEAD' && !/\/graphql$/.test(options.url ?? '')

/**
 * Spaces this client's writes WRITE_GAP_MS apart on the run's clock, in the order they were made:
 * a run's writes come in bursts (a comment, the dashboard twice, a label, reviewers). Each request
 * is paced once, its retries not again (their own waits are longer); the last word after a cancel
 * is not held back.
 */
function paced(
  octokit: Pick<Octokit, 'hook'>,
  { cancel, clock }: Pick<LimitOptions, 'cancel' | 'clock'>
): void {
  let next = -Infinity
  const seen = new WeakSet<object>()
  octokit.hook.wrap('request', async (request, options) => {
    if (isWrite(options) && !seen.has(options) && !cancel?.aborted) {
      seen.add(options)
      const now = clock.now()
      const at = Math.max(now, next)
      next = at + WRITE_GAP_MS
      if (at > now) await clock.sleep(at - now, cancel)
    }
    return request(options)
  })
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
  { deadline, pastDeadline }: Pick<LimitOptions, 'deadline' | 'pastDeadline'>
): string | undefined {
  const what = `GitHub's ${kind} rate limit stopped ${options.method} ${options.url.replace(/^https?:\/\/[^/]+/, '')}`
  const creates = options.method === 'POST' && !/\/graphql$/.test(options.url)
  if (retryCount >= (creates ? 1 : LIMIT_RETRIES))
    return `${what} ${retryCount + 1} times${creates ? ' (a creation is sent again once at most)' : ''}. Run the workflow again later, or space its runs out (e.g. a concurrency group).`
  if (deadline === undefined && wait > UNBOUNDED_WAIT_MS)
    return `${what}, asking to wait ${formatDuration(wait)}: longer than this step waits (${formatDuration(UNBOUNDED_WAIT_MS)}). Run the workflow again later.`
  if (deadline !== undefined && now + wait > deadline)
    return `${what}, asking to wait ${formatDuration(wait)}: past the step's time limit ('timeout', ${formatDuration(Math.max(0, deadline - now))} left). ${pastDeadline ?? RAISE_TIMEOUT}`
  return undefined
}

/** What to do about a rate limit past the step's time limit, for a step that has 'timeout'. */
const RAISE_TIMEOUT = "Run the workflow again later, or raise 'timeout'."

/** What `bounded` knows of one request across its attempts. */
interface Bound {
  signal: AbortSignal
  deadline: number
  attempts: number
  last?: unknown
}

/**
 * Bounds each request, its retries included, by TIMEOUT_MS (GRACE_MS when made after the cancel)
 * and by the cancel signal, and waits before each retry, on the run's clock: @octokit/plugin-retry's
 * own wait is a timer no signal can end, and a cancel during it would keep the step alive for up
 * to 9 s. A rate limit's wait (`waits`) is the run's cancel alone can end, and the attempt after
 * it has its own time limit. Registered first, so it wraps each attempt, and `retried` sends the
 * same request options every time.
 */
function bounded(
  octokit: Pick<Octokit, 'hook'>,
  { cancel, retryBaseMs, clock }: Omit<LimitOptions, 'deadline'>,
  waits: WeakMap<object, number>,
  asked: WeakMap<object, number>
): void {
  const bounds = new WeakMap<object, Bound>()
  const waitBefore = (attempt: number): number => attempt ** 2 * retryBaseMs
  /** What the answer's headers ask to wait, if anything, for the rate-limit handlers. */
  const note = (options: object, headers: Record<string, unknown> | undefined): void => {
    const wait = waitAsked(headers)
    if (wait === undefined) asked.delete(options)
    else asked.set(options, wait)
  }
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
    // No retry after this one: `retried` (retries.ts) reads `retries` from these options.
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
      const response = await request(options)
      // GraphQL's rate limit comes as a 200 holding RATE_LIMITED, with the limit's headers.
      note(options, response.headers)
      return response
    } catch (error) {
      bound.last = error
      note(options, answerOf(error)?.response.headers)
      if (bound.signal.aborted || clock.now() + waitBefore(attempt + 1) >= bound.deadline) last()
      throw error
    }
  })
}
