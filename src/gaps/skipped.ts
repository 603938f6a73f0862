import type { SkippedRow } from '../mintlify/analytics-gaps.js'
import { counted } from '../runner/text.js'

/** Skipped rows named one by one in the log, per signal; the rest are counted. */
const NAMED = 5

/**
 * Rows of one signal that did not match the API document: each is skipped rather than failing the
 * answer, named in a warning (the first few), and counted, so the section says it is incomplete.
 */
export class SkippedRows {
  count = 0
  private first?: string

  constructor(
    private readonly signal: string,
    private readonly warn: (message: string) => void
  ) {}

  /** `where`: the page the rows came in ("search terms page 2"). */
  add(where: string, skipped: readonly SkippedRow[]): void {
    for (const { row, problem } of skipped) {
      this.count++
      const named = `${where}, row ${row}: ${problem}`
      this.first ??= named
      if (this.count <= NAMED)
        this.warn(`Skipped a row the service sent that does not match its API document (${named}).`)
      else if (this.count === NAMED + 1)
        this.warn(`More ${this.signal} rows were skipped; the report counts them.`)
    }
  }

  /** Why the section is incomplete because of skipped rows, or null. */
  get reason(): string | null {
    if (!this.count) return null
    return `${counted(this.count, 'row')} that did not match the API document ${this.count === 1 ? 'was' : 'were'} skipped (first: ${this.first})`
  }
}

/** The reasons a section is incomplete, in one text, or null when there are none. */
export const joinReasons = (...reasons: (string | null | undefined)[]): string | null =>
  reasons.filter(Boolean).join('; ') || null
