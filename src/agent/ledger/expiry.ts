import {
  type DocsPull,
  type DocsPullState,
  type DocsPulls,
  docsFailure,
  docsPullState
} from '../../github/docs-pulls.js'
import { parsePullLink } from '../../github/event.js'
import type { Logger } from '../../runner/logger.js'
import { codeSpan, escapeMarkdown, markdownLink } from '../../runner/markdown.js'
import { Key } from '../names.js'
import { type KeptOpen, LIVE, type LedgerJob, type ProjectLedger } from '../../records/ledger.js'
import { type Staleness, day, judgeStaleness } from './staleness.js'

/** What became of a job's docs pull request, as read (and perhaps closed) in this run. */
export interface DocsPullUpdate {
  jobId: string
  /** The docs pull request, when the service reported it only now. */
  prLink?: string
  state: 'active' | 'started' | 'open' | 'merged' | 'closed' | 'expired' | 'ended'
  prCreatedAt?: number
  endedAt?: number
  /** Read for the outcomes at this time (epoch ms). */
  checkedAt?: number
  /** A draft, as read now. */
  draft?: boolean
  /** A person committed to it, as read after its merge. */
  personCommitted?: boolean
  /** Read after its merge, with more commits than read and none of them a person's: not known. */
  touchUnread?: boolean
  /** Why `expire-after` keeps it open, as judged now. */
  kept?: KeptOpen
  /** The agent's git email, read the first time its activity was (kept from then on). */
  agentEmail?: string
}

export interface ExpiryContext {
  /** `expire-after` in ms, and as the user wrote it. */
  afterMs: number
  afterText: string
  /** `keep-label`: docs pull requests with it are never closed. */
  keepLabel: string
  now: number
  /** The docs repository's pull requests, with `docs-token`. */
  docs: DocsPulls
  serverUrl: string
  /** The dashboard issue, linked from the closing comment. */
  dashboardUrl?: string
  log: Logger
  /** Decide only: read, but close and comment on nothing. */
  dryRun: boolean
}

/** Docs pull requests read at most for expiry in one run (the oldest first). */
export const MAX_EXPIRY_READS = 5

/** One docs pull request's turn: what the ledger learns, or `stop` when the token cannot go on. */
type Turn = { update?: DocsPullUpdate; expired?: boolean } | { stop: true }

/**
 * `expire-after`: the ledger's docs pull requests of the project that nobody but the agent has
 * touched for longer than the duration are closed with a comment that says what stale meant and
 * links the dashboard. Staleness runs from the last activity by a person (a commit, a review of any
 * state, a comment, a label added or removed), or from the pull request's creation; one that a
 * person pushed to, approved or requested changes on (dismissed since or not) or gave `keep-label`
 * is never closed, and the ledger says why it was kept.
 * At most MAX_EXPIRY_READS pull requests a run, those never kept first: a pull request read (1
 * request), and for one older than the duration its activity (1 GraphQL request, and who
 * `docs-token` is, once). A docs token without access is a warning naming it; the run goes on.
 */
export async function expireStale(
  project: ProjectLedger,
  ctx: ExpiryContext
): Promise<{ updates: DocsPullUpdate[]; expired: string[] }> {
  const updates: DocsPullUpdate[] = []
  const expired: string[] = []
  const due = project.jobs
    .filter(j => j.prLink && LIVE.has(j.state) && ctx.now - j.startedAt > ctx.afterMs)
    // Kept ones last, the longest unjudged first: a kept pull request never holds back the others.
    .sort((a, b) => (a.kept?.at ?? 0) - (b.kept?.at ?? 0) || a.startedAt - b.startedAt)
    .slice(0, MAX_EXPIRY_READS)
  for (const job of due) {
    const link = job.prLink as string
    const where = parsePullLink(link, ctx.serverUrl)
    if (!where) continue
    const turn = await expireOne(job, link, where, ctx)
    if ('stop' in turn) break
    if (turn.update) updates.push(turn.update)
    if (turn.expired) expired.push(link)
  }
  return { updates, expired }
}

async function expireOne(
  job: LedgerJob,
  link: string,
  where: DocsPull,
  ctx: ExpiryContext
): Promise<Turn> {
  const { docs, log } = ctx
  // A call to the docs repository that fails stops the expiry for this run, saying what to grant.
  const attempt = async <T>(
    what: string,
    then: string,
    call: () => Promise<T>
  ): Promise<{ answer: T } | { stop: true }> => {
    try {
      return { answer: await call() }
    } catch (error) {
      const failed = docsFailure(error)
      log.warning(
        `Could not ${what} ${link} with '${docs.tokenInput}' (${failed.why}), ${then}${failed.grant('read and write')}`
      )
      return { stop: true }
    }
  }
  const read = await attempt(
    'read the docs pull request',
    'so stale docs pull requests are not closed in this run.',
    () => docs.pull(where)
  )
  if ('stop' in read) return read
  const pull = read.answer
  const seen = docsPullState(pull)
  if (seen.state !== 'open') return { update: pullUpdate(job.id, seen) }
  const createdAt = pull.createdAt ?? job.startedAt
  const open = {
    jobId: job.id,
    state: 'open' as const,
    prCreatedAt: createdAt,
    draft: Boolean(pull.draft)
  }
  if (ctx.now - createdAt <= ctx.afterMs) return { update: open }
  let agentEmail = job.agentEmail
  const judged = await attempt(
    'read who touched the docs pull request',
    'so stale docs pull requests are not closed in this run: a person’s work is never closed on a guess.',
    async () => {
      // Who `docs-token` is: its comments are the action's own, never a person's.
      const token = await docs.identity(where)
      const activity = await docs.activity(where)
      agentEmail ??= activity.openerEmail
      return judgeStaleness(activity, {
        createdAt,
        now: ctx.now,
        afterMs: ctx.afterMs,
        keepLabel: ctx.keepLabel,
        agent: { token, email: agentEmail }
      })
    }
  )
  if ('stop' in judged) return judged
  const staleness = judged.answer
  if (!('stale' in staleness)) {
    const why =
      'keep' in staleness
        ? staleness.keep
        : `${staleness.recent}, within '${Key.ExpireAfter}: ${ctx.afterText}'`
    log.info(
      `Kept the docs pull request ${link} open past '${Key.ExpireAfter}: ${ctx.afterText}': ${why}.`
    )
    return { update: { ...open, agentEmail, kept: { why, at: ctx.now } } }
  }
  if (ctx.dryRun) {
    log.info(
      `Dry run: nobody but the docs agent has touched the docs pull request ${link} since ${day(staleness.since)}, longer than '${Key.ExpireAfter}: ${ctx.afterText}': it would be closed.`
    )
    return {}
  }
  const closing = await attempt(
    'close the docs pull request',
    `which nobody but the docs agent has touched for longer than '${Key.ExpireAfter}: ${ctx.afterText}'.`,
    () => docs.close(where)
  )
  if ('stop' in closing) return closing
  const closed = closing.answer
  // Merged in the meantime: GitHub keeps a merged pull request as it is.
  const after = docsPullState(closed)
  if (after.state === 'merged') return { update: pullUpdate(job.id, after) }
  log.notice(
    `Closed the docs pull request ${link}: nobody but the docs agent has touched it since ${day(staleness.since)}, longer than '${Key.ExpireAfter}: ${ctx.afterText}'. The next change starts a new job.`
  )
  try {
    await docs.comment(where, closingComment(ctx, staleness))
  } catch (error) {
    log.warning(`Closed ${link} but could not say why in a comment (${docsFailure(error).why}).`)
  }
  return {
    update: { jobId: job.id, state: 'expired', prCreatedAt: createdAt, endedAt: ctx.now },
    expired: true
  }
}

/** What the ledger learns of a job from its docs pull request's state: the state and its times. */
export function pullUpdate(jobId: string, pull: DocsPullState): DocsPullUpdate {
  return {
    jobId,
    state: pull.state,
    ...(pull.createdAt !== undefined ? { prCreatedAt: pull.createdAt } : {}),
    ...(pull.endedAt !== undefined ? { endedAt: pull.endedAt } : {})
  }
}

/** Says what stale meant: nobody but the agent touched it, since when, and how to keep one open. */
function closingComment(ctx: ExpiryContext, stale: Extract<Staleness, { stale: true }>): string {
  const dashboard = ctx.dashboardUrl
    ? ` The changes it held are listed on the ${markdownLink('docs agent dashboard', ctx.dashboardUrl)}.`
    : ''
  // Named, never mentioned: a closing comment notifies nobody.
  const last = stale.touched ? `the last was ${escapeMarkdown(stale.touched)}` : 'it was opened'
  return [
    `📝 **Mintlify agent action**: closed as stale. Nobody but the docs agent has touched this docs pull request since ${day(stale.since)} (${last}), longer than ${codeSpan(`${Key.ExpireAfter}: ${ctx.afterText}`)} allows.${dashboard}`,
    '',
    `Stale means no commit, review, comment or label added or removed by a person in that time. A docs pull request that a person pushed to, approved or requested changes on (even when GitHub dismissed that review since), or labelled ${codeSpan(ctx.keepLabel)}, is never closed. The next code change starts a fresh docs pull request; reopen this one to keep working on it by hand.`
  ].join('\n')
}
