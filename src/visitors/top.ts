import type { VisitorRow } from '../mintlify/analytics.js'
import type { SortKey } from './settings.js'

/** The `size` best rows by `key` seen so far; memory stays at `size` rows however many pass by. */
export class TopPages {
  private readonly rows: VisitorRow[] = []

  constructor(
    private readonly size: number,
    private readonly key: SortKey
  ) {}

  add(row: VisitorRow): void {
    const rows = this.rows
    if (rows.length === this.size && !this.before(row, rows[rows.length - 1] as VisitorRow)) return
    let at = rows.length
    while (at > 0 && this.before(row, rows[at - 1] as VisitorRow)) at--
    rows.splice(at, 0, row)
    if (rows.length > this.size) rows.pop()
  }

  list(): VisitorRow[] {
    return [...this.rows]
  }

  /** Higher counts first; ties by path, so the order never depends on the page order. */
  private before(a: VisitorRow, b: VisitorRow): boolean {
    return a[this.key] !== b[this.key] ? a[this.key] > b[this.key] : a.path < b.path
  }
}
