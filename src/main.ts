import * as core from '@actions/core'
import { describeError, writeSummary } from './action-support.js'
import type { AgentJob } from './api/agent.js'
import type { ApiClient } from './api/client.js'
import { cancelOnSignals } from './cancel.js'
import { readSettings, type Settings } from './inputs.js'
import type { LiveComment } from './github/live-comment.js'
import type { Result } from './outcome.js'
import { type Report, outputsOf, renderSummary } from './report.js'

/** What the step has learnt so far; reported whichever way it ends. */
export interface RunState {
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
    state.settings = readSettings()
    // Loaded only once the inputs are valid: a run that fails on them never pays for the rest.
    const { execute } = await import('./agent-run.js')
    await execute(state, state.settings, cancel.signal)
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
