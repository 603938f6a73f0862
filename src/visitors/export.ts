import {
  type VisitorCounts,
  type VisitorRow,
  type VisitorsPage,
  getPerPathPage
} from '../mintlify/analytics.js'
import { RequestCap } from '../mintlify/request-cap.js'
import { RequestCapReachedError, RateLimitError } from '../mintlify/errors.js'
import type { ApiClient } from '../mintlify/client.js'
import { type Logger } from '../runner/logger.js'
import { ExplainedError } from '../runner/errors.js'
import { counted } from '../runner/text.js'
import type { SortKey } from './settings.js'
import type { RowSink } from './file.js'
import { RepeatedRows } from './repeats.js'
import { TopPages } from './top.js'

export interface ExportRequest {
  projectId: string
  dateFrom?: string
  dateTo?: string
  pageSize: number
  /** The first row to read: 0, or where an earlier run stopped. */
  offset: number
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
  /**
   * Where a later run continues when this one stopped before the last row (the request cap or the
   * rate limit ran out); null when it read to the end.
   */
  nextOffset: number | null
  /** Why it stopped before the last row; null when it did not. */
  stopped: string | null
}

/** Skipped rows named one by one in the log; the rest are counted. */
const NAMED_SKIPS = 5

/**
 * Paging stopped before the service said it was done: the export is known to be incomplete, so
 * the step fails and the earlier file stays as it was.
 */
export class IncompleteExportError extends ExplainedError {}

/**
 * Pages through the visitors from `request.offset` with `offset` += `limit` while `hasMore`, handing
 * each page to `sink`, within `maxRequests`. When the request cap or the rate limit runs out after rows
 * were read, it stops there and says where a later run continues (`nextOffset`): the rows read are
 * kept, so a site larger than one hour's analytics requests is exported in parts. A page that repeats what was read before (a row of the page before, or a
 * whole page from further back: see RepeatedRows) means the service's paging cannot be trusted to
 * end. Memory does not grow with the rows: each page is written and let go.
 */
export async function exportVisitors(
  client: ApiClient,
  request: ExportRequest,
  sink: RowSink,
  log: Logger
): Promise<ExportResult> {
  const top = new TopPages(request.top, request.sortBy)
  const repeats = new RepeatedRows()
  let totals: VisitorCounts | undefined
  let rows = 0
  let skipped = 0
  let firstSkipped: string | null = null
  const cap = new RequestCap(request.maxRequests)
  const result = (nextOffset: number | null, stopped: string | null): ExportResult => ({
    totals: totals as VisitorCounts,
    rows,
    requests: cap.used,
    top: top.list(),
    skipped,
    firstSkipped,
    nextOffset,
    stopped
  })
  for (let offset = request.offset; ; offset += request.pageSize) {
    let page: VisitorsPage
    try {
      page = await getPerPathPage(
        client,
        request.projectId,
        'visitors',
        { dateFrom: request.dateFrom, dateTo: request.dateTo, limit: request.pageSize, offset },
        request.deadline,
        cap
      )
    } catch (error) {
      const why =
        error instanceof RequestCapReachedError
          ? overCap(request.maxRequests, error.message)
          : error instanceof RateLimitError
            ? lowerFirst(error.message.replace(/\.\s.*$/s, ''))
            : undefined
      if (why === undefined) throw error
      // Nothing read yet: there is nothing to keep, and the step fails saying why.
      if (!totals) {
        if (error instanceof RateLimitError) throw error
        throw incomplete(why, rows, cap.used)
      }
      return result(offset, why)
    }
    const requests = cap.used
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
    const repeated = repeats.check(
      offset,
      page.visitors.map(row => row.path)
    )
    if (repeated) throw incomplete(repeated, rows, requests)
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
    if (cap.left <= 0) {
      return result(
        offset + request.pageSize,
        overCap(request.maxRequests, 'the service still said there was more')
      )
    }
    if (requests % 20 === 0) log.info(`Read ${rows} rows in ${requests} requests…`)
  }
  return result(null, null)
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1)

const overCap = (max: number, why: string): string =>
  `'max-requests' (${max}, retries included) was reached and ${why}`

function incomplete(why: string, rows: number, requests: number): IncompleteExportError {
  return new IncompleteExportError(
    `The export is incomplete: ${why}. ${counted(rows, 'row')} ${rows === 1 ? 'was' : 'were'} read in ${counted(requests, 'request')}.`
  )
}
