import {
  type AgentJob,
  createJob,
  followUpRefused,
  getJob,
  sendMessage
} from '../mintlify/agent-jobs.js'
import type { ApiClient } from '../mintlify/client.js'
import type { ApiError } from '../mintlify/errors.js'
import { type Clock } from '../runner/clock.js'
import { type Logger } from '../runner/logger.js'
import { MINUTE_MS, formatDuration } from '../runner/duration.js'
import { type Result, resultOf } from './outcome.js'
import { type FollowUpCheck, waitForJob } from './wait.js'

/**
 * How long a follow-up's outcome waits for the job to show it is working on it. The service answers
 * the message before processing it and says nothing that tells the old status from the new, so the
 * only evidence is seeing the job `active` again. A healthy service picks a message up within
 * seconds; 60 s covers the first check (4 s) and six more at the default 10 s interval, so a job
 * that does not show up by then most likely did the follow-up between two checks, or has not taken
 * it at all, and waiting the whole `timeout` (30 minutes by default) would only cost runner time.
 */
export const FOLLOW_UP_GRACE_MS = MINUTE_MS

export interface JobRequest {
  projectId: string
  /** A new job's prompt, or a follow-up when `jobId` is set. */
  prompt?: string
  jobId?: string
  /** With a follow-up: should the service refuse it, start a new job with this prompt instead. */
  fallbackPrompt?: string
  /** What starts the new job then, as the notice says it: 'this change' unless given. */
  fallbackFor?: string
  wait: boolean
  timeoutMs: number
  pollIntervalMs: number
}

export interface JobHooks {
  clock: Clock
  log: Logger
  signal?: AbortSignal
  /** Every job record seen, first of all the one that gives the job its id. */
  onJob: (job: AgentJob) => void
  /** The service accepted a new job or a follow-up (not a job only read): record it at once. */
  onAccepted?: (job: AgentJob, followUp: boolean) => Promise<void>
  /**
   * The job exists (or the follow-up was sent) and the run is about to wait for it: e.g. the live
   * comment says it is working. Not called with `wait: false`, whose outcome is written at once.
   */
  onWaiting?: (job: AgentJob) => Promise<void>
  /** The follow-up was refused and a new job is started with `fallbackPrompt`; says why. */
  onFallback?: (reason: string) => void
  /** Wraps the wait, e.g. in a collapsible log group. */
  group?: <T>(title: string, fn: () => Promise<T>) => Promise<T>
}

export interface JobOutcome {
  job: AgentJob
  result: Result
  lastError?: ApiError
  /**
   * After a follow-up, how its outcome was established (see waitForJob); `not-waited` with
   * `wait: false`, when the result is `started` whatever the job showed.
   */
  followUp?: FollowUpCheck | 'not-waited'
}

/** Starts a job (or follows up on one, or picks one up), then waits for it as asked. */
export async function runAgentJob(
  client: ApiClient,
  request: JobRequest,
  hooks: JobHooks
): Promise<JobOutcome> {
  const { clock, log } = hooks
  const deadline = clock.now() + request.timeoutMs
  // Each dropped field is named once, however many answers carry it.
  const warned = new Set<string>()
  const seen = (job: AgentJob): void => {
    for (const { field, problem } of job.ignored ?? []) {
      if (warned.has(field)) continue
      warned.add(field)
      log.warning(
        `Job ${job.id}: the service sent '${field}' as ${problem}, which this action cannot use; it is treated as absent.`
      )
    }
    hooks.onJob(job)
  }
  const { projectId, prompt, jobId } = request
  let job: AgentJob
  let accepted: boolean | undefined
  const create = async (text: string): Promise<AgentJob> => {
    log.info(`Creating an agent job in project ${projectId}.`)
    const created = await createJob(client, projectId, text, deadline)
    log.info(
      `Created job ${created.id}: ${created.status ?? 'status unknown'}${created.model ? `, model ${created.model}` : ''}.`
    )
    return created
  }
  let followedUp = false
  if (jobId && prompt) {
    log.info(`Sending a follow-up message to job ${jobId} in project ${projectId}.`)
    try {
      job = await sendMessage(client, projectId, jobId, prompt, deadline)
      accepted = true
      followedUp = true
    } catch (error) {
      if (request.fallbackPrompt === undefined || !followUpRefused(error)) throw error
      hooks.onFallback?.(
        `The service refused the follow-up to job ${jobId} (${(error as Error).message}), so ${request.fallbackFor ?? 'this change'} starts a new job.`
      )
      job = await create(request.fallbackPrompt)
      accepted = false
    }
  } else if (jobId) {
    log.info(`Reading job ${jobId} in project ${projectId}.`)
    job = await getJob(client, projectId, jobId, deadline)
  } else {
    job = await create(prompt ?? '')
    accepted = false
  }
  seen(job)
  const since = clock.now()
  if (accepted !== undefined) await hooks.onAccepted?.(job, accepted)
  if (!request.wait) {
    if (!followedUp) return { job, result: resultOf(job, 'not-waited') }
    // The answer may show the job as it was before the message: it says nothing of the follow-up.
    log.info(
      `Sent the follow-up to job ${job.id}; not waiting for it (wait: false), so its outcome is not known yet.`
    )
    return { job, result: 'started', followUp: 'not-waited' }
  }

  await hooks.onWaiting?.(job)
  const group = hooks.group ?? ((_title, fn) => fn())
  const waited = await group(
    `Waiting for job ${job.id} (up to ${formatDuration(request.timeoutMs)})`,
    () =>
      waitForJob(job, at => getJob(client, projectId, job.id, at), {
        deadline,
        pollIntervalMs: request.pollIntervalMs,
        clock,
        log,
        signal: hooks.signal,
        onJob: seen,
        since,
        ...(followedUp ? { followUp: { graceMs: FOLLOW_UP_GRACE_MS } } : {})
      })
  )
  return {
    job: waited.job,
    result: resultOf(waited.job, waited.end),
    lastError: waited.lastError,
    ...(waited.followUp ? { followUp: waited.followUp } : {})
  }
}
