import { getFeedbackByPage, getFeedbackPage } from '../mintlify/analytics-gaps.js'
import { CursorPager } from './pager.js'
import { cleanReaderText, pagePath } from './reader-text.js'
import { SkippedRows, joinReasons } from './skipped.js'
import {
  type Collector,
  type FeedbackSection,
  type PageGap,
  type ReadContext,
  ranked
} from './report.js'

/** Pages per ranking: the most the operation allows, and it has no cursor for more. */
const BY_PAGE_LIMIT = 100
const FEEDBACK_PAGE_SIZE = 100
/** Comments are a sample: a few per page, from at most this many pages of the newest entries. */
const COMMENTS_PER_PAGE = 3
const MAX_COMMENT_REQUESTS = 5
export const MAX_COMMENT = 500
/** Comments still open on the dashboard: resolved or dismissed ones have been dealt with. */
const OPEN_STATUSES = 'pending,in_progress'

/**
 * Pages readers rated unhelpful: `/feedback/by-page` counts thumbs-up and thumbs-down per page; the
 * pages with the most thumbs-down are then given a few of their readers' comments from `/feedback`
 * (contextual feedback, not helpful, still open). A reader's `contact` address is never read in.
 */
export class FeedbackCollector implements Collector {
  readonly signal = 'feedback'
  done = false
  private pages?: PageGap[]
  private readonly wanted = new Map<string, PageGap>()
  private readonly pager = new CursorPager('feedback')
  private commentRequests = 0
  private entriesRead = 0
  private stoppedEarly: string | null = null
  /** Rows of the ranking itself skipped: a page left out could belong in the top. */
  private rankingSkipped = 0
  private readonly skipped: SkippedRows

  constructor(private readonly ctx: ReadContext) {
    this.skipped = new SkippedRows('feedback', ctx.warn)
  }

  async step(): Promise<void> {
    if (this.pages) return this.readComments()
    const { ctx } = this
    const answer = await getFeedbackByPage(
      ctx.client,
      ctx.projectId,
      { ...ctx.range, limit: BY_PAGE_LIMIT, source: 'contextual' },
      ctx.limits
    )
    this.skipped.add('feedback per page', answer.skipped)
    this.rankingSkipped = answer.skipped.length
    // A path and the same page's URL, or a trailing slash, are one page.
    const byPath = new Map<string, PageGap>()
    // A path listed twice is counted once (one request, so the raw paths are few).
    const listed = new Set<string>()
    for (const row of answer.feedback) {
      if (listed.has(row.path)) continue
      listed.add(row.path)
      const path = pagePath(row.path)
      const page = byPath.get(path) ?? { path, thumbsDown: 0, thumbsUp: 0, comments: [] }
      page.thumbsDown += row.thumbsDown
      page.thumbsUp += row.thumbsUp
      byPath.set(path, page)
    }
    this.pages = ranked(
      [...byPath.values()].filter(p => p.thumbsDown > 0),
      p => p.thumbsDown,
      p => p.path
    )
    if (answer.hasMore) {
      this.stoppedEarly = `the service listed ${answer.feedback.length} pages with feedback and said there were more, which it offers no way to read`
    }
    for (const page of this.pages.slice(0, this.ctx.top)) this.wanted.set(page.path, page)
    this.done = this.wanted.size === 0
  }

  private async readComments(): Promise<void> {
    const { ctx } = this
    const answer = await getFeedbackPage(
      ctx.client,
      ctx.projectId,
      {
        ...ctx.range,
        limit: FEEDBACK_PAGE_SIZE,
        cursor: this.pager.cursor,
        source: 'contextual',
        status: OPEN_STATUSES
      },
      ctx.limits
    )
    this.commentRequests++
    this.skipped.add(`feedback entries page ${this.commentRequests}`, answer.skipped)
    for (const entry of this.pager.fresh(answer.feedback, e => e.id)) {
      this.entriesRead++
      if (entry.source !== 'contextual' || entry.helpful !== false || !entry.comment) continue
      const page = this.wanted.get(pagePath(entry.path))
      if (!page || page.comments.length >= COMMENTS_PER_PAGE) continue
      const comment = cleanReaderText(entry.comment, MAX_COMMENT)
      if (comment && !page.comments.includes(comment)) page.comments.push(comment)
    }
    const satisfied = [...this.wanted.values()].every(p => p.comments.length >= COMMENTS_PER_PAGE)
    this.done =
      satisfied ||
      this.commentRequests >= MAX_COMMENT_REQUESTS ||
      !this.pager.advance({ ...answer, rows: answer.sent })
  }

  section(requests: number, unread: string | null): FeedbackSection {
    const why = joinReasons(this.stoppedEarly, this.pager.stoppedEarly, unread, this.skipped.reason)
    return {
      complete: why === null,
      // The ranking is one answer; comments are a sample and do not change it.
      topComplete:
        this.pages !== undefined && this.stoppedEarly === null && this.rankingSkipped === 0,
      unread: why,
      requests,
      skipped: this.skipped.count,
      pages: this.pages?.length ?? 0,
      entriesRead: this.entriesRead,
      entries: (this.pages ?? []).slice(0, this.ctx.top)
    }
  }
}
