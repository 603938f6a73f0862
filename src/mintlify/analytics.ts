import type { RequestBudget } from './budget.js'
import { isWholeCount } from './answer-checks.js'
import type { ApiClient } from './client.js'
import { ApiError, projectNotFound } from './errors.js'

export interface VisitorCounts {
  human: number
  ai: number
  /** Deduplicated across human and AI: not the sum. */
  total: number
}

export interface VisitorRow extends VisitorCounts {
  path: string
}

export interface VisitorsPage {
  totals: VisitorCounts
  visitors: VisitorRow[]
  hasMore: boolean
}

export interface VisitorsQuery {
  dateFrom?: string
  dateTo?: string
  limit: number
  offset: number
}

export async function getVisitorsPage(
  client: ApiClient,
  projectId: string,
  query: VisitorsQuery,
  deadline: number,
  /** Every attempt, retries included, draws on it. */
  budget?: RequestBudget
): Promise<VisitorsPage> {
  const body = await client.send<unknown>({
    method: 'GET',
    path: ['v1', 'analytics', projectId, 'visitors'],
    query: { ...query },
    what: `read unique visitors (offset ${query.offset})`,
    write: false,
    deadline,
    budget,
    notFound: projectNotFound(projectId)
  })
  return asVisitorsPage(body)
}

const isCounts = (v: unknown): v is VisitorCounts =>
  !!v &&
  typeof v === 'object' &&
  isWholeCount((v as VisitorCounts).human) &&
  isWholeCount((v as VisitorCounts).ai) &&
  isWholeCount((v as VisitorCounts).total)

function asVisitorsPage(body: unknown): VisitorsPage {
  const page = body as Partial<VisitorsPage> | null
  if (
    !page ||
    !isCounts(page.totals) ||
    !Array.isArray(page.visitors) ||
    typeof page.hasMore !== 'boolean' ||
    !page.visitors.every(row => isCounts(row) && typeof (row as VisitorRow).path === 'string')
  ) {
    throw new ApiError(
      'The service answered the visitors request with something that is not a visitors page.'
    )
  }
  return page as VisitorsPage
}
