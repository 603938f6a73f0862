import * as core from '@actions/core'
import { coreLogger, describeError, openClient, writeSummary } from './action-support.js'
import { runAgentJob } from './agent-job.js'
import type { AgentJob } from './api/agent.js'
import type { ApiClient } from './api/client.js'
import type { ApiError } from './api/errors.js'
import { cancelOnSignals } from './cancel.js'
import { systemClock } from './clock.js'
import { formatDuration } from './duration.js'
import { readSettings, type Settings } from './inputs.js'
import { type LiveComment } from './github/live-comment.js'
import { prepareIssueRun } from './github/issue-run.js'
import { readRunEvent } from './github/event.js'
import { Output, State } from './names.js'
import { type Result, failingWord } from './outcome.js'
import { type Report, outputsOf, renderSummary } from './report.js'

/** What the step has learnt so far; reported whichever way it ends. */
interface RunState {
  settings?: Settings
  client?: ApiClient
  comment?: LiveComment
  job?: AgentJob
  result?: Result
  failure?: string
  skipped?: string
}

/** The agent action: validate inputs, run the job, and report on every exit path. */
export async function run(): Promise<void> {
  const started = Date.now()
  const cancel = cancelOnSignals()
  const state: RunState = {}
  try {
    await execute(state, cancel.signal)
  } catch (error) {
    if (cancel.signal.aborted) state.result = 'cancelled'
    state.failure = describeError(error, state.settings?.apiKey)
  } finally {
    cancel.dispose()
    await state.client?.close()
  }
  const { job, comment, result, failure, skipped } = state
  if (job && comment) await comment.finish(job, result ?? 'stopped')
  await publish({ job, result, failure, skipped, elapsedMs: Date.now() - started, now: new Date() })
}

async function execute(state: RunState, signal: AbortSignal): Promise<void> {
  const settings = (state.settings = readSettings())
  const issueRun = await prepareIssueRun(settings, readRunEvent(), coreLogger, saved =>
    core.saveState(State.Comment, JSON.stringify(saved))
  )
  if (issueRun.skipped) {
    state.result = 'skipped'
    state.skipped = issueRun.skipped
    core.notice(`Not starting the agent: ${issueRun.skipped}`, { title: 'Mintlify agent' })
    return
  }
  const comment = (state.comment = issueRun.comment)
  state.client = openClient(settings, signal)
  const outcome = await runAgentJob(state.client, issueRun.request, {
    clock: systemClock,
    log: coreLogger,
    signal,
    group: core.group,
    onJob: seen => {
      state.job = seen
      // Set at once, so `if: always()` steps have it even if the step dies later.
      core.setOutput(Output.JobId, seen.id)
    },
    onStarted: async seen => comment?.working(seen, issueRun.followUp)
  })
  state.job = outcome.job
  state.result = outcome.result
  state.failure = explainResult(outcome.job, outcome.result, settings, outcome.lastError)
}

/** Outputs, log line, notice and summary; the step fails when `failure` is set. */
async function publish(report: Report): Promise<void> {
  const { job, result, failure } = report
  for (const [name, value] of Object.entries(outputsOf(report))) core.setOutput(name, value)
  if (job?.prLink) core.notice(`Pull request: ${job.prLink}`, { title: 'Mintlify agent' })
  if (result) {
    core.info(
      `Result: ${result}${job ? ` (job ${job.id}, status ${job.status ?? 'unknown'})` : ''}.`
    )
  }
  if (job || failure || report.skipped) await writeSummary(renderSummary(report))
  if (failure) core.setFailed(failure)
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
