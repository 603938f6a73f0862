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
import { Output } from './names.js'
import { type Result, failingWord } from './outcome.js'
import { outputsOf, renderSummary } from './report.js'

/** The agent action: validate inputs, run the job, and report on every exit path. */
export async function run(): Promise<void> {
  const started = Date.now()
  const cancel = cancelOnSignals()
  let settings: Settings | undefined
  let client: ApiClient | undefined
  let job: AgentJob | undefined
  let result: Result | undefined
  let failure: string | undefined
  try {
    settings = readSettings()
    client = openClient(settings, cancel.signal)
    const outcome = await runAgentJob(client, settings, {
      clock: systemClock,
      log: coreLogger,
      signal: cancel.signal,
      group: core.group,
      onJob: seen => {
        job = seen
        // Set at once, so `if: always()` steps have it even if the step dies later.
        core.setOutput(Output.JobId, seen.id)
      }
    })
    job = outcome.job
    result = outcome.result
    failure = explainResult(outcome.job, result, settings, outcome.lastError)
  } catch (error) {
    if (cancel.signal.aborted) result = 'cancelled'
    failure = describeError(error, settings?.apiKey)
  } finally {
    cancel.dispose()
    await client?.close()
  }
  await publish(job, result, failure, Date.now() - started)
}

/** Outputs, log line, notice and summary; the step fails when `failure` is set. */
async function publish(
  job: AgentJob | undefined,
  result: Result | undefined,
  failure: string | undefined,
  elapsedMs: number
): Promise<void> {
  for (const [name, value] of Object.entries(
    outputsOf({ job, result, elapsedMs, now: new Date() })
  )) {
    core.setOutput(name, value)
  }
  if (job?.prLink) core.notice(`Pull request: ${job.prLink}`, { title: 'Mintlify agent' })
  if (result)
    core.info(
      `Result: ${result}${job ? ` (job ${job.id}, status ${job.status ?? 'unknown'})` : ''}.`
    )
  if (job || failure) {
    await writeSummary(renderSummary({ job, result, failure, elapsedMs, now: new Date() }))
  }
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
