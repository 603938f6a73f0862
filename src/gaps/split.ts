import { type ReadLimits, getFeedbackByPage, getSearchesPage } from '../mintlify/analytics-gaps.js'
import type { ApiClient } from '../mintlify/client.js'
import { ApiError } from '../mintlify/errors.js'
import { utcDay } from '../records/ledger.js'
import { counted } from '../runner/text.js'
import { changeName } from './changes.js'
import { type Tie, gapKey } from './causes.js'
import { cleanReaderText, groupKey, pagePath } from './reader-text.js'
import { removedTerms } from './removed-terms.js'
import type { Cause } from './report.js'

/**
 * Distinct merge days split per signal: one analytics request each for searches and for pages, so at
 * most 2 × MAX_SPLIT_DAYS requests; questions are split from the turns already read, for free.
 */
export const MAX_SPLIT_DAYS = 5
const SPLIT_PAGE = 100

export interface SplitContext {
  client: ApiClient
  projectId: string
  /** The analytics range as sent, and where it starts (epoch ms; undefined when open). */
  range: { dateFrom?: string; dateTo?: string; fromAt?: number }
  limits: ReadLimits
  /** When each unanswered question was asked, by its group key: from the turns read. */
  askedAt: ReadonlyMap<string, readonly number[]>
}

/** The ties with their counts before and after the merge day, within the request cap. */
export async function splitAtMerges(
  ties: readonly Tie[],
  ctx: SplitContext
): Promise<{ causes: Cause[]; notices: string[]; requests: number }> {
  const notices: string[] = []
  const causes = ties.map(toCause)
  const usedBefore = ctx.limits.cap.used
  for (const kind of ['search', 'page'] as const) {
    const mine = causes.filter(c => c.gap.kind === kind)
    const days = [...new Set(mine.map(c => c.splitAt))].sort().reverse()
    if (days.length > MAX_SPLIT_DAYS)
      notices.push(
        `The ${kind} gaps tie to changes merged on ${days.length} different days: only the newest ${MAX_SPLIT_DAYS} were split, the others show no before and after.`
      )
    for (const day of days.slice(0, MAX_SPLIT_DAYS)) {
      const group = mine.filter(c => c.splitAt === day)
      const why = await splitDay(kind, day, group, ctx)
      if (why) notices.push(why)
    }
  }
  const untimed: string[] = []
  for (const cause of causes.filter(c => c.gap.kind === 'question')) {
    const times = ctx.askedAt.get(groupKey(cause.gap.text))
    if (!times) continue
    // A turn without a readable time is in the count but on neither side: nothing is guessed.
    if (times.length !== cause.count) {
      untimed.push(changeName(cause))
      continue
    }
    const start = Date.parse(`${cause.splitAt}T00:00:00Z`)
    cause.before = times.filter(t => t < start).length
    cause.after = times.length - cause.before
  }
  if (untimed.length)
    notices.push(
      `${counted(untimed.length, 'question gap')} tied to ${[...new Set(untimed)].join(', ')} could not be split at the merge (the service gave some of their turns no readable time): they show no before and after.`
    )
  return { causes, notices, requests: ctx.limits.cap.used - usedBefore }
}

function toCause(tie: Tie): Cause {
  const { gap, change } = tie
  return {
    gap: { kind: gap.kind, text: gap.text },
    count: gap.count,
    change: change.url,
    ...(change.pr !== undefined ? { pr: change.pr } : {}),
    ...(change.sha ? { sha: change.sha } : {}),
    title: change.title,
    terms: tie.terms,
    removed: removedTerms(change.diff),
    merged: new Date(change.mergedAt).toISOString(),
    splitAt: utcDay(change.mergedAt),
    before: null,
    after: null
  }
}

/**
 * One merge day of one signal: the range from that day on is read once (the most frequent rows),
 * and each gap's count there is `after`; `before` is the rest of the range's count. Returns a
 * notice when something stayed unmeasured.
 */
async function splitDay(
  kind: 'search' | 'page',
  day: string,
  group: Cause[],
  ctx: SplitContext
): Promise<string | undefined> {
  const start = Date.parse(`${day}T00:00:00Z`)
  if (ctx.range.fromAt !== undefined && start <= ctx.range.fromAt) {
    // The whole range is on or after the merge day: nothing before it to read.
    for (const c of group) [c.before, c.after] = [0, c.count]
    return undefined
  }
  const names = group.map(c => changeName(c)).join(', ')
  if (ctx.limits.cap.left <= 0)
    return `No request was left under 'max-requests' (${ctx.limits.cap.max}) to split the ${kind} gaps at the merge of ${names} (${day}): they show no before and after.`
  const query = {
    dateFrom: day,
    ...(ctx.range.dateTo ? { dateTo: ctx.range.dateTo } : {}),
    limit: SPLIT_PAGE
  }
  let after: Map<string, number>
  let complete: boolean
  try {
    if (kind === 'search') {
      const page = await getSearchesPage(ctx.client, ctx.projectId, query, ctx.limits)
      // As the gap counts them: searches with no result clicked (a row with clicks is no gap).
      const unclicked = page.searches.filter(r => !(r.ctr > 0 && r.topClickedPage !== null))
      after = summed(unclicked.map(r => [groupKey(cleanReaderText(r.searchQuery, 200)), r.hits]))
      // A row out of shape could be the gap's: it is not known, not none.
      complete = page.nextCursor === null && !page.skipped.length
    } else {
      const page = await getFeedbackByPage(
        ctx.client,
        ctx.projectId,
        { ...query, source: 'contextual' },
        ctx.limits
      )
      after = summed(page.feedback.map(r => [pagePath(r.path), r.thumbsDown]))
      complete = !page.hasMore && !page.skipped.length
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return `Could not split the ${kind} gaps at the merge of ${names} (${day}): ${error.message.replace(/\.$/, '')}. They show no before and after.`
  }
  const unmeasured: string[] = []
  for (const cause of group) {
    const n = after.get(gapKey({ ...cause.gap, count: cause.count }))
    if (n === undefined && !complete) {
      unmeasured.push(cause.gap.text)
      continue
    }
    const a = n ?? 0
    // The service counted more after the merge than in the whole range: no split to trust.
    if (a > cause.count) {
      unmeasured.push(cause.gap.text)
      continue
    }
    ;[cause.before, cause.after] = [cause.count - a, a]
  }
  return unmeasured.length
    ? `${unmeasured.length} of the ${kind} gaps tied to ${names} could not be split at ${day} (not among the ${SPLIT_PAGE} rows read from that day on, sent out of shape, or counted inconsistently): they show no before and after.`
    : undefined
}

function summed(rows: [string, number][]): Map<string, number> {
  const sums = new Map<string, number>()
  for (const [key, n] of rows) sums.set(key, (sums.get(key) ?? 0) + n)
  return sums
}
