import * as core from '@actions/core'
import { cancelOnSignals } from '../action/cancel.js'
import { systemClock } from '../action/clock.js'
import { formatDuration } from '../action/duration.js'
import { Output, State } from '../action/names.js'
import { coreLogger, describeError, writeSummary } from '../action/runner.js'
import { type RunEvent, readRunEvent } from '../github/event.js'
import { prepareIssueRun } from '../github/issue-run.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import type { ApiError } from '../mintlify/errors.js'
import { openClient } from '../mintlify/open-client.js'
import { type Result, failingWord } from '../mintlify/outcome.js'
import { type Report, outputsOf, renderSummary } from './report.js'
import { runAgentJob } from './run-job.js'
import { type Settings, readSettings } from './settings.js'

/** How a run ended, on any path: what is reported. */
type RunEnd = Pick<Report, 'job' | 'result' | 'failure' | 'skipped'>

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
      failure: describeError(error, [settings?.apiKey, settings?.githubToken])
    }
  } finally {
    cancel.dispose()
  }
  await publish({ ...end, elapsedMs: Date.now() - started, now: new Date() })
}

/** The trigger, the job, the wait and the live comment, once the inputs are valid. */
async function runAgent(settings: Settings, event: RunEvent, signal: AbortSignal): Promise<RunEnd> {
  const issueRun = await prepareIssueRun(
    settings,
    event,
    coreLogger,
    saved => core.saveState(State.Comment, JSON.stringify(saved)),
    signal
  )
  if (issueRun.skipped) {
    core.notice(`Not starting the agent: ${issueRun.skipped}`, { title: 'Mintlify agent' })
    return { result: 'skipped', skipped: issueRun.skipped }
  }
  const { comment } = issueRun
  const client = openClient(settings, coreLogger, signal)
  let latest: AgentJob | undefined
  let end: RunEnd
  try {
    const outcome = await runAgentJob(
      client,
      { ...settings, ...issueRun.request },
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
        onStarted: async seen => comment?.working(seen, issueRun.followUp)
      }
    )
    const { job, result } = outcome
    end = { job, result, failure: explainResult(job, result, settings, outcome.lastError) }
  } catch (error) {
    end = {
      job: latest,
      result: signal.aborted ? 'cancelled' : undefined,
      failure: describeError(error, [settings.apiKey, settings.githubToken])
    }
  } finally {
    await client.close()
  }
  if (end.job && comment) await comment.finish(end.job, end.result ?? 'stopped')
  return end
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
