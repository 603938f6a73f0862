import * as core from '@actions/core'
import { systemClock } from '../../action/clock.js'
import { coreLogger } from '../../action/runner.js'
import { openClient } from '../../mintlify/open-client.js'
import { getJob } from '../../mintlify/agent-jobs.js'
import type { ApiClient } from '../../mintlify/client.js'
import { connectGitHub } from '../../github/api.js'
import { outcomeBody } from '../../github/comment-body.js'
import { readRunEvent } from '../../github/event.js'
import type { CommentState } from '../../github/live-comment.js'
import { readPostSettings } from '../settings.js'
import { State } from '../../action/names.js'
import { isTerminal, resultOf } from '../../mintlify/outcome.js'

const LOOK_MS = 10_000

/**
 * The post step (post-if: always()): when the main step was killed before it could finalise its
 * comment, read the job once and put its state in the comment, so no "working" comment stays behind.
 */
export async function run(): Promise<void> {
  const raw = core.getState(State.Comment)
  if (!raw) return
  let client: ApiClient | undefined
  try {
    const state = JSON.parse(raw) as CommentState
    if (state.final) return
    const settings = readPostSettings()
    const event = readRunEvent()
    let job = state.job
    try {
      client = openClient(settings, coreLogger, AbortSignal.timeout(LOOK_MS))
      job = await getJob(client, settings.projectId, state.job.id, systemClock.now() + LOOK_MS)
    } catch (error) {
      coreLogger.warning(
        `Could not read job ${state.job.id}: ${error instanceof Error ? error.message : String(error)}`
      )
    }
    const result = isTerminal(job.status) ? resultOf(job, 'terminal') : 'stopped'
    const github = connectGitHub(settings.githubToken, event, AbortSignal.timeout(LOOK_MS))
    await github.updateComment(state.commentId, outcomeBody(state.ctx, job, result))
    core.info(
      `Updated the comment on #${state.issue}: job ${job.id} is ${job.status ?? 'unknown'} (${result}).`
    )
  } catch (error) {
    // The post step reports; it never fails the job.
    core.warning(
      `Could not finalise the agent comment: ${error instanceof Error ? error.message : String(error)}`
    )
  } finally {
    await client?.close()
  }
}
