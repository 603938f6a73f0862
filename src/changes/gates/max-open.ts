import { docsFailure } from '../../github/docs-pulls.js'
import type { AgentJob } from '../../mintlify/agent-jobs.js'
import { errorText } from '../../runner/errors.js'
import { counted } from '../../runner/text.js'
import { type DocsPullUpdate, pullUpdate } from '../../agent/ledger/expiry.js'
import { LIVE, type ProjectLedger } from '../../records/ledger.js'
import { batchSize } from '../change-rules.js'
import { parsePullLink } from '../../github/event.js'
import type { FoldDecision } from '../../agent/ledger/fold.js'
import type { FoldContext } from '../fold.js'
import { type DecidedInput, changesWait, heldWrite } from './gate.js'
import { type Gate, PASS } from '../../agent/gates/gate.js'

/**
 * `max-open`: a batch that starts a new job waits on the dashboard while the project has that many
 * docs pull requests open or on the way; the waiting changes go into one job once one is merged or
 * closed. A batch folded into an open job adds none, and passes.
 */
export const maxOpen: Gate<DecidedInput> = {
  name: 'max-open',
  says: 'a new job would not pass `max-open`, the project’s docs pull requests open at once (a fold passes); otherwise the changes wait',
  async check(input) {
    const { settings, decision, ledger, foldContext, notices, batch } = input
    const max = settings.maxOpen
    if (decision.target || !max) return PASS
    const count = await countOpen(ledger.project, max, decision, foldContext)
    ledger.noteUpdates(count.updates)
    if (count.unread.length)
      notices.push(
        `Could not read ${count.unread.join('; ')}: counted as open for 'max-open'.${count.grant}`
      )
    if (count.open.length < max) return PASS
    const which = count.open
      .slice(0, 5)
      .map(o => o.prLink ?? `job ${o.jobId} (running)`)
      .join(', ')
    return {
      kind: 'hold',
      why: `At 'max-open: ${max}': ${counted(count.open.length, 'docs pull request')} of this project open or on the way (${which}). ${changesWait(batchSize(batch))} on the dashboard; the waiting changes go into one job together once one is merged or closed.`,
      written: await heldWrite(input)
    }
  }
}

/** Jobs read at most to tell whether the ledger's open docs pull requests are still open. */
const MAX_READS = 10

export interface OpenCount {
  /** The project's docs pull requests still open, and its running jobs without one yet. */
  open: { jobId: string; prLink?: string }[]
  /** What the reads learnt, for the ledger. */
  updates: DocsPullUpdate[]
  /** Jobs that could not be read: counted as open, and why. */
  unread: string[]
  /** What to grant, when GitHub refused a read for want of access (the door's sentence), else ''. */
  grant: string
}

/**
 * `max-open`: how many docs pull requests of the project are open, a running job without one yet
 * included, by the ledger. Only when the ledger's count reaches `max` are its jobs read again (the
 * service for a job without a docs pull request, GitHub for one with): a docs pull request merged
 * by hand then frees its place. What cannot be read counts as open.
 */
export async function countOpen(
  project: ProjectLedger,
  max: number,
  fold: FoldDecision,
  ctx: FoldContext
): Promise<OpenCount> {
  const seen = fold.seen
  const live = project.jobs
    .map(j => (seen && j.id === seen.jobId ? { ...j, state: seen.state } : j))
    .filter(j => LIVE.has(j.state))
  if (live.length < max)
    return {
      open: live.map(j => ({ jobId: j.id, prLink: j.prLink })),
      updates: [],
      unread: [],
      grant: ''
    }
  const open: OpenCount['open'] = []
  const updates: DocsPullUpdate[] = []
  const unread: string[] = []
  let grant = ''
  for (const [i, known] of [...live].reverse().entries()) {
    // Checked just now by the fold decision (which found it open or running), or past the reads.
    if (i >= MAX_READS || known.id === seen?.jobId) {
      open.push({ jobId: known.id, prLink: known.prLink })
      continue
    }
    let link = known.prLink
    if (!link) {
      let job: AgentJob
      try {
        job = await ctx.readJob(known.id)
      } catch (error) {
        unread.push(`job ${known.id}: ${errorText(error).replace(/\.$/, '')}`)
        open.push({ jobId: known.id })
        continue
      }
      if (job.status === 'active' || !job.prLink) {
        if (job.status === 'active') open.push({ jobId: known.id })
        else updates.push({ jobId: known.id, state: 'ended' })
        continue
      }
      link = job.prLink
    }
    const where = parsePullLink(link, ctx.serverUrl)
    if (!where) {
      open.push({ jobId: known.id, prLink: link })
      continue
    }
    try {
      const pull = await ctx.docs.state(where)
      if (pull.state !== 'open') updates.push(pullUpdate(known.id, pull))
      else {
        open.push({ jobId: known.id, prLink: link })
        updates.push({ ...pullUpdate(known.id, pull), prLink: link })
      }
    } catch (error) {
      const failed = docsFailure(error)
      unread.push(`${link}: ${failed.why}`)
      grant ||= failed.grant('read')
      open.push({ jobId: known.id, prLink: link })
    }
  }
  return { open, updates, unread, grant }
}
