import { ExplainedError } from '../runner/errors.js'
import { unknownEarlierJob } from '../agent/comment/live-comment.js'
import type { PreparedRun } from '../agent/prepared-run.js'
import { applyGates } from '../agent/gates/gate.js'
import { OWN_GATES } from './gates/order.js'
import type { ChangeBatch } from '../agent/batch.js'
import { readPull } from './change-batch.js'
import { type ChangeContext, skipped } from './change-context.js'
import type { ChangePlan } from './change-plan.js'
import { applyRules, pullRefusal } from './change-rules.js'
import { nothingLeftOf } from './gates/nothing-left.js'
import { fitBatch } from './batch-fit.js'

/**
 * One change on its own, outside the ledger (`dashboard: false`, a pull request not merged yet,
 * another branch): the change rules, the trust gate for an unmerged pull request, and the
 * "nothing left" gate; no catch-up, no fold.
 */
export async function ownChange(
  ctx: ChangeContext,
  plan: Extract<ChangePlan, { kind: 'own' }>
): Promise<PreparedRun> {
  const { settings, event, deps } = ctx
  let batch: ChangeBatch
  if (plan.pull) {
    const why = pullRefusal({ ...plan.pull, files: [], filesComplete: false }, ctx.rules)
    if (why) return skipped(`Pull request ${why}`, plan.source)
    if (plan.gate) {
      const stop = await applyGates(OWN_GATES.opened, {
        event,
        settings,
        github: async () => ctx.github,
        signal: deps.signal
      })
      if (stop) return skipped(stop.why, plan.source)
    }
    const pull = await ctx.reader.read(`read pull request #${plan.pull.number}`, () =>
      readPull(ctx.github, ctx.event, plan.pull?.number as number)
    )
    if (!pull)
      throw new ExplainedError(
        `GitHub knows no pull request #${plan.pull.number} in ${event.owner}/${event.repo}.`
      )
    batch = {
      repository: `${event.owner}/${event.repo}`,
      branch: pull.base,
      url: pull.url,
      head: pull.mergeCommit ?? '',
      pulls: [pull],
      commits: [],
      skipped: [],
      leftOut: []
    }
  } else {
    const push = plan.push as NonNullable<typeof plan.push>
    batch = await ctx.reader.readRange(
      push.after,
      push.created ? undefined : push.before,
      push.ref.replace(/^refs\/heads\//, ''),
      true
    )
  }
  // No later run takes what the prompt leaves out: it describes the newest changes.
  batch = fitBatch(
    applyRules(batch, { ...ctx.rules, docsIdentity: await ctx.reader.docsIdentity() }),
    true
  )
  const empty = nothingLeftOf(batch)
  if (empty.kind === 'skip') return skipped(empty.why, plan.source ?? batch.url)
  const target = ctx.commentTarget(batch)
  const comment = target === undefined ? undefined : ctx.comment(target)
  if (event.runAttempt > 1) {
    // A re-run waits on its first attempt's job, recorded in its comment. Comments that cannot be
    // read start nothing; read, and without this run's record, its first attempt started no job.
    const recorded = (await comment?.recorded())?.find(
      r => r.marker.run === event.runId && r.marker.step === deps.markers.step
    )
    if (recorded) {
      comment?.adopt(recorded.commentId)
      return ctx.resume(recorded.marker.job, batch, comment)
    }
    if (comment?.unreadable) throw unknownEarlierJob(event, `#${target}`)
  }
  const prompt = await ctx.reader.prompt(batch, false)
  return {
    source: plan.source ?? batch.url,
    request: { prompt },
    comment,
    followUp: false,
    notices: [],
    kind: 'new-job',
    batch,
    changes: { batch, commented: target, tellSources: false }
  }
}
