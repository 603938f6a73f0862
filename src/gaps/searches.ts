import { getSearchesPage } from '../mintlify/analytics-gaps.js'
import { CursorPager } from './pager.js'
import { formatCount, ordinal } from '../runner/text.js'
import { cleanReaderText, groupKey } from './reader-text.js'
import { SkippedRows, joinReasons } from './skipped.js'
import {
  type Collector,
  type ReadContext,
  type SearchGap,
  type SearchesSection,
  ranked
} from './report.js'

/** Terms per request: the most the operation allows. */
const SEARCHES_PAGE_SIZE = 100
const MAX_TERM = 200

/**
 * Search terms that were searched at least `min-hits` times and had no result clicked (`ctr` 0 or no
 * `topClickedPage`). The service sends terms by hits, highest first (as its document says), so
 * reading stops at the first page that ends below `min-hits`: nothing after it could count. It also
 * stops, leaving the tail unread, once the `top`th gap was searched more often than the last term
 * read: no unread term could enter the top on its own, so the top is final while the count of gaps
 * is not (a spelling variant in the tail is not added to its term either).
 */
export class SearchesCollector implements Collector {
  readonly signal = 'searches'
  done = false
  private readonly pager = new CursorPager('search terms')
  private totalSearches: number | null = null
  private termsRead = 0
  /** Searches the terms read account for: the rest of `totalSearches` is in the unread tail. */
  private hitsRead = 0
  /** Why the tail was left unread, when it was. */
  private tail: string | null = null
  private pages = 0
  private readonly gaps = new Map<string, SearchGap>()
  private readonly skipped: SkippedRows

  constructor(private readonly ctx: ReadContext) {
    this.skipped = new SkippedRows('search term', ctx.warn)
  }

  async step(): Promise<void> {
    const { ctx } = this
    const page = await getSearchesPage(
      ctx.client,
      ctx.projectId,
      { ...ctx.range, limit: SEARCHES_PAGE_SIZE, cursor: this.pager.cursor },
      ctx.limits
    )
    this.totalSearches ??= page.totalSearches
    this.skipped.add(`search terms page ${++this.pages}`, page.skipped)
    // The service groups terms case-insensitively, so a term sent again is a page sent again.
    for (const row of this.pager.fresh(page.searches, r => r.searchQuery)) {
      this.termsRead++
      this.hitsRead += row.hits
      if (row.hits < ctx.minHits || (row.ctr > 0 && row.topClickedPage !== null)) continue
      const term = cleanReaderText(row.searchQuery, MAX_TERM)
      if (!term) continue
      // Terms that differ only in case or spacing are one gap.
      const key = groupKey(term)
      const seen = this.gaps.get(key)
      if (seen) seen.hits += row.hits
      else this.gaps.set(key, { term, hits: row.hits })
    }
    const last = page.searches[page.searches.length - 1]
    // Terms come by hits, highest first: after one below `min-hits`, none can count.
    const belowMinimum = last !== undefined && last.hits < ctx.minHits
    this.done = belowMinimum || !this.pager.advance({ ...page, rows: page.sent })
    if (this.done || !last) return
    // None unread was searched more than `last` times: if the `top`th gap was, the top is final.
    const floor = this.topFloor()
    if (floor !== undefined && last.hits < floor) {
      this.done = true
      const unread = Math.max(0, (this.totalSearches ?? 0) - this.hitsRead)
      this.tail =
        `the tail was not read: the terms after the first ${formatCount(this.termsRead)} were searched at most ${formatCount(last.hits)} times each, ` +
        `fewer than the ${ordinal(ctx.top)} gap (${formatCount(floor)}), so none of them could enter the top ${ctx.top} ` +
        `(${formatCount(unread)} of the ${formatCount(this.totalSearches ?? 0)} searches are in that tail)`
    }
  }

  /** Searches of the `top`th gap so far, once there are that many. */
  private topFloor(): number | undefined {
    if (this.gaps.size < this.ctx.top) return undefined
    const hits = [...this.gaps.values()].map(g => g.hits).sort((a, b) => b - a)
    return hits[this.ctx.top - 1]
  }

  section(requests: number, unread: string | null): SearchesSection {
    const why = joinReasons(unread ?? this.pager.stoppedEarly, this.skipped.reason)
    return {
      complete: why === null && this.tail === null,
      topComplete: why === null,
      unread: joinReasons(why, this.tail),
      requests,
      skipped: this.skipped.count,
      gaps: this.gaps.size,
      totalSearches: this.totalSearches,
      termsRead: this.termsRead,
      entries: ranked(
        this.gaps.values(),
        g => g.hits,
        g => g.term
      ).slice(0, this.ctx.top)
    }
  }
}
