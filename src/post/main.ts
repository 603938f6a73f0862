import { GitHubSession } from '../github/session.js'
import { readRunEvent } from '../github/event.js'
import { getJob } from '../mintlify/agent-jobs.js'
import type { ApiClient } from '../mintlify/client.js'
import { openClient, readConnection } from '../mintlify/connection.js'
import { coreRunner } from '../runner/core-runner.js'
import { errorText } from '../runner/errors.js'
import { readSecret, sendableSecret } from '../runner/inputs.js'
import type { Runner } from '../runner/runner.js'
import { outcomeBody } from '../agent/comment/comment-body.js'
import type { CommentState } from '../agent/comment/live-comment.js'
import { type Marker, Markers } from '../agent/comment/marker.js'
import { Input, State } from '../agent/names.js'
import { isTerminal, resultOf } from '../agent/outcome.js'

const LOOK_MS = 10_000
/** A wait past the post step's look: it has no 'timeout' to raise; the job goes on regardless. */
const PAST_LOOK =
  "The post step looks for 10 s only (it has no 'timeout'); the job's state shows on its page and in the next run."
/** The same for GitHub: the comment keeps its last word until the next run writes it. */
const PAST_LOOK_GITHUB =
  "The post step waits 10 s at most (it has no 'timeout'); the comment shows the job's state after the next run, and the job's page shows it now."

/**
 * The post step (post-if: always()): when the main step was killed before it could finalise its
 * comment, read the job once and put its state in the comment, so no "working" comment stays behind.
 */
export async function run(runner: Runner = coreRunner('Mintlify agent')): Promise<void> {
  const { log, clock } = runner
  const raw = runner.state(State.Comment)
  if (!raw) return
  let client: ApiClient | undefined
  let github: GitHubSession | undefined
  try {
    const state = JSON.parse(raw) as CommentState
    if (state.final) return
    // Only the connection and the token, read again from the same inputs: the post step needs no
    // other setting, so it bundles none of the flows' reading.
    const settings = {
      ...readConnection(runner.input, runner.mask),
      githubToken: readSecret(runner.input, runner.mask, Input.GithubToken)
    }
    const event = readRunEvent(runner.env)
    let job = state.job
    try {
      const apiKey = sendableSecret(Input.ApiKey, settings.apiKey)
      client = openClient(
        { ...settings, apiKey },
        { log, signal: clock.timeout(LOOK_MS), clock, pastDeadline: PAST_LOOK }
      )
      job = await getJob(client, settings.projectId, state.job.id, clock.now() + LOOK_MS)
    } catch (error) {
      log.warning(`Could not read job ${state.job.id}: ${errorText(error)}`)
    }
    const result = isTerminal(job.status) ? resultOf(job, 'terminal') : 'stopped'
    // Its 10 s are also the bound of any wait for GitHub's rate limit.
    github = new GitHubSession({
      cancel: clock.timeout(LOOK_MS),
      clock,
      deadline: clock.now() + LOOK_MS,
      pastDeadline: PAST_LOOK_GITHUB
    })
    // Signed as the main step signed it: the saved marker already names the step that wrote it.
    const markers = new Markers(settings.apiKey, `${event.owner}/${event.repo}`)
    const sign = (marker: Marker): string => markers.render(marker, state.issue)
    await github
      .repository(settings.githubToken, event)
      .updateComment(state.commentId, outcomeBody(state.ctx, job, result, sign))
    log.info(
      `Updated the comment on #${state.issue}: job ${job.id} is ${job.status ?? 'unknown'} (${result}).`
    )
  } catch (error) {
    // The post step reports; it never fails the job.
    log.warning(`Could not finalise the agent comment: ${errorText(error)}`)
  } finally {
    // As in the main step: a connection nothing answered must not keep the process alive.
    await Promise.all([client?.close(), github?.close()])
  }
}
