import type { DocsPulls } from '../github/docs-pulls.js'
import type { AgentJob } from '../mintlify/agent-jobs.js'
import { LIVE, type ProjectLedger } from '../records/ledger.js'
import { errorText } from '../runner/errors.js'
import { docsPrState } from '../agent/docs-repository.js'
import type { FoldDecision } from '../agent/ledger/fold.js'

/** What deciding a fold reads: the service's jobs and the docs repository's pull requests. */
export interface FoldContext {
  readJob: (jobId: string) => Promise<AgentJob>
  /** The docs repository's pull requests, read with `docs-token` when set. */
  docs: DocsPulls
  /** The run's GitHub: docs pull requests elsewhere are not read. */
  serverUrl: string
}

/**
 * The ledger's newest job of the project that may still take the batch, checked against the
 * service: still running, or its docs pull request (the link the service reports, never one
 * written anywhere else) still open. Anything that cannot be read means a new job, never a guess.
 */
export async function decideFold(project: ProjectLedger, ctx: FoldContext): Promise<FoldDecision> {
  const latest = [...project.jobs].reverse().find(job => LIVE.has(job.state))
  if (!latest)
    return { info: 'No docs job of this project is open in the ledger: starting a new job.' }
  let job: AgentJob
  try {
    job = await ctx.readJob(latest.id)
  } catch (error) {
    return {
      notice: `Could not read the earlier job ${latest.id} (${errorText(error).replace(/\.$/, '')}), so these changes start a new job.`,
      info: 'Starting a new job.'
    }
  }
  if (job.status === 'active')
    return {
      target: { jobId: job.id, docsPr: job.prLink ?? undefined },
      info: `Job ${job.id} is still running: sending the changes to it as a follow-up.`
    }
  if (!job.prLink)
    return {
      info: `The earlier job ${job.id} ended (${job.status ?? 'status unknown'}) without a docs pull request: starting a new job.`,
      seen: { jobId: job.id, state: 'ended' }
    }
  const state = await docsPrState(ctx, job.prLink)
  const times = (s: { createdAt?: number; endedAt?: number }) => ({
    ...(s.createdAt ? { prCreatedAt: s.createdAt } : {}),
    ...(s.endedAt ? { endedAt: s.endedAt } : {})
  })
  if ('error' in state)
    return {
      notice: `Could not read the state of the docs pull request ${job.prLink} (${state.error}), so these changes start a new job instead of joining it.${state.hint ?? ''}`,
      info: 'Starting a new job.'
    }
  if (state.state === 'open')
    return {
      target: { jobId: job.id, docsPr: job.prLink },
      info: `The docs pull request ${job.prLink} of job ${job.id} is still open: sending the changes to the job as a follow-up.`,
      seen: { jobId: job.id, state: 'open', prLink: job.prLink, ...times(state) }
    }
  return {
    info: `The docs pull request ${job.prLink} of job ${job.id} is ${state.state}: starting a new job.`,
    seen: { jobId: job.id, state: state.state, prLink: job.prLink, ...times(state) }
  }
}
