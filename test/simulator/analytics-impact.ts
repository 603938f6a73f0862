import type { ConversationRow, FeedbackRow, GapsData, SearchRow } from './analytics-data.js'
import { type GapsRoute, gapsAnswer } from './analytics.js'
import type { FakeFile } from './fake-github-changes.js'
import { type VisitorRow, type VisitorsData, visitorsPage } from './visitors.js'

type Answer = { status: number; body: unknown }
type Query = Record<string, string>

/** Answers an analytics request from data that changes with the date range, or leaves it (undefined). */
export type RangeAnswer = (route: string, query: Query) => Answer | undefined

/** `/views` as the document describes it: the visitors' page with `views` for `visitors`. */
export function viewsPage(query: Query, rows: VisitorsData): Answer {
  const answer = visitorsPage(query, rows)
  if (answer.status !== 200) return answer
  const { visitors, ...rest } = answer.body as { visitors: unknown }
  return { status: 200, body: { ...rest, views: visitors } }
}

const DAY = 86_400_000

/** What readers did on one UTC day of the world. */
export interface WorldDay {
  /** Per path: human and AI content views that day. */
  views: Record<string, { human: number; ai: number }>
  /** Per path: thumbs-down and thumbs-up that day. */
  thumbs: Record<string, { down: number; up: number }>
  /** Per search term: searches that day, how many clicked a result, and which page. */
  searches: Record<string, { hits: number; clicks: number; page: string }>
  /** Assistant questions that day. */
  questions: { query: string; answered: boolean; pageUrl: string | null }[]
}

/**
 * A docs site whose readers change with the dates: the analytics operations answered by summing the
 * days in [dateFrom, dateTo), each checked and paged by the same code as the fixed rows. Unique
 * visitors are 60% of a path's views, rounded down.
 */
export class AnalyticsWorld {
  constructor(readonly dayOf: (dayStart: number) => WorldDay | undefined) {}

  /** The answer for `route` over the query's days; other routes are left to the simulator. */
  readonly answer: RangeAnswer = (route, query) => {
    if (!['views', 'visitors', 'searches', 'feedback-by-page', 'assistant'].includes(route))
      return undefined
    const from = Date.parse(query.dateFrom ?? '')
    const to = Date.parse(query.dateTo ?? '')
    // A range the world cannot read is left to the simulator's checks (400 for a bad date).
    if (Number.isNaN(from) || Number.isNaN(to)) return undefined
    const days: WorldDay[] = []
    for (let at = Math.floor(from / DAY) * DAY; at < to; at += DAY) {
      const day = this.dayOf(at)
      if (day) days.push(day)
    }
    if (route === 'views')
      return viewsPage(
        query,
        pathRows(days, v => v)
      )
    if (route === 'visitors')
      return visitorsPage(
        query,
        pathRows(days, v => Math.floor(v * 0.6))
      )
    return gapsAnswer(route as GapsRoute, query, gapsOf(days))
  }
}

/** Rows per path over the days, the busiest first, as the service sorts them. */
function pathRows(days: WorldDay[], count: (views: number) => number): VisitorRow[] {
  const sums = new Map<string, { human: number; ai: number }>()
  for (const day of days)
    for (const [path, v] of Object.entries(day.views)) {
      const sum = sums.get(path) ?? { human: 0, ai: 0 }
      sum.human += v.human
      sum.ai += v.ai
      sums.set(path, sum)
    }
  return [...sums.entries()]
    .map(([path, v]) => {
      const human = count(v.human)
      const ai = count(v.ai)
      return { path, human, ai, total: human + ai }
    })
    .filter(r => r.total > 0)
    .sort((a, b) => b.total - a.total || a.path.localeCompare(b.path))
}

function gapsOf(days: WorldDay[]): GapsData {
  const feedback: FeedbackRow[] = []
  const searches = new Map<string, { hits: number; clicks: number; page: string }>()
  const conversations: ConversationRow[] = []
  days.forEach((day, d) => {
    for (const [path, t] of Object.entries(day.thumbs))
      for (let i = 0; i < t.down + t.up; i++)
        feedback.push({
          id: `fb_${d}_${path}_${i}`,
          path,
          comment: null,
          createdAt: null,
          status: 'pending',
          source: 'contextual',
          helpful: i >= t.down,
          contact: null
        })
    for (const [query, s] of Object.entries(day.searches)) {
      const sum = searches.get(query) ?? { hits: 0, clicks: 0, page: s.page }
      sum.hits += s.hits
      sum.clicks += s.clicks
      searches.set(query, sum)
    }
    day.questions.forEach((q, i) =>
      conversations.push({
        id: ulid(conversations.length),
        timestamp: '2026-11-01T00:00:00Z',
        query: q.query,
        response: q.answered ? 'Use the flag as shown.' : 'I could not find that in the docs.',
        sources: [],
        resolutionStatus: q.answered ? 'answered' : 'unanswered',
        queryCategory: null,
        pageUrl: q.pageUrl,
        ...(i % 2 ? { responseType: 'answer' as const } : {})
      })
    )
  })
  const searchRows: SearchRow[] = [...searches.entries()].map(([searchQuery, s]) => ({
    searchQuery,
    hits: s.hits,
    ctr: s.hits ? Math.round((s.clicks / s.hits) * 100) / 100 : 0,
    topClickedPage: s.clicks ? s.page : null,
    lastSearchedAt: '2026-11-01T00:00:00Z'
  }))
  return { searches: searchRows, feedback, conversations }
}

/** A ULID of the world: increasing with `n`, in Crockford's base 32 as ULIDs are. */
function ulid(n: number): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
  let text = ''
  for (let rest = n; text.length < 23; rest = Math.floor(rest / 32))
    text = alphabet[rest % 32] + text
  return `01J${text}`
}

/** The flag's old and new names in the rename world. */
export const OLD_FLAG = '--follow'
export const NEW_FLAG = '--watch'
/** The code change's title: its terms are the two names. */
export const RENAME_TITLE = `Rename the \`${OLD_FLAG}\` flag to \`${NEW_FLAG}\``
/** The docs pull request of the rename: the page renamed, another edited, a snippet and an image. */
export const RENAME_DOCS_FILES: FakeFile[] = [
  { filename: 'docs/cli/watch.mdx', status: 'renamed', previous_filename: 'docs/cli/follow.mdx' },
  { filename: 'docs/cli/commands.mdx' },
  { filename: 'docs/snippets/flag.mdx' },
  { filename: 'docs/images/watch.png', status: 'added' }
]
/** The docs repository's files after it: the site's root is docs/, beside a README. */
export const RENAME_DOCS_TREE = [
  'README.md',
  'docs/docs.json',
  'docs/cli/watch.mdx',
  'docs/cli/commands.mdx',
  'docs/snippets/flag.mdx'
]

/**
 * A CLI renamed its `--follow` flag to `--watch` on `codeMergedAt`; the docs caught up on
 * `docsMergedAt`, renaming `cli/follow.mdx` to `cli/watch.mdx` and editing `cli/commands.mdx`.
 * Readers searched for `--watch` from the code merge on and clicked nothing until the docs merged;
 * the old page's views moved to the new one; thumbs-down on the commands page and unanswered
 * questions about `--watch` came with the rename and went with the docs.
 */
export function renameWorld(codeMergedAt: number, docsMergedAt: number): AnalyticsWorld {
  const codeDay = Math.floor(codeMergedAt / DAY) * DAY
  const docsDay = Math.floor(docsMergedAt / DAY) * DAY
  return new AnalyticsWorld(day => {
    const renamed = day >= codeDay
    const documented = day > docsDay
    const n = Math.floor(day / DAY)
    return {
      views: {
        '/quickstart': { human: 50, ai: 10 },
        '/cli/commands': { human: 40, ai: 5 },
        ...(documented
          ? { '/cli/watch': { human: 30, ai: 8 } }
          : { '/cli/follow': { human: 30, ai: 8 } })
      },
      thumbs: {
        '/cli/commands': { down: !renamed ? 0 : !documented ? 2 : n % 7 === 0 ? 1 : 0, up: 1 },
        '/quickstart': { down: 1, up: 3 }
      },
      searches: {
        quickstart: { hits: 20, clicks: 15, page: '/quickstart' },
        ...(renamed
          ? { [NEW_FLAG]: { hits: 6, clicks: documented ? 5 : 0, page: '/cli/watch' } }
          : {}),
        ...(renamed
          ? { 'watch mode': { hits: 2, clicks: documented ? 2 : 0, page: '/cli/watch' } }
          : {})
      },
      questions: renamed
        ? [
            { query: `how do I use ${NEW_FLAG}?`, answered: documented, pageUrl: null },
            {
              query: 'install on windows',
              answered: true,
              pageUrl: 'https://docs.acme.dev/quickstart'
            }
          ]
        : [{ query: 'install on windows', answered: true, pageUrl: null }]
    }
  })
}
