import { type VisitorCounts, type VisitorRow, getVisitorsPage } from '../mintlify/analytics.js'
import type { ApiClient } from '../mintlify/client.js'
import type { Logger } from '../action/clock.js'
import type { SortKey } from './formats.js'
import type { RowSink } from './file.js'
import { TopPages } from './top.js'

export interface ExportRequest {
  projectId: string
  dateFrom?: string
  dateTo?: string
  pageSize: number
  top: number
  sortBy: SortKey
  /** Epoch ms: no retry wait runs past it. */
  deadline: number
}

export interface ExportResult {
  totals: VisitorCounts
  rows: number
  requests: number
  top: VisitorRow[]
  /** Why paging stopped early, when the service's answers could not be trusted to end. */
  stoppedEarly?: string
}

/** A sanity cap: 10,000 pages is 2.5 million rows at the largest page size. */
export const MAX_PAGES = 10_000

/** Pages through the visitors with `offset` += `limit` while `hasMore`, handing each page to `sink`. */
export async function exportVisitors(
  client: ApiClient,
  request: ExportRequest,
  sink: RowSink,
  log: Logger
): Promise<ExportResult> {
  const top = new TopPages(request.top, request.sortBy)
  let totals: VisitorCounts | undefined
  let rows = 0
  let requests = 0
  let previous: string | undefined
  let stoppedEarly: string | undefined
  for (let offset = 0; ; offset += request.pageSize) {
    const page = await getVisitorsPage(
      client,
      request.projectId,
      { dateFrom: request.dateFrom, dateTo: request.dateTo, limit: request.pageSize, offset },
      request.deadline
    )
    requests++
    if (!totals) {
      totals = page.totals
      await sink.begin(totals)
    }
    const signature = page.visitors.length ? page.visitors.map(r => r.path).join('\n') : undefined
    if (signature !== undefined && signature === previous) {
      stoppedEarly = `the service sent the same page again at offset ${offset}`
      break
    }
    previous = signature
    await sink.rows(page.visitors)
    for (const row of page.visitors) top.add(row)
    rows += page.visitors.length
    if (!page.hasMore) break
    if (page.visitors.length === 0) {
      stoppedEarly = `the service sent an empty page at offset ${offset} but said there was more`
      break
    }
    if (requests >= MAX_PAGES) {
      stoppedEarly = `${MAX_PAGES} pages were read and the service still said there was more`
      break
    }
    if (requests % 20 === 0) log.info(`Read ${rows} rows in ${requests} requests…`)
  }
  if (stoppedEarly) {
    log.warning(
      `Stopped paging: ${stoppedEarly}. The export holds the ${rows} rows read before that.`
    )
  }
  return { totals: totals as VisitorCounts, rows, requests, top: top.list(), stoppedEarly }
}
