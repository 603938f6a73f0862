import { type AgentJob, jobRecord } from '../mintlify/agent-jobs.js'
import { formatDuration } from '../runner/duration.js'
import { codeSpan, escapeMarkdown, markdownLink } from '../runner/markdown.js'
import { formatCount } from '../runner/text.js'
import { Redactor } from '../runner/redact.js'
import type { Runner } from '../runner/runner.js'
import { Output } from './names.js'
import {
  type Decision,
  type Result,
  type RunOutcome,
  decisionOf,
  resultWord,
  whyNothing
} from './outcome.js'
import type { ChangeBatch } from './batch.js'
import type { FoldTarget } from './ledger/fold.js'
import type { Continued } from './prepared-run.js'
import { FOLLOW_UP_GRACE_MS, type JobOutcome } from './run-job.js'
import { jobIdInput, jobsOnDashboardMarkdown } from './comment/comment-body.js'

/** What the step knows when it ends, on any path. */
export interface Report {
  job?: AgentJob
  /** How the run ended: the `result`, `decision` and `prompt` outputs, and why nothing started. */
  outcome: RunOutcome
  /** Why the step failed, if it did. */
  failure?: string
  /** More about the failure, as plain text shown whole (the YAML a moved input becomes). */
  details?: string
  /** The pull request or comparison a code change's prompt was built from. */
  source?: string
  /** The earlier job a code change was sent to, instead of a new one. */
  fold?: FoldTarget
  /** The changes a change run handed over, and those its rules skipped. */
  batch?: ChangeBatch
  /** The docs agent dashboard issue. */
  dashboardUrl?: string
  /** Where the budgets stood when the run decided (`max-jobs`, `max-credits`). */
  budget?: string
  /** What the check of the key and project that spends nothing proved, or why it could not. */
  access?: string
  /** What the run spent or would spend, in estimated credits. */
  estimate?: string
  /** What the issue or pull request shows of the run: its comment, or why there is none. */
  comment?: CommentReport
  /** The issue was labelled again and its earlier job went on instead of a new one. */
  continued?: Continued
  /** After a follow-up: how its outcome was established (see run-job.ts). */
  followUp?: JobOutcome['followUp']
  /** The Mintlify project, once the inputs were read: where on the dashboard its jobs are. */
  projectId?: string
  /** Outputs of an action's own, beside the job's (the impact sub-action: what it measured). */
  ownOutputs?: Readonly<Record<string, string>>
  /** Milliseconds the step spent. */
  elapsedMs: number
  now: Date
}

export interface CommentReport {
  issue: number
  /** The comment the run last wrote. */
  url?: string
  /** Why the last write failed, and what to do about it. */
  error?: string
  hint?: string
  shows: 'job' | 'failure'
}

export function outputsOf(report: Report): Record<(typeof Output)[keyof typeof Output], string> {
  const job = report.job
  return {
    [Output.JobId]: job?.id ?? '',
    [Output.Status]: job?.status ?? '',
    [Output.PrLink]: job?.prLink ?? '',
    [Output.Model]: job?.model ?? '',
    [Output.Job]: job ? JSON.stringify(jobRecord(job)) : '',
    [Output.Result]: resultWord(report.outcome) ?? '',
    [Output.Source]: report.source ?? '',
    [Output.Decision]: decisionOf(report.outcome) ?? '',
    [Output.Prompt]: (report.outcome.kind === 'dry-run' && report.outcome.prompt) || ''
  }
}

const HEADLINES: Record<Result, string> = {
  'pr-opened': '✅ The agent opened a pull request',
  'no-changes': '☑️ The agent finished without changes',
  failed: '❌ The agent job failed',
  archived: '🗄️ The agent job was archived',
  'timed-out': '⏱️ Stopped waiting: time limit reached',
  started: '🚀 The agent job started',
  cancelled: '🛑 The run was cancelled',
  skipped: '⏭️ Not started',
  'dry-run': '🧪 Dry run: nothing was written',
  waiting: '⏸️ Waiting on the dashboard'
}

/** The job summary as Markdown; every value from the service is escaped. */
export function renderSummary(report: Report): string {
  const { job, outcome } = report
  const result = resultWord(outcome)
  const why = whyNothing(outcome)
  const headline =
    result === 'pr-opened' && report.fold
      ? '✅ The change joined the open docs pull request'
      : result
        ? HEADLINES[result]
        : '❌ The step failed'
  const lines = [`## Mintlify agent: ${headline}`, '']
  if (report.failure) lines.push(`> ${escapeMarkdown(report.failure)}`, '')
  if (report.details) lines.push(...fenced(report.details, 'text'), '')
  if (why) lines.push(escapeMarkdown(why), '')
  const sources = (report.source ?? '').split('\n').filter(Boolean)
  const sourceLinks = sources.map(url => markdownLink(url, url)).join(', ')
  if (sources.length && !job)
    lines.push(`${sources.length > 1 ? 'Changes' : 'Change'}: ${sourceLinks}`, '')
  if (report.fold) {
    const docsPr = report.fold.docsPr
    const what = outcome.kind === 'dry-run' ? 'Would send the changes' : 'The changes were sent'
    lines.push(
      `${what} to job ${codeSpan(report.fold.jobId)} as a follow-up instead of starting a new job: ${docsPr ? `its docs pull request ${markdownLink(docsPr, docsPr)} is still open.` : 'it was still running.'}`,
      ''
    )
  }
  if (report.comment) lines.push(commentLine(report.comment), '')
  if (report.continued) lines.push(continuedLine(report.continued), '')
  if (job && report.followUp) lines.push(followUpLine(job, report.followUp), '')
  lines.push(...batchLines(report))
  if (outcome.kind === 'dry-run') lines.push(...dryRunLines(outcome))
  if (job) {
    const next = nextStep(job, result, report.projectId)
    if (next) lines.push(next, '')
    const createdAt = job.createdAt ? new Date(job.createdAt) : undefined
    const sinceCreated =
      createdAt && !Number.isNaN(createdAt.getTime())
        ? report.now.getTime() - createdAt.getTime()
        : report.elapsedMs
    const source = job.source?.repository
      ? `${markdownLink(job.source.repository, job.source.repository)}${job.source.ref ? ` @ ${escapeMarkdown(job.source.ref)}` : ''}`
      : ''
    const rows: [string, string][] = [
      ['Outcome', result ? codeSpan(result) : ''],
      ['Pull request', markdownLink(job.prLink ?? '', job.prLink)],
      ['Status', job.status ? codeSpan(job.status) : ''],
      ['Job id', codeSpan(job.id)],
      ['Model', job.model ? codeSpan(job.model) : ''],
      ['Docs repository', source],
      [sources.length > 1 ? 'Changes' : 'Change', sourceLinks],
      ['Created', job.createdAt ? escapeMarkdown(job.createdAt) : ''],
      ['Elapsed', formatDuration(Math.max(0, sinceCreated))]
    ]
    lines.push(
      '| Field | Value |',
      '|---|---|',
      ...rows.filter(([, v]) => v !== '').map(([k, v]) => `| ${k} | ${v} |`),
      ''
    )
  }
  return lines.join('\n')
}

const SHOWN_CHANGES = 20

/** The changes a change run handed over and those its rules skipped; the budget and dashboard. */
function batchLines(report: Report): string[] {
  const lines: string[] = []
  const batch = report.batch
  const ref = (r: { label: string; url?: string; title: string }): string =>
    `${r.url ? markdownLink(r.label, r.url) : escapeMarkdown(r.label)} ${escapeMarkdown(r.title)}`
  if (batch) {
    const handed = [
      // In a docs project's batch a number alone is ambiguous: `acme/api#12`.
      ...batch.pulls.map(p => ({
        label: `${p.repository ?? ''}#${p.number}`,
        url: p.url,
        title: p.title
      })),
      ...batch.commits.map(c => ({
        label: `${c.repository ? `${c.repository}@` : ''}${c.sha.slice(0, 7)}`,
        url: undefined,
        title: c.message.split('\n')[0] ?? ''
      }))
    ]
    if (handed.length) {
      lines.push(`Changes (${formatCount(handed.length)}):`, '')
      lines.push(...handed.slice(0, SHOWN_CHANGES).map(r => `- ${ref(r)}`))
      if (handed.length > SHOWN_CHANGES) lines.push(`- … and ${handed.length - SHOWN_CHANGES} more`)
      lines.push('')
    }
    if (batch.skipped.length) {
      lines.push(`Left out by the rules (${formatCount(batch.skipped.length)}):`, '')
      lines.push(
        ...batch.skipped
          .slice(0, SHOWN_CHANGES)
          .map(
            s => `- ${ref({ label: s.ref, url: s.url, title: s.title })}: ${escapeMarkdown(s.why)}`
          )
      )
      lines.push('')
    }
    if (batch.leftOut.length)
      lines.push(`Left out by the bounds: ${escapeMarkdown(batch.leftOut.join('; '))}.`, '')
  }
  if (report.estimate) lines.push(`Estimated cost: ${escapeMarkdown(report.estimate)}`, '')
  if (report.budget) lines.push(`Budget before this run: ${escapeMarkdown(report.budget)}.`, '')
  if (report.access) lines.push(`Key and project: ${escapeMarkdown(report.access)}`, '')
  if (report.dashboardUrl)
    lines.push(
      `The ${markdownLink('docs agent dashboard', report.dashboardUrl)} lists every change, job and run.`,
      ''
    )
  return lines
}

/** What a dry run decided, and the exact prompt it would have sent. */
function dryRunLines({
  decision: decided,
  prompt
}: {
  decision: Decision
  prompt?: string
}): string[] {
  const decision: Record<string, string> = {
    'new-job': 'start a new job',
    'follow-up': 'send a follow-up',
    skip: 'start nothing'
  }
  // A batch that waits for a tick starts nothing now; its prompt is the one a tick would send.
  const waits = decided === 'skip' && prompt !== undefined
  const lines = [
    `Decision: ${codeSpan(decided)}: it would ${decision[decided]}${waits ? ' now: the changes would wait for a tick on the dashboard' : ''}.`,
    ''
  ]
  if (prompt)
    lines.push(
      `<details><summary>The prompt ${waits ? 'a tick would send' : 'it would send'}</summary>`,
      '',
      ...fenced(prompt, 'text'),
      '',
      '</details>',
      ''
    )
  return lines
}

/** A text shown as it is: a code fence longer than any run of backticks inside it. */
function fenced(text: string, language: string): string[] {
  const fence = '`'.repeat(Math.max(3, ...(text.match(/`+/g) ?? []).map(r => r.length + 1)))
  return [`${fence}${language}`, text, fence]
}

/** What the issue shows of the run, in one sentence. */
function commentLine({ issue, url, error, hint, shows }: CommentReport): string {
  const what = shows === 'failure' ? 'this failure' : "this run's job and its outcome"
  const comment = url ? markdownLink('its comment', url) : ''
  if (!error) return `#${issue} shows ${what} in ${comment}.`
  const why = `(${escapeMarkdown(error)}).${hint ? escapeMarkdown(hint) : ''}`
  return url
    ? `#${issue} does not show ${what}: the last update of ${comment} could not be written ${why} The comment shows an earlier state.`
    : `#${issue} shows nothing of this run: the comment could not be written ${why}`
}

/** Why an issue labelled again went on with its earlier job, in one sentence. */
function continuedLine({ jobId, issue, docsPr }: Continued): string {
  const id = codeSpan(jobId)
  return docsPr
    ? `#${issue} was labelled again while the docs pull request ${markdownLink(docsPr, docsPr)} of its job ${id} was open: the issue was sent to that job as a follow-up instead of starting a second job.`
    : `#${issue} was labelled again while its job ${id} was still running: this run waited for that job instead of starting a second one.`
}

/** How the outcome of a follow-up was established, in one sentence. */
function followUpLine(job: AgentJob, check: NonNullable<Report['followUp']>): string {
  const id = codeSpan(job.id)
  switch (check) {
    case 'seen':
      return `Job ${id} was seen working on the follow-up (active after the message), so this outcome includes it.`
    case 'grace':
      return `Job ${id} was not seen working on the follow-up within ${formatDuration(FOLLOW_UP_GRACE_MS)} of the message: this is its status as it stands, which may not include the follow-up (the service may have done it between two status checks, or not picked it up yet).`
    case 'unconfirmed':
      return `Job ${id} had not been seen working on the follow-up when waiting stopped.`
    case 'not-waited':
      return `The follow-up was sent to job ${id}; the service processes it asynchronously and this run did not wait, so the job's status does not show it yet.`
  }
}

/** What to do after an outcome that is not the end of the story: where to look, or how to keep waiting. */
function nextStep(job: AgentJob, result: Result | undefined, projectId?: string): string {
  const id = codeSpan(job.id)
  if (result === 'timed-out' || result === 'cancelled' || result === 'started') {
    return `The job keeps running on the service and may still open a pull request. To wait for it, run the action again with ${jobIdInput(job.id)}.`
  }
  if (result === 'failed' && projectId) {
    return `To see why, open job ${id} among ${jobsOnDashboardMarkdown(projectId)}.`
  }
  return ''
}

/**
 * Outputs, log line, notice and summary; the step fails when `failure` is set. Everything goes
 * through redaction of `secrets` once more, as it is written: the service's answers were redacted as
 * they came, but rendering can rebuild a secret (a link's host is lowercased and percent-decoded).
 */
export async function publish(
  runner: Runner,
  report: Report,
  secrets: readonly (string | undefined)[] = []
): Promise<void> {
  const { job, failure } = report
  const result = resultWord(report.outcome)
  const { log } = runner
  const clean = new Redactor(secrets).text
  for (const [name, value] of Object.entries({ ...outputsOf(report), ...report.ownOutputs }))
    runner.setOutput(name, clean(value))
  if (job?.prLink) log.notice(clean(`Pull request: ${job.prLink}`))
  if (job?.rejectedPrLink)
    log.warning(
      'The service sent a pull request link that is not an http(s) URL of sane length; it is not used. Look at the job on the Mintlify dashboard.'
    )
  if (result) {
    log.info(
      clean(`Result: ${result}${job ? ` (job ${job.id}, status ${job.status ?? 'unknown'})` : ''}.`)
    )
  }
  if (job || failure || whyNothing(report.outcome) || result === 'dry-run')
    await runner.summary(clean(renderSummary(report)))
  if (report.details)
    await runner.group('What moved, and the policy file to write', async () => {
      for (const line of clean(report.details ?? '').split('\n')) log.info(line)
    })
  if (failure) runner.fail(clean(failure))
}
