import * as core from '@actions/core'
import { coreLogger } from './action-support.js'
import { runAgentJob } from './agent-job.js'
import type { AgentJob } from './api/agent.js'
import type { ApiError } from './api/errors.js'
import { systemClock } from './clock.js'
import { formatDuration } from './duration.js'
import { readRunEvent } from './github/event.js'
import { prepareIssueRun } from './github/issue-run.js'
import type { Settings } from './inputs.js'
import type { RunState } from './main.js'
import { Output, State } from './names.js'
import { openClient } from './open-client.js'
import { type Result, failingWord } from './outcome.js'

/** The run itself, once the inputs are valid: the trigger, the job, the wait. Fills in `state` as it goes. */
export async function execute(
  state: RunState,
  settings: Settings,
  signal: AbortSignal
): Promise<void> {
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
