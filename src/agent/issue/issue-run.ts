import type { Clock } from '../../runner/clock.js'
import type { Logger } from '../../runner/logger.js'
import { CancelledError } from '../../runner/errors.js'
import { type GitHubApi, type GitHubSession, connectGitHub } from '../../github/api.js'
import type { RunEvent } from '../../github/event.js'
import { trustRefusal } from '../trust-gate.js'
import { type CommentState, LiveComment, unknownEarlierJob } from '../comment/live-comment.js'
import { type TriggerSettings, planTrigger } from './trigger.js'

export interface JobTarget {
  prompt?: string
  jobId?: string
  /** With a follow-up: the new job's prompt, should the service refuse the follow-up. */
  fallbackPrompt?: string
}

/** What the triggering issue adds to a run: maybe a refusal, maybe a comment to keep current. */
export interface IssueRun {
  skipped?: string
  /** What to ask the service: a new job's prompt, a follow-up to `jobId`, or just `jobId` to wait for. */
  request: JobTarget
  comment?: LiveComment
  /** The prompt goes to a job recorded on the issue, as a follow-up. */
  followUp: boolean
}

/**
 * Decides what to run from the inputs, the event, the trust gate and the job recorded on the issue.
 * GitHub is contacted only when the run comments or checks a permission.
 */
export async function prepareIssueRun(
  settings: TriggerSettings & { projectId: string },
  event: RunEvent,
  {
    log,
    clock,
    session,
    saveState,
    signal
  }: {
    log: Logger
    /** Paces GitHub's retries: the runner's clock. */
    clock: Clock
    /** The run's GitHub connections, closed when it ends. */
    session?: GitHubSession
    saveState: (state: CommentState) => void
    signal?: AbortSignal
  }
): Promise<IssueRun> {
  const plan = planTrigger(settings, event)
  const request: JobTarget = { jobId: settings.jobId, prompt: plan.prompt }
  if (plan.skipped) return { skipped: plan.skipped, request, followUp: false }
  let connection: GitHubApi | undefined
  const github = async (): Promise<GitHubApi> =>
    (connection ??= connectGitHub(settings.githubToken, event, signal, { clock, session }))
  if (plan.gate) {
    const why = await trustRefusal(github, event, settings, signal)
    if (why) return { skipped: why, request, followUp: false }
  }
  if (plan.target === undefined) return { request, followUp: false }
  const comment = new LiveComment(
    await github(),
    plan.target,
    { run: event.runId, attempt: event.runAttempt },
    { runUrl: event.runUrl, projectId: settings.projectId },
    log,
    saveState
  )
  if (settings.jobId) return { request, comment, followUp: Boolean(plan.prompt) }
  const recorded = await comment.recorded()
  // A cancel while reading the comments must not be taken for "no job recorded".
  if (signal?.aborted) throw new CancelledError('Cancelled.')
  if (comment.unreadable && event.runAttempt > 1) throw unknownEarlierJob(event, `#${plan.target}`)
  if (recorded && recorded.marker.run === event.runId && event.runId) {
    comment.adopt(recorded.commentId)
    log.info(
      `Attempt ${event.runAttempt} of this run resumes job ${recorded.marker.job}, started by attempt ${recorded.marker.attempt}.`
    )
    return {
      request: { ...request, jobId: recorded.marker.job, prompt: undefined },
      comment,
      followUp: false
    }
  }
  if (recorded && plan.fromComment) {
    comment.adopt(recorded.commentId)
    log.info(
      `Sending the comment as a follow-up to job ${recorded.marker.job}, recorded on #${plan.target}.`
    )
    return { request: { ...request, jobId: recorded.marker.job }, comment, followUp: true }
  }
  return { request, comment, followUp: false }
}
