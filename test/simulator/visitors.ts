/** One row of `GET /v1/analytics/{projectId}/visitors`. */
export interface VisitorRow {
  path: string
  human: number
  ai: number
  total: number
}

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/

const SECTIONS = ['guides', 'api-reference', 'integrations', 'sdks', 'concepts', 'changelog']
const WORDS = ['deploy', 'configure', 'webhooks', 'authentication', 'custom', 'domains', 'python']

/**
 * Row `i` of a generated site: deterministic, so tests can recompute it. Paths are short
 * (`/docs/page-1`) unless `pathChars` asks for paths of that many characters, as real sites have
 * (`/guides/configure-webhooks/custom-d-12345`), each still unique.
 */
export function generatedRow(i: number, pathChars = 0): VisitorRow {
  const human = 10 + ((i * 7919) % 5000)
  const ai = (i * 104_729) % 3000
  return {
    path: pathChars ? realisticPath(i, pathChars) : `/docs/page-${i + 1}`,
    human,
    ai,
    total: human + ai - Math.floor(Math.min(human, ai) / 10)
  }
}

function realisticPath(i: number, chars: number): string {
  const unique = `-${i + 1}`
  const words = `/${SECTIONS[i % SECTIONS.length]}/${WORDS[(i * 3) % WORDS.length]}-${WORDS[(i * 5 + 1) % WORDS.length]}/${WORDS[(i * 7 + 2) % WORDS.length]}-page-reference-and-examples`
  return words.slice(0, Math.max(1, chars - unique.length)) + unique
}

/** How the simulator pages the visitors: normally, or one of the paging faults of server.ts. */
export type VisitorsPaging =
  | 'stuck-has-more'
  | 'empty-has-more'
  | 'alternating-has-more'
  | 'cycling-has-more'
  | 'overlapping-pages'

const totalsCache = new Map<number, VisitorRow>()

/** The generated site's size, or its rows as given. */
export type VisitorsData = VisitorRow[] | number

function siteTotals(rows: VisitorsData): Omit<VisitorRow, 'path'> {
  const count = typeof rows === 'number' ? rows : rows.length
  const cached = typeof rows === 'number' ? totalsCache.get(count) : undefined
  if (cached) return cached
  const sum = { path: '', human: 0, ai: 0, total: 0 }
  for (let i = 0; i < count; i++) {
    const row = typeof rows === 'number' ? generatedRow(i) : (rows[i] as VisitorRow)
    sum.human += row.human
    sum.ai += row.ai
    sum.total += row.total
  }
  // Site-wide uniques are deduplicated across pages too: fewer than the sum of pages.
  const totals = {
    path: '',
    human: Math.ceil(sum.human * 0.8),
    ai: Math.ceil(sum.ai * 0.8),
    total: Math.ceil(sum.total * 0.75)
  }
  if (typeof rows === 'number') totalsCache.set(count, totals)
  return totals
}

/** Answers one page request as the analytics document specifies, with an optional paging fault. */
export function visitorsPage(
  query: Record<string, string>,
  rows: VisitorsData,
  fault?: VisitorsPaging,
  pathChars = 0
): { status: number; body: unknown } {
  const problems: { message: string }[] = []
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = query[name]
    if (raw === undefined) return fallback
    const value = Number(raw)
    if (!/^\d+$/.test(raw) || value < min || value > max)
      problems.push({ message: `${name} must be an integer from ${min} to ${max}` })
    return value
  }
  const limit = int('limit', 50, 1, 250)
  const offset = int('offset', 0, 0, Number.MAX_SAFE_INTEGER)
  for (const name of ['dateFrom', 'dateTo']) {
    const raw = query[name]
    if (raw !== undefined && (!DATE.test(raw) || Number.isNaN(Date.parse(raw)))) {
      problems.push({ message: `${name} must be a date in ISO 8601 or YYYY-MM-DD format` })
    }
  }
  if (problems.length)
    return { status: 400, body: { error: 'Invalid query parameters', details: problems } }

  const count = typeof rows === 'number' ? rows : rows.length
  const { path: _path, ...totals } = siteTotals(rows) as VisitorRow
  if (fault === 'empty-has-more')
    return { status: 200, body: { totals, visitors: [], hasMore: true } }
  // alternating-has-more: pages A, B, A, B… (offsets 0 and limit); cycling-has-more: A, B, C, A…;
  // both always saying there is more. overlapping-pages: each page after the first starts one row
  // early, so it repeats the last row of the page before.
  const cycle = fault === 'alternating-has-more' ? 2 : fault === 'cycling-has-more' ? 3 : 0
  const start =
    fault === 'stuck-has-more'
      ? 0
      : cycle
        ? (Math.floor(offset / limit) % cycle) * limit
        : fault === 'overlapping-pages' && offset > 0
          ? offset - 1
          : offset
  const end = Math.min(count, start + limit)
  const visitors: VisitorRow[] = []
  for (let i = start; i < end; i++)
    visitors.push(typeof rows === 'number' ? generatedRow(i, pathChars) : (rows[i] as VisitorRow))
  return {
    status: 200,
    body: {
      totals,
      visitors,
      hasMore: fault === 'stuck-has-more' || cycle > 0 || end < count
    }
  }
}
