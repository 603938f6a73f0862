import { createHash } from 'node:crypto'

/**
 * Follows the service's cursors from page to page for one signal, and stops where the paging would
 * not end: an empty page that still offers more, a cursor sent before (A, B, A…), or a page of rows
 * all read before (a service that ignores the cursor). Rows are checked against those read before
 * *before* anything counts them (see `fresh`), so no row is counted twice, however the pages
 * overlap. What it remembers per row is a fixed-size digest, so its memory grows with the rows the
 * request cap lets in, never with what a row holds.
 */
export class CursorPager {
  /** The cursor of the next page to read; none for the first. */
  cursor?: string
  /** Why paging stopped before the service said it was done, or null. */
  stoppedEarly: string | null = null
  private readonly followed = new Set<string>()
  private readonly seen = new Set<string>()
  private repeatedPage = false

  /** `what`: the rows, as the messages name them ("search terms"). */
  constructor(private readonly what: string) {}

  /** The rows of a page not read before (by `key`: an id, a term), in order; call before counting. */
  fresh<T>(rows: readonly T[], key: (row: T) => string): T[] {
    const fresh = rows.filter(row => {
      const digest = createHash('sha256').update(key(row)).digest('base64')
      if (this.seen.has(digest)) return false
      this.seen.add(digest)
      return true
    })
    if (rows.length > 0 && fresh.length === 0) this.repeatedPage = true
    return fresh
  }

  /** Takes in a page's paging fields; true when the next page should be read. */
  advance(page: { rows: number; nextCursor: string | null; hasMore?: boolean }): boolean {
    const next = page.nextCursor
    if (this.repeatedPage) {
      this.stoppedEarly = `the service sent a page of ${this.what} it had sent before (it may ignore the cursor)`
      return false
    }
    if (!next || page.hasMore === false) return false
    if (page.rows === 0) {
      this.stoppedEarly = `the service sent an empty page of ${this.what} but said there were more`
      return false
    }
    if (this.followed.has(next)) {
      this.stoppedEarly = `the service sent a ${this.what} cursor it had sent before`
      return false
    }
    this.followed.add(next)
    this.cursor = next
    return true
  }
}
