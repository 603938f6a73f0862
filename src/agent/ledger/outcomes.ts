import {
  type DocsPull,
  type DocsPullState,
  type DocsPulls,
  docsFailure
} from '../../github/docs-pulls.js'
import { parsePullLink } from '../../github/event.js'
import type { Logger } from '../../runner/logger.js'
import { Input } from '../names.js'
import { type DocsPullUpdate, pullUpdate } from './expiry.js'
import { isPush, peopleOf } from './staleness.js'
import {
  LIVE,
  type LedgerJob,
  OUTCOME_WINDOW_MS,
  type ProjectLedger,
  openedAt,
  startsIn30Days
} from '../../records/ledger.js'
import { DAY_MS, HOUR_MS } from '../../runner/duration.js'

/** Docs-repository requests at most, in one run, to bring the outcomes up to date. */
export const MAX_OUTCOME_READS = 5

/** An expired docs pull request is read again at most once a day, for a person's reopen and merge. */
const EXPIRED_REREAD_MS = DAY_MS

const DECIDED: ReadonlySet<string> = new Set(['merged', 'closed', 'expired'])
export const STILL_OPEN: ReadonlySet<string> = new Set(['active', 'started', 'open'])

export interface OutcomeContext {
  now: number
  /** The docs repository's pull requests: with `docs-token`, else `github-token`. */
  docs: DocsPulls
  serverUrl: string
  log: Logger
  /** Jobs read (or to be read) elsewhere in this run: the fold decision's, expiry's. */
  skip: ReadonlySet<string>
}

export interface OutcomeReads {
  /** What changed: a state or a time. */
  changed: DocsPullUpdate[]
  /** Read and unchanged: only when it was read, so the next run reads others first. */
  checked: DocsPullUpdate[]
}

/**
 * The ledger's docs pull requests of the last 30 days whose outcome is not known yet (still open,
 * or merged or closed without its time), and older ones it still lists as open (the ledger keeps
 * those however old, for max-open and expire-after: one merged by hand must leave), are read again,
 * those never read first, then those read longest ago, the oldest first: at most MAX_OUTCOME_READS
 * requests. A token without access is a warning naming it; the run goes on.
 */
export async function refreshOutcomes(
  project: ProjectLedger,
  ctx: OutcomeContext
): Promise<OutcomeReads> {
  const due = project.jobs
    .filter(
      j =>
        j.prLink &&
        !ctx.skip.has(j.id) &&
        (inWindow(j, ctx.now) || LIVE.has(j.state)) &&
        unknown(j, ctx.now)
    )
    .sort((a, b) => (a.checkedAt ?? 0) - (b.checkedAt ?? 0) || openedAt(a) - openedAt(b))
  const changed: DocsPullUpdate[] = []
  const checked: DocsPullUpdate[] = []
  let reads = 0
  const people = personCommits(ctx)
  for (const job of due) {
    if (reads >= MAX_OUTCOME_READS) break
    const link = job.prLink as string
    const where = parsePullLink(link, ctx.serverUrl)
    if (!where) continue
    reads++
    let pull: DocsPullState
    try {
      pull = await ctx.docs.state(where)
    } catch (error) {
      const failed = docsFailure(error)
      const { tokenInput } = ctx.docs
      const text = `Could not read the docs pull request ${link} with '${tokenInput}' (${failed.why}), so the dashboard's outcomes are not brought up to date in this run.${failed.grant('read')}`
      // The run's own token cannot be expected to read another repository: worth a notice only.
      if (tokenInput === Input.DocsToken) ctx.log.warning(text)
      else ctx.log.notice(text)
      break
    }
    const update: DocsPullUpdate = { ...outcomeOf(job, pull), checkedAt: ctx.now }
    if (update.state === 'merged' && job.personCommitted === undefined && !people.failed)
      Object.assign(update, await people.committed(where, link, job.agentEmail))
    if (changes(job, update)) changed.push(update)
    else checked.push(update)
  }
  return { changed, checked }
}

/**
 * Whether a person committed to a merged docs pull request, for the zero-touch rate: its activity
 * read once (1 GraphQL request), the agent's identities left out. What cannot be read stays unknown,
 * and no other is read in this run.
 */
function personCommits(ctx: OutcomeContext) {
  const state = {
    failed: false,
    async committed(
      where: DocsPull,
      link: string,
      known?: string
    ): Promise<Pick<DocsPullUpdate, 'personCommitted' | 'touchUnread' | 'agentEmail'>> {
      try {
        // The token's identity is the agent's only when it is `docs-token`.
        const token =
          ctx.docs.tokenInput === Input.DocsToken ? await ctx.docs.identity(where) : undefined
        const activity = await ctx.docs.activity(where)
        const agentEmail = known ?? activity.openerEmail
        const people = peopleOf(activity, { token, email: agentEmail })
        if (people.some(isPush)) return { personCommitted: true, agentEmail }
        // Older commits not read may hold a person's: not known, out of the zero-touch rate.
        if (activity.unread) return { touchUnread: true, agentEmail }
        return { personCommitted: false, agentEmail }
      } catch (error) {
        state.failed = true
        ctx.log.info(
          `Could not read who committed to ${link} (${docsFailure(error).why}): the zero-touch rate counts it once it is read.`
        )
        return {}
      }
    }
  }
  return state
}

function outcomeOf(job: LedgerJob, pull: DocsPullState): DocsPullUpdate {
  const read = { ...pullUpdate(job.id, pull), draft: pull.draft }
  if (pull.state === 'merged') return read
  // Closed by expire-after: expired still, unless a person reopened and merged it (above). One
  // reopened and open is not the agent's to fold into again.
  if (job.state === 'expired')
    return {
      ...pullUpdate(job.id, { ...pull, endedAt: undefined }),
      state: 'expired',
      draft: pull.draft
    }
  if (pull.state === 'closed') return read
  // A job still at work keeps its state: its docs pull request is open.
  return { ...read, state: job.state === 'active' || job.state === 'started' ? job.state : 'open' }
}

const changes = (job: LedgerJob, u: DocsPullUpdate): boolean =>
  job.state !== u.state ||
  Boolean(u.prCreatedAt && u.prCreatedAt !== job.prCreatedAt) ||
  Boolean(u.endedAt && u.endedAt !== job.endedAt) ||
  Boolean(u.draft) !== Boolean(job.draft) ||
  (u.personCommitted !== undefined && u.personCommitted !== job.personCommitted) ||
  Boolean(u.touchUnread && !job.touchUnread)

const inWindow = (job: LedgerJob, now: number): boolean => openedAt(job) > now - OUTCOME_WINDOW_MS

/**
 * Not decided yet as far as the ledger knows, or decided without the times the figures need, or
 * merged without knowing whether a person committed to it (unless its commits were too many to
 * read), or expired and not read for a day: the closing comment invites a person to reopen it,
 * and they may merge it.
 */
const unknown = (job: LedgerJob, now: number): boolean =>
  job.state === 'expired'
    ? now - (job.checkedAt ?? job.endedAt ?? 0) >= EXPIRED_REREAD_MS
    : !DECIDED.has(job.state) ||
      !job.endedAt ||
      !job.prCreatedAt ||
      (job.state === 'merged' && job.personCommitted === undefined && !job.touchUnread)

/** The dashboard's figures over the last 30 days, by the docs pull request's creation. */
export interface Outcomes {
  started: number
  merged: number
  closed: number
  expired: number
  /** Still open and ready for review (or not read yet), drafts apart. */
  open: number
  /** Still open as drafts: not decided, and not counted among `open`. */
  drafts: number
  /** merged / (merged + closed + expired), when anything was decided. */
  acceptance?: number
  decided: number
  /** Merged without a person's commit, of `touchKnown` merged whose commits were read. */
  zeroTouch: number
  touchKnown: number
  /** Merged with more timeline events than one read holds and no person's commit among those read. */
  touchTooLong: number
  /** From the job's start to the merge (ms). */
  medianToMerge?: number
  /** Estimated credits of every job and follow-up started, per merged docs pull request. */
  creditsPerMerge?: number
}

export function outcomes(project: ProjectLedger, now: number, creditsPerRun = 180): Outcomes {
  const jobs = project.jobs.filter(j => j.prLink && inWindow(j, now))
  const count = (states: ReadonlySet<string>, draft = false) =>
    jobs.filter(j => states.has(j.state) && Boolean(j.draft) === draft).length
  const state = (s: string) => jobs.filter(j => j.state === s).length
  const merged = state('merged')
  const closed = state('closed')
  const expired = state('expired')
  const touched = jobs.filter(j => j.state === 'merged' && j.personCommitted !== undefined)
  const decided = merged + closed + expired
  const started = startsIn30Days(project, now)
  const toMerge = jobs
    .filter(j => j.state === 'merged' && j.endedAt && j.endedAt >= j.startedAt)
    .map(j => (j.endedAt as number) - j.startedAt)
  return {
    started,
    merged,
    closed,
    expired,
    open: count(STILL_OPEN),
    drafts: count(STILL_OPEN, true),
    decided,
    acceptance: decided ? merged / decided : undefined,
    zeroTouch: touched.filter(j => !j.personCommitted).length,
    touchKnown: touched.length,
    touchTooLong: jobs.filter(j => j.state === 'merged' && j.touchUnread).length,
    medianToMerge: median(toMerge),
    creditsPerMerge: merged ? Math.round((started * creditsPerRun) / merged) : undefined
  }
}

function median(values: number[]): number | undefined {
  if (!values.length) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** A duration in hours under two days, in days from then: `5 hours`, `2.5 days`. */
export function hoursOrDays(ms: number): string {
  const hours = ms / HOUR_MS
  if (hours < 1) return 'under an hour'
  if (hours < 48) {
    const h = Math.round(hours)
    return `${h} ${h === 1 ? 'hour' : 'hours'}`
  }
  const days = Math.round((hours / 24) * 10) / 10
  return `${days} days`
}
