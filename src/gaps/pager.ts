/**
 * Follows the service's cursors from page to page for one signal, and stops where the paging would
 * not end: an empty page that still offers more, or a cursor sent before (A, B, A…).
 */
export class CursorPager {
  /** The cursor of the next page to read; none for the first. */
  cursor?: string
  /** Why paging stopped before the service said it was done, or null. */
  stoppedEarly: string | null = null
  private readonly followed = new Set<string>()

  /** `what`: the rows, as the messages name them ("search terms"). */
  constructor(private readonly what: string) {}

  /** Takes in a page's paging fields; true when the next page should be read. */
  advance(page: { rows: number; nextCursor: string | null; hasMore?: boolean }): boolean {
    const next = page.nextCursor
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
