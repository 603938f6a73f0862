import type { DocsPulls } from '../github/docs-pulls.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import { errorText } from '../runner/errors.js'
import { docsPrState } from '../agent/docs-repository.js'

export type EarlierJobDecision =
  | { go: 'wait'; info: string }
  | { go: 'follow-up'; docsPr: string; info: string }
  | { go: 'new'; info?: string; notice?: string }

export interface EarlierJobContext {
  readJob: (jobId: string) => Promise<AgentJob>
  /** The docs repository's pull requests, read with `docs-token` when set. */
  docs: DocsPulls
  /** The run's GitHub (GITHUB_SERVER_URL): docs pull requests elsewhere cannot be read. */
  serverUrl: string
}

/**
 * What the label added again does with the job an earlier run recorded on the issue, checked
 * against the service and GitHub: wait for it while it runs, follow up while its docs pull request
 * (the link the service reports, never one from a record) is open, and start a new job once that
 * pull request is merged or closed, or the job ended without one. Anything that cannot be read
 * means a new job, with a notice saying why.
 */
export async function decideEarlierJob(
  jobId: string,
  issue: number,
  ctx: EarlierJobContext
): Promise<EarlierJobDecision> {
  const recorded = `Job ${jobId}, recorded on #${issue} by an earlier run,`
  let job: AgentJob
  try {
    job = await ctx.readJob(jobId)
  } catch (error) {
    return {
      go: 'new',
      notice: `Could not read job ${jobId}, recorded on #${issue} by an earlier run (${errorText(error).replace(/\.$/, '')}), so this run starts a new job.`
    }
  }
  if (job.status === 'active')
    return {
      go: 'wait',
      info: `${recorded} is still running: waiting for it instead of starting a second job.`
    }
  if (!job.prLink)
    return {
      go: 'new',
      info: `${recorded} ended (${job.status ?? 'status unknown'}) without a docs pull request: starting a new job.`
    }
  const state = await docsPrState(ctx, job.prLink)
  if ('error' in state)
    return {
      go: 'new',
      notice: `Could not read the state of the docs pull request ${job.prLink} of job ${jobId}, recorded on #${issue} (${state.error}), so this run starts a new job instead of following up on it.${state.hint ?? ''}`
    }
  if (state.state === 'open')
    return {
      go: 'follow-up',
      docsPr: job.prLink,
      info: `${recorded} has its docs pull request ${job.prLink} open: sending the issue to it as a follow-up instead of starting a second job.`
    }
  return {
    go: 'new',
    info: `The docs pull request ${job.prLink} of job ${jobId}, recorded on #${issue}, is ${state.state}: starting a new job.`
  }
}

/** The follow-up an issue labelled again sends to its job: the issue as it reads now. */
export const relabelFollowUp = (prompt: string, issue: number, docsPr: string): string =>
  [
    `#${issue} was labelled for the docs agent again. Update your docs pull request ${docsPr} so it answers the request as it reads now (it may have changed since):`,
    '',
    prompt
  ].join('\n')
