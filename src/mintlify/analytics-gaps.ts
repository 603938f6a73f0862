// The analytics operations that show what readers looked for and did not find: search terms,
// feedback and assistant conversations, each answer checked field by field.
import type { RequestCap } from './request-cap.js'
import type { ApiClient } from './client.js'
import { ApiError, projectNotFound } from './errors.js'
import {
  type Shape,
  arrayOf,
  isBoolean,
  isCount,
  isString,
  isWholeCount,
  oneOf,
  optional,
  orNull,
  pick,
  problemIn
} from './answer-checks.js'

// Types, not interfaces: a query is sent field by field as the URL's query (a record).
export type RangeQuery = {
  dateFrom?: string
  dateTo?: string
}

export type CursorQuery = RangeQuery & {
  limit: number
  cursor?: string
}

/** Every request counts against the cap and gives up at the deadline. */
export interface ReadLimits {
  deadline: number
  cap: RequestCap
}

export interface SearchTerm {
  searchQuery: string
  hits: number
  ctr: number
  topClickedPage: string | null
  lastSearchedAt: string
}

/** A row the service sent that does not match the document: skipped, and said why. */
export interface SkippedRow {
  /** 1-based, in the page as sent. */
  row: number
  /** Which field, and what was wrong with it. */
  problem: string
}

/** Every page: the rows that passed their check, and how many rows the service sent in all. */
interface CheckedPage {
  /** Rows the service sent that do not match the document, left out of the page. */
  skipped: SkippedRow[]
  /** Rows sent, skipped ones included: an empty page is one the service sent empty. */
  sent: number
}

export interface SearchesPage extends CheckedPage {
  searches: SearchTerm[]
  totalSearches: number
  nextCursor: string | null
}

export interface PageFeedbackCounts {
  path: string
  thumbsUp: number
  thumbsDown: number
  code: number
  total: number
}

export interface FeedbackByPage extends CheckedPage {
  feedback: PageFeedbackCounts[]
  hasMore: boolean
}

const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const
const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const

/** One feedback entry. The reader's `contact` address is checked but never copied in. */
export interface FeedbackEntry {
  id: string
  path: string
  comment: string | null
  createdAt: string | null
  source: (typeof FEEDBACK_SOURCES)[number]
  status: (typeof FEEDBACK_STATUSES)[number]
  /** Contextual feedback only: whether the reader found the page helpful. */
  helpful: boolean | null
}

export interface FeedbackPage extends CheckedPage {
  feedback: FeedbackEntry[]
  nextCursor: string | null
  hasMore: boolean
}

/** One assistant turn. The assistant's `response` and `sources` are checked but never copied in. */
export interface AssistantTurn {
  id: string
  timestamp: string
  query: string
  responseType: 'answer' | 'clarifying_question'
  resolutionStatus: 'answered' | 'unanswered'
  queryCategory: string | null
  pageUrl: string | null
}

export interface AssistantPage extends CheckedPage {
  conversations: AssistantTurn[]
  nextCursor: string | null
  hasMore: boolean
}

const SEARCH_TERM: Shape = {
  searchQuery: isString,
  hits: isCount,
  ctr: isCount,
  topClickedPage: orNull(isString),
  lastSearchedAt: isString
}

const PAGE_COUNTS: Shape = {
  path: isString,
  thumbsUp: isCount,
  thumbsDown: isCount,
  code: isCount,
  total: isCount
}

const FEEDBACK_BASE: Shape = {
  id: isString,
  path: isString,
  comment: orNull(isString),
  createdAt: orNull(isString),
  source: oneOf(...FEEDBACK_SOURCES),
  status: oneOf(...FEEDBACK_STATUSES)
}
/** Each source has its own fields; `contact` is in the check, not in what is kept. */
const FEEDBACK_BY_SOURCE: Record<string, Shape> = {
  contextual: { ...FEEDBACK_BASE, helpful: isBoolean, contact: orNull(isString) },
  code_snippet: {
    ...FEEDBACK_BASE,
    code: isString,
    filename: orNull(isString),
    lang: orNull(isString)
  }
}

const ASSISTANT_TURN: Shape = {
  id: isString,
  timestamp: isString,
  query: isString,
  response: isString,
  responseType: optional(oneOf('answer', 'clarifying_question')),
  sources: arrayOf({ title: isString, url: isString }),
  resolutionStatus: oneOf('answered', 'unanswered'),
  queryCategory: orNull(isString),
  pageUrl: orNull(isString)
}
const ASSISTANT_KEPT: Shape = { ...ASSISTANT_TURN }
delete ASSISTANT_KEPT.response
delete ASSISTANT_KEPT.sources

const CURSOR_PAGE: Shape = { nextCursor: orNull(isString), hasMore: isBoolean }

/** The type of the rows a page holds in `list`. */
type RowOf<Page, List extends keyof Page> = Page[List] extends readonly (infer Row)[] ? Row : never

/**
 * One of the listings: where it is, how its page and each row are checked, and what of a row is
 * kept. The page keeps its own fields (totals, cursors: `top`) and its rows under the same name
 * (`list`) as the answer.
 */
interface Listing<Page, List extends keyof Page> {
  resource: string[]
  /** The request in a few words, for errors: "read the search terms". */
  what: string
  top: Shape
  list: List
  shapeOf: (row: unknown) => Shape
  keep: (row: unknown) => RowOf<Page, List>
}

/**
 * A listing's read: one request for one page, the page's own fields checked (or the answer is
 * unusable) and each row checked (an odd row skipped and listed, not the page thrown away).
 */
function listingReader<
  Query extends RangeQuery & Record<string, string | number | undefined>,
  Page extends CheckedPage,
  List extends keyof Page & string
>({ resource, what, top, list, shapeOf, keep }: Listing<Page, List>) {
  return async (
    client: ApiClient,
    projectId: string,
    query: Query,
    limits: ReadLimits
  ): Promise<Page> => {
    const body = await read(client, projectId, resource, { ...query }, what, limits)
    const { rows, ...checked } = checkedRows(body, top, list, shapeOf, what)
    // The page: the fields `top` checked (`pick` copies only those), its kept rows, their count.
    return { ...pick<Page>(body, top), [list]: rows.map(keep), ...checked }
  }
}

export const getSearchesPage = listingReader<CursorQuery, SearchesPage, 'searches'>({
  resource: ['searches'],
  what: 'read the search terms',
  top: { totalSearches: isWholeCount, nextCursor: orNull(isString) },
  list: 'searches',
  shapeOf: () => SEARCH_TERM,
  keep: row => pick<SearchTerm>(row, SEARCH_TERM)
})

/** Feedback counts per page. The operation has no cursor: one request gives all there is to have. */
export const getFeedbackByPage = listingReader<
  RangeQuery & { limit: number; source?: string },
  FeedbackByPage,
  'feedback'
>({
  resource: ['feedback', 'by-page'],
  what: 'read the feedback per page',
  top: { hasMore: isBoolean },
  list: 'feedback',
  shapeOf: () => PAGE_COUNTS,
  keep: row => pick<PageFeedbackCounts>(row, PAGE_COUNTS)
})

export const getFeedbackPage = listingReader<
  CursorQuery & { source?: string; status?: string },
  FeedbackPage,
  'feedback'
>({
  resource: ['feedback'],
  what: 'read the feedback entries',
  top: CURSOR_PAGE,
  list: 'feedback',
  shapeOf: row =>
    FEEDBACK_BY_SOURCE[String((row as { source?: unknown } | null)?.source)] ?? FEEDBACK_BASE,
  keep: row => {
    const entry = pick<FeedbackEntry>(row, FEEDBACK_BASE)
    const { helpful } = row as { helpful?: boolean }
    return { ...entry, helpful: entry.source === 'contextual' ? (helpful as boolean) : null }
  }
})

export const getAssistantPage = listingReader<CursorQuery, AssistantPage, 'conversations'>({
  resource: ['assistant'],
  what: 'read the assistant conversations',
  top: CURSOR_PAGE,
  list: 'conversations',
  shapeOf: () => ASSISTANT_TURN,
  keep: row => {
    const turn = pick<AssistantTurn>(row, ASSISTANT_KEPT)
    return { ...turn, responseType: turn.responseType ?? 'answer' }
  }
})

function read(
  client: ApiClient,
  projectId: string,
  resource: string[],
  query: Record<string, string | number | undefined>,
  what: string,
  limits: ReadLimits
): Promise<unknown> {
  return client.send<unknown>({
    method: 'GET',
    path: ['v1', 'analytics', projectId, ...resource],
    query,
    what,
    write: false,
    deadline: limits.deadline,
    cap: limits.cap,
    notFound: projectNotFound(projectId)
  })
}

/**
 * The rows of `list`, each checked: a row that does not match the document is skipped and listed
 * (by its place and the field), so one odd row does not throw away the page. The page's own fields
 * (the list itself, cursors, totals) must match, or the answer is unusable.
 */
function checkedRows(
  body: unknown,
  top: Shape,
  list: string,
  shapeOf: (row: unknown) => Shape,
  what: string
): CheckedPage & { rows: unknown[] } {
  const problem = problemIn(body, { ...top, [list]: Array.isArray })
  if (problem) {
    throw new ApiError(
      `The service's answer to the request to ${what} is not what its API document describes (${problem}).`
    )
  }
  const sent = (body as Record<string, unknown[]>)[list] as unknown[]
  const rows: unknown[] = []
  const skipped: SkippedRow[] = []
  sent.forEach((row, i) => {
    const rowProblem = problemIn(row, shapeOf(row))
    if (rowProblem) skipped.push({ row: i + 1, problem: rowProblem })
    else rows.push(row)
  })
  return { rows, skipped, sent: sent.length }
}
