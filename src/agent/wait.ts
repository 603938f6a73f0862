import type { AgentJob } from '../mintlify/agent-jobs.js'
import { CancelledError } from '../runner/errors.js'
import { ApiError, RateLimitError } from '../mintlify/errors.js'
import { type Clock } from '../runner/clock.js'
import { type Logger } from '../runner/logger.js'
import { formatDuration } from '../runner/duration.js'
import { KNOWN_STATUSES, isTerminal } from './outcome.js'

export interface WaitOptions {
  /** Monotonic ms (Clock.now): give up waiting at this moment. */
  deadline: number
  /** The longest pause between two polls. */
  pollIntervalMs: number
  clock: Clock
  log: Logger
  signal?: AbortSignal
  /** A progress line at about this spacing while nothing changes. */
  heartbeatMs?: number
  /** Called with every job record seen, so the caller always knows the latest one. */
  onJob?: (job: AgentJob) => void
}

export interface WaitResult {
  job: AgentJob
  end: 'terminal' | 'timeout' | 'cancelled'
  polls: number
  /** The last transient error, when the deadline came while the service was failing. */
  lastError?: ApiError
}

/** The first check: a job that fails usually fails within seconds, so look early, once. */
const FIRST_CHECK_MS = 4000
/** Never two checks closer than this, even after a slow request. */
const MIN_PAUSE_MS = 1000

/** The least time a status check needs before the deadline to be worth making. */
const fairCheckMs = (pollIntervalMs: number): number => Math.min(5000, pollIntervalMs / 2)

/**
 * When to check next, in ms since the wait began: once after 4 s, then on each whole multiple of the
 * poll interval, so the pause grows from 4 s to the interval and a long wait costs what a plain
 * fixed-interval loop costs, while a fast failure is seen within seconds. `checked` says a check
 * was already made: a timer that fires a little early then cannot earn a second one at 4 s.
 */
export function nextCheckAt(elapsedMs: number, pollIntervalMs: number, checked: boolean): number {
  const first = Math.min(FIRST_CHECK_MS, pollIntervalMs)
  if (!checked && elapsedMs < first) return first
  let next = (Math.floor(elapsedMs / pollIntervalMs) + 1) * pollIntervalMs
  if (next - elapsedMs < MIN_PAUSE_MS) next += pollIntervalMs
  return next
}

/** Polls until the job reaches a terminal status, the deadline passes, or the run is cancelled. */
export async function waitForJob(
  initial: AgentJob,
  fetchJob: (deadline: number) => Promise<AgentJob>,
  options: WaitOptions
): Promise<WaitResult> {
  const { clock, log, deadline } = options
  const heartbeatMs = options.heartbeatMs ?? 60_000
  const started = clock.now()
  let job = initial
  let polls = 0
  let checked = false
  let lastError: ApiError | undefined
  let lastLine = started
  const warnedStatuses = new Set<string>()
  const checkStatus = (status: string | undefined): void => {
    const value = String(status)
    if (!(KNOWN_STATUSES as readonly string[]).includes(value) && !warnedStatuses.has(value)) {
      warnedStatuses.add(value)
      log.warning(
        `Job ${job.id} reported the status '${value}', which this action does not know; treating it as still running.`
      )
    }
  }
  checkStatus(job.status)

  while (!isTerminal(job.status)) {
    const now = clock.now()
    if (now >= deadline) return { job, end: 'timeout', polls, lastError }
    let pause = Math.min(
      started + nextCheckAt(now - started, options.pollIntervalMs, checked) - now,
      deadline - now
    )
    try {
      const lastFair = deadline - fairCheckMs(options.pollIntervalMs)
      if (now + pause > lastFair) {
        // A check squeezed against the deadline would time out and blame a healthy service: make
        // the last one while it still has a fair time limit, or none.
        if (lastFair - now < MIN_PAUSE_MS) {
          await clock.sleep(deadline - now, options.signal)
          return { job, end: 'timeout', polls, lastError }
        }
        pause = lastFair - now
      }
      await clock.sleep(pause, options.signal)
      checked = true
      const previous = job.status
      job = await fetchJob(deadline)
      polls++
      lastError = undefined
      options.onJob?.(job)
      const at = clock.now()
      if (job.status !== previous) {
        checkStatus(job.status)
        log.info(
          `Job ${job.id} is ${job.status ?? 'of unknown status'} (after ${formatDuration(at - started)}).`
        )
        lastLine = at
      } else if (at - lastLine >= heartbeatMs) {
        log.info(
          `Job ${job.id} is still ${job.status} after ${formatDuration(at - started)} (${polls} status checks).`
        )
        lastLine = at
      }
    } catch (error) {
      if (error instanceof CancelledError || options.signal?.aborted)
        return { job, end: 'cancelled', polls, lastError }
      if (!(error instanceof ApiError) || !error.transient || error instanceof RateLimitError)
        throw error
      lastError = error
      log.warning(`${error.message.replace(/\.?$/, '.')} Still waiting.`)
    }
  }
  return { job, end: 'terminal', polls }
}
