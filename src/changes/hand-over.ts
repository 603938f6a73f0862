import type { LedgerSession } from '../agent/ledger/ledger-session.js'
import type { PreparedRun, RunAbout } from '../agent/prepared-run.js'
import type { ChangeBatch } from '../agent/batch.js'
import type { ChangeContext } from './change-context.js'
import type { FoldTarget } from '../agent/ledger/fold.js'
import type { GateReads } from './gates/gate.js'

/**
 * The last step before the service: the prompt, the live comment, the check that the ledger can be
 * written, and what records the job on the dashboard; a follow-up to the job the batch folds
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
  const { settings } = ctx
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
  const common = {
    ...run,
    comment,
    batch,
    ledger: session.recorderFor(batch),
    changes: { batch, commented: target, tellSources: true }
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
