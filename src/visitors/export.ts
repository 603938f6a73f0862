import {
  type VisitorCounts,
  type VisitorRow,
  type VisitorsPage,
  getVisitorsPage
} from '../mintlify/analytics.js'
import { RequestBudget } from '../mintlify/budget.js'
import { BudgetExhaustedError } from '../mintlify/errors.js'
import type { ApiClient } from '../mintlify/client.js'
import { type Logger } from '../runner/logger.js'
import { ExplainedError } from '../runner/errors.js'
import { counted } from '../runner/text.js'
import type { SortKey } from './settings.js'
import type { RowSink } from './file.js'
import { TopPages } from './top.js'

export interface ExportRequest {
  projectId: string
  dateFrom?: string
  dateTo?: string
  pageSize: number
  top: number
  sortBy: SortKey
  /** Monotonic ms: no retry wait runs past it. */
  deadline: number
  /** Requests this run may make; the organisation's limit is 100 an hour, shared. */
  maxRequests: number
}

export interface ExportResult {
  totals: VisitorCounts
  rows: number
  requests: number
  top: VisitorRow[]
  /** Rows the service sent that did not match its API document: left out of the file. */
  skipped: number
  /** The first of them, by offset, row and field; null when none was skipped. */
  firstSkipped: string | null
}

/** Skipped rows named one by one in the log; the rest are counted. */
const NAMED_SKIPS = 5

/**
 * Paging stopped before the service said it was done: the export is known to be incomplete, so
 * the step fails and the earlier file stays as it was.
 */
export class IncompleteExportError extends ExplainedError {
  override name = 'IncompleteExportError'
}

/**
 * Pages through the visitors with `offset` += `limit` while `hasMore`, handing each page to `sink`,
 * within `maxRequests`. A page that repeats a path already exported (the same page again, or
 * pages that alternate) means the service's paging cannot be trusted to end.
 */
export async function exportVisitors(
  client: ApiClient,
  request: ExportRequest,
  sink: RowSink,
  log: Logger
): Promise<ExportResult> {
  const top = new TopPages(request.top, request.sortBy)
  const seen = new Set<string>()
  let totals: VisitorCounts | undefined
  let rows = 0
  let skipped = 0
  let firstSkipped: string | null = null
  const budget = new RequestBudget(request.maxRequests)
  for (let offset = 0; ; offset += request.pageSize) {
    let page: VisitorsPage
    try {
      page = await getVisitorsPage(
        client,
        request.projectId,
        { dateFrom: request.dateFrom, dateTo: request.dateTo, limit: request.pageSize, offset },
        request.deadline,
        budget
      )
    } catch (error) {
      if (!(error instanceof BudgetExhaustedError)) throw error
      throw incomplete(overBudget(request.maxRequests, error.message), rows, budget.used)
    }
    const requests = budget.used
    if (!totals) {
      totals = page.totals
      await sink.begin(totals)
    }
    for (const { row, problem } of page.skipped) {
      const named = `the row at offset ${offset + row - 1} (row ${row} of the page): ${problem}`
      firstSkipped ??= named
      if (++skipped <= NAMED_SKIPS)
        log.warning(
          `Skipped a visitors row the service sent that does not match its API document: ${named}.`
        )
      else if (skipped === NAMED_SKIPS + 1)
        log.warning('More visitors rows were skipped; the summary counts them.')
    }
    const repeated = page.visitors.find(row => seen.has(row.path))
    if (repeated) {
      throw incomplete(
        `the service sent the row for ${codeText(repeated.path)} again at offset ${offset}`,
        rows,
        requests
      )
    }
    for (const row of page.visitors) seen.add(row.path)
    await sink.rows(page.visitors)
    for (const row of page.visitors) top.add(row)
    rows += page.visitors.length
    if (!page.hasMore) break
    if (page.sent === 0) {
      throw incomplete(
        `the service sent an empty page at offset ${offset} but said there was more`,
        rows,
        requests
      )
    }
    if (budget.left <= 0) {
      throw incomplete(
        overBudget(request.maxRequests, 'the service still said there was more'),
        rows,
        requests
      )
    }
    if (requests % 20 === 0) log.info(`Read ${rows} rows in ${requests} requests…`)
  }
  return {
    totals: totals as VisitorCounts,
    rows,
    requests: budget.used,
    top: top.list(),
    skipped,
    firstSkipped
  }
}

const overBudget = (max: number, why: string): string =>
  `'max-requests' (${max}, retries included) was reached and ${why}; raise 'max-requests' or 'page-size' (the organisation may make 100 analytics requests an hour)`

const codeText = (path: string): string => `'${path.slice(0, 200)}'`

function incomplete(why: string, rows: number, requests: number): IncompleteExportError {
  return new IncompleteExportError(
    `The export is incomplete: ${why}. ${counted(rows, 'row')} ${rows === 1 ? 'was' : 'were'} read in ${counted(requests, 'request')}.`
  )
}
