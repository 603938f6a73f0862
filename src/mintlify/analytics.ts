import type { RequestCap } from './request-cap.js'
import { type Shape, isBoolean, isCount, isString, pick, problemIn } from './answer-checks.js'
import type { SkippedRow } from './analytics-gaps.js'
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
  /** The rows that match the document; the others are in `skipped`. */
  visitors: VisitorRow[]
  hasMore: boolean
  /** Rows the service sent that do not match the document, left out. */
  skipped: SkippedRow[]
  /** Rows sent, skipped ones included. */
  sent: number
}

export interface VisitorsQuery {
  dateFrom?: string
  dateTo?: string
  limit: number
  offset: number
}

/**
 * One page of a per-path count, checked against the document: `visitors` (unique visitors), or
 * `views` (content views, human and AI apart: the same page, its counts events rather than people).
 */
export async function getPerPathPage(
  client: ApiClient,
  projectId: string,
  what: 'visitors' | 'views',
  query: VisitorsQuery,
  deadline: number,
  /** Every attempt, retries included, draws on it. */
  cap?: RequestCap
): Promise<VisitorsPage> {
  const body = await client.send<unknown>({
    method: 'GET',
    path: ['v1', 'analytics', projectId, what],
    query: { ...query },
    what: `read ${what === 'views' ? 'page views' : 'unique visitors'} (offset ${query.offset})`,
    write: false,
    deadline,
    cap,
    notFound: projectNotFound(projectId)
  })
  if (what === 'visitors') return asVisitorsPage(body, 'visitors')
  // Checked as a visitors page: the views' list stands where the visitors' does.
  const page = body as { views?: unknown } | null
  const { views, ...rest } = page && typeof page === 'object' ? page : { views: undefined }
  return asVisitorsPage({ ...rest, visitors: views }, 'views')
}

/** Counts are numbers in the document (approximate distinct visitors), never negative. */
const COUNTS: Shape = { human: isCount, ai: isCount, total: isCount }
const ROW: Shape = { path: isString, ...COUNTS }

/**
 * The page's own fields must match the document (or the answer is unusable, naming the field); a
 * row that does not is skipped and listed by its place and field, not the whole page.
 */
function asVisitorsPage(body: unknown, list = 'visitors'): VisitorsPage {
  const totals = (body as { totals?: unknown } | null)?.totals
  const totalsProblem = problemIn(totals, COUNTS)
  const problem =
    problemIn(body, { totals: () => true, visitors: Array.isArray, hasMore: isBoolean }) ??
    (totalsProblem === 'not an object'
      ? "'totals' is not an object"
      : totalsProblem?.replace(/^'/, "'totals."))
  if (problem) {
    throw new ApiError(
      `The service's answer to the ${list} request is not what its API document describes (${problem.replace("'visitors'", `'${list}'`)}).`
    )
  }
  const page = body as { totals: unknown; visitors: unknown[]; hasMore: boolean }
  const visitors: VisitorRow[] = []
  const skipped: SkippedRow[] = []
  page.visitors.forEach((row, i) => {
    const rowProblem = problemIn(row, ROW)
    if (rowProblem) skipped.push({ row: i + 1, problem: rowProblem })
    else visitors.push(pick<VisitorRow>(row, ROW))
  })
  return {
    totals: pick<VisitorCounts>(page.totals, COUNTS),
    visitors,
    hasMore: page.hasMore,
    skipped,
    sent: page.visitors.length
  }
}
