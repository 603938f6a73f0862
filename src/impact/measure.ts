import { type VisitorsPage, getPerPathPage } from '../mintlify/analytics.js'
import {
  type RangeQuery,
  type ReadLimits,
  getAssistantPage,
  getFeedbackByPage,
  getSearchesPage
} from '../mintlify/analytics-gaps.js'
import type { ApiClient } from '../mintlify/client.js'
import { IMPACT_MEASURES } from '../records/ledger.js'
import { samePage } from '../docs-site/routing.js'
import { mentions } from './terms.js'
import type { DayRange } from './windows.js'

/** Analytics requests at most for one docs pull request, retries included. */
export const MAX_REQUESTS_PER_PULL = 10

/** Rows per request: each listing is read in one request, the largest page its operation allows. */
const PATH_ROWS = 250
const FEEDBACK_ROWS = 100
const SEARCH_ROWS = 100
const QUESTION_ROWS = 1000

/** One of the service's listings (feedback per page, search terms, questions), read from its first row. */
type ListingRead<Listing> = (
  client: ApiClient,
  projectId: string,
  query: RangeQuery & { limit: number },
  limits: ReadLimits
) => Promise<Listing>

/** One window's figures, in IMPACT_MEASURES' order; null where they are not known. */
export type Figures = (number | null)[]

export interface Measured {
  before: Figures
  after: Figures
  /** What the figures leave out, for the comment (no reader's text). */
  notes: string[]
}

/** A page as each window reads it: a renamed page at its old path before the merge. */
export interface WindowPage {
  path: string
  before: string
}

export interface MeasureTarget {
  projectId: string
  pages: readonly WindowPage[]
  terms: readonly string[]
  before: DayRange
  after: DayRange
}

/** The requests a docs pull request takes: two per listing and window pair. */
export const plannedRequests = (target: Pick<MeasureTarget, 'pages' | 'terms'>): number =>
  (target.pages.length ? 6 : 0) + (target.terms.length ? 4 : 0)

const at = (name: (typeof IMPACT_MEASURES)[number]): number => IMPACT_MEASURES.indexOf(name)

/**
 * Both windows' figures for a docs pull request's pages and terms, one request per listing and
 * window (plannedRequests). A page absent from a listing that says there is more is not known,
 * not zero. Any failure (a rate limit, the request cap) throws: nothing half-measured is kept.
 */
export async function measureWindows(
  client: ApiClient,
  target: MeasureTarget,
  limits: ReadLimits
): Promise<Measured> {
  const notes = new Set<string>()
  const window = async (range: DayRange, name: 'before' | 'after'): Promise<Figures> => {
    const pages = new Set(target.pages.map(p => pageKey(name === 'before' ? p.before : p.path)))
    const figures: Figures = IMPACT_MEASURES.map(() => null)
    const query = { dateFrom: range.from, dateTo: range.to }
    // Each listing of the window in one request, at the most rows its operation gives.
    const firstRows = <Listing>(read: ListingRead<Listing>, limit: number): Promise<Listing> =>
      read(client, target.projectId, { ...query, limit }, limits)
    if (pages.size) {
      const paths = { ...query, limit: PATH_ROWS, offset: 0 }
      const read = (what: 'views' | 'visitors'): Promise<VisitorsPage> =>
        getPerPathPage(client, target.projectId, what, paths, limits.deadline, limits.cap)
      const views = await read('views')
      const visitors = await read('visitors')
      if (views.totals.total === 0 && visitors.totals.total === 0) {
        notes.add(
          `The service has no page views at all for the window ${name}: its figures are not known.`
        )
      } else {
        const note = `A page not among the ${PATH_ROWS} busiest of a window is not known there.`
        const unknown = (page: { skipped: readonly unknown[] }) => () =>
          notes.add(page.skipped.length ? OUT_OF_SHAPE : note)
        figures[at('humanViews')] = sumOf(views, pages, 'human', unknown(views))
        figures[at('humanVisitors')] = sumOf(visitors, pages, 'human', unknown(visitors))
        figures[at('aiVisitors')] = sumOf(visitors, pages, 'ai', unknown(visitors))
        const feedback = await firstRows(getFeedbackByPage, FEEDBACK_ROWS)
        const mine = feedback.feedback.filter(f => pages.has(pageKey(f.path)))
        // A page listed twice (a path and its URL) is one page: every page must be there.
        const found = new Set(mine.map(f => pageKey(f.path))).size
        const complete = found === pages.size || (!feedback.hasMore && !feedback.skipped.length)
        if (!complete)
          notes.add(
            feedback.skipped.length
              ? OUT_OF_SHAPE
              : `Thumbs-down: a page not among the ${FEEDBACK_ROWS} with most feedback is not known.`
          )
        figures[at('thumbsDown')] = complete ? mine.reduce((n, f) => n + f.thumbsDown, 0) : null
      }
    }
    if (target.terms.length) {
      const searches = await firstRows(getSearchesPage, SEARCH_ROWS)
      // A term with no row in a listing that has more pages may be on a later one: not known.
      const beyond =
        searches.nextCursor !== null &&
        target.terms.some(term => !searches.searches.some(s => mentions(s.searchQuery, term)))
      const searched = termFigure(
        searches,
        searches.nextCursor !== null,
        beyond
          ? `Searches: a term not among the ${SEARCH_ROWS} most searched of a window is not known there.`
          : `Searches: among the ${SEARCH_ROWS} most searched terms of each window.`,
        notes,
        () =>
          searches.searches
            .filter(
              s => (s.ctr === 0 || s.topClickedPage === null) && onTopic(s.searchQuery, target)
            )
            .reduce((n, s) => n + s.hits, 0)
      )
      figures[at('zeroClickSearches')] = beyond ? null : searched
      const questions = await firstRows(getAssistantPage, QUESTION_ROWS)
      // The same rule: a term no question read mentions, in a listing that has more, may be asked
      // about in an older one. Only what was read is counted, and no term is claimed unasked.
      const unasked =
        questions.hasMore &&
        target.terms.some(term => !questions.conversations.some(q => mentions(q.query, term)))
      const asked = termFigure(
        questions,
        questions.hasMore,
        unasked
          ? `Questions: a term not among the latest ${QUESTION_ROWS} assistant questions of a window is not known there.`
          : `Questions: among the latest ${QUESTION_ROWS} assistant questions of each window.`,
        notes,
        () =>
          questions.conversations.filter(
            q =>
              q.resolutionStatus === 'unanswered' &&
              (onTopic(q.query, target) || (q.pageUrl !== null && pages.has(pathOf(q.pageUrl))))
          ).length
      )
      figures[at('unansweredQuestions')] = unasked ? null : asked
    }
    return sane(figures, notes)
  }
  const before = await window(target.before, 'before')
  const after = await window(target.after, 'after')
  return { before, after, notes: [...notes] }
}

/** A row the service sent out of shape could be one of the pages: they are not known, not zero. */
const OUT_OF_SHAPE =
  'The service sent some rows out of the shape its API document gives: a page not among the others is not known.'

/** The same for the searches and questions on the terms. */
const OUT_OF_SHAPE_TERMS =
  'The service sent some search or question rows out of the shape its API document gives: their figures are not known.'

/** A count past this is no count of readers: the answer is broken or hostile. */
export const MAX_COUNT = 1_000_000_000_000

/**
 * The figures with any that is not a whole number from 0 to MAX_COUNT (a fractional count, a sum
 * grown to Infinity) made not known, and said.
 */
function sane(figures: Figures, notes: Set<string>): Figures {
  return figures.map(n => {
    if (n === null || (Number.isSafeInteger(n) && n >= 0 && n <= MAX_COUNT)) return n
    notes.add(
      `The service sent counts that are no whole number of readers up to ${MAX_COUNT.toLocaleString('en-US')}: those figures are not known.`
    )
    return null
  })
}

/**
 * A figure on the terms from one listing read in one request: not known when the service sent a
 * row out of shape (a skipped row could be one of the terms: not a smaller figure), and a note when
 * the listing went on past the rows read (`more`).
 */
function termFigure(
  listing: { skipped: readonly unknown[] },
  more: boolean,
  moreNote: string,
  notes: Set<string>,
  count: () => number
): number | null {
  if (listing.skipped.length) notes.add(OUT_OF_SHAPE_TERMS)
  if (more) notes.add(moreNote)
  return listing.skipped.length ? null : count()
}

const onTopic = (text: string, target: MeasureTarget): boolean =>
  target.terms.some(term => mentions(text, term))

/**
 * A page path in one form for comparing: samePage's, Unicode NFC (a file name written decomposed,
 * as macOS does, is the same page).
 */
const pageKey = (path: string): string => samePage(path.normalize('NFC'))

/**
 * A page URL's path (`https://docs.acme.dev/guides/caf%C3%A9#x` → `/guides/café`), decoded: the
 * pages are compared unencoded. A path that does not decode is no page.
 */
function pathOf(url: string): string {
  try {
    return pageKey(decodeURIComponent(new URL(url, 'https://docs.invalid').pathname))
  } catch {
    return ''
  }
}

/**
 * A count summed over the pages: a page missing from a listing that has more, or that had rows
 * out of shape, is not known, so the sum is not either; a page missing from a complete listing had
 * none.
 */
function sumOf(
  page: VisitorsPage,
  pages: ReadonlySet<string>,
  field: 'human' | 'ai',
  incomplete: () => void
): number | null {
  const rows = page.visitors.filter(r => pages.has(pageKey(r.path)))
  const found = new Set(rows.map(r => pageKey(r.path)))
  if ((page.hasMore || page.skipped.length) && found.size < pages.size) {
    incomplete()
    return null
  }
  return rows.reduce((n, r) => n + r[field], 0)
}
