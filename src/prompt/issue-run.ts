import { CancelledError } from '../runner/errors.js'
import type { GitHubApi } from '../github/api.js'
import type { RunEvent } from '../github/event.js'
import { type Gate, applyGates } from '../agent/gates/gate.js'
import { type TrustInput, trust } from '../agent/gates/trust.js'
import { docsPulls } from '../agent/docs-repository.js'
import { LiveComment, type Recorded, unknownEarlierJob } from '../agent/comment/live-comment.js'
import {
  type FlowDeps,
  type JobTarget,
  type PreparedRun,
  isStopped,
  skippedRun,
  startingRun
} from '../agent/prepared-run.js'
import { decideEarlierJob, relabelFollowUp } from './earlier-job.js'
import type { TriggerSettings } from '../agent/settings.js'
import { type TriggerPlan, planTrigger } from './trigger.js'

/** What an issue run needs besides the inputs. */

type IssueSettings = TriggerSettings & { projectId: string; docsToken?: string }

/**
 * Decides what to run from the inputs, the event, the trust gate and the job recorded on the issue.
 * GitHub is contacted only when the run comments or checks a permission. A run that comments and
 * spends (a new job, a follow-up) first makes sure it can comment (beforeSpending).
 */
export async function prepareIssueRun(
  settings: IssueSettings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun> {
  const run = await decideIssueRun(settings, event, deps)
  if (isStopped(run) || !run.comment || run.request.prompt === undefined) return run
  const { comment } = run
  return { ...run, beforeSpending: () => comment.claim(settings.comment === 'true') }
}

/** What to run, and where to comment: see prepareIssueRun. */
/**
 * The controls of an issue or comment run, before anything is sent: who asked. A person's request
 * is counted against the budget, never held by it (agent-run.ts, withCounting).
 */
export const ISSUE_GATES: readonly Gate<TrustInput>[] = [trust]

async function decideIssueRun(
  settings: IssueSettings,
  event: RunEvent,
  deps: FlowDeps
): Promise<PreparedRun> {
  const { log, session, saveState, signal, markers } = deps
  const plan = planTrigger(settings, event)
  const request: JobTarget = { jobId: settings.jobId, prompt: plan.prompt }
  if (plan.skipped) return skippedRun(plan.skipped)
  let connection: GitHubApi | undefined
  const github = async (): Promise<GitHubApi> =>
    (connection ??= session.repository(settings.githubToken, event))
  if (plan.gate) {
    const stop = await applyGates(ISSUE_GATES, { event, settings, github, signal })
    if (stop) return skippedRun(stop.why)
  }
  if (plan.target === undefined) return startingRun({ request, followUp: false })
  const comment = new LiveComment(
    await github(),
    plan.target,
    { run: event.runId, attempt: event.runAttempt, project: settings.projectId },
    { runUrl: event.runUrl, projectId: settings.projectId },
    log,
    saveState,
    markers
  )
  if (settings.jobId) return startingRun({ request, comment, followUp: Boolean(plan.prompt) })
  return fromRecorded(settings, event, deps, { plan, target: plan.target, request, comment })
}

/**
 * The issue's comments say which job goes on: this step's own (a re-run waits for it), the job a
 * trigger comment follows up, or, for a label added again, the earlier job while it runs or its docs
 * pull request is open. Otherwise a new job.
 */
async function fromRecorded(
  settings: IssueSettings,
  event: RunEvent,
  { log, session, signal, markers, readJob }: FlowDeps,
  {
    plan,
    target,
    request,
    comment
  }: { plan: TriggerPlan; target: number; request: JobTarget; comment: LiveComment }
): Promise<PreparedRun> {
  const recorded = await comment.recorded()
  // A cancel while reading the comments must not be taken for "no job recorded".
  if (signal?.aborted) throw new CancelledError('Cancelled.')
  if (comment.unreadable && event.runAttempt > 1) throw unknownEarlierJob(event, `#${target}`)
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
    return startingRun({
      request: { ...request, jobId: own.marker.job, prompt: undefined },
      comment,
      followUp: false
    })
  }
  // The issue's latest job of this run's own project (another project's workflow may comment on the
  // same issue), recorded by an earlier run: a sibling step's job in this run is not this step's.
  const ofEarlierRun = (r: Recorded): boolean =>
    r.marker.project === settings.projectId && r.marker.run !== event.runId
  const latest = recorded.find(ofEarlierRun)
  if (latest && plan.fromComment) {
    comment.adopt(latest.commentId, latest.marker)
    log.info(
      `Sending the comment as a follow-up to job ${latest.marker.job}, recorded on #${target}.`
    )
    return startingRun({
      request: { ...request, jobId: latest.marker.job },
      comment,
      followUp: true
    })
  }
  // The label added again: the issue's job goes on while it runs or its docs pull request is open,
  // with one comment; a new job only once that pull request is merged or closed. This step's own
  // job first (a matrix leg has its own), else the issue's latest of the project.
  const earlier = recorded.find(r => ofEarlierRun(r) && r.marker.step === markers.step) ?? latest
  if (earlier && event.name === 'issues' && plan.prompt !== undefined) {
    const decision = await decideEarlierJob(earlier.marker.job, target, {
      readJob,
      docs: docsPulls(settings, event.apiUrl, { session }, { orRunToken: true }),
      serverUrl: event.serverUrl
    })
    if (signal?.aborted) throw new CancelledError('Cancelled.')
    if (decision.info) log.info(decision.info)
    const notices = decision.go === 'new' && decision.notice ? [decision.notice] : []
    if (decision.go === 'wait') {
      comment.adopt(earlier.commentId, earlier.marker)
      return startingRun({
        request: { ...request, jobId: earlier.marker.job, prompt: undefined },
        comment,
        followUp: false,
        continued: { jobId: earlier.marker.job, issue: target },
        notices
      })
    }
    if (decision.go === 'follow-up') {
      comment.adopt(earlier.commentId, earlier.marker)
      return startingRun({
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
      })
    }
    return startingRun({ request, comment, followUp: false, notices })
  }
  return startingRun({ request, comment, followUp: false })
}
