import type { AgentJob } from '../mintlify/agent-jobs.js'
import { CancelledError } from '../runner/errors.js'
import { ApiError, RateLimitError } from '../mintlify/errors.js'
import { type Clock } from '../runner/clock.js'
import { type Logger } from '../runner/logger.js'
import { MINUTE_MS, formatDuration } from '../runner/duration.js'
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
  /**
   * A follow-up was just sent, and the service processes it asynchronously: the job may still show
   * the status it had before the message (completed, with its old pull request). Its outcome counts
   * only once a status check shows it `active` after the message, or, if none does, once `graceMs`
   * have passed since the message (the status then stands as the follow-up's outcome).
   */
  followUp?: { graceMs: number }
  /**
   * When the service accepted the job or the message (Clock.now): the checks and the grace count
   * from then, not from the end of what the run records in between (the dashboard's write and its
   * read-back), so a short job is not missed behind them.
   */
  since?: number
}

/**
 * How the outcome of a follow-up was established: the job was seen working on it (`seen`), or the
 * grace period passed without that (`grace`); `unconfirmed` when waiting ended (time limit, cancel)
 * before either.
 */
export type FollowUpCheck = 'seen' | 'grace' | 'unconfirmed'

export interface WaitResult {
  job: AgentJob
  end: 'terminal' | 'timeout' | 'cancelled'
  polls: number
  /** The last transient error, when the deadline came while the service was failing. */
  lastError?: ApiError
  /** With `followUp`: how its outcome was established. */
  followUp?: FollowUpCheck
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
  // Never checked yet: at `first`, or at once when that time has passed (the wait counts from the
  // service's answer, and what the run recorded since may have taken longer).
  if (!checked) return Math.max(first, elapsedMs)
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
  const heartbeatMs = options.heartbeatMs ?? MINUTE_MS
  const started = Math.min(options.since ?? Infinity, clock.now())
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
        status === undefined
          ? `The service's answer for job ${job.id} has no status; treating the job as still running.`
          : `Job ${job.id} reported the status '${value}', which this action does not know; treating it as still running.`
      )
    }
  }
  checkStatus(job.status)
  const graceEnd = options.followUp ? started + options.followUp.graceMs : undefined
  let seenWorking = false
  const followUp = (): FollowUpCheck | undefined =>
    graceEnd === undefined
      ? undefined
      : seenWorking
        ? 'seen'
        : clock.now() >= graceEnd
          ? 'grace'
          : 'unconfirmed'
  const ended = (end: 'timeout' | 'cancelled'): WaitResult => ({
    job,
    end,
    polls,
    lastError,
    ...(graceEnd === undefined ? {} : { followUp: seenWorking ? 'seen' : 'unconfirmed' })
  })
  /** A terminal status counts, unless it may be the one from before a follow-up. */
  const settled = (): boolean =>
    isTerminal(job.status) && (graceEnd === undefined || seenWorking || clock.now() >= graceEnd)

  while (!settled()) {
    const now = clock.now()
    if (now >= deadline) return ended('timeout')
    let pause = Math.min(
      started + nextCheckAt(now - started, options.pollIntervalMs, checked) - now,
      deadline - now
    )
    // Until the job is seen on the follow-up, check again when the grace period ends, however long
    // the poll interval.
    if (graceEnd !== undefined && !seenWorking && graceEnd > now)
      pause = Math.min(pause, graceEnd - now)
    try {
      const lastFair = deadline - fairCheckMs(options.pollIntervalMs)
      if (now + pause > lastFair) {
        // A check squeezed against the deadline would time out and blame a healthy service: make
        // the last one while it still has a fair time limit, or none.
        if (lastFair - now < MIN_PAUSE_MS) {
          await clock.sleep(deadline - now, options.signal)
          return ended('timeout')
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
      if (graceEnd !== undefined && !seenWorking && job.status === 'active') {
        seenWorking = true
        log.info(
          `Job ${job.id} is working on the follow-up (seen active ${formatDuration(at - started)} after the message).`
        )
      }
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
      if (error instanceof CancelledError || options.signal?.aborted) return ended('cancelled')
      if (!(error instanceof ApiError) || !error.transient || error instanceof RateLimitError)
        throw error
      lastError = error
      log.warning(`${error.message.replace(/\.?$/, '.')} Still waiting.`)
    }
  }
  const check = followUp()
  if (check === 'grace')
    log.notice(
      `Job ${job.id} was not seen working on the follow-up within ${formatDuration(options.followUp?.graceMs ?? 0)} of the message; reporting it as it stands (${job.status}). The service may have done the follow-up between two status checks, or not picked it up yet.`
    )
  return { job, end: 'terminal', polls, ...(check ? { followUp: check } : {}) }
}
