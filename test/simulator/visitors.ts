/** One row of `GET /v1/analytics/{projectId}/visitors`. */
export interface VisitorRow {
  path: string
  human: number
  ai: number
  total: number
}

const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/

/** Row `i` of a generated site of `count` pages: deterministic, so tests can recompute it. */
export function generatedRow(i: number): VisitorRow {
  const human = 10 + ((i * 7919) % 5000)
  const ai = (i * 104_729) % 3000
  return {
    path: `/docs/page-${i + 1}`,
    human,
    ai,
    total: human + ai - Math.floor(Math.min(human, ai) / 10)
  }
}

const totalsCache = new Map<number, VisitorRow>()

function siteTotals(rows: VisitorRow[] | number): Omit<VisitorRow, 'path'> {
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
  rows: VisitorRow[] | number,
  fault?: string
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
  // alternating-has-more: pages A, B, A, B… (offsets 0 and limit), always saying there is more.
  const start =
    fault === 'stuck-has-more'
      ? 0
      : fault === 'alternating-has-more'
        ? (Math.floor(offset / limit) % 2) * limit
        : offset
  const end = Math.min(count, start + limit)
  const visitors: VisitorRow[] = []
  for (let i = start; i < end; i++)
    visitors.push(typeof rows === 'number' ? generatedRow(i) : (rows[i] as VisitorRow))
  return {
    status: 200,
    body: {
      totals,
      visitors,
      hasMore: fault === 'stuck-has-more' || fault === 'alternating-has-more' || end < count
    }
  }
}
