import { createHash } from 'node:crypto'

/**
 * Catches a service whose offset paging would not end, in memory that does not grow with the rows:
 *
 * - a row of the page before sent again (the same page again, pages that overlap): the paths of
 *   the last page are kept, nothing older;
 * - a page sent before, however far back (pages that alternate or cycle): each page is kept as a
 *   16-byte digest of its paths, so a million rows at 250 a page cost 4,000 digests (well under a
 *   mebibyte), and the request cap bounds how many pages there can be.
 *
 * A row repeated further back than the page before, in a page that is not itself a repeat, is not
 * caught: the request cap ends such paging.
 */
export class RepeatedRows {
  private previous = new Set<string>()
  /** Page digest → the offset it was first read at. */
  private readonly pages = new Map<string, number>()

  /** Why the page at `offset` repeats what was read before, or null; then remembers it. */
  check(offset: number, paths: readonly string[]): string | null {
    const again = paths.find(path => this.previous.has(path))
    if (again !== undefined)
      return `the service sent the row for ${quoted(again)} again at offset ${offset}`
    this.previous = new Set(paths)
    if (paths.length === 0) return null
    // As a JSON array, so no two lists of paths read the same.
    const digest = createHash('sha256')
      .update(JSON.stringify(paths))
      .digest()
      .subarray(0, 16)
      .toString('base64')
    const first = this.pages.get(digest)
    if (first !== undefined) {
      return `the service sent the page of offset ${first} again at offset ${offset} (from ${quoted(paths[0] as string)})`
    }
    this.pages.set(digest, offset)
    return null
  }
}

const quoted = (path: string): string => `'${path.slice(0, 200)}'`
