import type { ConversationRow, FeedbackRow, GapsData, SearchRow } from './analytics-data.js'

/**
 * Docs-gaps data that depends on the request's date range, as the service's does: events by day,
 * summed over `[dateFrom, dateTo)` when asked. The rows of analytics-data.ts are served for any range;
 * this is for the tests and the bench that split a range at a merge.
 */
export type DatedGaps = (range: { dateFrom?: string; dateTo?: string }) => GapsData

/** Searches of one term on one day: how many, and how many had a result clicked (and which). */
export interface SearchDay {
  day: string
  query: string
  hits: number
  clicks?: number
  page?: string
}

/** Thumbs on one page on one day, with an optional comment on the first thumbs-down. */
export interface ThumbsDay {
  day: string
  path: string
  down: number
  up?: number
  comment?: string
}

/** A question asked on one day, `times` times, answered or not. */
export interface QuestionDay {
  day: string
  query: string
  times: number
  answered?: boolean
  pageUrl?: string
}

export interface DatedEvents {
  searches: SearchDay[]
  thumbs: ThumbsDay[]
  questions: QuestionDay[]
}

const start = (day: string): number => Date.parse(`${day}T00:00:00Z`)
const parse = (text: string | undefined, fallback: number): number =>
  text === undefined ? fallback : Date.parse(/T/.test(text) ? text : `${text}T00:00:00Z`)

/** The rows of `events` inside each range asked for. */
export function datedGaps(events: DatedEvents): DatedGaps {
  return ({ dateFrom, dateTo }) => {
    const from = parse(dateFrom, -Infinity)
    const to = parse(dateTo, Infinity)
    const inside = (day: string): boolean => start(day) >= from && start(day) < to
    return {
      searches: searchRows(events.searches.filter(e => inside(e.day))),
      feedback: feedbackRows(events.thumbs.filter(e => inside(e.day))),
      conversations: conversationRows(events.questions.filter(e => inside(e.day)))
    }
  }
}

function searchRows(days: SearchDay[]): SearchRow[] {
  const rows = new Map<string, SearchRow & { clicks: number }>()
  for (const e of days) {
    const key = e.query.toLowerCase()
    const row = rows.get(key) ?? {
      searchQuery: e.query,
      hits: 0,
      ctr: 0,
      topClickedPage: null,
      lastSearchedAt: '',
      clicks: 0
    }
    row.hits += e.hits
    row.clicks += e.clicks ?? 0
    if (e.clicks) row.topClickedPage = e.page ?? '/'
    if (`${e.day}T12:00:00Z` > row.lastSearchedAt) row.lastSearchedAt = `${e.day}T12:00:00Z`
    rows.set(key, row)
  }
  return [...rows.values()].map(({ clicks, ...row }) => ({
    ...row,
    ctr: row.hits ? clicks / row.hits : 0
  }))
}

function feedbackRows(days: ThumbsDay[]): FeedbackRow[] {
  const rows: FeedbackRow[] = []
  days.forEach((e, d) => {
    const entry = (helpful: boolean, n: number): FeedbackRow => ({
      id: `fb-${e.day}-${d}-${helpful ? 'up' : 'down'}-${n}`,
      path: e.path,
      comment: !helpful && n === 0 ? (e.comment ?? null) : null,
      createdAt: `${e.day}T12:00:00Z`,
      status: 'pending',
      source: 'contextual',
      helpful,
      contact: null
    })
    for (let n = 0; n < e.down; n++) rows.push(entry(false, n))
    for (let n = 0; n < (e.up ?? 0); n++) rows.push(entry(true, n))
  })
  return rows
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** A ULID for a time and a serial: time-ordered, as the service's ids are. */
function ulidAt(ms: number, serial: number): string {
  let time = ''
  for (let t = ms, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time
  let rest = ''
  for (let s = serial, i = 0; i < 16; i++, s = Math.floor(s / 32)) rest = CROCKFORD[s % 32] + rest
  return time + rest
}

function conversationRows(days: QuestionDay[]): ConversationRow[] {
  const rows: ConversationRow[] = []
  days.forEach((e, d) => {
    for (let n = 0; n < e.times; n++) {
      const at = start(e.day) + 12 * 3_600_000 + n * 60_000
      rows.push({
        id: ulidAt(at, d * 1000 + n),
        timestamp: new Date(at).toISOString(),
        query: e.query,
        response: 'The assistant answered this.',
        sources: [],
        resolutionStatus: e.answered ? 'answered' : 'unanswered',
        queryCategory: null,
        pageUrl: e.pageUrl ?? null
      })
    }
  })
  return rows
}

/** Each day from `from` to `to` (exclusive), as YYYY-MM-DD. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = []
  for (let t = start(from); t < start(to); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

/**
 * The rename world: on RENAME_DAY a merge renamed `--follow` to `--watch`. Readers searched for
 * `--watch` six times a day and found nothing until the docs pull request merged on DOCS_DAY; then
 * they clicked. `--follow` had been found all along. A direct push on PUSH_DAY renamed the config key
 * `server.port` to `server.listenPort`, searched in vain from then on; the page `/cli/flags` got
 * thumbs-down from the rename on, and readers asked why `--follow` stopped working. "rate limit" and
 * "watch" were searched in vain throughout: ordinary words, which no change ties.
 */
export const RENAME_DAY = '2026-11-10'
export const PUSH_DAY = '2026-11-12'
export const DOCS_DAY = '2026-11-18'

export function renameWorld(): DatedEvents {
  const month = daysBetween('2026-10-25', '2026-11-24')
  const before = (day: string): boolean => day < RENAME_DAY
  const searches: SearchDay[] = month.flatMap(day => [
    { day, query: 'rate limit', hits: 3 },
    { day, query: 'watch', hits: 2 },
    before(day)
      ? { day, query: '--follow', hits: 4, clicks: 3, page: '/cli/flags' }
      : { day, query: '--follow', hits: 1, clicks: 1, page: '/cli/flags' },
    ...(before(day)
      ? []
      : day < DOCS_DAY
        ? [{ day, query: '--watch', hits: 6 }]
        : [{ day, query: '--watch', hits: 5, clicks: 4, page: '/cli/flags' }]),
    ...(day >= PUSH_DAY ? [{ day, query: 'server.listenPort', hits: 3 }] : [])
  ])
  const thumbs: ThumbsDay[] = month.flatMap(day => [
    { day, path: '/quickstart', down: 1, up: 2 },
    ...(before(day)
      ? [{ day, path: '/cli/flags', down: 0, up: 2 }]
      : [{ day, path: '/cli/flags', down: 1, comment: 'The flag on this page does not exist.' }])
  ])
  const questions: QuestionDay[] = [
    { day: '2026-11-11', query: 'Why does --follow no longer work?', times: 2 },
    { day: '2026-11-13', query: 'Why does --follow no longer work?', times: 1 },
    { day: '2026-11-02', query: 'Can I self-host the dashboard?', times: 2 },
    { day: '2026-11-14', query: 'Can I self-host the dashboard?', times: 1 }
  ]
  return { searches, thumbs, questions }
}
