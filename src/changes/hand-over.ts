import type { AgentJob } from '../mintlify/agent-jobs.js'
import type { LedgerSession } from '../agent/ledger/ledger-session.js'
import type { LedgerHooks, PreparedRun, RunAbout } from '../agent/prepared-run.js'
import { requestReviewers, tellSources } from './after-job.js'
import type { ChangeBatch } from '../agent/batch.js'
import type { ChangeContext } from './change-context.js'
import type { FoldTarget } from '../agent/ledger/fold.js'
import type { GateReads } from './gates/gate.js'

/**
 * The last step before the service: the prompt, the live comment, the check that the ledger can be
 * written, and the hooks that record the job on the dashboard; a follow-up to the job the batch folds
 * into, or a new job. A dry run writes nothing.
 */
export async function handOver(
  ctx: ChangeContext,
  session: LedgerSession,
  batch: ChangeBatch,
  fold: FoldTarget | undefined,
  run: RunAbout,
  /** Describes the batch: the reader's, or a docs project's (each repository's patches). */
  reads: Pick<GateReads, 'prompt'> = ctx.reader
): Promise<PreparedRun> {
  const { settings, event, deps } = ctx
  const prompt = await reads.prompt(batch, false)
  const target = ctx.commentTarget(batch)
  const comment =
    target === undefined || settings.dryRun
      ? undefined
      : ctx.comment(target, fold?.docsPr, Boolean(fold))
  // Before anything is started: without 'issues: write' nothing is sent that the ledger could not record.
  if (!settings.dryRun) {
    const known = session.notices.length
    await session.ensureWritable()
    run.notices.push(...session.notices.slice(known))
  }
  const ledger: LedgerHooks = {
    accepted: (job, followUp) => session.accepted(job, batch, followUp),
    uncertain: (followUp, why, jobId) =>
      session.uncertain(batch, followUp ? 'follow-up' : 'new-job', why, jobId),
    finished: async (job, result) => {
      await session.finished(job, result)
      if (settings.comment !== 'false')
        await tellSources(ctx.github, batch, job, {
          commented: target,
          runUrl: event.runUrl,
          log: deps.log
        })
    }
  }
  const common = {
    ...run,
    comment,
    batch,
    ledger,
    requestReviewers: (job: AgentJob) => requestReviewers(batch, job, settings, event, deps)
  }
  if (fold) {
    const followUp = await reads.prompt(batch, true)
    return {
      ...common,
      request: { jobId: fold.jobId, prompt: followUp, fallbackPrompt: prompt },
      followUp: true,
      fold,
      kind: 'follow-up'
    }
  }
  return { ...common, request: { prompt }, followUp: false, kind: 'new-job' }
}
