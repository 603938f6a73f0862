import { PartialFile } from '../runner/atomic-file.js'
import type { VisitorCounts, VisitorRow } from '../mintlify/analytics.js'
import type { FileFormat } from './settings.js'

export interface ExportMeta {
  dateFrom: string | null
  dateTo: string | null
  exportedAt: string
  /** The first row exported: 0, or where an earlier run stopped. */
  offset: number
}

/** What is known only at the end: whether every row was exported, and where a later run goes on. */
export interface ExportEnd {
  complete: boolean
  nextOffset: number | null
}

/** Where exported rows go, page by page. */
export interface RowSink {
  begin(totals: VisitorCounts): Promise<void>
  rows(rows: readonly VisitorRow[]): Promise<void>
}

/**
 * Streams the export to a temporary file beside the target (see PartialFile) and renames it into
 * place only when `commit` is called, so a failed export never leaves a half-written file under
 * the real name and never writes through a planted link.
 */
export class ExportFile implements RowSink {
  private partial?: PartialFile
  private count = 0

  constructor(
    private readonly file: string,
    private readonly format: FileFormat,
    private readonly meta: ExportMeta
  ) {}

  async begin(totals: VisitorCounts): Promise<void> {
    this.partial = await PartialFile.open(this.file)
    if (this.format === 'csv') return this.write('path,human,ai,total\n')
    const head = JSON.stringify({ ...this.meta, totals }, null, 2).replace(/\n}$/, '')
    await this.write(`${head},\n  "visitors": [`)
  }

  async rows(rows: readonly VisitorRow[]): Promise<void> {
    if (rows.length === 0) return
    // One text per page, built as it goes: no array of lines to join, no object per row.
    let text = ''
    for (const r of rows) {
      text +=
        this.format === 'csv'
          ? `${csvField(r.path)},${r.human},${r.ai},${r.total}\n`
          : `${this.count === 0 ? '' : ','}\n    {"path":${JSON.stringify(r.path)},"human":${r.human},"ai":${r.ai},"total":${r.total}}`
      this.count++
    }
    await this.write(text)
  }

  /** Renames the file into place; a JSON file ends with `complete` and `nextOffset`. */
  async commit(end: ExportEnd): Promise<void> {
    if (!this.partial) throw new Error('commit before begin')
    if (this.format === 'json') {
      const tail = `"complete": ${end.complete},\n  "nextOffset": ${end.nextOffset}\n}\n`
      await this.write(`${this.count ? '\n  ]' : ']'},\n  ${tail}`)
    }
    await this.partial.commit()
    this.partial = undefined
  }

  /** Drops the temporary file; the target is left as it was. */
  async discard(): Promise<void> {
    await this.partial?.discard()
    this.partial = undefined
  }

  private async write(text: string): Promise<void> {
    await (this.partial as PartialFile).handle.write(text)
  }
}

/** Cells a spreadsheet would run as a formula begin with one of these (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/

/** One CSV field (RFC 4180), defused so that no spreadsheet reads it as a formula. */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text
}
