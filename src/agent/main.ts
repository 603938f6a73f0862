import * as core from '@actions/core'
import { cancelOnSignals } from '../action/cancel.js'
import { CancelledError } from '../action/errors.js'
import { systemClock } from '../action/clock.js'
import { formatDuration } from '../action/duration.js'
import { Output, State } from '../action/names.js'
import { coreLogger, describeError, writeSummary } from '../action/runner.js'
import { type PreparedRun, isChangeRun, prepareChangeRun } from '../github/change-run.js'
import { type RunEvent, readRunEvent } from '../github/event.js'
import { prepareIssueRun } from '../github/issue-run.js'
import type { CommentState } from '../github/live-comment.js'
import { type AgentJob, getJob } from '../mintlify/agent-jobs.js'
import type { ApiClient } from '../mintlify/client.js'
import type { ApiError } from '../mintlify/errors.js'
import { openClient } from '../mintlify/open-client.js'
import { type Result, failingWord } from '../mintlify/outcome.js'
import { type Report, outputsOf, renderSummary } from './report.js'
import { runAgentJob } from './run-job.js'
import { type Settings, readSettings } from './settings.js'

/** How a run ended, on any path: what is reported. */
type RunEnd = Pick<Report, 'job' | 'result' | 'failure' | 'skipped' | 'source' | 'fold'>

/** A job read while deciding where a change goes: a short look, not a wait. */
const LOOK_MS = 30_000

/** The agent action: validate inputs, run the job, and report on every exit path. */
export async function run(): Promise<void> {
  const started = Date.now()
  const cancel = cancelOnSignals()
  let settings: Settings | undefined
  let end: RunEnd
  try {
    settings = readSettings()
    end = await runAgent(settings, readRunEvent(), cancel.signal)
  } catch (error) {
    end = {
      result: cancel.signal.aborted ? 'cancelled' : undefined,
      failure: describeError(error, [settings?.apiKey, settings?.githubToken, settings?.docsToken])
    }
  } finally {
    cancel.dispose()
  }
  await publish({
    ...end,
    projectId: settings?.projectId,
    elapsedMs: Date.now() - started,
    now: new Date()
  })
}

/** The trigger, the job, the wait and the live comment, once the inputs are valid. */
async function runAgent(settings: Settings, event: RunEvent, signal: AbortSignal): Promise<RunEnd> {
  let opened: ApiClient | undefined
  const service = (): ApiClient => (opened ??= openClient(settings, coreLogger, signal))
  try {
    const prepared = await prepare(settings, event, signal, jobId =>
      getJob(service(), settings.projectId, jobId, systemClock.now() + LOOK_MS)
    )
    // A cancel while reading GitHub can look like a refusal or an unreadable comment: it is neither.
    if (signal.aborted)
      throw new CancelledError(
        'Cancelled before a job was started; nothing was sent to the service.'
      )
    for (const notice of prepared.notices) core.notice(notice, { title: 'Mintlify agent' })
    if (prepared.skipped) {
      core.notice(`Not starting the agent: ${prepared.skipped}`, { title: 'Mintlify agent' })
      return { result: 'skipped', skipped: prepared.skipped, source: prepared.source }
    }
    return await runPrepared(service(), settings, prepared, signal)
  } finally {
    await opened?.close()
  }
}

/** A code change or an issue (or neither): what to send, where to comment. */
async function prepare(
  settings: Settings,
  event: RunEvent,
  signal: AbortSignal,
  readJob: (jobId: string) => Promise<AgentJob>
): Promise<PreparedRun> {
  const saveState = (saved: CommentState): void =>
    core.saveState(State.Comment, JSON.stringify(saved))
  if (isChangeRun(event, settings))
    return prepareChangeRun(settings, event, { log: coreLogger, saveState, signal, readJob })
  return { ...(await prepareIssueRun(settings, event, coreLogger, saveState, signal)), notices: [] }
}

/** The job, the wait and the live comment. */
async function runPrepared(
  client: ApiClient,
  settings: Settings,
  prepared: PreparedRun,
  signal: AbortSignal
): Promise<RunEnd> {
  const { comment, source } = prepared
  let { fold, followUp } = prepared
  let latest: AgentJob | undefined
  let end: RunEnd
  try {
    const outcome = await runAgentJob(
      client,
      { ...settings, ...prepared.request },
      {
        clock: systemClock,
        log: coreLogger,
        signal,
        group: core.group,
        onJob: seen => {
          latest = seen
          // Set at once, so `if: always()` steps have it even if the step dies later.
          core.setOutput(Output.JobId, seen.id)
        },
        onStarted: async seen => comment?.working(seen, followUp),
        onFallback: reason => {
          core.notice(reason, { title: 'Mintlify agent' })
          fold = undefined
          followUp = false
          comment?.unfold()
        }
      }
    )
    const { job, result } = outcome
    end = { job, result, failure: explainResult(job, result, settings, outcome.lastError) }
  } catch (error) {
    end = {
      job: latest,
      result: signal.aborted ? 'cancelled' : undefined,
      failure: describeError(error, [settings.apiKey, settings.githubToken, settings.docsToken])
    }
  }
  // The service is done with; closing it runs alongside the comment's last word, so a cancelled
  // step still ends within the runner's grace.
  const closing = client.close()
  if (end.job && comment) await comment.finish(end.job, end.result ?? 'stopped')
  await closing
  return { ...end, source, fold }
}

function explainResult(
  job: AgentJob,
  result: Result,
  settings: Settings,
  lastError?: ApiError
): string | undefined {
  if (result === 'cancelled') {
    return `The run was cancelled while waiting for job ${job.id}; the job may still finish on the service.`
  }
  if (result === 'timed-out') {
    const why = lastError ? ` The last status check failed: ${lastError.message}.` : ''
    core.warning(
      `Stopped waiting for job ${job.id} after ${formatDuration(settings.timeoutMs)}; it was still ${job.status ?? 'running'}.${why} ` +
        `It may still finish on the service: run this action with job-id: ${job.id} to keep waiting.`
    )
  }
  const word = failingWord(result, settings.failOn)
  if (!word) return undefined
  return `Job ${job.id} ended as '${result}', and 'fail-on' includes '${word}'.`
}

/** Outputs, log line, notice and summary; the step fails when `failure` is set. */
async function publish(report: Report): Promise<void> {
  const { job, result, failure } = report
  for (const [name, value] of Object.entries(outputsOf(report))) core.setOutput(name, value)
  if (job?.prLink) core.notice(`Pull request: ${job.prLink}`, { title: 'Mintlify agent' })
  if (job?.rejectedPrLink)
    core.warning(
      'The service sent a pull request link that is not an http(s) URL of sane length; it is not used. Look at the job on the Mintlify dashboard.'
    )
  if (result) {
    core.info(
      `Result: ${result}${job ? ` (job ${job.id}, status ${job.status ?? 'unknown'})` : ''}.`
    )
  }
  if (job || failure || report.skipped) await writeSummary(renderSummary(report))
  if (failure) core.setFailed(failure)
}
