import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { codeSpan, escapeMarkdown, markdownLink } from '../../runner/markdown.js'
import { DASHBOARD_URL } from '../../mintlify/agent-jobs.js'
import type { Result } from '../outcome.js'
import type { Marker } from './marker.js'

/** Far below GitHub's 65,536-character limit: the comment is a status line, not a report. */
export const MAX_COMMENT = 4000

export interface CommentContext {
  marker: Marker
  runUrl: string
  /** The Mintlify project, to say where on the dashboard its jobs are. */
  projectId: string
  /** A code change sent to an earlier job as a follow-up, instead of a new job. */
  fold?: { docsPr?: string }
}

/** Where a job's details are, as Markdown: "the agent jobs of project `p` on the [Mintlify dashboard](…)". */
export function jobsOnDashboardMarkdown(projectId: string): string {
  return `the agent jobs of project ${codeSpan(projectId)} on the ${markdownLink('Mintlify dashboard', DASHBOARD_URL)}`
}

/** The input that waits for a job still running, ready to copy: `job-id: job_…`. */
export const jobIdInput = (jobId: string): string => codeSpan(`job-id: ${jobId}`)

const run = (ctx: Pick<CommentContext, 'runUrl'>): string =>
  ctx.runUrl ? ` · ${markdownLink('workflow run', ctx.runUrl)}` : ''

/** Writes the marker into the body, signed for the comment's issue (Markers.render). */
export type SignMarker = (marker: Marker) => string

function finish(ctx: CommentContext, sign: SignMarker, lines: string[]): string {
  return capped([sign(ctx.marker), ...lines].join('\n'))
}

const capped = (body: string): string =>
  body.length > MAX_COMMENT ? `${body.slice(0, MAX_COMMENT - 1)}…` : body

/**
 * The comment of a run that failed before its job (a refused key, an unknown project, a service
 * that cannot be reached): why, as text (the reason holds the service's words), and where the run
 * is. No marker: it records no job.
 */
export function failureBody(where: Pick<CommentContext, 'runUrl'>, reason: string): string {
  const lines = [`❌ **Mintlify agent** failed: ${escapeMarkdown(reason)}`]
  if (where.runUrl)
    lines.push('', `The ${markdownLink('workflow run', where.runUrl)} has the details.`)
  return capped(lines.join('\n'))
}

/**
 * The comment a run posts before it spends anything (a new job, a follow-up): it shows the request
 * was heard, and proves the token may comment there. No marker: it records no job yet.
 */
export function startingBody(where: Pick<CommentContext, 'runUrl'>): string {
  return `${STARTING} is starting${run(where)}`
}

const STARTING = '⏳ **Mintlify agent**'
/** A starting body as startingBody writes it, with the run's link when there is one. */
const STARTING_BODY =
  /^⏳ \*\*Mintlify agent\*\* is starting(?: · \[workflow run\]\((https:\/\/[^\s()]{1,300})\))?$/

/** Whether a comment's body is a starting comment's, and the run it names (undefined: none). */
export function startedBy(body: string): { runUrl?: string } | undefined {
  const match = STARTING_BODY.exec(body)
  return match ? (match[1] ? { runUrl: match[1] } : {}) : undefined
}

/**
 * A starting comment whose run ended before it said more (its runner lost, or killed before the
 * post step): a later run on the issue says so, and that the job's fate shows on the dashboard.
 */
export function lostRunBody(
  lost: { runUrl?: string },
  where: Pick<CommentContext, 'runUrl' | 'projectId'>
): string {
  const earlier = lost.runUrl ? markdownLink('workflow run', lost.runUrl) : 'workflow run'
  return capped(
    [
      `⚠️ **Mintlify agent**: the ${earlier} that posted this stopped before it said whether it started a job (its runner was lost).`,
      `If it did, the job is among ${jobsOnDashboardMarkdown(where.projectId)}.${where.runUrl ? ` A later ${markdownLink('workflow run', where.runUrl)} took over.` : ''}`
    ].join(' ')
  )
}

export function workingBody(
  ctx: CommentContext,
  job: AgentJob,
  followUp: boolean,
  sign: SignMarker
): string {
  let what = followUp ? 'is working on the follow-up' : 'is working on this'
  // A `/docs-agent` follow-up on a change's comment is a follow-up like any other.
  if (ctx.marker.kind === 'change' && (ctx.fold || !followUp)) {
    const docsPr = ctx.fold?.docsPr
    what = !ctx.fold
      ? 'is updating the docs for this change'
      : docsPr
        ? `is adding this change to the open docs pull request ${markdownLink(docsPr, docsPr)}`
        : 'is adding this change to the job still running for an earlier change'
  }
  return finish(ctx, sign, [`⏳ **Mintlify agent** ${what} · job ${codeSpan(job.id)}${run(ctx)}`])
}

/** The comment once the run is over: the outcome, and what to do next when it did not end well. */
export function outcomeBody(
  ctx: CommentContext,
  job: AgentJob,
  result: Result | 'stopped',
  sign: SignMarker
): string {
  const id = codeSpan(job.id)
  const pr = job.prLink ? markdownLink(job.prLink, job.prLink) : ''
  // What to do next when the job did not end well: where to look, or how to keep waiting.
  const look = `To see why, open job ${id} among ${jobsOnDashboardMarkdown(ctx.projectId)}.`
  const keepWaiting = `re-run the workflow, or run the action with ${jobIdInput(job.id)} to keep waiting.`
  const lines: Record<Result | 'stopped', string> = {
    'pr-opened': `✅ **Mintlify agent** opened a pull request: ${pr}`,
    'no-changes': `☑️ **Mintlify agent** finished without changes: nothing needed updating.`,
    failed: `❌ **Mintlify agent** job failed. ${look}`,
    archived: `🗄️ **Mintlify agent** job was archived before it finished.${pr ? ` Pull request: ${pr}` : ''}`,
    'timed-out': `⏱️ **Mintlify agent** stopped waiting: the time limit ran out. The job may still finish on the service: ${keepWaiting}`,
    cancelled: `🛑 The workflow run was cancelled. The **Mintlify agent** job may still finish on the service: ${keepWaiting}`,
    stopped: `🛑 The workflow run stopped before the **Mintlify agent** job finished. The job may still finish on the service: ${keepWaiting}`,
    started: `🚀 **Mintlify agent** started; this run does not wait for it. To wait for it, run the action with ${jobIdInput(job.id)}.`,
    skipped: `**Mintlify agent** was not started.`,
    'dry-run': `**Mintlify agent** dry run: nothing was started.`,
    waiting: `⏸️ **Mintlify agent** was not started: the changes wait on the dashboard.`
  }
  if (ctx.marker.kind === 'change') {
    lines['pr-opened'] = ctx.fold
      ? `✅ **Mintlify agent** added this change to the docs pull request: ${pr}`
      : `✅ **Mintlify agent** opened a docs pull request: ${pr}`
    lines['no-changes'] = `☑️ **Mintlify agent** finished: no docs changes needed.`
  }
  return finish(ctx, sign, [lines[result], '', `Job ${id}${run(ctx)}`])
}
