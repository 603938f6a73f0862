import type { ConversationRow, FeedbackRow, GapsData, SearchRow } from './analytics-data.js'

export { type GapsData, generateGapsData } from './analytics-data.js'

/**
 * The docs-gaps operations of the analytics document: `/searches`, `/feedback`, `/feedback/by-page`
 * and `/assistant`, with cursor paging as documented. Queries are checked as the document says and a
 * bad one is answered 400 with details; the date range is checked but the same rows are served for
 * any range.
 */
export type GapsRoute = 'searches' | 'feedback' | 'feedback-by-page' | 'assistant'

const ROUTES: [RegExp, GapsRoute][] = [
  [/^\/v1\/analytics\/[^/]+\/searches$/, 'searches'],
  [/^\/v1\/analytics\/[^/]+\/feedback$/, 'feedback'],
  [/^\/v1\/analytics\/[^/]+\/feedback\/by-page$/, 'feedback-by-page'],
  [/^\/v1\/analytics\/[^/]+\/assistant$/, 'assistant']
]

export function gapsRouteOf(method: string, pathname: string): GapsRoute | undefined {
  if (method !== 'GET') return undefined
  return ROUTES.find(([pattern]) => pattern.test(pathname))?.[1]
}

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
const SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only']
const STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed']

/** Each operation's default and largest `limit`, as documented. */
const LIMITS: Record<GapsRoute, [number, number]> = {
  searches: [50, 100],
  feedback: [50, 100],
  'feedback-by-page': [10, 100],
  assistant: [100, 1000]
}

type Answer = { status: number; body: unknown }
type Query = Record<string, string>

/** Answers one request of a docs-gaps operation. */
export function gapsAnswer(route: GapsRoute, query: Query, data: GapsData): Answer {
  const problems: string[] = []
  const [fallback, max] = LIMITS[route]
  const limit = int(query, 'limit', fallback, max, problems)
  for (const name of ['dateFrom', 'dateTo']) {
    const raw = query[name]
    if (raw !== undefined && (!DATE.test(raw) || Number.isNaN(Date.parse(raw))))
      problems.push(`${name} must be a date in ISO 8601 or YYYY-MM-DD format`)
  }
  if (query.source !== undefined && !SOURCES.includes(query.source))
    problems.push(`source must be one of ${SOURCES.join(', ')}`)
  const statuses = query.status?.split(',').map(s => s.trim())
  if (statuses?.some(s => !STATUSES.includes(s)))
    problems.push(`status must list statuses among ${STATUSES.join(', ')}`)
  if (problems.length) return invalid(problems)

  switch (route) {
    case 'searches':
      return searches(query, limit, data.searches)
    case 'feedback':
      return feedback(query, limit, filtered(data.feedback, query.source, statuses))
    case 'feedback-by-page':
      return byPage(limit, filtered(data.feedback, query.source, statuses))
    case 'assistant':
      return assistant(query, limit, data.conversations)
  }
}

function int(query: Query, name: string, fallback: number, max: number, problems: string[]) {
  const raw = query[name]
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    problems.push(`${name} must be a number from 1 to ${max}`)
  return Number(raw)
}

const invalid = (details: string[]): Answer => ({
  status: 400,
  body: { error: 'Invalid query parameters', details: details.map(message => ({ message })) }
})

/** Opaque cursors for offset paging: the operation's name and the offset, base64url-encoded. */
const cursorFor = (route: string, offset: number): string =>
  Buffer.from(`${route}:${offset}`).toString('base64url')

function offsetOf(route: string, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0
  const m = new RegExp(`^${route}:(\\d+)$`).exec(Buffer.from(cursor, 'base64url').toString())
  return m ? Number(m[1]) : undefined
}

function searches(query: Query, limit: number, rows: SearchRow[]): Answer {
  const offset = offsetOf('searches', query.cursor)
  if (offset === undefined) return invalid(['cursor is not a cursor this operation gave'])
  const sorted = [...rows].sort((a, b) => b.hits - a.hits)
  const page = sorted.slice(offset, offset + limit)
  const end = offset + page.length
  return {
    status: 200,
    body: {
      searches: page.map(r => ({
        searchQuery: r.searchQuery,
        hits: r.hits,
        ctr: r.ctr,
        topClickedPage: r.topClickedPage,
        lastSearchedAt: r.lastSearchedAt
      })),
      totalSearches: rows.reduce((sum, r) => sum + r.hits, 0),
      nextCursor: end < sorted.length ? cursorFor('searches', end) : null
    }
  }
}

function filtered(rows: FeedbackRow[], source?: string, statuses?: string[]): FeedbackRow[] {
  return rows.filter(
    r => (source === undefined || r.source === source) && (!statuses || statuses.includes(r.status))
  )
}

/** Each entry with exactly the fields of its source's variant. */
function feedbackView(r: FeedbackRow): Record<string, unknown> {
  const base = {
    id: r.id,
    path: r.path,
    comment: r.comment,
    createdAt: r.createdAt,
    source: r.source,
    status: r.status
  }
  if (r.source === 'contextual') return { ...base, helpful: r.helpful, contact: r.contact }
  if (r.source === 'code_snippet')
    return { ...base, code: r.code, filename: r.filename, lang: r.lang }
  return base
}

function feedback(query: Query, limit: number, rows: FeedbackRow[]): Answer {
  const offset = offsetOf('feedback', query.cursor)
  if (offset === undefined) return invalid(['cursor is not a cursor this operation gave'])
  const sorted = [...rows].sort(
    (a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.id.localeCompare(b.id)
  )
  const page = sorted.slice(offset, offset + limit)
  const end = offset + page.length
  const more = end < sorted.length
  return {
    status: 200,
    body: {
      feedback: page.map(feedbackView),
      nextCursor: more ? cursorFor('feedback', end) : null,
      hasMore: more
    }
  }
}

/** Counts per page, the busiest pages first (by all feedback, not by thumbs-down). */
function byPage(limit: number, rows: FeedbackRow[]): Answer {
  const pages = new Map<string, Record<string, number | string>>()
  for (const r of rows) {
    const page = pages.get(r.path) ?? {
      path: r.path,
      thumbsUp: 0,
      thumbsDown: 0,
      code: 0,
      total: 0
    }
    const add = (key: string): void => void (page[key] = (page[key] as number) + 1)
    if (r.source === 'contextual') add(r.helpful ? 'thumbsUp' : 'thumbsDown')
    if (r.source === 'code_snippet') add('code')
    add('total')
    pages.set(r.path, page)
  }
  const sorted = [...pages.values()].sort(
    (a, b) =>
      (b.total as number) - (a.total as number) || String(a.path).localeCompare(String(b.path))
  )
  return { status: 200, body: { feedback: sorted.slice(0, limit), hasMore: sorted.length > limit } }
}

/** Newest first; the cursor is the id of the last turn sent, and the next page starts after it. */
function assistant(query: Query, limit: number, rows: ConversationRow[]): Answer {
  const { cursor } = query
  if (cursor !== undefined && !ULID.test(cursor)) return invalid(['cursor must be a ULID'])
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
  const rest = cursor === undefined ? sorted : sorted.filter(r => r.id < cursor)
  const page = rest.slice(0, limit)
  const more = rest.length > page.length
  return {
    status: 200,
    body: {
      conversations: page.map(r => ({
        id: r.id,
        timestamp: r.timestamp,
        query: r.query,
        response: r.response,
        ...(r.responseType === undefined ? {} : { responseType: r.responseType }),
        sources: r.sources,
        resolutionStatus: r.resolutionStatus,
        queryCategory: r.queryCategory,
        pageUrl: r.pageUrl
      })),
      nextCursor: more ? (page[page.length - 1] as ConversationRow).id : null,
      hasMore: more
    }
  }
}
