import type { Clock } from '../../runner/clock.js'
import type { Logger } from '../../runner/logger.js'
import { CancelledError } from '../../runner/errors.js'
import { type GitHubApi, type GitHubSession, connectGitHub } from '../../github/api.js'
import type { RunEvent } from '../../github/event.js'
import { trustRefusal } from '../trust-gate.js'
import { docsPulls } from '../docs-repository.js'
import {
  type CommentState,
  LiveComment,
  type Recorded,
  unknownEarlierJob
} from '../comment/live-comment.js'
import type { Markers } from '../comment/marker.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { decideEarlierJob, relabelFollowUp } from './earlier-job.js'
import type { IssueRun, JobTarget } from '../prepared-run.js'
import type { TriggerSettings } from '../settings.js'
import { planTrigger } from './trigger.js'

type IssueRunDeps = {
  log: Logger
  /** Paces GitHub's retries: the runner's clock. */
  clock: Clock
  /** The run's GitHub connections, closed when it ends. */
  session?: GitHubSession
  saveState: (state: CommentState) => void
  signal?: AbortSignal
  /** Signs the markers this run writes and reads only those signed for the issue. */
  markers: Markers
  /** Reads a job on the service: does the job of an issue labelled again still run? */
  readJob: (jobId: string) => Promise<AgentJob>
}

type IssueRunSettings = TriggerSettings & { projectId: string; docsToken?: string }

/**
 * Decides what to run from the inputs, the event, the trust gate and the job recorded on the issue.
 * GitHub is contacted only when the run comments or checks a permission. A run that comments and
 * spends (a new job, a follow-up) first makes sure it can comment (beforeSpending).
 */
export async function prepareIssueRun(
  settings: IssueRunSettings,
  event: RunEvent,
  deps: IssueRunDeps
): Promise<IssueRun> {
  const run = await decideIssueRun(settings, event, deps)
  const { comment } = run
  if (!comment || run.skipped || run.request.prompt === undefined) return run
  return { ...run, beforeSpending: () => comment.claim(settings.comment === 'true') }
}

/** What to run, and where to comment: see prepareIssueRun. */
async function decideIssueRun(
  settings: IssueRunSettings,
  event: RunEvent,
  { log, clock, session, saveState, signal, markers, readJob }: IssueRunDeps
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
    { run: event.runId, attempt: event.runAttempt, project: settings.projectId },
    { runUrl: event.runUrl, projectId: settings.projectId },
    log,
    saveState,
    markers
  )
  if (settings.jobId) return { request, comment, followUp: Boolean(plan.prompt) }
  const recorded = await comment.recorded()
  // A cancel while reading the comments must not be taken for "no job recorded".
  if (signal?.aborted) throw new CancelledError('Cancelled.')
  if (comment.unreadable && event.runAttempt > 1) throw unknownEarlierJob(event, `#${plan.target}`)
  // This very step's job, started by an earlier attempt: a re-run waits for it and sends nothing.
  // Another step of the run, or another leg of its matrix, has a job of its own.
  const own = event.runId
    ? recorded.find(r => r.marker.run === event.runId && r.marker.step === markers.step)
    : undefined
  if (own) {
    comment.adopt(own.commentId, own.marker)
    log.info(
      `Attempt ${event.runAttempt} of this run resumes job ${own.marker.job}, started by attempt ${own.marker.attempt}.`
    )
    return {
      request: { ...request, jobId: own.marker.job, prompt: undefined },
      comment,
      followUp: false
    }
  }
  // The issue's latest job of this run's own project (another project's workflow may comment on the
  // same issue), recorded by an earlier run: a sibling step's job in this run is not this step's.
  const ofEarlierRun = (r: Recorded): boolean =>
    r.marker.project === settings.projectId && r.marker.run !== event.runId
  const latest = recorded.find(ofEarlierRun)
  if (latest && plan.fromComment) {
    comment.adopt(latest.commentId, latest.marker)
    log.info(
      `Sending the comment as a follow-up to job ${latest.marker.job}, recorded on #${plan.target}.`
    )
    return { request: { ...request, jobId: latest.marker.job }, comment, followUp: true }
  }
  // The label added again: the issue's job goes on while it runs or its docs pull request is open,
  // with one comment; a new job only once that pull request is merged or closed. This step's own
  // job first (a matrix leg has its own), else the issue's latest of the project.
  const earlier = recorded.find(r => ofEarlierRun(r) && r.marker.step === markers.step) ?? latest
  if (earlier && event.name === 'issues' && plan.prompt !== undefined) {
    const target = plan.target
    const decision = await decideEarlierJob(earlier.marker.job, target, {
      readJob,
      docs: docsPulls(settings, event.apiUrl, { signal, clock, session }, { orRunToken: true }),
      serverUrl: event.serverUrl
    })
    if (signal?.aborted) throw new CancelledError('Cancelled.')
    if (decision.info) log.info(decision.info)
    const notices = decision.go === 'new' && decision.notice ? [decision.notice] : []
    if (decision.go === 'wait') {
      comment.adopt(earlier.commentId, earlier.marker)
      return {
        request: { ...request, jobId: earlier.marker.job, prompt: undefined },
        comment,
        followUp: false,
        continued: { jobId: earlier.marker.job, issue: target },
        notices
      }
    }
    if (decision.go === 'follow-up') {
      comment.adopt(earlier.commentId, earlier.marker)
      return {
        request: {
          ...request,
          jobId: earlier.marker.job,
          prompt: relabelFollowUp(plan.prompt, target, decision.docsPr),
          fallbackPrompt: plan.prompt,
          fallbackFor: 'this run'
        },
        comment,
        followUp: true,
        continued: { jobId: earlier.marker.job, issue: target, docsPr: decision.docsPr },
        notices
      }
    }
    return { request, comment, followUp: false, notices }
  }
  return { request, comment, followUp: false }
}
