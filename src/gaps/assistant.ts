import { type AssistantPage, getAssistantPage } from '../mintlify/analytics-gaps.js'
import { AnswerTooLargeError } from '../mintlify/errors.js'
import { CursorPager } from './pager.js'
import { cleanReaderText, groupKey, pagePath } from './reader-text.js'
import { SkippedRows, joinReasons } from './skipped.js'
import {
  type AssistantSection,
  type Collector,
  type QuestionGap,
  type ReadContext,
  ranked
} from './report.js'

/**
 * Turns per request: the most the operation allows (10,000 turns in 10 requests). A page whose answer
 * is larger than the client reads (long answers) is asked for again at half the size, down to the
 * operation's default.
 */
const ASSISTANT_PAGE_SIZE = 1000
const SMALLEST_PAGE_SIZE = 100
const MAX_QUESTION = 300
const PAGES_PER_QUESTION = 3

/**
 * Questions the assistant marked as not covered by the docs (`resolutionStatus: unanswered`),
 * grouped by question with case, spacing and end punctuation set aside, most asked first. The
 * assistant's own answers are never read in.
 */
export class AssistantCollector implements Collector {
  readonly signal = 'assistant'
  done = false
  private readonly pager = new CursorPager('conversations')
  private turnsRead = 0
  private unansweredTurns = 0
  private readonly questions = new Map<string, QuestionGap>()
  /** Per question, how often each way of writing it was seen: the commonest one is shown. */
  private readonly spellings = new Map<string, Map<string, number>>()
  private pages = 0
  private pageSize = ASSISTANT_PAGE_SIZE
  private readonly skipped: SkippedRows

  constructor(private readonly ctx: ReadContext) {
    this.skipped = new SkippedRows('conversation', ctx.warn)
  }

  async step(): Promise<void> {
    const { ctx } = this
    let page: AssistantPage
    try {
      page = await getAssistantPage(
        ctx.client,
        ctx.projectId,
        { ...ctx.range, limit: this.pageSize, cursor: this.pager.cursor },
        ctx.limits
      )
    } catch (error) {
      if (!(error instanceof AnswerTooLargeError) || this.pageSize <= SMALLEST_PAGE_SIZE)
        throw error
      this.pageSize = Math.max(SMALLEST_PAGE_SIZE, Math.floor(this.pageSize / 2))
      ctx.info(`${error.message} Asking for ${this.pageSize} conversations a page instead.`)
      return
    }
    this.skipped.add(`conversations page ${++this.pages}`, page.skipped)
    for (const turn of this.pager.fresh(page.conversations, t => t.id)) {
      this.turnsRead++
      if (turn.resolutionStatus !== 'unanswered') continue
      this.unansweredTurns++
      const question = cleanReaderText(turn.query, MAX_QUESTION)
      if (!question) continue
      const key = groupKey(question)
      const at = Date.parse(turn.timestamp)
      if (Number.isFinite(at)) ctx.asked?.(key, at)
      const gap = this.questions.get(key) ?? { question, count: 0, pages: [] }
      gap.count++
      const spellings = this.spellings.get(key) ?? new Map<string, number>()
      spellings.set(question, (spellings.get(question) ?? 0) + 1)
      this.spellings.set(key, spellings)
      const page = turn.pageUrl ? pagePath(turn.pageUrl) : undefined
      if (page && !gap.pages.includes(page) && gap.pages.length < PAGES_PER_QUESTION)
        gap.pages.push(page)
      this.questions.set(key, gap)
    }
    this.done = !this.pager.advance({ ...page, rows: page.sent })
  }

  /** The way of writing a question seen most often; the first seen on a tie. */
  private commonest(key: string, first: string): string {
    let best = first
    let most = 0
    for (const [text, n] of this.spellings.get(key) ?? []) {
      if (n > most) [best, most] = [text, n]
    }
    return best
  }

  section(requests: number, unread: string | null): AssistantSection {
    const why = joinReasons(unread ?? this.pager.stoppedEarly, this.skipped.reason)
    // Turns come newest first, not by question: only all of them rank the questions for certain.
    return {
      complete: why === null,
      topComplete: why === null,
      unread: why,
      requests,
      skipped: this.skipped.count,
      questions: this.questions.size,
      turnsRead: this.turnsRead,
      unansweredTurns: this.unansweredTurns,
      entries: ranked(
        [...this.questions].map(([key, q]) => ({
          ...q,
          question: this.commonest(key, q.question)
        })),
        q => q.count,
        q => q.question
      ).slice(0, this.ctx.top)
    }
  }
}
